import type { MemoryEvent, Reason } from '@pagelens/core';

/**
 * The reasons a successful call carries itself. The simulator puts a success's reasons on the
 * state change they explain, so its successful calls carry none; the acl backend puts there what
 * it observed around the call (which pool served an allocation, DM-15; a HUGE_FIRST fallback, DM-4).
 */
export function callReasonsOf(eventAt: (seq: number) => MemoryEvent | undefined, createdSeq: number): readonly Reason[] {
  const made = eventAt(createdSeq);
  const call = made?.call === undefined ? undefined : eventAt(made.call);
  return call?.kind === 'call' && call.ret === 0 ? (call.reasons ?? []) : [];
}

/** `derived` (PageLens's rules) followed by each observed reason whose code they do not already give. */
export function withObserved(derived: readonly Reason[], observed: readonly Reason[]): Reason[] {
  const codes = new Set(derived.map((reason) => reason.code));
  return [...derived, ...observed.filter((reason) => !codes.has(reason.code))];
}
