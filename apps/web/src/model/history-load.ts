import type { MemoryEvent, Snapshot } from '@pagelens/core';
import { type HistoryLimits, Timeline } from './timeline.ts';

/** What the agent announced in its `history` message. */
export interface HistoryAnnounce {
  readonly from: number;
  readonly to: number;
  readonly events: number;
  readonly callsBefore: number;
}

/** How far the history has come, for the time bar. */
export interface HistoryProgress {
  readonly total: number;
  readonly received: number;
  readonly callsBefore: number;
}

/** The outcome of trying to put the history in front of the live timeline. */
export type Adoption =
  /** The history is not all here yet, or the live timeline has not reached its end yet. */
  | { readonly kind: 'wait' }
  /** The timeline to use now: base, history, then the live events received meanwhile. */
  | { readonly kind: 'adopted'; readonly timeline: Timeline }
  /** The live timeline no longer continues the history (it was resynced past it, or folded): give up. */
  | { readonly kind: 'gap' };

/**
 * A late joiner's history as it arrives: the base snapshot, then pages applied as they come (so the
 * cost is spread over the pages, one reduce per event as for the live stream), into a timeline of
 * its own. The live timeline goes on meanwhile; once the history reaches its end, the live events
 * after it are appended and that timeline replaces the live one: the same events, seqs and calls a
 * client that was there all along holds.
 */
export class HistoryLoad {
  readonly announce: HistoryAnnounce;
  readonly #limits: HistoryLimits | undefined;
  #timeline: Timeline | undefined;
  #received = 0;

  constructor(announce: HistoryAnnounce, limits?: HistoryLimits) {
    this.announce = announce;
    this.#limits = limits;
  }

  get progress(): HistoryProgress {
    return { total: this.announce.events, received: this.#received, callsBefore: this.announce.callsBefore };
  }

  /** The base state; false when it is not the one announced (the agent then starts over with a new announcement). */
  base(seq: number, snapshot: Snapshot): boolean {
    if (seq !== this.announce.from || this.#timeline !== undefined) return false;
    this.#timeline = new Timeline(snapshot, this.#limits);
    this.#timeline.callsBefore = this.announce.callsBefore;
    return true;
  }

  /** One page; false when it does not continue what came before (then the load is abandoned). */
  page(from: number, events: readonly MemoryEvent[]): boolean {
    const timeline = this.#timeline;
    if (timeline === undefined || from !== timeline.lastSeq + 1) return false;
    this.#received += timeline.append(events);
    return true;
  }

  get complete(): boolean {
    return this.#timeline !== undefined && this.#timeline.lastSeq >= this.announce.to;
  }

  /** Puts the history in front of `live` when both are ready. */
  adopt(live: Timeline): Adoption {
    const timeline = this.#timeline;
    if (timeline === undefined || !this.complete) return { kind: 'wait' };
    if (live.firstSeq > timeline.lastSeq) return { kind: 'gap' };
    if (live.lastSeq < timeline.lastSeq) return { kind: 'wait' };
    timeline.append(live.events);
    return timeline.lastSeq === live.lastSeq ? { kind: 'adopted', timeline } : { kind: 'gap' };
  }
}
