import type { HostState, MemoryEvent, Snapshot } from '@pagelens/core';
import type { StateCreator } from 'zustand';
import { Timeline } from '../model/timeline.ts';

/** Where the time cursor stands: following the live state, or fixed at a seq. */
export type Cursor = 'live' | number;

/**
 * Runs `publish` soon: in the app at the next animation frame, so that however many event batches
 * arrive in a frame the views re-render once; in tests at once.
 */
export type PublishScheduler = (publish: () => void) => void;

export const publishNow: PublishScheduler = (publish) => publish();

export interface ReplicaSlice {
  /**
   * The client's replica of the host with its history. Mutable: it changes as soon as events arrive,
   * and `version` changes when the views are to show it (see PublishScheduler).
   */
  timeline: Timeline | undefined;
  version: number;
  cursor: Cursor;
  playing: boolean;
  /** Two points in time to compare, as seqs. */
  compare: { readonly from: number; readonly to: number } | undefined;
  /** How many times the host was reset under this page; what a form remembers of the old host goes stale with it. */
  hostResets: number;
  applySnapshot(snapshot: Snapshot, reset: boolean): void;
  /** Applies events to the replica now; the views hear of them at the next publish. */
  applyEvents(events: readonly MemoryEvent[]): void;
  /** The replica holds events the views have not been told about yet. */
  hasUnpublished(): boolean;
  setCursor(cursor: Cursor): void;
  setPlaying(playing: boolean): void;
  setCompare(compare: { from: number; to: number } | undefined): void;
}

export function createReplicaSlice(schedule: PublishScheduler = publishNow): StateCreator<ReplicaSlice, [], [], ReplicaSlice> {
  return (set, get) => {
    let scheduled = false;
    const publish = (): void => {
      scheduled = false;
      set({ version: get().version + 1 });
    };
    return {
      timeline: undefined,
      version: 0,
      cursor: 'live',
      playing: false,
      compare: undefined,
      hostResets: 0,
      applySnapshot: (snapshot, reset) => {
        const current = get().timeline;
        if (current === undefined) {
          set({ timeline: new Timeline(snapshot), version: get().version + 1, cursor: 'live', compare: undefined });
          return;
        }
        // A resync keeps the cursor if it still points into the held history; a reset starts over.
        current.reset(snapshot);
        set({
          version: get().version + 1,
          ...(reset ? { cursor: 'live' as const, compare: undefined, playing: false, hostResets: get().hostResets + 1 } : {}),
        });
      },
      applyEvents: (events) => {
        const timeline = get().timeline;
        if (timeline === undefined || timeline.append(events) === 0 || scheduled) return;
        scheduled = true;
        schedule(publish);
      },
      hasUnpublished: () => scheduled,
      setCursor: (cursor) => {
        const timeline = get().timeline;
        if (timeline === undefined || cursor === 'live' || cursor >= timeline.lastSeq) set({ cursor: 'live' });
        else set({ cursor: Math.max(timeline.firstSeq, Math.round(cursor)) });
      },
      setPlaying: (playing) => set({ playing }),
      setCompare: (compare) => set({ compare }),
    };
  };
}

export const selectTimeline = (state: ReplicaSlice): Timeline | undefined => state.timeline;
export const selectVersion = (state: ReplicaSlice): number => state.version;
export const selectCursor = (state: ReplicaSlice): Cursor => state.cursor;
export const selectHostResets = (state: ReplicaSlice): number => state.hostResets;

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
