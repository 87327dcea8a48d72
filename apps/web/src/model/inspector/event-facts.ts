import {
  ACL_EVENT,
  ACL_FAILURE_MODE,
  type AclContext,
  type AclEvent,
  flagNames,
  type HostState,
  type Provenance,
  toHex,
} from '@pagelens/core';
import { duration } from '../format.ts';
import { type Fact, type Inspection, keyed, text, yesNo } from './fact.ts';

/** A stream failure mode by name (CP-7): ACL_CONTINUE_ON_FAILURE, ACL_STOP_ON_FAILURE. */
export function failureModeText(mode: number): string {
  return ACL_FAILURE_MODE.nameOf(mode) ?? String(mode);
}

/** ACL_EVENT_* names of an event's flags, then the raw word: "ACL_EVENT_SYNC | ACL_EVENT_TIME_LINE (0x9)". */
export function eventFlagsText(flags: number): string {
  const names = flagNames(ACL_EVENT, flags);
  const raw = `0x${(flags >>> 0).toString(16)}`;
  return names.length === 0 ? raw : `${names.join(' | ')} (${raw})`;
}

export type EventStatus = 'never' | 'complete' | 'notReady';

/**
 * Where an event stands at host time `now`: never recorded (or reset), or recorded and its
 * captured work done (complete) or still running (not ready) (EV-2, EV-4).
 */
export function eventStatus(event: AclEvent, now: number): EventStatus {
  if (event.recordedSeq < 0 || event.stream < 0) return 'never';
  return event.at <= now ? 'complete' : 'notReady';
}

const STATUS_KEY: Readonly<Record<EventStatus, string>> = {
  never: 'inspector.value.eventNeverRecorded',
  complete: 'inspector.value.eventComplete',
  notReady: 'inspector.value.eventNotReady',
};

/**
 * A context: its device, whether it is the device's default (aclrtSetDevice) or made by
 * aclrtCreateContext, its handle, whether it is current, and the streams and events made in it
 * (CX-1, CX-2, CX-3).
 */
export function contextInspection(context: AclContext, state: HostState): Inspection {
  const current = state.processes.get(context.pid)?.currentContext === context.id;
  const streams = [...state.streams.values()].filter((stream) => stream.context === context.id);
  const events = [...state.aclEvents.values()].filter((event) => event.context === context.id);
  const facts: Fact[] = [
    text('inspector.fact.process', String(context.pid)),
    text('inspector.fact.device', String(context.device)),
    keyed('inspector.fact.origin', context.isDefault ? 'inspector.value.defaultContext' : 'inspector.value.createdContext'),
    text('inspector.fact.contextHandle', toHex(context.handle)),
    current
      ? keyed('inspector.fact.current', 'inspector.value.currentContext', undefined, { tone: 'ok' })
      : yesNo('inspector.fact.current', false),
  ];
  if (context.defaultStream >= 0 && state.streams.has(context.defaultStream)) {
    facts.push(
      text('inspector.fact.ownDefaultStream', `#${context.defaultStream}`, {
        link: { kind: 'stream', id: context.defaultStream, device: context.device },
      }),
    );
  }
  facts.push(text('inspector.fact.streams', String(streams.length)), text('inspector.fact.events', String(events.length)));
  return {
    facts,
    reasons: [],
    rules: context.isDefault ? ['CX-1', 'CX-3'] : ['CX-1', 'CX-2', 'CX-3'],
    related: [
      ...streams.map((stream) => ({
        label: stream.isDefault ? 'inspector.related.defaultStream' : 'inspector.related.stream',
        target: { kind: 'stream' as const, id: stream.id, device: stream.device },
      })),
      ...events.map((event) => ({
        label: 'inspector.related.event',
        target: { kind: 'event' as const, id: event.id, device: event.device },
      })),
    ],
  };
}

/**
 * An aclrtEvent: its flags by ACL_EVENT name, its context, the stream it was last recorded on and
 * when that work completes, and whether it has at the state's time (EV-1 … EV-5). On the
 * simulator the completion time is the virtual clock's (modeled, EV-2); observed, it is what the
 * backend reported.
 */
export function aclEventInspection(event: AclEvent, state: HostState, provenance: Provenance = 'simulated'): Inspection {
  const status = eventStatus(event, state.time);
  const facts: Fact[] = [
    text('inspector.fact.process', String(event.pid)),
    text('inspector.fact.device', String(event.device)),
    text('inspector.fact.eventHandle', toHex(event.handle)),
    text('inspector.fact.flags', eventFlagsText(event.flags)),
    event.ex ? keyed('inspector.fact.exEvent', 'inspector.value.exCreated') : yesNo('inspector.fact.exEvent', false),
    text('inspector.fact.context', `#${event.context}`, { link: { kind: 'context', id: event.context, device: event.device } }),
  ];
  if (status === 'never') {
    facts.push(keyed('inspector.fact.recordedOn', 'inspector.value.neverRecorded'));
  } else {
    facts.push(
      text('inspector.fact.recordedOn', `#${event.stream}`, { link: { kind: 'stream', id: event.stream, device: event.device } }),
      keyed(
        'inspector.fact.recordedAt',
        provenance === 'observed' ? 'inspector.value.recordedAtObserved' : 'inspector.value.recordedAtSimulated',
        { time: duration(event.at) },
        provenance === 'observed' ? {} : { provenance: 'simulated' },
      ),
    );
  }
  facts.push(
    keyed(
      'inspector.fact.status',
      STATUS_KEY[status],
      undefined,
      status === 'complete' ? { tone: 'ok' } : status === 'notReady' ? { tone: 'warn' } : {},
    ),
  );
  const rules = ['EV-1', 'EV-2', 'EV-3', 'EV-4', 'CX-3'];
  if (event.ex) rules.push('EV-5');
  return { facts, reasons: [], rules, related: [] };
}
