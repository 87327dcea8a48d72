import type { MemoryEvent } from '@pagelens/core';
import { callEndSeq, lastAtOrBefore, lastIndexAtOrBefore } from '../log/effects.ts';
import { droppedCalls, type SeenHistory } from '../log/history-shift.ts';

/** Where the cursor stands: following the live state, or fixed at a seq. */
export type CursorTarget = 'live' | number;

/**
 * For every call, the seq right after it took effect (its last effect's seq): the stops of a
 * call-by-call walk through history. Kept incrementally: new calls cost their own events, and the
 * newest call is looked at again in case its effects arrived in a later batch. When the timeline
 * folds its oldest events away (new arrays, same events) the ends held shift instead of being
 * recomputed (an end is a seq, so it does not move).
 */
export class CallEnds {
  #seen: SeenHistory = { events: [], calls: [] };
  #ends: number[] = [];

  /** True when `events` is this cache's history or continues it after a fold (so `update` keeps what it has). */
  continuedBy(events: readonly MemoryEvent[], calls: readonly number[]): boolean {
    return events === this.#seen.events || droppedCalls(this.#seen, { events, calls }, this.#ends.length) !== undefined;
  }

  update(events: readonly MemoryEvent[], calls: readonly number[]): readonly number[] {
    const dropped = events === this.#seen.events ? 0 : droppedCalls(this.#seen, { events, calls }, this.#ends.length);
    if (dropped === undefined || calls.length < this.#ends.length - dropped) this.#ends = [];
    else if (dropped > 0) this.#ends = this.#ends.slice(dropped);
    this.#seen = { events, calls };
    const from = Math.max(0, this.#ends.length - 1);
    for (let position = from; position < calls.length; position += 1) {
      this.#ends[position] = callEndSeq(events, calls[position] ?? -1);
    }
    return this.#ends;
  }
}

/** Position (into the calls) of the last call complete at `seq`, or -1. */
export function callAtSeq(ends: readonly number[], seq: number): number {
  return lastAtOrBefore(ends, seq);
}

export interface Span {
  readonly firstSeq: number;
  readonly lastSeq: number;
}

function clampTarget(seq: number, span: Span): CursorTarget {
  return seq >= span.lastSeq ? 'live' : Math.max(span.firstSeq, seq);
}

/**
 * One call back or forward from `current`: forward lands right after the next call's effects,
 * back right after the previous call's (the state before the call at the cursor). Before the
 * first call is the start of the held history; past the last is live.
 */
export function stepCall(ends: readonly number[], current: number, direction: 1 | -1, span: Span): CursorTarget {
  if (direction === 1) {
    const next = ends[callAtSeq(ends, current) + 1];
    return next === undefined ? 'live' : clampTarget(next, span);
  }
  // The last call that completed strictly before `current`.
  const previous = ends[callAtSeq(ends, current - 1)];
  return previous === undefined ? span.firstSeq : clampTarget(previous, span);
}

/** One event back or forward (any kind: a call, an allocation, a map…). */
export function stepEvent(events: readonly { readonly seq: number }[], current: number, direction: 1 | -1, span: Span): CursorTarget {
  const at = lastIndexAtOrBefore(events, current);
  if (direction === 1) {
    const next = events[at + 1];
    return next === undefined ? 'live' : clampTarget(next.seq, span);
  }
  const previous = events[(events[at]?.seq === current ? at : at + 1) - 1];
  return previous === undefined ? span.firstSeq : clampTarget(previous.seq, span);
}

/**
 * Where play goes next: from live it starts over at the first call; otherwise one call forward.
 * `done` once it has reached live (the player then stops).
 */
export function playStep(ends: readonly number[], cursor: CursorTarget, span: Span): { target: CursorTarget; done: boolean } {
  if (cursor === 'live') {
    const first = ends[0];
    if (first === undefined || first >= span.lastSeq) return { target: 'live', done: true };
    return { target: clampTarget(first, span), done: false };
  }
  const target = stepCall(ends, cursor, 1, span);
  return { target, done: target === 'live' };
}

const shared = new WeakMap<readonly MemoryEvent[], CallEnds>();
/** The cache used last: a timeline past its history limit hands out new arrays that continue it. */
let recent: CallEnds | undefined;

/** The call stops of a history, shared by every view that walks it (one cache per history). */
export function callEndsOf(events: readonly MemoryEvent[], calls: readonly number[]): readonly number[] {
  let ends = shared.get(events);
  if (ends === undefined) {
    ends = recent?.continuedBy(events, calls) === true ? recent : new CallEnds();
    shared.set(events, ends);
  }
  recent = ends;
  return ends.update(events, calls);
}
