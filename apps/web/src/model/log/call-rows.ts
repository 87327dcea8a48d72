import {
  type CallEvent,
  type DeviceAllocation,
  type DeviceProfile,
  errorName,
  type MemoryEvent,
  type Reason,
  reportAllocation,
  sortRules,
} from '@pagelens/core';
import { withObserved } from '../acl/observed-reasons.ts';
import { type Effect, effectsOfCall, targetOf } from './effects.ts';

/** One line of the operation log. */
export interface CallRow {
  /** Index of the call event in `timeline.events`. */
  readonly index: number;
  readonly call: CallEvent;
  readonly ok: boolean;
  /** The ACL code's name: ACL_SUCCESS, ACL_ERROR_INVALID_PARAM… */
  readonly retName: string;
  /** Why: a failure's own reasons, or the reasons of what a success created (DM-3, DM-4, CP-3…). */
  readonly reasons: readonly Reason[];
  readonly rules: readonly string[];
  readonly effects: readonly Effect[];
  /** Where the time cursor goes to show the state right after this call. */
  readonly endSeq: number;
}

/** An allocation as the state holds it, rebuilt from the event that created it. */
export function allocationFromEvent(event: Extract<MemoryEvent, { kind: 'alloc' }>): DeviceAllocation {
  return {
    id: event.id,
    pid: event.pid,
    device: event.device,
    fn: event.fn,
    addr: event.addr,
    size: event.size,
    padded: event.padded,
    policy: event.policy,
    p2p: event.p2p,
    pageClass: event.pageClass,
    pageSize: event.pageSize,
    pages: event.pages,
    runs: event.runs,
    ...(event.fallback === undefined ? {} : { fallback: event.fallback }),
    createdSeq: event.seq,
  };
}

/** The reasons behind the effects of a successful call: allocation decisions and copy paths. */
export function effectReasons(effects: readonly MemoryEvent[], profiles: readonly DeviceProfile[]): Reason[] {
  const reasons: Reason[] = [];
  for (const effect of effects) {
    if (effect.kind === 'alloc') {
      const profile = profiles[effect.device];
      if (profile !== undefined) reasons.push(...reportAllocation(allocationFromEvent(effect), profile).reasons);
    } else if (effect.kind === 'copy') {
      reasons.push(...effect.reasons);
    }
  }
  return reasons;
}

/** The row for the call event at `index` of `events`; undefined when that event is not a call. */
export function callRow(events: readonly MemoryEvent[], index: number, profiles: readonly DeviceProfile[]): CallRow | undefined {
  const call = events[index];
  if (call?.kind !== 'call') return undefined;
  const effects = effectsOfCall(events, index);
  // A success's own reasons are what a real runtime was observed to do (the simulator gives none there).
  const reasons = call.ret === 0 ? withObserved(effectReasons(effects, profiles), call.reasons ?? []) : (call.reasons ?? []);
  return {
    index,
    call,
    ok: call.ret === 0,
    retName: errorName(call.ret),
    reasons,
    rules: sortRules(reasons.flatMap((reason) => reason.rules)),
    effects: effects.map((event) => ({ seq: event.seq, event: event.kind, target: targetOf(event) })),
    endSeq: effects[effects.length - 1]?.seq ?? call.seq,
  };
}
