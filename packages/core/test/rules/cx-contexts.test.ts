import { describe, expect, it } from 'vitest';
import {
  ACL_ERROR_INVALID_PARAM,
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_INVALID_DEVICEID,
  ACL_ERROR_RT_STREAM_CONTEXT,
} from '../../src/acl/errors.ts';
import { invokeCall } from '../../src/acl/invoke.ts';
import { planTeardown } from '../../src/model/teardown-plan.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { effectKinds, need, session } from './harness.ts';

describe('CX: contexts', () => {
  it('CX-1: the first aclrtSetDevice creates the default context with the NULL stream and makes it current', async () => {
    const host = new SimHost({ devices: [ASCEND_910B2, ASCEND_910B2] });
    const rt = new SimRuntime(host);
    expect((await rt.aclrtGetCurrentContext({})).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    expect((await rt.aclrtCtxGetCurrentDefaultStream({})).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    const events: string[] = [];
    host.subscribe((batch) => events.push(...batch.map((event) => event.kind)));
    expect((await rt.aclrtSetDevice({ deviceId: 1 })).ret).toBe(0);
    expect(events).toEqual(['call', 'contextCreate', 'streamCreate', 'deviceSet']);
    const current = await rt.aclrtGetCurrentContext({});
    expect(current.ret).toBe(0);
    const [context] = [...host.state.contexts.values()];
    expect(context).toMatchObject({ device: 1, isDefault: true });
    expect(current.context).toBe(`0x${need(context, 'context').handle.toString(16)}`);
    expect(await rt.aclrtCtxGetCurrentDefaultStream({})).toEqual({ ret: 0, stream: '0x0' });
    // A second set shares the context: no new one.
    expect((await rt.aclrtSetDevice({ deviceId: 1 })).ret).toBe(0);
    expect(host.state.contexts.size).toBe(1);
  });

  it('CX-1: aclrtCreateContext makes a context with a default stream of its own and makes it current; aclrtSetCurrentContext switches back', async () => {
    const { host, rt } = await session([ASCEND_910B2, ASCEND_910B2]);
    const primary = need((await rt.aclrtGetCurrentContext({})).context, 'primary');
    const made = await rt.aclrtCreateContext({ deviceId: 1 });
    expect(made.ret).toBe(0);
    const process = need(host.state.processes.get(rt.pid), 'process');
    expect(process.currentDevice).toBe(1);
    expect((await rt.aclrtGetCurrentContext({})).context).toBe(made.context);
    const own = need((await rt.aclrtCtxGetCurrentDefaultStream({})).stream, 'default stream');
    expect(own).not.toBe('0x0');
    // Work on NULL goes to this context's default stream.
    expect((await rt.aclrtStreamQuery({ stream: '0x0' })).ret).toBe(0);
    expect((await rt.aclrtSetCurrentContext({ context: primary })).ret).toBe(0);
    expect(process.currentDevice).toBe(0);
    expect((await rt.aclrtSetCurrentContext({ context: '0x0' })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtSetCurrentContext({ context: '0x123456' })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    expect((await rt.aclrtCreateContext({ deviceId: 7 })).ret).toBe(ACL_ERROR_RT_INVALID_DEVICEID);
  });

  it('CX-2: destroying a created context releases its events and streams; the default context cannot be destroyed', async () => {
    const { host, rt, events } = await session();
    const primary = need((await rt.aclrtGetCurrentContext({})).context, 'primary');
    const made = need((await rt.aclrtCreateContext({ deviceId: 0 })).context, 'context');
    expect((await rt.aclrtCreateStream({})).ret).toBe(0);
    expect((await rt.aclrtCreateEvent({})).ret).toBe(0);
    expect((await rt.aclrtDestroyContext({ context: primary })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    const mark = events.length;
    expect((await rt.aclrtDestroyContext({ context: made })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['eventDestroy', 'streamDestroy', 'streamDestroy', 'contextDestroy']);
    // The thread falls back to the device's default context.
    expect((await rt.aclrtGetCurrentContext({})).context).toBe(primary);
    expect((await rt.aclrtDestroyContext({ context: made })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    expect((await rt.aclrtDestroyContext({ context: '0x0' })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect([...host.state.contexts.values()].map((context) => context.isDefault)).toEqual([true]);
  });

  it('CX-2: a created context on a device never set: destroying it leaves no current context and no device', async () => {
    const host = new SimHost({ devices: [ASCEND_910B2] });
    const rt = new SimRuntime(host);
    const made = need((await rt.aclrtCreateContext({ deviceId: 0 })).context, 'context');
    expect((await rt.aclrtMalloc({ size: 4096, policy: 0 })).ret).toBe(0);
    expect((await rt.aclrtDestroyContext({ context: made })).ret).toBe(0);
    expect((await rt.aclrtGetCurrentContext({})).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    expect((await rt.aclrtMalloc({ size: 4096, policy: 0 })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
  });

  it('CX-3: a stream or event of another context is refused with 107003; teardown visits each context in turn', async () => {
    const { host, rt } = await session();
    const primary = need((await rt.aclrtGetCurrentContext({})).context, 'primary');
    const theirs = need((await rt.aclrtCreateStream({})).stream, 'primary stream');
    const made = need((await rt.aclrtCreateContext({ deviceId: 0 })).context, 'context');
    const event = need((await rt.aclrtCreateEvent({})).event, 'event');
    const mine = need((await rt.aclrtCreateStream({})).stream, 'stream');
    expect((await rt.aclrtDestroyStream({ stream: theirs })).ret).toBe(ACL_ERROR_RT_STREAM_CONTEXT);
    expect((await rt.aclrtRecordEvent({ event, stream: theirs })).ret).toBe(ACL_ERROR_RT_STREAM_CONTEXT);
    expect((await rt.aclrtStreamWaitEvent({ stream: theirs, event })).ret).toBe(ACL_ERROR_RT_STREAM_CONTEXT);
    expect((await rt.aclrtSetStreamFailureMode({ stream: theirs, mode: 1 })).ret).toBe(ACL_ERROR_RT_STREAM_CONTEXT);
    expect((await rt.aclrtRecordEvent({ event, stream: mine })).ret).toBe(0);
    expect((await rt.aclrtSetCurrentContext({ context: primary })).ret).toBe(0);
    const plan = planTeardown(host.state, rt.pid);
    expect(plan.map((call) => call.fn)).toEqual([
      'aclrtSetCurrentContext',
      'aclrtDestroyEvent',
      'aclrtDestroyStream',
      'aclrtDestroyContext',
      'aclrtDestroyStream',
      'aclrtResetDeviceForce',
      'aclFinalize',
    ]);
    expect(plan[0]?.args).toEqual({ context: made });
    for (const call of plan) expect((await invokeCall(rt, call)).ret, call.fn).toBe(0);
    expect([host.state.contexts.size, host.state.aclEvents.size, host.state.streams.size]).toEqual([0, 0, 0]);
    expect(planTeardown(host.state, rt.pid)).toEqual([]);
  });

  it('CX-3: an async copy or 2D copy on a stream of another context is refused with 107003', async () => {
    const { rt } = await session();
    const theirs = need((await rt.aclrtCreateStream({})).stream, 'primary stream');
    const pinned = need((await rt.aclrtMallocHost({ size: 4096 })).hostPtr, 'pinned');
    const dev = need((await rt.aclrtMalloc({ size: 4096, policy: 0 })).devPtr, 'dev');
    expect((await rt.aclrtCreateContext({ deviceId: 0 })).ret).toBe(0);
    const mine = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const copy = { dst: dev, destMax: 4096, src: pinned, count: 4096, kind: 1 };
    expect((await rt.aclrtMemcpyAsync({ ...copy, stream: theirs })).ret).toBe(ACL_ERROR_RT_STREAM_CONTEXT);
    expect((await rt.aclrtMemcpyAsync({ ...copy, stream: mine })).ret).toBe(0);
    const rows = { dst: dev, dpitch: 1024, src: pinned, spitch: 1024, width: 1024, height: 4, kind: 1 };
    expect((await rt.aclrtMemcpy2dAsync({ ...rows, stream: theirs })).ret).toBe(ACL_ERROR_RT_STREAM_CONTEXT);
    expect((await rt.aclrtMemcpy2dAsync({ ...rows, stream: mine })).ret).toBe(0);
  });
});
