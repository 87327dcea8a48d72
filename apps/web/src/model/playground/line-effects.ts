import type { DeviceProfile, MemoryEvent, Reason } from '@pagelens/core';
import { effectReasons } from '../log/call-rows.ts';
import { effectsOfCall } from '../log/effects.ts';
import type { SeqPoint } from './step-seqs.ts';

/** What one call on a line did, as the log explains it: "1,048,576 B + 32 B padding … (DM-3, DM-4)". */
export interface CallEffect {
  readonly fn: string;
  readonly reasons: readonly Reason[];
}

/**
 * The effects of the calls a line made, the last time it ran: each point of the step→seq map
 * closes a stretch of seqs that starts after the point before it, and the calls in the stretches
 * of `line` are the line's. Only successful calls that decided something (an allocation's pages,
 * a copy's path) are listed; the held history may have dropped older ones.
 */
export function lineEffects(
  points: readonly SeqPoint[],
  start: number,
  line: number,
  events: readonly MemoryEvent[],
  profiles: readonly DeviceProfile[],
): CallEffect[] {
  let from = start;
  let last: { from: number; to: number }[] = [];
  let current: { from: number; to: number }[] = [];
  let previousLine: number | undefined;
  for (const point of points) {
    if (point.line === line) {
      // A new run of the line (a loop) replaces the stretches of its earlier run.
      if (previousLine !== line) current = [];
      current.push({ from, to: point.seq });
      last = current;
    }
    previousLine = point.line;
    from = Math.max(from, point.seq);
  }
  const effects: CallEffect[] = [];
  for (const stretch of last) {
    for (let index = firstIndexAfter(events, stretch.from); index < events.length; index += 1) {
      const event = events[index];
      if (event === undefined || event.seq > stretch.to) break;
      if (event.kind !== 'call' || event.ret !== 0) continue;
      const reasons = effectReasons(effectsOfCall(events, index), profiles);
      if (reasons.length > 0) effects.push({ fn: event.fn, reasons });
    }
  }
  return effects;
}

/** Index of the first event with a seq above `seq` (events are in seq order). */
function firstIndexAfter(events: readonly MemoryEvent[], seq: number): number {
  let low = 0;
  let high = events.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((events[mid]?.seq ?? 0) <= seq) low = mid + 1;
    else high = mid;
  }
  return low;
}
