import { ACL_EVENT, aclrtEventRecordedStatus } from '../acl/enums.ts';
import {
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
  ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INTERNAL_ERROR,
  ACL_ERROR_RT_PARAM_INVALID,
} from '../acl/errors.ts';
import type { AclEvent } from '../model/state.ts';
import { type Text, text } from '../texts/table.ts';
import { toHex } from '../units/hex.ts';
import { address, done, fail, invalid, type Op, type OpResult, ok, type SimContext } from './context.ts';
import { currentContextOf, foreignStream } from './ops-context.ts';
import { liveStream } from './ops-device.ts';
import { badTimeout, type Wait, waitUntil } from './wait.ts';

/*
 * Events on the virtual clock (EV-1 … EV-6, runtime-api.md §5). A record captures the work queued
 * on a stream so far: the event completes when that work does. A wait makes later work on another
 * stream start no earlier. Time is the simulator's: elapsed times and timestamps are modeled.
 */

const F = ACL_EVENT.byName;
/** aclrtCreateEvent's flags: the runtime's default 0x0E, with a timestamp and waitable (runtime-api.md §5). */
export const DEFAULT_EVENT_FLAGS = 0x0e;
/** Bits aclrtCreateEventWithFlag accepts; aclrtCreateEventExWithFlag accepts SYNC, progress, 0x04, TIME_LINE, or IPC alone. */
const WITH_FLAG_BITS = 0x3f;
const EX_FLAG_BITS = F.ACL_EVENT_SYNC | F.ACL_EVENT_CAPTURE_STREAM_PROGRESS | 0x04 | F.ACL_EVENT_TIME_LINE | F.ACL_EVENT_IPC;
/** A stream may wait on an event with one of these bits (0x04 is in aclrtCreateEvent's default). */
const WAITABLE_BITS = F.ACL_EVENT_SYNC | 0x04 | F.ACL_EVENT_EXTERNAL | F.ACL_EVENT_IPC;

function flagProblem(flag: number, ex: boolean): Text | undefined {
  const alone = (bit: number) => (flag & bit) !== 0 && flag !== bit;
  if (ex) {
    if (flag === 0 || (flag & ~EX_FLAG_BITS) !== 0) return text('event-flag-ex-bits', { flag: `0x${flag.toString(16)}` });
    if (alone(F.ACL_EVENT_IPC)) return text('event-flag-ipc-alone');
    return undefined;
  }
  if (flag === 0 || (flag & ~WITH_FLAG_BITS) !== 0) return text('event-flag-bits', { flag: `0x${flag.toString(16)}` });
  if (alone(F.ACL_EVENT_DEVICE_USE_ONLY) || alone(F.ACL_EVENT_EXTERNAL)) return text('event-flag-alone');
  return undefined;
}

function create(context: SimContext, flags: number, ex: boolean): OpResult<{ event: `0x${string}` }> {
  const owner = currentContextOf(context);
  if (owner === undefined) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('no-current-context', { rule: 'EV-1' }));
  const handle = context.host.newOpaque();
  context.emit({
    kind: 'eventCreate',
    pid: context.pid,
    device: owner.device,
    context: owner.id,
    id: context.host.newId(),
    handle,
    flags,
    ex,
  });
  return ok({ event: toHex(handle) });
}

/** EV-1: an event with the default flags (timestamped, waitable). */
export const aclrtCreateEvent: Op<'aclrtCreateEvent'> = (context) => create(context, DEFAULT_EVENT_FLAGS, false);

export const aclrtCreateEventWithFlag: Op<'aclrtCreateEventWithFlag'> = (context, { flag }) => {
  const problem = flagProblem(flag, false);
  return problem === undefined
    ? create(context, flag, false)
    : fail(ACL_ERROR_RT_PARAM_INVALID, text('event-flag-problem', { ...problem.values, problem: problem.code }));
};

export const aclrtCreateEventExWithFlag: Op<'aclrtCreateEventExWithFlag'> = (context, { flag }) => {
  const problem = flagProblem(flag, true);
  return problem === undefined
    ? create(context, flag, true)
    : fail(ACL_ERROR_RT_PARAM_INVALID, text('event-flag-problem', { ...problem.values, problem: problem.code }));
};

/** A live event of this process by its aclrtEvent value, or the failure to answer. */
function liveEvent(context: SimContext, hex: string, name = 'event'): AclEvent | OpResult<never> {
  if (address(hex) === 0) return invalid(text('null-arg', { name }));
  const id = context.process.eventByHandle.get(address(hex));
  const found = id === undefined ? undefined : context.state.aclEvents.get(id);
  return found ?? invalid(text('event-not-live', { name, event: hex }));
}

function isEvent(value: AclEvent | OpResult<never>): value is AclEvent {
  return !('ret' in value);
}

/** EV-2: captures the work queued on `stream` so far; the event completes when it does. */
export const aclrtRecordEvent: Op<'aclrtRecordEvent'> = (context, { event, stream }) => {
  const target = liveEvent(context, event);
  if (!isEvent(target)) return target;
  const on = liveStream(context, stream);
  if ('ret' in on) return on;
  const foreign = foreignStream(context, on, 'aclrtRecordEvent');
  if (foreign !== undefined) return foreign;
  const at = Math.max(on.busyUntil, context.state.time);
  context.emit({ kind: 'eventRecord', id: target.id, stream: on.id, at });
  return done();
};

