import { describe, expect, it } from 'vitest';
import { ACL_EVENT, aclrtEventRecordedStatus } from '../../src/acl/enums.ts';
import {
  ACL_ERROR_INVALID_PARAM,
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_EVENT_SYNC_TIMEOUT,
  ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INTERNAL_ERROR,
  ACL_ERROR_RT_PARAM_INVALID,
} from '../../src/acl/errors.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import type { Hex } from '../../src/units/hex.ts';
import { effectKinds, need, POLICY, session } from './harness.ts';

const E = ACL_EVENT.byName;
const STATUS = aclrtEventRecordedStatus.byName;
const MiB = 1024 * 1024;

/** A session with a stream busy with a 256 MiB host-to-device copy from pinned memory. */
async function busy() {
  const s = await session();
  const stream = need((await s.rt.aclrtCreateStream({})).stream, 'stream');
  const pinned = need((await s.rt.aclrtMallocHost({ size: 256 * MiB })).hostPtr, 'pinned');
  const dev = need((await s.rt.aclrtMalloc({ size: 256 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'dev');
  expect((await s.rt.aclrtMemcpyAsync({ dst: dev, destMax: 256 * MiB, src: pinned, count: 256 * MiB, kind: 1, stream })).ret).toBe(0);
  const stream2 = need((await s.rt.aclrtCreateStream({})).stream, 'stream2');
  return { ...s, stream, stream2, pinned, dev };
}

const streamOf = (s: Awaited<ReturnType<typeof session>>, handle: Hex) =>
  need(
    [...s.host.state.streams.values()].find((item) => `0x${item.handle.toString(16)}` === handle),
    handle,
  );

describe('EV: events', () => {
  it('EV-1: aclrtCreateEvent needs a current context; flags are checked; the event belongs to the context', async () => {
    const rt = new SimRuntime(new SimHost({ devices: [ASCEND_910B2] }));
    expect((await rt.aclrtCreateEvent({})).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    const { host, rt: r } = await session();
    const made = await r.aclrtCreateEvent({});
    expect(made.ret).toBe(0);
    const [event] = [...host.state.aclEvents.values()];
    expect(event).toMatchObject({ flags: 0x0e, ex: false, stream: -1, context: need(host.state.processes.get(r.pid), 'p').currentContext });
    expect((await r.aclrtCreateEventWithFlag({ flag: 0 })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await r.aclrtCreateEventWithFlag({ flag: 0x80 })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await r.aclrtCreateEventWithFlag({ flag: E.ACL_EVENT_EXTERNAL | E.ACL_EVENT_SYNC })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await r.aclrtCreateEventExWithFlag({ flag: E.ACL_EVENT_IPC | E.ACL_EVENT_SYNC })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await r.aclrtCreateEventExWithFlag({ flag: E.ACL_EVENT_EXTERNAL })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await r.aclrtCreateEventExWithFlag({ flag: E.ACL_EVENT_IPC })).ret).toBe(0);
    expect((await r.aclrtDestroyEvent({ event: need(made.event, 'event') })).ret).toBe(0);
    expect((await r.aclrtDestroyEvent({ event: need(made.event, 'event') })).ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it("EV-2: a record captures the stream's queued work; the event completes when it does, the host does not wait", async () => {
    const s = await busy();
    const event = need((await s.rt.aclrtCreateEvent({})).event, 'event');
    const t = s.host.state.time;
    const mark = s.events.length;
    expect((await s.rt.aclrtRecordEvent({ event, stream: s.stream })).ret).toBe(0);
    expect(effectKinds(s.events, mark)).toEqual(['eventRecord']);
    const recorded = need([...s.host.state.aclEvents.values()][0], 'event');
    expect(recorded.at).toBe(streamOf(s, s.stream).busyUntil);
    expect(recorded.at).toBeGreaterThan(t);
    expect(s.host.state.time).toBe(t);
    expect((await s.rt.aclrtQueryEventStatus({ event })).status).toBe(STATUS.ACL_EVENT_RECORDED_STATUS_NOT_READY);
    // NULL records on the current context's default stream, which is idle.
    expect((await s.rt.aclrtRecordEvent({ event, stream: '0x0' })).ret).toBe(0);
    expect((await s.rt.aclrtQueryEventStatus({ event })).status).toBe(STATUS.ACL_EVENT_RECORDED_STATUS_COMPLETE);
  });

  it("EV-3: a stream waiting on an event starts its later work after the event's work; a TIME_LINE-only event cannot be waited on", async () => {
    const s = await busy();
    const event = need((await s.rt.aclrtCreateEvent({})).event, 'event');
    expect((await s.rt.aclrtRecordEvent({ event, stream: s.stream })).ret).toBe(0);
    const t = s.host.state.time;
    expect((await s.rt.aclrtStreamWaitEvent({ stream: s.stream2, event })).ret).toBe(0);
    expect(s.host.state.time).toBe(t);
    expect(streamOf(s, s.stream2).busyUntil).toBe(streamOf(s, s.stream).busyUntil);
    const timeOnly = need((await s.rt.aclrtCreateEventWithFlag({ flag: E.ACL_EVENT_TIME_LINE })).event, 'timeOnly');
    expect((await s.rt.aclrtStreamWaitEvent({ stream: s.stream2, event: timeOnly })).ret).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    // Never recorded: nothing to wait for.
    const fresh = need((await s.rt.aclrtCreateEvent({})).event, 'fresh');
    const stream3 = need((await s.rt.aclrtCreateStream({})).stream, 'stream3');
    expect((await s.rt.aclrtStreamWaitEvent({ stream: stream3, event: fresh })).ret).toBe(0);
    expect(streamOf(s, stream3).busyUntil).toBeLessThanOrEqual(s.host.state.time);
  });

  it('EV-4: synchronize waits for the captured work (none when never recorded); query answers by the clock; Ex events start complete', async () => {
    const s = await busy();
    const event = need((await s.rt.aclrtCreateEvent({})).event, 'event');
    const t = s.host.state.time;
    expect((await s.rt.aclrtSynchronizeEvent({ event })).ret).toBe(0);
    expect(s.host.state.time).toBe(t);
    expect((await s.rt.aclrtQueryEventStatus({ event })).status).toBe(STATUS.ACL_EVENT_RECORDED_STATUS_NOT_READY);
    const ex = need((await s.rt.aclrtCreateEventExWithFlag({ flag: E.ACL_EVENT_SYNC })).event, 'ex');
    expect((await s.rt.aclrtQueryEventStatus({ event: ex })).status).toBe(STATUS.ACL_EVENT_RECORDED_STATUS_COMPLETE);
    expect((await s.rt.aclrtRecordEvent({ event, stream: s.stream })).ret).toBe(0);
    const done = streamOf(s, s.stream).busyUntil;
    expect((await s.rt.aclrtSynchronizeEventWithTimeout({ event, timeout: 1 })).ret).toBe(ACL_ERROR_RT_EVENT_SYNC_TIMEOUT);
    expect(s.host.state.time).toBe(t + 1_000_000);
    expect((await s.rt.aclrtSynchronizeEventWithTimeout({ event, timeout: 0 })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await s.rt.aclrtSynchronizeEvent({ event })).ret).toBe(0);
    expect(s.host.state.time).toBe(done);
    expect((await s.rt.aclrtQueryEventStatus({ event })).status).toBe(STATUS.ACL_EVENT_RECORDED_STATUS_COMPLETE);
  });

  it('EV-5: a reset event is never recorded again; Ex events cannot be reset', async () => {
    const s = await busy();
    const event = need((await s.rt.aclrtCreateEventWithFlag({ flag: E.ACL_EVENT_SYNC | E.ACL_EVENT_TIME_LINE })).event, 'event');
    expect((await s.rt.aclrtRecordEvent({ event, stream: s.stream })).ret).toBe(0);
    expect((await s.rt.aclrtResetEvent({ event, stream: s.stream })).ret).toBe(0);
    expect(need([...s.host.state.aclEvents.values()][0], 'event').stream).toBe(-1);
    expect((await s.rt.aclrtEventGetTimestamp({ event })).ret).toBe(ACL_ERROR_RT_INTERNAL_ERROR);
    const ex = need((await s.rt.aclrtCreateEventExWithFlag({ flag: E.ACL_EVENT_SYNC })).event, 'ex');
    expect((await s.rt.aclrtResetEvent({ event: ex, stream: s.stream })).ret).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
  });

  it('EV-6: elapsed time is the modeled time between completions; never recorded 507000; no TIME_LINE or not done 107006', async () => {
    const s = await busy();
    const start = need((await s.rt.aclrtCreateEvent({})).event, 'start');
    const end = need((await s.rt.aclrtCreateEvent({})).event, 'end');
    expect((await s.rt.aclrtEventElapsedTime({ startEvent: start, endEvent: end })).ret).toBe(ACL_ERROR_RT_INTERNAL_ERROR);
    expect((await s.rt.aclrtRecordEvent({ event: start, stream: '0x0' })).ret).toBe(0);
    expect((await s.rt.aclrtRecordEvent({ event: end, stream: s.stream })).ret).toBe(0);
    expect((await s.rt.aclrtEventElapsedTime({ startEvent: start, endEvent: end })).ret).toBe(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    expect((await s.rt.aclrtSynchronizeStream({ stream: s.stream })).ret).toBe(0);
    const events = [...s.host.state.aclEvents.values()];
    const [first, second] = [need(events[0], 'start'), need(events[1], 'end')];
    const elapsed = await s.rt.aclrtEventElapsedTime({ startEvent: start, endEvent: end });
    expect(elapsed).toEqual({ ret: 0, ms: Math.fround((second.at - first.at) / 1e6) });
    // The end event completes with the copy: the time from the start's record to the copy's end.
    expect(second.at).toBe(need(s.host.state.copies.at(-1), 'copy').end);
    expect(need(elapsed.ms, 'ms')).toBeGreaterThan(0);
    expect(await s.rt.aclrtEventGetTimestamp({ event: end })).toEqual({ ret: 0, timestamp: Math.floor(second.at / 1000) });
    const untimed = need((await s.rt.aclrtCreateEventWithFlag({ flag: E.ACL_EVENT_SYNC })).event, 'untimed');
    expect((await s.rt.aclrtRecordEvent({ event: untimed, stream: s.stream })).ret).toBe(0);
    expect((await s.rt.aclrtEventGetTimestamp({ event: untimed })).ret).toBe(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
  });
});
