import { describe, expect, it } from 'vitest';
import { aclrtMemAttr } from '../../src/acl/enums.ts';
import { reportAllocation } from '../../src/analysis/allocation-report.ts';
import { reportDevice } from '../../src/analysis/device-report.ts';
import { policyWhatIf, type WhatIfRequest } from '../../src/analysis/policy-what-if.ts';
import type { PageClass } from '../../src/model/events.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import type { SimRuntime } from '../../src/sim/sim-runtime.ts';
import type { Hex } from '../../src/units/hex.ts';
import { allocationAt, need, POLICY, profileFrom, session } from './harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

function outcome(requests: readonly WhatIfRequest[], policy: number, profile = ASCEND_910B2) {
  return need(policyWhatIf(requests, profile, [policy])[0], 'outcome');
}

function call(rt: SimRuntime, request: WhatIfRequest, policy: number) {
  switch (request.fn) {
    case 'aclrtMalloc':
      return rt.aclrtMalloc({ size: request.size, policy });
    case 'aclrtMallocAlign32':
      return rt.aclrtMallocAlign32({ size: request.size, policy });
    case 'aclrtMallocCached':
      return rt.aclrtMallocCached({ size: request.size, policy });
    case 'aclrtMallocWithCfg':
      return rt.aclrtMallocWithCfg({ size: request.size, policy, cfg: null });
  }
}

