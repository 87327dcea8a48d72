import type { HostState, MemoryEvent, Snapshot } from '@pagelens/core';
import type { StateCreator } from 'zustand';
import { Timeline } from '../model/timeline.ts';

/** Where the time cursor stands: following the live state, or fixed at a seq. */
export type Cursor = 'live' | number;

export interface ReplicaSlice {
  /** The client's replica of the host with its history. Mutable; `version` changes whenever it does. */
  timeline: Timeline | undefined;
  version: number;
  cursor: Cursor;
  playing: boolean;
  /** Two points in time to compare, as seqs. */
  compare: { readonly from: number; readonly to: number } | undefined;
  applySnapshot(snapshot: Snapshot, reset: boolean): void;
  applyEvents(events: readonly MemoryEvent[]): void;
  setCursor(cursor: Cursor): void;
  setPlaying(playing: boolean): void;
  setCompare(compare: { from: number; to: number } | undefined): void;
}

export const createReplicaSlice: StateCreator<ReplicaSlice, [], [], ReplicaSlice> = (set, get) => ({
  timeline: undefined,
  version: 0,
  cursor: 'live',
  playing: false,
  compare: undefined,
  applySnapshot: (snapshot, reset) => {
    const current = get().timeline;
    if (current === undefined) {
      set({ timeline: new Timeline(snapshot), version: get().version + 1, cursor: 'live', compare: undefined });
      return;
    }
    // A resync keeps the cursor if it still points into the held history; a reset starts over.
    current.reset(snapshot);
    set({ version: get().version + 1, ...(reset ? { cursor: 'live' as const, compare: undefined, playing: false } : {}) });
  },
  applyEvents: (events) => {
    const timeline = get().timeline;
    if (timeline === undefined) return;
    if (timeline.append(events) > 0) set({ version: get().version + 1 });
  },
  setCursor: (cursor) => {
    const timeline = get().timeline;
    if (timeline === undefined || cursor === 'live' || cursor >= timeline.lastSeq) set({ cursor: 'live' });
    else set({ cursor: Math.max(timeline.firstSeq, Math.round(cursor)) });
  },
  setPlaying: (playing) => set({ playing }),
  setCompare: (compare) => set({ compare }),
});

export const selectTimeline = (state: ReplicaSlice): Timeline | undefined => state.timeline;
export const selectVersion = (state: ReplicaSlice): number => state.version;
export const selectCursor = (state: ReplicaSlice): Cursor => state.cursor;

/** The seq the views show. */
export function cursorSeq(state: ReplicaSlice): number {
  const timeline = state.timeline;
  if (timeline === undefined) return 0;
  return state.cursor === 'live' ? timeline.lastSeq : state.cursor;
}

/** The host state at the cursor (the live state object when following live). Never mutate it. */
export function cursorState(state: ReplicaSlice): HostState | undefined {
  const timeline = state.timeline;
  if (timeline === undefined) return undefined;
  return state.cursor === 'live' ? timeline.live : timeline.stateAt(state.cursor);
}
