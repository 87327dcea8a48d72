import { type CodedText, formatInteger, type HostState, type Provenance, type Reason } from '@pagelens/core';
import { duration, type FormatPrefs } from '../format.ts';
import { rateSpread } from '../host-copies/rate-spread.ts';
import { renderCallArgs } from '../log/arg-format.ts';
import type { CallRow } from '../log/call-rows.ts';
import type { Target } from '../log/effects.ts';
import { allocationInspection, handleInspection, physicalInspection } from './device-facts.ts';
import { aclEventInspection, contextInspection } from './event-facts.ts';
import { type Fact, type Inspection, keyed, text } from './fact.ts';
import { frameInspection } from './frame-facts.ts';
import { copyInspection, hostInspection, streamInspection } from './host-facts.ts';
import { mappingInspection, reservationInspection } from './vmm-facts.ts';

/**
 * A call's message: by its code in the UI's language (core's texts/table.ts, under `texts.`),
 * with the English text as i18next's default for a code this page does not know.
 */
function messageFact(message: string, coded: CodedText | undefined, ok: boolean): Fact {
  const tone: Partial<Fact> = ok ? {} : { tone: 'error' };
  if (coded === undefined) return text('inspector.fact.message', message, tone);
  return keyed('inspector.fact.message', `texts.${coded.code}`, { ...coded.values, defaultValue: message }, tone);
}

/** A call: who made it, what it returned and why, and what it changed. */
export function callInspection(row: CallRow, prefs: FormatPrefs): Inspection {
  const { call } = row;
  const facts: Fact[] = [
    text('inspector.fact.function', call.fn),
    text('inspector.fact.process', String(call.pid)),
    text('inspector.fact.result', `${row.retName} (${call.ret})`, { tone: row.ok ? 'ok' : 'error' }),
  ];
  if (call.message !== undefined) facts.push(messageFact(call.message, call.messageCode, row.ok));
  facts.push(
    text('inspector.fact.duration', duration(call.durationNs), { provenance: call.provenance }),
    text('inspector.fact.time', duration(call.t), { provenance: call.provenance }),
    text('inspector.fact.seq', `${formatInteger(call.seq)} → ${formatInteger(row.endSeq)}`),
  );
  if (call.injected === true) facts.push(keyed('inspector.fact.injected', 'inspector.value.injected', undefined, { tone: 'warn' }));
  const related = row.effects.flatMap((effect) =>
    effect.target === undefined ? [] : [{ label: `inspector.effect.${effect.event}`, target: effect.target }],
  );
  return {
    facts,
    reasons: row.reasons,
    rules: row.rules,
    related,
    relatedTitle: 'inspector.changedTitle',
    args: renderCallArgs(call, prefs),
  };
}

/** Everything the inspector needs besides the state: how to find a copy's reasons. */
export interface InspectContext {
  readonly prefs: FormatPrefs;
  /** The UI's current device, for a frame selected without one. */
  readonly device: number;
  readonly copyReasons: (id: number) => readonly Reason[];
  /** What the backend observed around the call that made the object created at this seq (acl: the pool that served it). */
  readonly observedReasons?: (createdSeq: number) => readonly Reason[];
  /** Where the session's values come from: an event's completion time is simulated or observed. */
  readonly provenance?: Provenance;
}

/**
 * Facts about the selected object in `state` (the state at the time cursor); undefined when it
 * does not exist there. Calls are inspected from their row (`callInspection`), not from state.
 */
export function inspectObject(target: Target, state: HostState, context: InspectContext): Inspection | undefined {
  const { prefs } = context;
  const profileOf = (device: number) => state.devices[device]?.profile;
  switch (target.kind) {
    case 'allocation': {
      const allocation = state.allocations.get(target.id);
      const profile = allocation === undefined ? undefined : profileOf(allocation.device);
      if (allocation === undefined || profile === undefined) return undefined;
      return allocationInspection(allocation, profile, prefs, context.observedReasons?.(allocation.createdSeq), state);
    }
    case 'physical': {
      const memory = state.physical.get(target.id);
      const profile = memory === undefined ? undefined : profileOf(memory.device);
      if (memory === undefined || profile === undefined) return undefined;
      return physicalInspection(memory, state, profile, prefs, context.observedReasons?.(memory.createdSeq));
    }
    case 'handle': {
      const handle = state.handles.get(target.id);
      const profile = handle === undefined ? undefined : profileOf(handle.device);
      return handle === undefined || profile === undefined ? undefined : handleInspection(handle, state, profile, prefs);
    }
    case 'reservation': {
      const reservation = state.reservations.get(target.id);
      return reservation === undefined ? undefined : reservationInspection(reservation, state, prefs);
    }
    case 'mapping': {
      const mapping = state.mappings.get(target.id);
      return mapping === undefined ? undefined : mappingInspection(mapping, state, prefs);
    }
    case 'host': {
      const buffer = state.hostBuffers.get(target.id);
      return buffer === undefined ? undefined : hostInspection(buffer, prefs);
    }
    case 'stream': {
      const stream = state.streams.get(target.id);
      return stream === undefined ? undefined : streamInspection(stream, state.time);
    }
    case 'context': {
      const aclContext = state.contexts.get(target.id);
      return aclContext === undefined ? undefined : contextInspection(aclContext, state);
    }
    case 'event': {
      const event = state.aclEvents.get(target.id);
      return event === undefined ? undefined : aclEventInspection(event, state, context.provenance);
    }
    case 'copy': {
      const copy = state.copies.find((record) => record.id === target.id);
      if (copy === undefined) return undefined;
      const spread = rateSpread(copy.path, state.devices[copy.device]?.profile, context.provenance === 'observed');
      return copyInspection(copy, context.copyReasons(target.id), prefs, spread);
    }
    case 'frame':
      return frameInspection(state, target.device ?? context.device, target.id, prefs);
    case 'call':
      return undefined;
  }
}

/** The state's table of each kind of live object, by id. */
const LIVE: Readonly<
  Record<
    'allocation' | 'physical' | 'handle' | 'reservation' | 'mapping' | 'host' | 'stream' | 'context' | 'event',
    (state: HostState) => ReadonlyMap<number, unknown>
  >
> = {
  allocation: (state) => state.allocations,
  physical: (state) => state.physical,
  handle: (state) => state.handles,
  reservation: (state) => state.reservations,
  mapping: (state) => state.mappings,
  host: (state) => state.hostBuffers,
  stream: (state) => state.streams,
  context: (state) => state.contexts,
  event: (state) => state.aclEvents,
};

/** True when the object is in the state (a call or a frame always is, once it happened). */
export function existsIn(target: Target, state: HostState): boolean {
  switch (target.kind) {
    case 'copy':
      return state.copies.some((record) => record.id === target.id);
    case 'call':
      return target.id <= state.seq;
    case 'frame':
      return true;
    default:
      return LIVE[target.kind](state).has(target.id);
  }
}