describe('analyses: what-if, allocation and device reports', () => {
  it('DM-14: many small buffers: HUGE_FIRST and NORMAL_ONLY take one 4 KiB page each, HUGE_ONLY 512 times the memory', () => {
    const requests = Array.from({ length: 1000 }, (): WhatIfRequest => ({ fn: 'aclrtMalloc', size: 64 }));
    const hugeFirst = outcome(requests, POLICY.ACL_MEM_MALLOC_HUGE_FIRST);
    const normalOnly = outcome(requests, POLICY.ACL_MEM_MALLOC_NORMAL_ONLY);
    const hugeOnly = outcome(requests, POLICY.ACL_MEM_MALLOC_HUGE_ONLY);
    // 64 B pads to 128 B: one 4 KiB page each, 4,032 B wasted each.
    expect([normalOnly.pages.normal, normalOnly.occupied, normalOnly.requested, normalOnly.waste]).toEqual([
      1000, 4_096_000, 64_000, 4_032_000,
    ]);
    expect(hugeFirst.pages).toEqual(normalOnly.pages);
    // One 2 MiB page each.
    expect([hugeOnly.pages.huge, hugeOnly.occupied, hugeOnly.waste]).toEqual([1000, 2_097_152_000, 2_097_088_000]);
    expect(hugeOnly.occupied / normalOnly.occupied).toBe(512);
  });

  it('DM-14: buffers of 1.5 MiB: HUGE_FIRST trades 52 MB of waste for 385 times fewer PTEs than NORMAL_ONLY', () => {
    const requests = Array.from({ length: 100 }, (): WhatIfRequest => ({ fn: 'aclrtMalloc', size: 1.5 * MiB }));
    const hugeFirst = outcome(requests, POLICY.ACL_MEM_MALLOC_HUGE_FIRST);
    const normalOnly = outcome(requests, POLICY.ACL_MEM_MALLOC_NORMAL_ONLY);
    // 1,572,864 B pads to 1,572,896 B > 1 MiB → one huge page each (2 MiB) under HUGE_FIRST;
    // NORMAL_ONLY: ceil(1572896 / 4096) = 385 pages = 1,576,960 B each.
    expect([hugeFirst.pages.huge, hugeFirst.occupied, hugeFirst.waste, hugeFirst.ptes]).toEqual([100, 209_715_200, 52_428_800, 100]);
    expect([normalOnly.pages.normal, normalOnly.occupied, normalOnly.waste, normalOnly.ptes]).toEqual([
      38_500, 157_696_000, 409_600, 38_500,
    ]);
    expect(normalOnly.ptes / hugeFirst.ptes).toBe(385);
  });

  it('DM-14: requests a profile refuses are counted, not costed (HUGE1G on 310P3)', () => {
    const requests: WhatIfRequest[] = [
      { fn: 'aclrtMalloc', size: GiB },
      { fn: 'aclrtMalloc', size: 64 },
    ];
    const giant = outcome(requests, POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY, ASCEND_310P3);
    expect([giant.refused, giant.occupied, giant.requested, giant.ptes]).toEqual([2, 0, 0, 0]);
    const onB2 = outcome(requests, POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY);
    expect([onB2.refused, onB2.pages.giant, onB2.occupied]).toEqual([0, 2, 2 * GiB]);
  });

  it('DM-11: policyWhatIf agrees page for page with what the simulator allocates on a fresh device', async () => {
    const requests: WhatIfRequest[] = [
      { fn: 'aclrtMalloc', size: 1 },
      { fn: 'aclrtMalloc', size: 4065 },
      { fn: 'aclrtMalloc', size: MiB },
      { fn: 'aclrtMallocAlign32', size: MiB },
      { fn: 'aclrtMallocWithCfg', size: 2 * MiB + 1 },
      { fn: 'aclrtMallocCached', size: 3 * MiB },
      { fn: 'aclrtMalloc', size: GiB + 1 },
    ];
    for (const policy of [
      POLICY.ACL_MEM_MALLOC_HUGE_FIRST,
      POLICY.ACL_MEM_MALLOC_HUGE_ONLY,
      POLICY.ACL_MEM_MALLOC_NORMAL_ONLY,
      POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY,
    ]) {
      const { host, rt } = await session();
      const pages: Record<PageClass, number> = { normal: 0, huge: 0, giant: 0 };
      let occupied = 0;
      for (const request of requests) {
        const a = allocationAt(host, (await call(rt, request, policy)).devPtr);
        pages[a.pageClass] += a.pages;
        occupied += reportAllocation(a, ASCEND_910B2).occupied;
      }
      const predicted = outcome(requests, policy);
      expect(predicted.pages, `policy ${policy}`).toEqual(pages);
      expect(predicted.occupied, `policy ${policy}`).toBe(occupied);
    }
  });

  it('DM-4: the allocation report explains a decision in one sentence with its rule IDs', async () => {
    const { host, rt } = await session();
    const a = allocationAt(host, (await rt.aclrtMalloc({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr);
    const report = reportAllocation(a, ASCEND_910B2);
    expect(report).toMatchObject({ requested: MiB, padded: 1048608, pageClass: 'huge', pages: 1, occupied: 2 * MiB, waste: MiB, ptes: 1 });
    expect([...report.rules].sort()).toEqual(['DM-11', 'DM-3', 'DM-4']);
    expect(report.decision).toContain('1,048,576 B + 32 B padding, rounded up to 32 B = 1,048,608 B');
    expect(report.decision).toContain('1,048,608 B > 1 MiB → HUGE_FIRST takes 2 MiB huge pages');
    expect(report.decision).toContain('1,048,576 B unused');
  });

  it('DM-15: the device report’s pools are what aclrtGetMemInfo answers', async () => {
    const { host, rt, device } = await session();
    expect((await rt.aclrtMalloc({ size: 5 * MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(0);
    expect((await rt.aclrtMalloc({ size: 5 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).ret).toBe(0);
    const { pools } = reportDevice(host.state, device);
    const A = aclrtMemAttr.byName;
    const read = async (attr: number) => {
      const { free, total } = await rt.aclrtGetMemInfo({ attr });
      return { free, total };
    };
    expect(await read(A.ACL_HBM_MEM)).toEqual(pools.all);
    expect(await read(A.ACL_HBM_MEM_HUGE)).toEqual(pools.huge);
    expect(await read(A.ACL_HBM_MEM_NORMAL)).toEqual(pools.normal);
    expect(await read(A.ACL_HBM_MEM_HUGE1G)).toEqual(pools.giant);
  });

  it('DM-5: the device report measures how scattered the free frames are', async () => {
    // 64 MiB device: 32 frames. A normal page in frame 0; three huge pages in frames 31, 30, 29; then frame 30 freed.
    const tiny = profileFrom('{"extends":"Ascend910B2","name":"Tiny","capacityBytes":67108864}');
    const { host, rt, device } = await session([tiny]);
    expect((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(0);
    const huge: Hex[] = [];
    for (let i = 0; i < 3; i += 1)
      huge.push(need((await rt.aclrtMalloc({ size: MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).devPtr, 'huge'));
    expect(huge.map((ptr) => allocationAt(host, ptr).runs)).toEqual([
      [31, 1],
      [30, 1],
      [29, 1],
    ]);
    let report = reportDevice(host.state, device);
    expect([report.frames.free, report.largestFreeRun, report.fragmentation]).toEqual([28, 28, 0]);
    expect((await rt.aclrtFree({ devPtr: need(huge[1], 'middle') })).ret).toBe(0);
    report = reportDevice(host.state, device);
    // Free frames 1…28 and 30: 29 free, longest run 28.
    expect([report.frames.free, report.largestFreeRun]).toEqual([29, 28]);
    expect(report.fragmentation).toBeCloseTo(1 - 28 / 29, 12);
    expect(report.frames).toEqual({ total: 32, free: 29, huge: 2, giant: 0, split: 1 });
    expect(report.usedBytes).toBe(2 * 2 * MiB + 4 * KiB);
  });
});
