import { describe, expect, it } from 'vitest';
import { aclrtMemAttr, aclrtMemcpyKind } from '../../src/acl/enums.ts';
import {
  ACL_ERROR_INVALID_PARAM,
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INVALID_DEVICEID,
  ACL_ERROR_RT_MEMORY_ALLOCATION,
  ACL_ERROR_RT_PARAM_INVALID,
} from '../../src/acl/errors.ts';
import type { CallEvent } from '../../src/model/events.ts';
import type { MallocFn } from '../../src/model/malloc-policy.ts';
import { devicePools } from '../../src/model/pools.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { DEVICE_VA_BASE, DEVICE_VA_WINDOW, PAGEABLE_BASE, PINNED_HOST_BASE, PINNED_HOST_SIZE } from '../../src/sim/layout.ts';
import type { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { type Hex, toHex } from '../../src/units/hex.ts';
import { addressOf, allocationAt, codes, lastCallReasons, need, otherProcess, POLICY, profileFrom, reasonsOf, session } from './harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const ATTR = aclrtMemAttr.byName;
const { ACL_MEMCPY_HOST_TO_DEVICE } = aclrtMemcpyKind.byName;

function mallocBy(rt: SimRuntime, fn: MallocFn, size: number, policy: number) {
  switch (fn) {
    case 'aclrtMalloc':
      return rt.aclrtMalloc({ size, policy });
    case 'aclrtMallocAlign32':
      return rt.aclrtMallocAlign32({ size, policy });
    case 'aclrtMallocCached':
      return rt.aclrtMallocCached({ size, policy });
    case 'aclrtMallocWithCfg':
      return rt.aclrtMallocWithCfg({ size, policy, cfg: null });
  }
}

function lastCall(events: readonly { kind: string }[]): CallEvent {
  const call = [...events].reverse().find((event): event is CallEvent => event.kind === 'call');
  return need(call, 'call event');
}

describe('DM: device memory (aclrtMalloc family)', () => {
  it('DM-1: device and host memory live in different address windows; aclrtFree refuses a host pointer and aclrtFreeHost a device pointer', async () => {
    const { host, rt } = await session();
    const dev = addressOf((await rt.aclrtMalloc({ size: 4096, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr);
    const pinned = addressOf((await rt.aclrtMallocHost({ size: 4096 })).hostPtr);
    const pageable = addressOf((await rt.malloc({ size: 4096 })).ptr);
    expect(dev >= DEVICE_VA_BASE && dev < DEVICE_VA_BASE + DEVICE_VA_WINDOW).toBe(true);
    expect(pinned >= PINNED_HOST_BASE && pinned < PINNED_HOST_BASE + PINNED_HOST_SIZE).toBe(true);
    expect(pageable).toBeGreaterThanOrEqual(PAGEABLE_BASE);
    expect((await rt.aclrtFree({ devPtr: toHex(pinned) })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtFree({ devPtr: toHex(pageable) })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtFreeHost({ hostPtr: toHex(dev) })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect([host.state.allocations.size, host.state.hostBuffers.size]).toEqual([1, 2]);
    expect((await rt.aclrtFree({ devPtr: toHex(dev) })).ret).toBe(0);
    expect((await rt.aclrtFreeHost({ hostPtr: toHex(pinned) })).ret).toBe(0);
  });

  it('DM-2: size 0 → 100000 for every policy; a refused call allocates nothing', async () => {
    const { host, rt, device } = await session();
    const before = devicePools(device);
    for (const policy of [0, 1, 2, 3, 4, 5, 6, 7]) {
      expect((await rt.aclrtMalloc({ size: 0, policy })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    }
    expect(host.state.allocations.size).toBe(0);
    expect(devicePools(device)).toEqual(before);
  });

  it('DM-2: aclrtMalloc and aclrtFree do not synchronise: the host clock stays put while a copy is still running', async () => {
    const { host, rt, events } = await session();
    const { stream } = await rt.aclrtCreateStream({});
    const hostPtr = need((await rt.aclrtMallocHost({ size: 64 * MiB })).hostPtr, 'hostPtr');
    const devPtr = need((await rt.aclrtMallocAlign32({ size: 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).devPtr, 'devPtr');
    const copy = await rt.aclrtMemcpyAsync({
      dst: devPtr,
      destMax: 64 * MiB,
      src: hostPtr,
      count: 64 * MiB,
      kind: ACL_MEMCPY_HOST_TO_DEVICE,
      stream: need(stream, 'stream'),
    });
    expect(copy.ret).toBe(0);
    const now = host.state.time;
    const busy = [...host.state.streams.values()].find((s) => !s.isDefault)?.busyUntil ?? 0;
    expect(busy).toBeGreaterThan(now);
    expect((await rt.aclrtMalloc({ size: 4096, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).ret).toBe(0);
    expect(lastCall(events).durationNs).toBe(0);
    expect((await rt.aclrtFree({ devPtr })).ret).toBe(0);
    expect(lastCall(events).durationNs).toBe(0);
    expect(host.state.time).toBe(now);
  });

  it('DM-3: aclrtMalloc pads by the SoC padding: 32 on 910B2, none on a pad-0 (Ascend 950-like) profile', async () => {
    // 910B2: floor((1 + 32 + 32 − 1) / 32) × 32 = 64. Pad 0: floor((1 + 32 − 1) / 32) × 32 = 32.
    // 1 MiB: 910B2 → 1,048,608 (huge page); pad 0 → 1,048,576 (≤ 1 MiB → 256 normal pages).
    const padded = profileFrom('{"extends":"Ascend910B2","name":"Pad0","padding":0}');
    for (const [profile, one, mib, mibClass] of [
      [ASCEND_910B2, 64, 1048608, 'huge'],
      [padded, 32, 1048576, 'normal'],
    ] as const) {
      const { host, rt } = await session([profile]);
      const a = allocationAt(host, (await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr);
      const b = allocationAt(host, (await rt.aclrtMalloc({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr);
      expect([a.padded, b.padded, b.pageClass]).toEqual([one, mib, mibClass]);
    }
  });

  it('DM-3: the rounding reason names what was added: pad for aclrtMalloc, align32 for Align32/WithCfg, giant-no-pad for HUGE1G', async () => {
    const { host, rt } = await session();
    const cases: [MallocFn, number, string[]][] = [
      ['aclrtMalloc', POLICY.ACL_MEM_MALLOC_HUGE_FIRST, ['pad']],
      ['aclrtMallocCached', POLICY.ACL_MEM_MALLOC_HUGE_FIRST, ['pad']],
      ['aclrtMallocAlign32', POLICY.ACL_MEM_MALLOC_HUGE_FIRST, ['align32']],
      ['aclrtMallocWithCfg', POLICY.ACL_MEM_MALLOC_HUGE_FIRST, ['align32']],
      ['aclrtMalloc', POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY, ['align32', 'giant-no-pad']],
    ];
    for (const [fn, policy, expected] of cases) {
      const a = allocationAt(host, (await mallocBy(rt, fn, 100, policy)).devPtr);
      expect(
        codes(a).filter((code) => ['pad', 'align32', 'giant-no-pad'].includes(code)),
        `${fn}/${policy}`,
      ).toEqual(expected);
    }
  });

  it('DM-4: aclrtMalloc(1 MiB, HUGE_FIRST) pads to 1,048,608 B and takes one 2 MiB huge page; aclrtMallocAlign32(1 MiB) takes 256 normal pages', async () => {
    const { host, rt } = await session();
    const padded = allocationAt(host, (await rt.aclrtMalloc({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr);
    const aligned = allocationAt(host, (await rt.aclrtMallocAlign32({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr);
    expect([padded.padded, padded.pageClass, padded.pages, padded.pageSize]).toEqual([1048608, 'huge', 1, 2 * MiB]);
    expect([aligned.padded, aligned.pageClass, aligned.pages, aligned.pageSize]).toEqual([1048576, 'normal', 256, 4096]);
  });

  it('DM-4: HUGE_FIRST falls back to normal pages when the huge frames run out (reason huge-first-fallback)', async () => {
    const { host, rt, device } = await session();
    // Frame 0 half full of normal pages, frames 2…32767 one huge allocation: only frame 1 is a free 2 MiB frame.
    expect((await rt.aclrtMallocAlign32({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(0);
    expect((await rt.aclrtMallocAlign32({ size: 64 * GiB - 4 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).ret).toBe(0);
    expect(device.frames.free.count).toBe(1);
    // 2 MiB pads to 2,097,184 B: two huge pages needed, one free → normal pages: ceil(2097184 / 4096) = 513.
    const result = await rt.aclrtMalloc({ size: 2 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST });
    expect(result.ret).toBe(0);
    const a = allocationAt(host, result.devPtr);
    expect([a.pageClass, a.pages, a.pageSize]).toEqual(['normal', 513, 4096]);
    expect(codes(a)).toEqual(expect.arrayContaining(['huge-first-large', 'huge-first-fallback']));
    expect(reasonsOf(a).find((r) => r.code === 'huge-first-fallback')?.values).toMatchObject({ freeHuge: 1, needed: 2 });
    // 256 free pages of frame 0 plus 257 of frame 1: no free frame is left.
    expect(device.frames.free.count).toBe(0);
    expect(device.frames.normalPagesUsed).toBe(256 + 513);
  });

  it('DM-4: capacity exhaustion: aclrtMalloc(64 GiB) pads past the device, falls back, and fails with 207001', async () => {
    const { host, rt, events, device } = await session();
    const before = devicePools(device);
    // 64 GiB + 32 B → 32,769 huge pages > 32,768 frames → normal: 16,777,217 pages > 16,777,216.
    const result = await rt.aclrtMalloc({ size: 64 * GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST });
    expect(result.ret).toBe(ACL_ERROR_RT_MEMORY_ALLOCATION);
    expect(lastCallReasons(events)).toEqual(['pad', 'huge-first-large', 'huge-first-fallback', 'exhausted']);
    expect(host.state.allocations.size).toBe(0);
    expect(devicePools(device)).toEqual(before);
    // Counts in the message carry separators, as the UI prints them.
    expect(result.message).toBe('not enough free normal pages on device 0: 16,777,217 needed, 16,777,216 free');
  });

  it('DM-5: HUGE_ONLY fills the whole device exactly, then any further request fails with 207001', async () => {
    const { rt, events, device } = await session();
    expect((await rt.aclrtMallocAlign32({ size: 64 * GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).ret).toBe(0);
    expect(device.frames.hugeFrames).toBe(32768);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM })).free).toBe(0);
    expect((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(ACL_ERROR_RT_MEMORY_ALLOCATION);
    expect(lastCallReasons(events)).toEqual(['pad', 'normal-only', 'exhausted']);
    expect((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).ret).toBe(ACL_ERROR_RT_MEMORY_ALLOCATION);
  });

  it('DM-5: HUGE_ONLY fails with 207001 while plenty of memory is free but no whole 2 MiB frame is (reason fragmented)', async () => {
    const { host, rt, events, device } = await session();
    // Everything but frames 0…31 taken as huge pages, then frames 0…31 filled with 64 × 1 MiB of normal pages.
    expect((await rt.aclrtMallocAlign32({ size: 64 * GiB - 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).ret).toBe(0);
    const small: Hex[] = [];
    for (let i = 0; i < 64; i += 1) {
      small.push(need((await rt.aclrtMallocAlign32({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr, 'devPtr'));
    }
    expect(device.frames.free.count).toBe(0);
    // Free every other one: each of the 32 frames keeps one half used.
    for (const [index, devPtr] of small.entries()) if (index % 2 === 1) expect((await rt.aclrtFree({ devPtr })).ret).toBe(0);
    expect(device.frames.free.count).toBe(0);
    expect(device.frames.splitFrames).toBe(32);
    expect(devicePools(device).all.free).toBe(32 * MiB);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM_HUGE })).free).toBe(0);
    const before = host.state.allocations.size;
    const result = await rt.aclrtMallocAlign32({ size: 2 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY });
    expect(result.ret).toBe(ACL_ERROR_RT_MEMORY_ALLOCATION);
    expect(lastCallReasons(events)).toEqual(['align32', 'huge-only', 'exhausted', 'fragmented']);
    expect(host.state.allocations.size).toBe(before);
    // The same request under HUGE_FIRST succeeds on normal pages (DM-4).
    const fallback = await rt.aclrtMallocAlign32({ size: 2 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST });
    expect(allocationAt(host, fallback.devPtr).pageClass).toBe('normal');
  });

  it('DM-6: NORMAL_ONLY takes normal pages even when every huge frame is free', async () => {
    const { host, rt, device } = await session();
    const a = allocationAt(host, (await rt.aclrtMalloc({ size: 4 * MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr);
    // 4 MiB + 32 B → ceil(4194336 / 4096) = 1025 pages: two full frames and one page of a third.
    expect([a.pageClass, a.pages]).toEqual(['normal', 1025]);
    expect([device.frames.splitFrames, device.frames.hugeFrames, device.frames.normalPagesUsed]).toEqual([3, 0, 1025]);
    expect(codes(a)).toContain('normal-only');
  });

  it('DM-7: HUGE1G rounds up to whole 1 GiB pages: 1.9 GiB takes 2 GiB, 1 GiB-aligned in VA', async () => {
    const { host, rt, device } = await session();
    const size = Math.round(1.9 * GiB);
    const a = allocationAt(host, (await rt.aclrtMalloc({ size, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).devPtr);
    expect([a.pageClass, a.pages, a.pageSize]).toEqual(['giant', 2, GiB]);
    expect(device.frames.giantFrames).toBe(1024);
    expect(a.addr % GiB).toBe(0);
  });

  it('DM-7: HUGE1G_ONLY and HUGE1G_ONLY_P2P on Ascend310P3 → 207000 through every malloc function', async () => {
    const { host, rt } = await session([ASCEND_310P3]);
    for (const fn of ['aclrtMalloc', 'aclrtMallocAlign32', 'aclrtMallocWithCfg'] as const) {
      for (const policy of [POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY, POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P]) {
        expect((await mallocBy(rt, fn, GiB, policy)).ret, `${fn} ${policy}`).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
      }
    }
    expect((await rt.aclrtMallocCached({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).ret).toBe(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    );
    expect(host.state.allocations.size).toBe(0);
    // The same size with HUGE_FIRST is fine on 310P3.
    expect((await rt.aclrtMalloc({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).ret).toBe(0);
  });

  it('DM-7: a giant page needs a wholly free, 1 GiB-aligned block of 512 frames', async () => {
    // 2 GiB device: blocks 0 (frames 0…511) and 1 (frames 512…1023).
    const small = profileFrom('{"extends":"Ascend910B2","name":"Small2G","capacityBytes":2147483648}');
    const { host, rt, events, device } = await session([small]);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM_HUGE1G })).free).toBe(2 * GiB);
    // One normal page in frame 0 (block 0), one huge page in frame 1023 (block 1).
    expect((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(0);
    const huge = need((await rt.aclrtMalloc({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).devPtr, 'huge');
    expect(allocationAt(host, huge).runs).toEqual([1023, 1]);
    expect(await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM_HUGE1G })).toEqual({ ret: 0, free: 0, total: 2 * GiB });
    // 2 GiB − 2 MiB − 4 KiB is free, more than 1 GiB, but no block is whole.
    expect(devicePools(device).all.free).toBe(2 * GiB - 2 * MiB - 4096);
    expect((await rt.aclrtMalloc({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).ret).toBe(ACL_ERROR_RT_MEMORY_ALLOCATION);
    expect(lastCallReasons(events)).toEqual(['align32', 'giant-no-pad', 'giant', 'exhausted', 'fragmented']);
    // Freeing the huge page makes block 1 whole again.
    expect((await rt.aclrtFree({ devPtr: huge })).ret).toBe(0);
    const giant = allocationAt(host, (await rt.aclrtMalloc({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).devPtr);
    expect(giant.runs).toEqual([512, 512]);
  });

  it('DM-8: P2P policies on Ascend310P3 (no P2P) → 207000', async () => {
    const { host, rt } = await session([ASCEND_310P3]);
    for (const policy of [3, 4, 5, 7]) {
      expect((await rt.aclrtMalloc({ size: 4 * MiB, policy })).ret, `policy ${policy}`).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
      expect((await rt.aclrtMallocWithCfg({ size: 4 * MiB, policy, cfg: null })).ret, `policy ${policy}`).toBe(
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      );
    }
    expect(host.state.allocations.size).toBe(0);
  });

  it('DM-8: HUGE_FIRST_P2P / HUGE_ONLY_P2P take normal pages through aclrtMalloc and huge pages through aclrtMallocWithCfg', async () => {
    const { host, rt } = await session();
    const rows: [MallocFn, number, string, number, boolean][] = [
      // 4 MiB + 32 B → 1025 normal pages on the generic path; 4 MiB exactly → 2 huge pages through WithCfg.
      ['aclrtMalloc', POLICY.ACL_MEM_MALLOC_HUGE_FIRST_P2P, 'normal', 1025, true],
      ['aclrtMalloc', POLICY.ACL_MEM_MALLOC_HUGE_ONLY_P2P, 'normal', 1025, true],
      ['aclrtMallocAlign32', POLICY.ACL_MEM_MALLOC_HUGE_FIRST_P2P, 'normal', 1024, true],
      ['aclrtMallocWithCfg', POLICY.ACL_MEM_MALLOC_HUGE_FIRST_P2P, 'huge', 2, false],
      ['aclrtMallocWithCfg', POLICY.ACL_MEM_MALLOC_HUGE_ONLY_P2P, 'huge', 2, false],
      ['aclrtMalloc', POLICY.ACL_MEM_MALLOC_NORMAL_ONLY_P2P, 'normal', 1025, false],
    ];
    for (const [fn, policy, pageClass, pages, generic] of rows) {
      const a = allocationAt(host, (await mallocBy(rt, fn, 4 * MiB, policy)).devPtr);
      expect([a.pageClass, a.pages, a.p2p], `${fn} ${policy}`).toEqual([pageClass, pages, true]);
      expect(codes(a).includes('p2p-generic'), `${fn} ${policy}`).toBe(generic);
      expect(codes(a)).toContain('p2p-marked');
    }
    const plain = allocationAt(host, (await rt.aclrtMalloc({ size: 4 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr);
    expect(plain.p2p).toBe(false);
  });

  it('DM-9: bandwidth and READONLY bits through aclrtMalloc, Align32 or Cached → 100000', async () => {
    const { host, rt, events } = await session();
    for (const bits of [0x100, 0x1000, 0x100000]) {
      for (const fn of ['aclrtMalloc', 'aclrtMallocAlign32', 'aclrtMallocCached'] as const) {
        expect((await mallocBy(rt, fn, 4 * MiB, POLICY.ACL_MEM_MALLOC_HUGE_FIRST | bits)).ret, `${fn} 0x${bits.toString(16)}`).toBe(
          ACL_ERROR_INVALID_PARAM,
        );
        expect(lastCallReasons(events)).toEqual(['flags-need-withcfg']);
      }
    }
    expect(host.state.allocations.size).toBe(0);
  });

  it('DM-9: aclrtMallocWithCfg accepts the bits and places the memory exactly as the bare policy would', async () => {
    const { host, rt } = await session();
    for (const [policy, pageClass, pages] of [
      [POLICY.ACL_MEM_MALLOC_HUGE_FIRST, 'huge', 2],
      [POLICY.ACL_MEM_MALLOC_NORMAL_ONLY, 'normal', 1024],
      [POLICY.ACL_MEM_MALLOC_HUGE_ONLY, 'huge', 2],
    ] as const) {
      for (const bits of [0, 0x100, 0x1000, 0x100000, 0x1100]) {
        const result = await rt.aclrtMallocWithCfg({ size: 4 * MiB, policy: policy | bits, cfg: null });
        expect(result.ret).toBe(0);
        const a = allocationAt(host, result.devPtr);
        expect([a.pageClass, a.pages, a.padded]).toEqual([pageClass, pages, 4 * MiB]);
        expect(codes(a).includes('bandwidth-hint')).toBe(bits !== 0);
      }
    }
  });

  it('DM-10: an unknown policy (8, 9, 0xff) behaves as the default: huge pages from 2 MiB, normal pages below', async () => {
    const { host, rt } = await session();
    for (const policy of [8, 9, 0xff]) {
      // 1 MiB pads to 1,048,608 B: HUGE_FIRST would take a huge page, the default takes 257 normal pages.
      const small = allocationAt(host, (await rt.aclrtMalloc({ size: MiB, policy })).devPtr);
      // 2 MiB − 1 B is still below 2 MiB: 2,097,184 B padded → 513 normal pages.
      const almost = allocationAt(host, (await rt.aclrtMalloc({ size: 2 * MiB - 1, policy })).devPtr);
      // 2 MiB pads to 2,097,184 B → 2 huge pages.
      const large = allocationAt(host, (await rt.aclrtMalloc({ size: 2 * MiB, policy })).devPtr);
      expect([small.pageClass, small.pages, almost.pageClass, almost.pages, large.pageClass, large.pages], `policy ${policy}`).toEqual([
        'normal',
        257,
        'normal',
        513,
        'huge',
        2,
      ]);
      expect(codes(large)).toContain('unknown-policy');
    }
  });

  it('DM-11: a 64 KiB-page kernel profile makes every normal page 64 KiB', async () => {
    const k64 = profileFrom('{"extends":"Ascend910B2","name":"K64","normalPageSize":65536,"host":{"pageSize":65536}}');
    const { host, rt, device } = await session([k64]);
    const one = allocationAt(host, (await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr);
    // 1 B → padded 64 → one 64 KiB page, 65,535 B wasted.
    expect([one.pageSize, one.pages, one.pages * one.pageSize - one.size]).toEqual([65536, 1, 65535]);
    // 1 MiB through Align32 → 16 pages of 64 KiB, no waste; a frame holds 32 of them.
    const mib = allocationAt(host, (await rt.aclrtMallocAlign32({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr);
    expect([mib.pageSize, mib.pages]).toEqual([65536, 16]);
    expect([device.frames.pagesPerFrame, device.frames.normalPagesUsed, device.frames.splitFrames]).toEqual([32, 17, 1]);
  });

  it('DM-12: every pointer is 64-byte aligned; huge allocations are 2 MiB-aligned and giant ones 1 GiB-aligned', async () => {
    const { host, rt } = await session();
    const requests: [MallocFn, number, number, number][] = [
      ['aclrtMalloc', 100, POLICY.ACL_MEM_MALLOC_NORMAL_ONLY, 64],
      ['aclrtMalloc', 33, POLICY.ACL_MEM_MALLOC_HUGE_FIRST, 64],
      ['aclrtMalloc', 3 * MiB, POLICY.ACL_MEM_MALLOC_HUGE_ONLY, 2 * MiB],
      ['aclrtMalloc', 5000, POLICY.ACL_MEM_MALLOC_NORMAL_ONLY, 64],
      ['aclrtMalloc', 1, POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY, GiB],
      ['aclrtMallocAlign32', 4 * MiB, POLICY.ACL_MEM_MALLOC_HUGE_FIRST, 2 * MiB],
      ['aclrtMallocCached', 7, POLICY.ACL_MEM_MALLOC_HUGE_FIRST, 64],
      ['aclrtMallocWithCfg', GiB + 1, POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY, GiB],
    ];
    const seen: number[] = [];
    for (const [fn, size, policy, alignment] of requests) {
      const a = allocationAt(host, (await mallocBy(rt, fn, size, policy)).devPtr);
      expect(a.addr % 64).toBe(0);
      expect(a.addr % alignment, `${fn}(${size}, ${policy}) at ${toHex(a.addr)}`).toBe(0);
      seen.push(a.addr);
    }
    // The normal allocations come first, so a huge or giant start is aligned on purpose, not by luck.
    expect(seen[0]).toBe(DEVICE_VA_BASE);
    expect(seen[2]).not.toBe(DEVICE_VA_BASE);
  });

  it('DM-13: aclrtFree(NULL), an interior pointer, a double free and another process’s pointer → 100000', async () => {
    const { host, rt } = await session();
    const other = await otherProcess(host);
    const devPtr = need((await rt.aclrtMalloc({ size: 8192, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'devPtr');
    const interior = toHex(addressOf(devPtr) + 64);
    expect((await rt.aclrtFree({ devPtr: '0x0' })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtFree({ devPtr: interior })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await other.aclrtFree({ devPtr })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(host.state.allocations.size).toBe(1);
    expect((await rt.aclrtFree({ devPtr })).ret).toBe(0);
    expect((await rt.aclrtFree({ devPtr })).ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it('DM-13: a failed free changes nothing (the allocation keeps its pages)', async () => {
    const { host, rt, device } = await session();
    const devPtr = need((await rt.aclrtMalloc({ size: 8192, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'devPtr');
    const before = devicePools(device);
    expect((await rt.aclrtFree({ devPtr: toHex(addressOf(devPtr) + 4096) })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(devicePools(device)).toEqual(before);
    expect(allocationAt(host, devPtr).pages).toBe(3);
  });
});

describe('DM-15: aclrtGetMemInfo', () => {
  type Pool = 'all' | 'normal' | 'huge' | 'giant' | 'none' | 'unsupported';
  // Which pool each aclrtMemAttr 0…17 reads (acl-api.md §3, §7).
  const HBM_DEVICE: readonly Pool[] = [
    'none', // 0 DDR_MEM: an HBM device has no DDR → 0 / 0
    'all', // 1 HBM_MEM: huge + normal
    'none', // 2 DDR_MEM_HUGE
    'none', // 3 DDR_MEM_NORMAL
    'huge', // 4 HBM_MEM_HUGE
    'normal', // 5 HBM_MEM_NORMAL
    'none', // 6 DDR_MEM_P2P_HUGE
    'none', // 7 DDR_MEM_P2P_NORMAL
    'huge', // 8 HBM_MEM_P2P_HUGE
    'normal', // 9 HBM_MEM_P2P_NORMAL
    'giant', // 10 HBM_MEM_HUGE1G
    'giant', // 11 HBM_MEM_P2P_HUGE1G
    'normal', // 12 MEM_NORMAL
    'huge', // 13 MEM_HUGE
    'giant', // 14 MEM_HUGE1G
    'normal', // 15 MEM_P2P_NORMAL
    'huge', // 16 MEM_P2P_HUGE
    'giant', // 17 MEM_P2P_HUGE1G
  ];
  // 310P3: DDR only; HBM attributes read DDR; no giant pool (207000).
  const DDR_DEVICE: readonly Pool[] = [
    'all',
    'all',
    'huge',
    'normal',
    'huge',
    'normal',
    'huge',
    'normal',
    'huge',
    'normal',
    'unsupported',
    'unsupported',
    'normal',
    'huge',
    'unsupported',
    'normal',
    'huge',
    'unsupported',
  ];

  interface Figures {
    readonly all: number;
    readonly normal: number;
    readonly huge: number;
    readonly giant: number;
  }

  async function checkAll(rt: SimRuntime, map: readonly Pool[], free: Figures, total: Figures): Promise<void> {
    for (let attr = 0; attr <= 17; attr += 1) {
      const result = await rt.aclrtGetMemInfo({ attr });
      const pool = map[attr] ?? 'none';
      const name = aclrtMemAttr.nameOf(attr) ?? String(attr);
      if (pool === 'unsupported') {
        expect(result.ret, name).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        expect(result.free, name).toBeUndefined();
      } else if (pool === 'none') {
        expect([result.ret, result.free, result.total], name).toEqual([0, 0, 0]);
      } else {
        expect([result.ret, result.free, result.total], name).toEqual([0, free[pool], total[pool]]);
      }
    }
  }

  it('DM-15: Ascend910B2, every attribute 0…17, as normal, huge and giant allocations come and go', async () => {
    const { rt } = await session([ASCEND_910B2]);
    const C = 64 * GiB;
    const total = { all: C, normal: C, huge: C, giant: C };
    await checkAll(rt, HBM_DEVICE, { all: C, normal: C, huge: C, giant: C }, total);
    // One normal page in frame 0: the frame is no longer a free huge page, and block 0 no longer a free giant page.
    const normal = need((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr, 'normal');
    await checkAll(rt, HBM_DEVICE, { all: C - 4096, normal: C - 4096, huge: C - 2 * MiB, giant: C - GiB }, total);
    // One huge page at the top frame (block 63).
    const huge = need((await rt.aclrtMalloc({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'huge');
    await checkAll(rt, HBM_DEVICE, { all: C - 4096 - 2 * MiB, normal: C - 4096 - 2 * MiB, huge: C - 4 * MiB, giant: C - 2 * GiB }, total);
    // One giant page (block 62).
    const giant = need((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).devPtr, 'giant');
    await checkAll(
      rt,
      HBM_DEVICE,
      { all: C - 4096 - 2 * MiB - GiB, normal: C - 4096 - 2 * MiB - GiB, huge: C - 4 * MiB - GiB, giant: C - 3 * GiB },
      total,
    );
    for (const devPtr of [normal, huge, giant]) expect((await rt.aclrtFree({ devPtr })).ret).toBe(0);
    await checkAll(rt, HBM_DEVICE, { all: C, normal: C, huge: C, giant: C }, total);
  });

  it('DM-15: Ascend310P3: DDR attributes read the device, HBM attributes are remapped to DDR, HUGE1G → 207000', async () => {
    const { rt } = await session([ASCEND_310P3]);
    // 24,000,000,000 B in whole 2 MiB frames: 11,444 × 2,097,152 = 23,999,807,488 B.
    const C = 11444 * 2 * MiB;
    expect(C).toBe(23_999_807_488);
    const total = { all: C, normal: C, huge: C, giant: 0 };
    await checkAll(rt, DDR_DEVICE, { all: C, normal: C, huge: C, giant: 0 }, total);
    expect((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(0);
    expect((await rt.aclrtMalloc({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).ret).toBe(0);
    await checkAll(rt, DDR_DEVICE, { all: C - 4096 - 2 * MiB, normal: C - 4096 - 2 * MiB, huge: C - 4 * MiB, giant: 0 }, total);
  });

  it('DM-15: reports the current device, and refuses a value outside aclrtMemAttr', async () => {
    const { rt } = await session([ASCEND_910B2, ASCEND_310P3]);
    expect((await rt.aclrtGetMemInfo({ attr: 18 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM })).total).toBe(64 * GiB);
    expect((await rt.aclrtSetDevice({ deviceId: 1 })).ret).toBe(0);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM })).total).toBe(11444 * 2 * MiB);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM_HUGE1G })).ret).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    expect((await rt.aclrtMalloc({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).ret).toBe(0);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_DDR_MEM_HUGE })).free).toBe(11443 * 2 * MiB);
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM_HUGE })).free).toBe(64 * GiB);
  });

  it('DM-15: needs a current device (aclrtSetDevice first)', async () => {
    const { rt } = await session();
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
  });
});

describe('DM-16: aclrtMemGetAddressRange', () => {
  it('DM-16: any address inside device memory, pinned host memory or a mapping answers its allocation; it needs no context', async () => {
    const { host, rt } = await session();
    const devPtr = need((await rt.aclrtMalloc({ size: 3 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'devPtr');
    const { padded } = allocationAt(host, devPtr);
    expect(await rt.aclrtMemGetAddressRange({ ptr: toHex(addressOf(devPtr) + 12345) })).toEqual({ ret: 0, pbase: devPtr, psize: padded });
    const hostPtr = need((await rt.aclrtMallocHost({ size: 64 * KiB })).hostPtr, 'hostPtr');
    expect(await rt.aclrtMemGetAddressRange({ ptr: toHex(addressOf(hostPtr) + 1) })).toEqual({ ret: 0, pbase: hostPtr, psize: 64 * KiB });
    const pageable = need((await rt.malloc({ size: 64 * KiB })).ptr, 'pageable');
    expect((await rt.aclrtMemGetAddressRange({ ptr: pageable })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemGetAddressRange({ ptr: '0x0' })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    // No context needed: after the reset the allocation is gone, so the answer is "not inside".
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect(await rt.aclrtMemGetAddressRange({ ptr: toHex(addressOf(hostPtr) + 1) })).toEqual({ ret: 0, pbase: hostPtr, psize: 64 * KiB });
  });
});

describe('DM-17, DM-18: memory-type checks and per-component usage', () => {
  const DEV = 0x2;
  const DVPP = 0x8;
  const RSVD_HEADER = 0x10;
  const RSVD_RUNTIME = 0x20;

  it('DM-17: 1 when every address is of a kind in memType; the runtime reads reserved VA as 0x20, not the header 0x10', async () => {
    const { rt } = await session();
    const dev = need((await rt.aclrtMalloc({ size: 3 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'dev');
    const va = need((await rt.aclrtReserveMemAddress({ size: 2 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 })).virPtr, 'va');
    const pinned = need((await rt.aclrtMallocHost({ size: 64 * KiB })).hostPtr, 'pinned');
    const check = (addrList: Hex[], memType: number, reserve = 0) =>
      rt.aclrtCheckMemType({ addrList, size: addrList.length, memType, reserve });
    const inside = toHex(addressOf(dev) + 3 * MiB - 1);
    expect(await check([dev, inside], DEV)).toEqual({ ret: 0, checkResult: 1 });
    expect(await check([dev, va], DEV)).toEqual({ ret: 0, checkResult: 0 });
    expect(await check([dev, va], DEV | RSVD_RUNTIME)).toEqual({ ret: 0, checkResult: 1 });
    expect(await check([pinned], DEV | DVPP | RSVD_RUNTIME)).toEqual({ ret: 0, checkResult: 0 });
    expect(await check([dev], DVPP)).toEqual({ ret: 0, checkResult: 0 });
    const header = await check([va], RSVD_HEADER);
    expect(header.ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect(header.message).toContain('0x20');
    expect((await check([dev], DEV, 1)).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await rt.aclrtCheckMemType({ addrList: [dev], size: 0, memType: DEV, reserve: 0 })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await rt.aclrtCheckMemType({ addrList: [], size: 1, memType: DEV, reserve: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await check([pinned], DEV)).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
  });

  it('DM-17: the driver of the current context checks, so memory of another device does not match', async () => {
    const { rt } = await session([ASCEND_910B2, ASCEND_910B2]);
    const dev0 = need((await rt.aclrtMalloc({ size: 64 * KiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'dev0');
    expect((await rt.aclrtSetDevice({ deviceId: 1 })).ret).toBe(0);
    expect(await rt.aclrtCheckMemType({ addrList: [dev0], size: 1, memType: DEV, reserve: 0 })).toEqual({ ret: 0, checkResult: 0 });
  });

  it('DM-18: the simulator models a driver without per-component usage (207000, no entries); the arguments are checked first', async () => {
    const { rt } = await session();
    const answer = await rt.aclrtGetMemUsageInfo({ deviceId: 0, inputNum: 8 });
    expect([answer.ret, answer.outputNum, answer.memUsageInfo]).toEqual([ACL_ERROR_RT_FEATURE_NOT_SUPPORT, 0, []]);
    expect(answer.message).toContain('DM-18');
    expect((await rt.aclrtGetMemUsageInfo({ deviceId: 0, inputNum: 0 })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect((await rt.aclrtGetMemUsageInfo({ deviceId: 3, inputNum: 8 })).ret).toBe(ACL_ERROR_RT_INVALID_DEVICEID);
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtGetMemUsageInfo({ deviceId: 0, inputNum: 8 })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
  });
});