/** EV-3: later work on `stream` waits for the event's captured work. An event never recorded holds nothing back. */
export const aclrtStreamWaitEvent: Op<'aclrtStreamWaitEvent'> = (context, { stream, event }) => {
  const target = liveEvent(context, event);
  if (!isEvent(target)) return target;
  const on = liveStream(context, stream);
  if ('ret' in on) return on;
  const foreign = foreignStream(context, on, 'aclrtStreamWaitEvent');
  if (foreign !== undefined) return foreign;
  if ((target.flags & WAITABLE_BITS) === 0) {
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('event-not-waitable', { flags: `0x${target.flags.toString(16)}` }));
  }
  const until = target.recordedSeq === -1 ? on.busyUntil : Math.max(on.busyUntil, target.at);
  context.emit({ kind: 'eventWait', id: target.id, stream: on.id, until });
  return done();
};

const EVENT_WAIT: Wait = { on: {}, what: 'event', timedOut: ACL_ERROR_RT_EVENT_SYNC_TIMEOUT, goesOn: false };

function synchronize(context: SimContext, target: AclEvent, timeout: number): OpResult<never> {
  // An event never recorded has nothing to wait for (EV-4).
  return target.recordedSeq === -1 ? done() : waitUntil(context, target.at, timeout, EVENT_WAIT);
}

/** EV-4: the host waits until the event's captured work is done. */
export const aclrtSynchronizeEvent: Op<'aclrtSynchronizeEvent'> = (context, { event }) => {
  const target = liveEvent(context, event);
  return isEvent(target) ? synchronize(context, target, -1) : target;
};

export const aclrtSynchronizeEventWithTimeout: Op<'aclrtSynchronizeEventWithTimeout'> = (context, { event, timeout }) => {
  const refused = badTimeout(timeout);
  if (refused !== undefined) return refused;
  const target = liveEvent(context, event);
  return isEvent(target) ? synchronize(context, target, timeout) : target;
};

const STATUS = aclrtEventRecordedStatus.byName;

/** EV-4: COMPLETE once the captured work is done; never recorded: COMPLETE for Ex events, NOT_READY for the others. */
export const aclrtQueryEventStatus: Op<'aclrtQueryEventStatus'> = (context, { event }) => {
  const target = liveEvent(context, event);
  if (!isEvent(target)) return target;
  if (target.flags === F.ACL_EVENT_EXTERNAL) return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('event-external-query'));
  const complete = target.recordedSeq === -1 ? target.ex : target.at <= context.state.time;
  return ok({ status: complete ? STATUS.ACL_EVENT_RECORDED_STATUS_COMPLETE : STATUS.ACL_EVENT_RECORDED_STATUS_NOT_READY });
};

/** EV-5: back to never recorded; not for Ex events (207000). */
export const aclrtResetEvent: Op<'aclrtResetEvent'> = (context, { event, stream }) => {
  const target = liveEvent(context, event);
  if (!isEvent(target)) return target;
  if (target.ex) return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('event-ex-reset'));
  const on = liveStream(context, stream);
  if ('ret' in on) return on;
  const foreign = foreignStream(context, on, 'aclrtResetEvent');
  if (foreign !== undefined) return foreign;
  context.emit({ kind: 'eventReset', id: target.id });
  return done();
};

/** EV-1: does not wait; pending work finishes on the device all the same. */
export const aclrtDestroyEvent: Op<'aclrtDestroyEvent'> = (context, { event }) => {
  const target = liveEvent(context, event);
  if (!isEvent(target)) return target;
  context.emit({ kind: 'eventDestroy', id: target.id });
  return done();
};

/** EV-6: the event's modeled timestamp, or why there is none (never recorded 507000; no TIME_LINE or not done 107006). */
function timestampOf(context: SimContext, target: AclEvent, name: string): number | OpResult<never> {
  if (target.recordedSeq === -1) return fail(ACL_ERROR_RT_INTERNAL_ERROR, text('event-never-recorded', { name }));
  if ((target.flags & F.ACL_EVENT_TIME_LINE) === 0) {
    return fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, text('event-no-timeline', { name }));
  }
  if (target.at > context.state.time) {
    return fail(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, text('event-not-done', { name }));
  }
  return target.at;
}

/** EV-6: milliseconds between the two events' completions, on the virtual clock (modeled). */
export const aclrtEventElapsedTime: Op<'aclrtEventElapsedTime'> = (context, { startEvent, endEvent }) => {
  const start = liveEvent(context, startEvent, 'startEvent');
  if (!isEvent(start)) return start;
  const end = liveEvent(context, endEvent, 'endEvent');
  if (!isEvent(end)) return end;
  const from = timestampOf(context, start, 'startEvent');
  if (typeof from !== 'number') return from;
  const to = timestampOf(context, end, 'endEvent');
  if (typeof to !== 'number') return to;
  return ok({ ms: Math.fround((to - from) / 1e6) });
};

/** EV-6: when the event's work finished, in µs since the device started (modeled: the simulator's clock). */
export const aclrtEventGetTimestamp: Op<'aclrtEventGetTimestamp'> = (context, { event }) => {
  const target = liveEvent(context, event);
  if (!isEvent(target)) return target;
  const at = timestampOf(context, target, 'event');
  return typeof at === 'number' ? ok({ timestamp: Math.floor(at / 1000) }) : at;
};
