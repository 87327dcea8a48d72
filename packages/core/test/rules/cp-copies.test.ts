import { describe, expect, it } from 'vitest';
import { aclrtMemcpyKind } from '../../src/acl/enums.ts';
import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_STREAM_SYNC_TIMEOUT } from '../../src/acl/errors.ts';
import { fingerprint } from '../../src/model/snapshot.ts';
import type { CopyRecord } from '../../src/model/state.ts';
import { ASCEND_910B2, ASCEND_910B4 } from '../../src/profiles/builtin.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { type Hex, toHex } from '../../src/units/hex.ts';
import { addressOf, effectKinds, need, POLICY, session } from './harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const K = aclrtMemcpyKind.byName;

interface Buffers {
  readonly pinned: Hex;
  readonly pinned2: Hex;
  readonly pageable: Hex;
  readonly dev: Hex;
  readonly dev2: Hex;
}

async function buffers(rt: SimRuntime, size = 64 * KiB): Promise<Buffers> {
  return {
    pinned: need((await rt.aclrtMallocHost({ size })).hostPtr, 'pinned'),
    pinned2: need((await rt.aclrtMallocHost({ size })).hostPtr, 'pinned2'),
    pageable: need((await rt.malloc({ size })).ptr, 'pageable'),
    dev: need((await rt.aclrtMallocAlign32({ size, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'dev'),
    dev2: need((await rt.aclrtMallocAlign32({ size, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'dev2'),
  };
}

const lastCopy = (copies: readonly CopyRecord[]): CopyRecord => need(copies.at(-1), 'copy');

describe('CP: copies and streams', () => {
  it('CP-1: count 0 succeeds at once and moves nothing, even with NULL pointers', async () => {
    const { host, rt, events } = await session();
    const mark = events.length;
    const t0 = host.state.time;
    expect((await rt.aclrtMemcpy({ dst: '0x0', destMax: 0, src: '0x0', count: 0, kind: K.ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual([]);
    expect([host.state.copies.length, host.state.time]).toEqual([0, t0]);
  });

  it('CP-1: count > destMax → 100000', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt);
    expect(
      (await rt.aclrtMemcpy({ dst: b.dev, destMax: 4 * KiB, src: b.pinned, count: 4 * KiB + 1, kind: K.ACL_MEMCPY_HOST_TO_DEVICE })).ret,
    ).toBe(ACL_ERROR_INVALID_PARAM);
    expect(
      (await rt.aclrtMemcpy({ dst: b.dev, destMax: 4 * KiB, src: b.pinned, count: 4 * KiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE })).ret,
    ).toBe(0);
    expect(host.state.copies.map((c) => c.bytes)).toEqual([4 * KiB]);
  });

  it('CP-1: kinds 6 and 7 (and anything outside 0–7) are rejected by aclrtMemcpy and aclrtMemcpyAsync; 0–5 are accepted', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt);
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    for (const kind of [K.ACL_MEMCPY_INNER_DEVICE_TO_DEVICE, K.ACL_MEMCPY_INTER_DEVICE_TO_DEVICE, 8, -1]) {
      const args = { dst: b.dev2, destMax: 4 * KiB, src: b.dev, count: 4 * KiB, kind };
      expect((await rt.aclrtMemcpy(args)).ret, `kind ${kind}`).toBe(ACL_ERROR_INVALID_PARAM);
      expect((await rt.aclrtMemcpyAsync({ ...args, stream })).ret, `kind ${kind}`).toBe(ACL_ERROR_INVALID_PARAM);
    }
    expect(host.state.copies).toHaveLength(0);
    const accepted: [number, Hex, Hex][] = [
      [K.ACL_MEMCPY_HOST_TO_HOST, b.pinned2, b.pinned],
      [K.ACL_MEMCPY_HOST_TO_DEVICE, b.dev, b.pinned],
      [K.ACL_MEMCPY_DEVICE_TO_HOST, b.pinned, b.dev],
      [K.ACL_MEMCPY_DEVICE_TO_DEVICE, b.dev2, b.dev],
      [K.ACL_MEMCPY_DEFAULT, b.dev, b.pinned],
      [K.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, b.dev, b.pinned],
    ];
    for (const [kind, dst, src] of accepted) {
      expect((await rt.aclrtMemcpy({ dst, destMax: 4 * KiB, src, count: 4 * KiB, kind })).ret, `kind ${kind}`).toBe(0);
    }
    expect(host.state.copies.map((c) => c.memcpyKind)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('CP-1: aclrtMemcpy is synchronous: the host clock moves to the end of the copy', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt, 8 * MiB);
    const t0 = host.state.time;
    expect(
      (await rt.aclrtMemcpy({ dst: b.dev, destMax: 8 * MiB, src: b.pinned, count: 8 * MiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE })).ret,
    ).toBe(0);
    const copy = lastCopy(host.state.copies);
    expect(copy.mode).toBe('sync');
    expect(copy.end).toBeGreaterThan(t0);
    expect(host.state.time).toBe(copy.end);
  });

  it('CP-2: each kind moves data in one direction; the wrong side → 100000', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt);
    const wrong: [string, number, Hex, Hex][] = [
      ['HOST_TO_DEVICE from device to host', K.ACL_MEMCPY_HOST_TO_DEVICE, b.pinned, b.dev],
      ['HOST_TO_DEVICE host to host', K.ACL_MEMCPY_HOST_TO_DEVICE, b.pinned2, b.pinned],
      ['DEVICE_TO_HOST from host to device', K.ACL_MEMCPY_DEVICE_TO_HOST, b.dev, b.pinned],
      ['DEVICE_TO_DEVICE with a host source', K.ACL_MEMCPY_DEVICE_TO_DEVICE, b.dev, b.pinned],
      ['HOST_TO_HOST with a device side', K.ACL_MEMCPY_HOST_TO_HOST, b.pinned, b.dev],
      ['HOST_TO_BUF_TO_DEVICE from device to host', K.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE, b.pinned, b.dev],
    ];
    for (const [what, kind, dst, src] of wrong) {
      expect((await rt.aclrtMemcpy({ dst, destMax: 4 * KiB, src, count: 4 * KiB, kind })).ret, what).toBe(ACL_ERROR_INVALID_PARAM);
    }
    expect(host.state.copies).toHaveLength(0);
  });

  it('CP-2: DEFAULT takes the direction from the addresses; each path is named', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt);
    const rows: [Hex, Hex, string][] = [
      [b.dev, b.pinned, 'pinned'],
      [b.pinned, b.dev, 'pinned'],
      [b.dev2, b.dev, 'device'],
      [b.pinned2, b.pinned, 'host'],
      [b.dev, b.pageable, 'pageable-staged'],
    ];
    for (const [dst, src, path] of rows) {
      expect((await rt.aclrtMemcpy({ dst, destMax: 4 * KiB, src, count: 4 * KiB, kind: K.ACL_MEMCPY_DEFAULT })).ret).toBe(0);
      expect(lastCopy(host.state.copies).path).toBe(path);
    }
    // HOST_TO_BUF_TO_DEVICE goes through the staging buffer even from pinned memory.
    expect(
      (await rt.aclrtMemcpy({ dst: b.dev, destMax: 4 * KiB, src: b.pinned, count: 4 * KiB, kind: K.ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE })).ret,
    ).toBe(0);
    expect(lastCopy(host.state.copies).path).toBe('pageable-staged');
  });

  it('CP-2: source and destination must lie in live allocations and be large enough', async () => {
    const { host, rt } = await session();
    const dev = need((await rt.aclrtMalloc({ size: 4 * KiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr, 'dev');
    const hostPtr = need((await rt.aclrtMallocHost({ size: 8 * KiB })).hostPtr, 'host');
    const h2d = (dst: Hex, src: Hex, count: number) =>
      rt.aclrtMemcpy({ dst, destMax: 8 * KiB, src, count, kind: K.ACL_MEMCPY_HOST_TO_DEVICE });
    const offset = (ptr: Hex, by: number) => toHex(addressOf(ptr) + by);
    // The device allocation is 4096 B (padded to 4160 B): its padding is not the caller's.
    expect((await h2d(dev, hostPtr, 4 * KiB + 1)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await h2d(offset(dev, 4000), hostPtr, 97)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await h2d(dev, offset(hostPtr, 8 * KiB - 100), 101)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await h2d(toHex(addressOf(dev) + 64 * MiB), hostPtr, 16)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtFree({ devPtr: dev })).ret).toBe(0);
    expect((await h2d(dev, hostPtr, 16)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(host.state.copies).toHaveLength(0);
    const live = need((await rt.aclrtMalloc({ size: 4 * KiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr, 'live');
    expect((await h2d(offset(live, 4000), hostPtr, 96)).ret).toBe(0);
  });

  it('CP-3: a pinned 1 GiB host-to-device copy on 910B4 takes 40–50 ms at 0.85 × the link peak', async () => {
    const { host, rt } = await session([ASCEND_910B4]);
    const src = need((await rt.aclrtMallocHost({ size: GiB })).hostPtr, 'src');
    const dst = need((await rt.aclrtMallocAlign32({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).devPtr, 'dst');
    expect((await rt.aclrtMemcpy({ dst, destMax: GiB, src, count: GiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    const copy = lastCopy(host.state.copies);
    const peak = ASCEND_910B4.bandwidth.hostLinkBytesPerSec;
    expect(copy.bytesPerSec / peak).toBeGreaterThanOrEqual(0.8);
    expect(copy.bytesPerSec / peak).toBeLessThanOrEqual(0.9);
    // 2^30 B at 27e9 × 0.85 = 22.95 GB/s ≈ 46.79 ms, plus 10 µs latency.
    const ms = (copy.end - copy.start) / 1e6;
    expect(ms).toBeGreaterThan(40);
    expect(ms).toBeLessThan(50);
  });

  it('CP-3: the same copy from pageable memory is slower (0.3–1.0 × pinned) and staged in 512 chunks of 2 MiB', async () => {
    const { host, rt } = await session([ASCEND_910B4]);
    const pinned = need((await rt.aclrtMallocHost({ size: GiB })).hostPtr, 'pinned');
    const pageable = need((await rt.malloc({ size: GiB })).ptr, 'pageable');
    const dst = need((await rt.aclrtMallocAlign32({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).devPtr, 'dst');
    expect((await rt.aclrtMemcpy({ dst, destMax: GiB, src: pinned, count: GiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    const fast = lastCopy(host.state.copies);
    expect((await rt.aclrtMemcpy({ dst, destMax: GiB, src: pageable, count: GiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    const slow = lastCopy(host.state.copies);
    expect([slow.path, slow.stages]).toEqual(['pageable-staged', 512]);
    const ratio = slow.bytesPerSec / fast.bytesPerSec;
    expect(ratio).toBeGreaterThanOrEqual(0.3);
    expect(ratio).toBeLessThan(1);
    expect(slow.end - slow.start).toBeGreaterThan(fast.end - fast.start);
  });

  it('CP-3: device to device runs at HBM speed, far above the host link; time is deterministic for a seed', async () => {
    const run = async (seed: number) => {
      const { host, rt } = await session([ASCEND_910B2], seed);
      const b = await buffers(rt, 256 * MiB);
      expect(
        (await rt.aclrtMemcpy({ dst: b.dev2, destMax: 256 * MiB, src: b.dev, count: 256 * MiB, kind: K.ACL_MEMCPY_DEVICE_TO_DEVICE })).ret,
      ).toBe(0);
      const d2d = lastCopy(host.state.copies);
      expect(
        (await rt.aclrtMemcpy({ dst: b.dev, destMax: 256 * MiB, src: b.pageable, count: 256 * MiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE }))
          .ret,
      ).toBe(0);
      return { d2d, pageable: lastCopy(host.state.copies) };
    };
    const a = await run(1);
    const hbm = ASCEND_910B2.bandwidth.deviceBytesPerSec;
    expect(a.d2d.path).toBe('device');
    expect(a.d2d.bytesPerSec).toBeGreaterThanOrEqual(0.5 * hbm);
    expect(a.d2d.bytesPerSec).toBeLessThanOrEqual(hbm);
    expect(a.d2d.bytesPerSec).toBeGreaterThan(10 * ASCEND_910B2.bandwidth.hostLinkBytesPerSec);
    const again = await run(1);
    const other = await run(2);
    expect(again.pageable.bytesPerSec).toBe(a.pageable.bytesPerSec);
    expect(again.pageable.end).toBe(a.pageable.end);
    expect(other.pageable.bytesPerSec).not.toBe(a.pageable.bytesPerSec);
  });

  it('CP-4: async copies on two streams overlap; on one stream they run in order', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt, 32 * MiB);
    const s1 = need((await rt.aclrtCreateStream({})).stream, 's1');
    const s2 = need((await rt.aclrtCreateStream({})).stream, 's2');
    const size = { destMax: 32 * MiB, count: 32 * MiB };
    const now = host.state.time;
    // Host-to-device on s1 and device-to-host on s2 use different link directions.
    expect((await rt.aclrtMemcpyAsync({ ...size, dst: b.dev, src: b.pinned, kind: K.ACL_MEMCPY_HOST_TO_DEVICE, stream: s1 })).ret).toBe(0);
    expect((await rt.aclrtMemcpyAsync({ ...size, dst: b.pinned2, src: b.dev2, kind: K.ACL_MEMCPY_DEVICE_TO_HOST, stream: s2 })).ret).toBe(
      0,
    );
    const [first, second] = host.state.copies.map((c) => c);
    expect(host.state.time).toBe(now);
    expect([first?.start, second?.start]).toEqual([now, now]);
    expect(need(second, 'second').start).toBeLessThan(need(first, 'first').end);
    // The same two copies on one stream: the second starts when the first ends.
    expect((await rt.aclrtSynchronizeDevice({})).ret).toBe(0);
    const later = host.state.time;
    expect((await rt.aclrtMemcpyAsync({ ...size, dst: b.dev, src: b.pinned, kind: K.ACL_MEMCPY_HOST_TO_DEVICE, stream: s1 })).ret).toBe(0);
    expect((await rt.aclrtMemcpyAsync({ ...size, dst: b.pinned2, src: b.dev2, kind: K.ACL_MEMCPY_DEVICE_TO_HOST, stream: s1 })).ret).toBe(
      0,
    );
    const [third, fourth] = host.state.copies.slice(2);
    expect(third?.start).toBe(later);
    expect(fourth?.start).toBe(third?.end);
  });

  it('CP-4: aclrtSynchronizeStream waits for that stream only and advances the clock to its last copy', async () => {
    const { host, rt, events } = await session();
    const b = await buffers(rt, 32 * MiB);
    const fast = need((await rt.aclrtCreateStream({})).stream, 'fast');
    const slow = need((await rt.aclrtCreateStream({})).stream, 'slow');
    expect(
      (
        await rt.aclrtMemcpyAsync({
          dst: b.dev,
          destMax: 4 * MiB,
          src: b.pinned,
          count: 4 * MiB,
          kind: K.ACL_MEMCPY_HOST_TO_DEVICE,
          stream: fast,
        })
      ).ret,
    ).toBe(0);
    expect(
      (
        await rt.aclrtMemcpyAsync({
          dst: b.pinned2,
          destMax: 32 * MiB,
          src: b.dev2,
          count: 32 * MiB,
          kind: K.ACL_MEMCPY_DEVICE_TO_HOST,
          stream: slow,
        })
      ).ret,
    ).toBe(0);
    const [small, big] = host.state.copies;
    expect(need(big, 'big').end).toBeGreaterThan(need(small, 'small').end);
    const mark = events.length;
    expect((await rt.aclrtSynchronizeStream({ stream: fast })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['sync']);
    expect(host.state.time).toBe(small?.end);
    expect((await rt.aclrtSynchronizeStream({ stream: slow })).ret).toBe(0);
    expect(host.state.time).toBe(big?.end);
    // Nothing left to wait for: no sync event, the clock stays.
    const settled = events.length;
    expect((await rt.aclrtSynchronizeStream({ stream: slow })).ret).toBe(0);
    expect(effectKinds(events, settled)).toEqual([]);
  });

  it('CP-4: two copies in the same direction on different streams share the link and queue (modeled)', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt, 32 * MiB);
    const s1 = need((await rt.aclrtCreateStream({})).stream, 's1');
    const s2 = need((await rt.aclrtCreateStream({})).stream, 's2');
    const args = { destMax: 32 * MiB, count: 32 * MiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE };
    expect((await rt.aclrtMemcpyAsync({ ...args, dst: b.dev, src: b.pinned, stream: s1 })).ret).toBe(0);
    expect((await rt.aclrtMemcpyAsync({ ...args, dst: b.dev2, src: b.pinned2, stream: s2 })).ret).toBe(0);
    const [first, second] = host.state.copies;
    expect(second?.start).toBe(first?.end);
  });

  it('CP-4: a destroyed stream is no longer a stream; the NULL stream is the default stream', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt);
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    expect((await rt.aclrtDestroyStream({ stream })).ret).toBe(0);
    const args = { dst: b.dev, destMax: 4 * KiB, src: b.pinned, count: 4 * KiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE };
    expect((await rt.aclrtMemcpyAsync({ ...args, stream })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await rt.aclrtSynchronizeStream({ stream })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await rt.aclrtDestroyStream({ stream })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await rt.aclrtMemcpyAsync({ ...args, stream: '0x0' })).ret).toBe(0);
    const defaultStream = [...host.state.streams.values()].find((s) => s.isDefault);
    expect(lastCopy(host.state.copies).stream).toBe(defaultStream?.id);
    expect((await rt.aclrtSynchronizeStream({ stream: '0x0' })).ret).toBe(0);
    expect(host.state.time).toBe(lastCopy(host.state.copies).end);
  });
});

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

  // The runtime refuses these with 107000 (runtime-api.md §10: the acl layer below -1, the runtime layer 0).
  it.each([0, -2, -1000])('CP-5: timeout %d is neither -1 nor positive: 107000', async (timeout) => {
    const { rt } = await session();
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    expect((await rt.aclrtSynchronizeStreamWithTimeout({ stream, timeout })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
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

describe('CP-6, CP-7: stream status and failure mode', () => {
  it('CP-6: aclrtStreamQuery answers NOT_READY while the queued work runs and COMPLETE after, and never waits', async () => {
    const { host, rt } = await session();
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    expect(await rt.aclrtStreamQuery({ stream })).toEqual({ ret: 0, status: 0 });
    const { pinned, dev } = await buffers(rt, 64 * MiB);
    expect(
      (await rt.aclrtMemcpyAsync({ dst: dev, destMax: 64 * MiB, src: pinned, count: 64 * MiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE, stream }))
        .ret,
    ).toBe(0);
    const t = host.state.time;
    expect(await rt.aclrtStreamQuery({ stream })).toEqual({ ret: 0, status: 1 });
    expect(host.state.time).toBe(t);
    expect((await rt.aclrtSynchronizeStream({ stream })).ret).toBe(0);
    expect(await rt.aclrtStreamQuery({ stream })).toEqual({ ret: 0, status: 0 });
    expect((await rt.aclrtStreamQuery({ stream: '0x0' })).ret).toBe(0);
    expect((await rt.aclrtStreamQuery({ stream: '0x12345' })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
  });

  it("CP-7: stop-on-failure applies to the context's streams and cannot go back; destroy waits, the forced destroy does not", async () => {
    const { host, rt } = await session();
    const a = need((await rt.aclrtCreateStream({})).stream, 'a');
    const b = need((await rt.aclrtCreateStream({})).stream, 'b');
    expect((await rt.aclrtSetStreamFailureMode({ stream: a, mode: 0 })).ret).toBe(0);
    expect((await rt.aclrtSetStreamFailureMode({ stream: a, mode: 1 })).ret).toBe(0);
    expect([...host.state.streams.values()].map((stream) => stream.failureMode)).toEqual([1, 1, 1]);
    expect((await rt.aclrtSetStreamFailureMode({ stream: b, mode: 1 })).ret).toBe(0);
    expect((await rt.aclrtSetStreamFailureMode({ stream: b, mode: 0 })).ret).toBe(207000);
    const { pinned, dev } = await buffers(rt, 64 * MiB);
    const copy = { dst: dev, destMax: 64 * MiB, src: pinned, count: 64 * MiB, kind: K.ACL_MEMCPY_HOST_TO_DEVICE };
    expect((await rt.aclrtMemcpyAsync({ ...copy, stream: a })).ret).toBe(0);
    const t = host.state.time;
    expect((await rt.aclrtDestroyStreamForce({ stream: a })).ret).toBe(0);
    expect(host.state.time).toBe(t);
    expect((await rt.aclrtMemcpyAsync({ ...copy, stream: b })).ret).toBe(0);
    expect((await rt.aclrtDestroyStream({ stream: b })).ret).toBe(0);
    expect(host.state.time).toBe(lastCopy(host.state.copies).end);
  });
});

describe('CP-8 … CP-10: async memset, 2D copies, cache maintenance', () => {
  it('CP-8: aclrtMemsetAsync is a memset on a live stream of the current context; count 0 succeeds even with NULL', async () => {
    const { rt, events } = await session();
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const { dev } = await buffers(rt);
    expect((await rt.aclrtMemsetAsync({ devPtr: '0x0', maxCount: 0, value: 0, count: 0, stream: '0x5555' })).ret).toBe(0);
    const mark = events.length;
    expect((await rt.aclrtMemsetAsync({ devPtr: dev, maxCount: 64 * KiB, value: 7, count: 4 * KiB, stream })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['memset']);
    expect((await rt.aclrtMemsetAsync({ devPtr: dev, maxCount: 64 * KiB, value: 7, count: 4 * KiB, stream: '0x5555' })).ret).toBe(
      ACL_ERROR_RT_PARAM_INVALID,
    );
    expect((await rt.aclrtMemsetAsync({ devPtr: dev, maxCount: KiB, value: 7, count: 4 * KiB, stream })).ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it('CP-9: a 2D copy moves height rows of width bytes; each side spans (height − 1) × pitch + width', async () => {
    const { host, rt } = await session();
    const { pinned, dev } = await buffers(rt, 64 * KiB);
    // 16 rows of 1 KiB, 4 KiB apart on both sides: spans 61 KiB + 1 KiB = 61,440 + 1,024 bytes.
    const args = { dst: dev, dpitch: 4 * KiB, src: pinned, spitch: 4 * KiB, width: KiB, height: 16, kind: K.ACL_MEMCPY_HOST_TO_DEVICE };
    expect((await rt.aclrtMemcpy2d(args)).ret).toBe(0);
    expect(lastCopy(host.state.copies)).toMatchObject({ fn: 'aclrtMemcpy2d', bytes: 16 * KiB, path: 'pinned', mode: 'sync' });
    expect((await rt.aclrtMemcpy2d({ ...args, height: 17 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemcpy2d({ ...args, width: 5 * KiB })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemcpy2d({ ...args, dst: '0x0' })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemcpy2d({ ...args, kind: K.ACL_MEMCPY_DEVICE_TO_DEVICE })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemcpy2d({ ...args, height: 0 })).ret).toBe(0);
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const t = host.state.time;
    expect((await rt.aclrtMemcpy2dAsync({ ...args, stream })).ret).toBe(0);
    expect(lastCopy(host.state.copies)).toMatchObject({ fn: 'aclrtMemcpy2dAsync', mode: 'async', bytes: 16 * KiB });
    expect(host.state.time).toBe(t);
    const { dev2 } = await buffers(rt, 64 * KiB);
    expect((await rt.aclrtMemcpy2dAsync({ ...args, src: dev2, kind: K.ACL_MEMCPY_DEVICE_TO_DEVICE, stream })).ret).toBe(0);
    expect(lastCopy(host.state.copies).path).toBe('device');
  });

  it('CP-10: aclrtMemFlush and aclrtMemInvalidate check the range and change nothing', async () => {
    const { host, rt } = await session();
    const { dev, pageable } = await buffers(rt);
    const before = fingerprint(host.state).replace(/"seq":\d+/, '');
    expect((await rt.aclrtMemFlush({ devPtr: dev, size: 64 * KiB })).ret).toBe(0);
    expect((await rt.aclrtMemInvalidate({ devPtr: dev, size: 4 * KiB })).ret).toBe(0);
    expect(fingerprint(host.state).replace(/"seq":\d+/, '')).toBe(before);
    expect((await rt.aclrtMemFlush({ devPtr: dev, size: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemFlush({ devPtr: '0x0', size: 4 * KiB })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemInvalidate({ devPtr: dev, size: 65 * KiB })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemFlush({ devPtr: pageable, size: 4 * KiB })).ret).toBe(0);
  });
});

describe('CP-11, CP-12: batched copies and stream value tasks', () => {
  const L = { HOST: 0, DEVICE: 1 };
  const h2d = { dstLoc: { id: 0, type: L.DEVICE }, srcLoc: { id: 0, type: L.HOST } };
  const d2h = { dstLoc: { id: 0, type: L.HOST }, srcLoc: { id: 0, type: L.DEVICE } };

  it('CP-11: every copy is checked against its attribute run before any moves; failIndex names the first that fails', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt);
    const args = {
      dsts: [b.dev, b.dev2],
      destMaxs: [64 * KiB, 64 * KiB],
      srcs: [b.pinned, b.pageable],
      sizes: [4 * KiB, 8 * KiB],
      numBatches: 2,
      attrs: [h2d],
      attrsIndexes: [0],
      numAttrs: 1,
    };
    const good = await rt.aclrtMemcpyBatch(args);
    expect([good.ret, good.failIndex]).toEqual([0, -1]);
    expect(host.state.copies.map((c) => [c.fn, c.bytes, c.path])).toEqual([
      ['aclrtMemcpyBatch', 4 * KiB, 'pinned'],
      ['aclrtMemcpyBatch', 8 * KiB, 'pageable-staged'],
    ]);
    // Run 1 (copy 1 on) says device → host, but copy 1 goes host → device: copy 1 fails, copy 0 is not made either.
    const wrong = await rt.aclrtMemcpyBatch({ ...args, attrs: [h2d, d2h], attrsIndexes: [0, 1], numAttrs: 2 });
    expect([wrong.ret, wrong.failIndex]).toEqual([ACL_ERROR_RT_PARAM_INVALID, 1]);
    expect(host.state.copies).toHaveLength(2);
    // A device location names the wrong device.
    const otherDevice = await rt.aclrtMemcpyBatch({ ...args, attrs: [{ ...h2d, dstLoc: { id: 1, type: L.DEVICE } }] });
    expect([otherDevice.ret, otherDevice.failIndex]).toEqual([ACL_ERROR_RT_PARAM_INVALID, 0]);
    // Device to device is not a batch direction.
    const d2d = await rt.aclrtMemcpyBatch({ ...args, srcs: [b.dev2, b.dev], attrs: [{ ...h2d, srcLoc: { id: 0, type: L.DEVICE } }] });
    expect([d2d.ret, d2d.failIndex]).toEqual([ACL_ERROR_RT_PARAM_INVALID, 0]);
    // The acl layer's checks: 100000, failIndex untouched.
    for (const bad of [
      { ...args, numBatches: 0 },
      { ...args, sizes: [] },
      { ...args, destMaxs: [KiB, 64 * KiB] },
      { ...args, attrs: [{ ...h2d, rsv: [1] }] },
      { ...args, dsts: [b.dev] },
      // Fewer attribute entries than numAttrs says.
      { ...args, numAttrs: 2 },
    ]) {
      const answer = await rt.aclrtMemcpyBatch(bad);
      expect([answer.ret, answer.failIndex]).toEqual([ACL_ERROR_INVALID_PARAM, undefined]);
    }
    // The runtime's checks of the runs: 107000 with failIndex SIZE_MAX.
    for (const bad of [
      { ...args, numAttrs: 0 },
      { ...args, attrs: [h2d, h2d, h2d], attrsIndexes: [0, 1, 2], numAttrs: 3 },
      { ...args, attrsIndexes: [1] },
      { ...args, attrs: [h2d, h2d], attrsIndexes: [0, 0], numAttrs: 2 },
    ]) {
      const answer = await rt.aclrtMemcpyBatch(bad);
      expect([answer.ret, answer.failIndex]).toEqual([ACL_ERROR_RT_PARAM_INVALID, -1]);
    }
    // Every size 0: success with nothing checked, not even the runs.
    const empty = await rt.aclrtMemcpyBatch({ ...args, sizes: [0, 0], numAttrs: 0, dsts: [], attrs: [] });
    expect([empty.ret, empty.failIndex]).toEqual([0, -1]);
    expect(host.state.copies).toHaveLength(2);
  });

  it('CP-11: the async form queues its copies on the stream; pageable host memory makes it block (HM-3)', async () => {
    const { host, rt } = await session();
    const b = await buffers(rt);
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const args = { destMaxs: [64 * KiB], sizes: [64 * KiB], numBatches: 1, attrs: [d2h], attrsIndexes: [0], numAttrs: 1, stream };
    const t = host.state.time;
    expect((await rt.aclrtMemcpyBatchAsync({ ...args, dsts: [b.pinned], srcs: [b.dev] })).ret).toBe(0);
    expect(lastCopy(host.state.copies)).toMatchObject({ fn: 'aclrtMemcpyBatchAsync', mode: 'async' });
    expect(host.state.time).toBe(t);
    expect((await rt.aclrtMemcpyBatchAsync({ ...args, dsts: [b.pageable], srcs: [b.dev] })).ret).toBe(0);
    expect(lastCopy(host.state.copies)).toMatchObject({ mode: 'async-blocking' });
    expect((await rt.aclrtMemcpyBatchAsync({ ...args, dsts: [b.pinned], srcs: [b.dev], stream: '0x5555' })).ret).toBe(
      ACL_ERROR_RT_PARAM_INVALID,
    );
  });

  it('CP-12: a wait is met by the last write queued to its word; the stream then starts no earlier than the write lands', async () => {
    const { host, rt, events } = await session();
    const { dev } = await buffers(rt);
    const producer = need((await rt.aclrtCreateStream({})).stream, 'producer');
    const consumer = need((await rt.aclrtCreateStream({})).stream, 'consumer');
    // A long copy keeps the producer busy, so its write lands late.
    const big = need((await rt.aclrtMallocHost({ size: 64 * MiB })).hostPtr, 'big');
    const devBig = need((await rt.aclrtMalloc({ size: 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'devBig');
    await rt.aclrtMemcpyAsync({
      dst: devBig,
      destMax: 64 * MiB,
      src: big,
      count: 64 * MiB,
      kind: K.ACL_MEMCPY_HOST_TO_DEVICE,
      stream: producer,
    });
    expect((await rt.aclrtValueWrite({ devAddr: dev, value: 5, flag: 0, stream: producer })).ret).toBe(0);
    const write = need(
      events.findLast((e) => e.kind === 'valueWrite'),
      'valueWrite',
    );
    const EQ = 1;
    const GEQ = 0;
    const waitReasons = () => {
      const last = need(
        events.findLast((e) => e.kind === 'valueWait'),
        'valueWait',
      );
      return last.kind === 'valueWait' ? last.reasons.map((r) => r.code) : [];
    };
    expect((await rt.aclrtValueWait({ devAddr: dev, value: 5, flag: EQ, stream: consumer })).ret).toBe(0);
    expect(waitReasons()).toEqual([]);
    const waited = need(
      events.findLast((e) => e.kind === 'valueWait'),
      'valueWait',
    );
    expect(waited).toMatchObject({ met: true, until: write.kind === 'valueWrite' ? write.at : -1 });
    const consumerStream = [...host.state.streams.values()].find((s) => s.handle === Number(consumer));
    expect(consumerStream?.busyUntil).toBe(write.kind === 'valueWrite' ? write.at : -1);
    // GEQ on 5 ≥ 3 is met; EQ 6 is not: the simulator does not hold the stream and says so.
    expect((await rt.aclrtValueWait({ devAddr: dev, value: 3, flag: GEQ, stream: consumer })).ret).toBe(0);
    expect((await rt.aclrtValueWait({ devAddr: dev, value: 6, flag: EQ, stream: consumer })).ret).toBe(0);
    expect(waitReasons()).toEqual(['value-wait-unmet']);
    expect(
      need(
        events.findLast((e) => e.kind === 'valueWait'),
        'unmet',
      ),
    ).toMatchObject({ met: false });
    // Errors: NULL, unaligned, host memory, a reserved flag, an unknown condition, an unknown stream.
    const { pinned } = await buffers(rt);
    expect((await rt.aclrtValueWrite({ devAddr: '0x0', value: 1, flag: 0, stream: producer })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtValueWrite({ devAddr: toHex(Number(dev) + 4), value: 1, flag: 0, stream: producer })).ret).toBe(
      ACL_ERROR_RT_PARAM_INVALID,
    );
    expect((await rt.aclrtValueWrite({ devAddr: pinned, value: 1, flag: 0, stream: producer })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtValueWrite({ devAddr: dev, value: 1, flag: 1, stream: producer })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtValueWait({ devAddr: dev, value: 1, flag: 4, stream: consumer })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtValueWait({ devAddr: dev, value: 1, flag: EQ, stream: '0x5555' })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
  });
});
