import type { HostState } from '@pagelens/core';
import { useMemo } from 'react';
import type { FormatPrefs } from '../model/format.ts';
import type { Timeline } from '../model/timeline.ts';
import { cursorSeq, cursorState } from './replica-slice.ts';
import { useAppStore } from './useAppStore.ts';

/**
 * The host state the views show (at the time cursor), re-read whenever the replica changes.
 * Components must treat it as read-only.
 */
export function useCursorState(): HostState | undefined {
  useAppStore((state) => state.version);
  useAppStore((state) => state.cursor);
  return useAppStore(cursorState);
}

export function useCursorSeq(): number {
  return useAppStore(cursorSeq);
}

export function useTimeline(): Timeline | undefined {
  useAppStore((state) => state.version);
  return useAppStore((state) => state.timeline);
}

/** The unit and address preferences, as one object that changes only when one of them does. */
export function useFormat(): FormatPrefs {
  const units = useAppStore((state) => state.units);
  const addresses = useAppStore((state) => state.addresses);
  return useMemo(() => ({ units, addresses }), [units, addresses]);
}
