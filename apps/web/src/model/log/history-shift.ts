import type { MemoryEvent } from '@pagelens/core';
import { indexOfSeq, lastAtOrBefore } from './effects.ts';

/** A history as an incremental cache last saw it: the timeline's `events` and `calls` arrays. */
export interface SeenHistory {
  readonly events: readonly MemoryEvent[];
  readonly calls: readonly number[];
}

/**
 * How many calls the timeline folded away from the front between two looks at its history, when
 * `next` continues `seen` (the same event objects, minus some at the front, plus new ones at the
 * end: what `Timeline` does past its history limit, handing out new arrays). Undefined when `next`
 * is some other history (a reset, another host): a cache must then start over.
 *
 * `scanned` is how many of `seen.calls` the cache had looked at; every one of them still held must
 * be in `next` at its position minus the returned count (checked at the last one, since a fold only
 * drops a prefix).
 */
export function droppedCalls(seen: SeenHistory, next: SeenHistory, scanned: number): number | undefined {
  const first = next.events[0];
  if (first === undefined) return undefined;
  const droppedEvents = indexOfSeq(seen.events, first.seq);
  if (droppedEvents < 0 || seen.events[droppedEvents] !== first) return undefined;
  // Calls at event indices below `droppedEvents` are gone.
  const dropped = lastAtOrBefore(seen.calls, droppedEvents - 1) + 1;
  const lastKept = scanned - 1;
  if (lastKept >= dropped) {
    const index = seen.calls[lastKept] ?? -1;
    const moved = next.calls[lastKept - dropped];
    if (moved !== index - droppedEvents || next.events[moved] !== seen.events[index]) return undefined;
  }
  return dropped;
}
