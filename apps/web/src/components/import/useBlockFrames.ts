import { type FramesOf, NO_STACK, stackFrames } from '@pagelens/core';
import { useMemo } from 'react';
import { useAppStore } from '../../store/useAppStore.ts';

/** A block's frames from the interned stack table the worker sent (formats/stack-table.ts). */
export function useBlockFrames(): FramesOf {
  const stacks = useAppStore((state) => state.importedStacks);
  return useMemo<FramesOf>(() => {
    if (stacks === undefined) return () => [];
    return (block) => {
      const id = stacks.stackOf(block);
      return id === NO_STACK ? [] : stackFrames(stacks.table, id);
    };
  }, [stacks]);
}
