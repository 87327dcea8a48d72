import { describe, expect, it } from 'vitest';
import { aclrtMemcpyKind } from '../../src/acl/enums.ts';
import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT } from '../../src/acl/errors.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { effectKinds, need, POLICY, session } from './harness.ts';

const MiB = 1024 * 1024;
const K = aclrtMemcpyKind.byName;

/** A stream with one 64 MiB pinned H2D copy queued on it: its work ends `busyUntil` ns from now. */
async function busyStream() {
  const s = await session();
  const { rt, host } = s;
  const pinned = need((await rt.aclrtMallocHost({ size: 64 * MiB })).hostPtr, 'pinned');
  const dev = need((await rt.aclrtMalloc({ size: 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'dev');
  const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
  const copied = await rt.aclrtMemcpyAsync({
    dst: dev,
    destMax: 64 * MiB,
    src: pinned,
    count: 64 * MiB,
    kind: K.ACL_MEMCPY_HOST_TO_DEVICE,
    stream,
  });
  expect(copied.ret).toBe(0);
  const copy = need(host.state.copies.at(-1), 'copy');
  return { ...s, stream, remainingNs: copy.end - host.state.time, end: copy.end };
}

describe('CP-5: aclrtSynchronizeStreamWithTimeout', () => {
  it('CP-5: -1 waits for ever, like aclrtSynchronizeStream', async () => {
    const { rt, host, events, stream, end } = await busyStream();
    const mark = events.length;
    expect((await rt.aclrtSynchronizeStreamWithTimeout({ stream, timeout: -1 })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['sync']);
    expect(host.state.time).toBe(end);
  });

  it('CP-5: a timeout longer than the remaining work waits for the work', async () => {
    const { rt, host, stream, remainingNs, end } = await busyStream();
    const timeoutMs = Math.ceil(remainingNs / 1e6) + 1;
    expect((await rt.aclrtSynchronizeStreamWithTimeout({ stream, timeout: timeoutMs })).ret).toBe(0);
    expect(host.state.time).toBe(end);
  });

  it('CP-5: a timeout shorter than the remaining work answers 507046 after the timeout, and the work goes on', async () => {
    const { rt, host, events, stream, remainingNs, end } = await busyStream();
    const timeoutMs = 1;
    expect(remainingNs).toBeGreaterThan(timeoutMs * 1e6);
    const before = host.state.time;
    const mark = events.length;
    const result = await rt.aclrtSynchronizeStreamWithTimeout({ stream, timeout: timeoutMs });
    expect(result).toMatchObject({ ret: ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, message: expect.stringContaining('CP-5') });
    // The host waited exactly the timeout; the copy still ends when it would have.
    expect(effectKinds(events, mark)).toEqual(['sync']);
    expect(host.state.time).toBe(before + timeoutMs * 1e6);
    expect(need(host.state.copies.at(-1), 'copy').end).toBe(end);
    // A later plain synchronize still waits for the rest.
    expect((await rt.aclrtSynchronizeStream({ stream })).ret).toBe(0);
    expect(host.state.time).toBe(end);
  });

  it('CP-5: nothing queued: success at once, no sync event, the clock stays', async () => {
    const { rt, host, events } = await session();
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const t = host.state.time;
    const mark = events.length;
    expect((await rt.aclrtSynchronizeStreamWithTimeout({ stream, timeout: 10 })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual([]);
    expect(host.state.time).toBe(t);
  });

  it.each([0, -2, -1000])('CP-5: timeout %d is neither -1 nor positive: 100000', async (timeout) => {
    const { rt } = await session();
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    expect((await rt.aclrtSynchronizeStreamWithTimeout({ stream, timeout })).ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it('CP-5: a stream that is not live: 107000', async () => {
    const { rt } = await session();
    expect((await rt.aclrtSynchronizeStreamWithTimeout({ stream: '0x12345', timeout: 5 })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
  });

  it('CP-5, LT-2: before aclrtSetDevice it fails like every stream call', async () => {
    const rt = new SimRuntime(new SimHost());
    await rt.aclInit({ configPath: null });
    const result = await rt.aclrtSynchronizeStreamWithTimeout({ stream: '0x0', timeout: 5 });
    expect(result.ret).not.toBe(0);
    expect((await rt.aclrtSynchronizeStream({ stream: '0x0' })).ret).toBe(result.ret);
  });
});
