import { type FramesOf, NO_STACK, stackFrames } from '@pagelens/core';
import { useMemo } from 'react';
import { useAppStore } from '../../store/useAppStore.ts';

/** A stack's frames, by its id, from the interned stack table the worker sent (formats/stack-table.ts). */
export function useBlockFrames(): FramesOf {
  const stacks = useAppStore((state) => state.importedStacks);
  return useMemo<FramesOf>(() => {
    if (stacks === undefined) return () => [];
    return (stack) => (stack === NO_STACK ? [] : stackFrames(stacks, stack));
  }, [stacks]);
}
