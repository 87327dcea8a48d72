import type { HostState, MemoryEvent, Snapshot } from '@pagelens/core';
import type { StateCreator } from 'zustand';
import { type HistoryAnnounce, HistoryLoad, type HistoryProgress } from '../model/history-load.ts';
import { type HistoryLimits, Timeline } from '../model/timeline.ts';

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
  /**
   * The session's history before this client's snapshot, while it arrives from the agent (undefined:
   * none is arriving). Once it is all here it becomes part of `timeline`.
   */
  history: HistoryProgress | undefined;
  applySnapshot(snapshot: Snapshot, reset: boolean): void;
  /** The agent's `history` message: what is coming (replaces any history still arriving). */
  beginHistory(announce: HistoryAnnounce): void;
  applyHistoryBase(seq: number, snapshot: Snapshot): void;
  applyHistoryPage(from: number, events: readonly MemoryEvent[]): void;
  /** Applies events to the replica now; the views hear of them at the next publish. */
  applyEvents(events: readonly MemoryEvent[]): void;
  /** The replica holds events the views have not been told about yet. */
  hasUnpublished(): boolean;
  setCursor(cursor: Cursor): void;
  setPlaying(playing: boolean): void;
  setCompare(compare: { from: number; to: number } | undefined): void;
}

export function createReplicaSlice(
  schedule: PublishScheduler = publishNow,
  limits?: HistoryLimits,
): StateCreator<ReplicaSlice, [], [], ReplicaSlice> {
  return (set, get) => {
    let scheduled = false;
    /** The history arriving, kept out of the state: it is mutable, and only its progress is shown. */
    let load: HistoryLoad | undefined;
    const publish = (): void => {
      scheduled = false;
      set({ version: get().version + 1 });
    };
    /** Puts the history in front of the live timeline once both are ready. */
    const adopt = (): void => {
      const live = get().timeline;
      if (load === undefined || live === undefined) return;
      const outcome = load.adopt(live);
      if (outcome.kind === 'wait') return;
      load = undefined;
      if (outcome.kind === 'gap') {
        set({ history: undefined });
        return;
      }
      const { cursor } = get();
      const timeline = outcome.timeline;
      set({
        timeline,
        history: undefined,
        version: get().version + 1,
        ...(cursor !== 'live' && cursor < timeline.firstSeq ? { cursor: timeline.firstSeq } : {}),
      });
    };
    return {
      timeline: undefined,
      version: 0,
      cursor: 'live',
      playing: false,
      compare: undefined,
      hostResets: 0,
      history: undefined,
      applySnapshot: (snapshot, reset) => {
        // Any history still arriving was for the replica this snapshot replaces; the agent announces anew.
        load = undefined;
        if (get().history !== undefined) set({ history: undefined });
        const current = get().timeline;
        if (current === undefined) {
          set({ timeline: new Timeline(snapshot, limits), version: get().version + 1, cursor: 'live', compare: undefined });
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
        if (timeline === undefined || timeline.append(events) === 0) return;
        if (load?.complete === true) adopt();
        if (scheduled) return;
        scheduled = true;
        schedule(publish);
      },
      beginHistory: (announce) => {
        const timeline = get().timeline;
        if (announce.events === 0) {
          // Nothing before the snapshot but what the cap folded away: the live timeline is the history.
          load = undefined;
          if (timeline !== undefined && timeline.firstSeq === announce.from) timeline.callsBefore = announce.callsBefore;
          set({ history: undefined, version: get().version + 1 });
          return;
        }
        load = new HistoryLoad(announce, limits);
        set({ history: load.progress });
      },
      applyHistoryBase: (seq, snapshot) => {
        if (load === undefined) return;
        if (!load.base(seq, snapshot)) {
          load = undefined;
          set({ history: undefined });
        }
      },
      applyHistoryPage: (from, events) => {
        if (load === undefined) return;
        if (!load.page(from, events)) {
          load = undefined;
          set({ history: undefined });
          return;
        }
        set({ history: load.progress });
        adopt();
      },
      hasUnpublished: () => scheduled,
      setCursor: (cursor) => {
        const timeline = get().timeline;
        const next =
          timeline === undefined || cursor === 'live' || cursor >= timeline.lastSeq
            ? 'live'
            : Math.max(timeline.firstSeq, Math.round(cursor));
        if (next !== get().cursor) set({ cursor: next });
      },
      // Every step of the time cursor stops play first: unchanged, that must not wake every subscriber.
      setPlaying: (playing) => {
        if (get().playing !== playing) set({ playing });
      },
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
