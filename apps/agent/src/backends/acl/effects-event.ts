import { currentContextOf, type EffectContext, eventByHandle, streamOf } from './effects-context.ts';
import { deviceHolding } from './effects-memory.ts';

/*
 * State changes of the aclrtEvent calls (EV-1 … EV-6) and of the stream value tasks (CP-12),
 * recorded after the runtime succeeded. On hardware the agent cannot see when an event's captured
 * work completes: the `at` of an eventRecord is the observed time the record call returned
 * (observed-at-record, not completion), and a wait's `until` follows from it. The value tasks are
 * recorded the same way: device memory is not observable, so the time a word is written, or meets
 * a wait's condition, is the observed time the call returned.
 */

/** aclrtCreateEvent's flags: the runtime's default 0x0E (runtime-api.md §5, EV-1). */
export const DEFAULT_EVENT_FLAGS = 0x0e;

/** EV-1: the event belongs to the current context and its device. */
export function recordCreateEvent(context: EffectContext, handle: number, flags: number, ex: boolean): void {
  const owner = currentContextOf(context);
  if (owner === undefined) {
    context.notes.push('no current context is known to PageLens: the event was not recorded');
    return;
  }
  context.emit({
    kind: 'eventCreate',
    pid: context.pid,
    device: owner.device,
    context: owner.id,
    id: context.host.newId(),
    handle,
    flags: flags >>> 0,
    ex,
  });
}

function known(context: EffectContext, eventHandle: number, streamHandle: number | undefined) {
  const event = eventByHandle(context, eventHandle);
  if (event === undefined) {
    context.notes.push(`event 0x${eventHandle.toString(16)} was not created through PageLens; nothing recorded`);
    return undefined;
  }
  if (streamHandle === undefined) return { event, stream: undefined };
  const stream = streamOf(context, streamHandle);
  if (stream === undefined) {
    context.notes.push(`stream 0x${streamHandle.toString(16)} is not known to PageLens; nothing recorded`);
    return undefined;
  }
  return { event, stream };
}

/**
 * EV-2: the event captures the stream's work so far. `at` is the observed time the call returned
 * (t1): the agent cannot see when the captured work completes on the device.
 */
export function recordRecordEvent(context: EffectContext, eventHandle: number, streamHandle: number): void {
  const found = known(context, eventHandle, streamHandle);
  if (found?.stream === undefined) return;
  context.emit({ kind: 'eventRecord', id: found.event.id, stream: found.stream.id, at: context.t1 });
}

/** EV-3: later work on the stream waits for the event's captured work (from its observed record time); never recorded holds nothing back. */
export function recordStreamWaitEvent(context: EffectContext, streamHandle: number, eventHandle: number): void {
  const found = known(context, eventHandle, streamHandle);
  if (found?.stream === undefined) return;
  const { event, stream } = found;
  const until = event.recordedSeq === -1 ? stream.busyUntil : Math.max(stream.busyUntil, event.at);
  context.emit({ kind: 'eventWait', id: event.id, stream: stream.id, until });
}

/** EV-5: back to never recorded. */
export function recordResetEvent(context: EffectContext, eventHandle: number): void {
  const found = known(context, eventHandle, undefined);
  if (found !== undefined) context.emit({ kind: 'eventReset', id: found.event.id });
}

export function recordDestroyEvent(context: EffectContext, eventHandle: number): void {
  const found = known(context, eventHandle, undefined);
  if (found !== undefined) context.emit({ kind: 'eventDestroy', id: found.event.id });
}

/** EV-4: the host waited until t1 for the event's work (observed: the end of the wait). */
export function recordEventSync(context: EffectContext): void {
  context.emit({ kind: 'sync', pid: context.pid, until: context.t1 });
}

function valueStream(context: EffectContext, streamHandle: number) {
  const stream = streamOf(context, streamHandle);
  if (stream === undefined) context.notes.push(`stream 0x${streamHandle.toString(16)} is not known to PageLens; nothing recorded`);
  return stream;
}

/** CP-12: a task that stores `value` at `addr`; `at` is the observed time the call returned (t1), not when the task runs. */
export function recordValueWrite(context: EffectContext, addr: number, value: number, streamHandle: number): void {
  const stream = valueStream(context, streamHandle);
  if (stream === undefined) return;
  const device = deviceHolding(context, addr, 8) ?? stream.device;
  context.emit({ kind: 'valueWrite', pid: context.pid, stream: stream.id, device, addr, value, at: context.t1 });
}

/**
 * CP-12: later work on the stream waits until the word meets the condition. On hardware the
 * runtime holds the stream itself (`met`: the wait is in force), but the moment the word meets it
 * is not observable: `until` is the observed time the call returned, as for an eventRecord.
 */
export function recordValueWait(context: EffectContext, addr: number, value: number, flag: number, streamHandle: number): void {
  const stream = valueStream(context, streamHandle);
  if (stream === undefined) return;
  const until = Math.max(stream.busyUntil, context.t1);
  context.emit({ kind: 'valueWait', pid: context.pid, stream: stream.id, addr, value, flag, met: true, until, reasons: [] });
  context.notes.push(
    'the stream waits on the device until the word meets the condition; PageLens cannot see device memory, so it shows the wait from the call (CP-12)',
  );
}
