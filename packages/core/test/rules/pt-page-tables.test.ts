import { describe, expect, it } from 'vitest';
import { aclrtMemAttr } from '../../src/acl/enums.ts';
import { reportAllocation } from '../../src/analysis/allocation-report.ts';
import { reportDevice } from '../../src/analysis/device-report.ts';
import { translationWalk, walkTableCount } from '../../src/analysis/page-walk.ts';
import { policyWhatIf } from '../../src/analysis/policy-what-if.ts';
import { coverage, ptesFor } from '../../src/analysis/pte.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { allocationAt, need, POLICY, profileFrom, session } from './harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const TiB = 1024 * GiB;

describe('PT: page tables and TLB', () => {
  it('PT-1: 1 GiB needs 262,144 PTEs at 4 KiB, 512 at 2 MiB and 1 at 1 GiB (formula and simulated allocations agree)', async () => {
    expect([ptesFor(GiB, 4 * KiB), ptesFor(GiB, 2 * MiB), ptesFor(GiB, GiB)]).toEqual([262144, 512, 1]);
    const { host, rt } = await session();
    const normal = allocationAt(host, (await rt.aclrtMallocAlign32({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr);
    const huge = allocationAt(host, (await rt.aclrtMallocAlign32({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).devPtr);
    const giant = allocationAt(host, (await rt.aclrtMalloc({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).devPtr);
    expect([
      reportAllocation(normal, ASCEND_910B2).ptes,
      reportAllocation(huge, ASCEND_910B2).ptes,
      reportAllocation(giant, ASCEND_910B2).ptes,
    ]).toEqual([262144, 512, 1]);
    // aclrtMalloc's 32-byte pad costs one more page of every kind but the giant one (DM-3).
    const padded = allocationAt(host, (await rt.aclrtMalloc({ size: GiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr);
    expect(reportAllocation(padded, ASCEND_910B2).ptes).toBe(262145);
  });

  it('PT-1: the device report counts PTEs per page class over everything live, VMM memory included', async () => {
    const { host, rt, device } = await session();
    expect((await rt.aclrtMallocAlign32({ size: 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(0);
    expect((await rt.aclrtMallocAlign32({ size: 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).ret).toBe(0);
    expect((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).ret).toBe(0);
    const prop = {
      handleType: 0,
      allocationType: 0,
      memAttr: aclrtMemAttr.byName.ACL_HBM_MEM_NORMAL,
      location: { type: 1, id: 0 },
      reserve: 0,
    };
    expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 })).ret).toBe(0);
    const report = reportDevice(host.state, device);
    expect(report.workingSet).toEqual({ normal: 66 * MiB, huge: 64 * MiB, giant: GiB });
    const { byClass, combined } = report.coverage;
    // 66 MiB / 4 KiB = 16,896; 64 MiB / 2 MiB = 32; 1 GiB / 1 GiB = 1.
    expect([byClass.normal.ptes, byClass.huge.ptes, byClass.giant.ptes, combined.ptes]).toEqual([16896, 32, 1, 16929]);
    expect(report.liveObjects).toBe(4);
    const physical = need([...host.state.physical.values()][0], 'physical');
    expect(reportAllocation(physical, ASCEND_910B2).ptes).toBe(512);
  });

  it('PT-1: policyWhatIf counts one PTE per page for each policy', () => {
    const outcomes = policyWhatIf(
      [
        { fn: 'aclrtMalloc', size: GiB },
        { fn: 'aclrtMallocAlign32', size: GiB },
      ],
      ASCEND_910B2,
    );
    // aclrtMalloc(1 GiB) pads to 1 GiB + 32 B: 513 huge or 262,145 normal pages; HUGE1G adds no pad: 1 giant page each.
    expect(outcomes.map((o) => [o.policyName, o.pages, o.ptes])).toEqual([
      ['ACL_MEM_MALLOC_HUGE_FIRST', { normal: 0, huge: 1025, giant: 0 }, 1025],
      ['ACL_MEM_MALLOC_HUGE_ONLY', { normal: 0, huge: 1025, giant: 0 }, 1025],
      ['ACL_MEM_MALLOC_NORMAL_ONLY', { normal: 524289, huge: 0, giant: 0 }, 524289],
      ['ACL_MEM_MALLOC_HUGE1G_ONLY', { normal: 0, huge: 0, giant: 2 }, 2],
    ]);
  });

  it('PT-2: a giant page ends the walk at a level-1 block, a huge page at level 2, a normal page at level 3 (modeled)', async () => {
    const { host, rt } = await session();
    // Fresh window: the giant page lands at 16 TiB = 2^44, the huge page right after it, then the normal page.
    const giant = allocationAt(host, (await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).devPtr);
    const huge = allocationAt(host, (await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).devPtr);
    const normal = allocationAt(host, (await rt.aclrtMalloc({ size: 100, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr);
    expect([giant.addr, huge.addr, normal.addr]).toEqual([16 * TiB, 16 * TiB + GiB, 16 * TiB + GiB + 2 * MiB]);
    const steps = (va: number, pageSize: number) => translationWalk(va, pageSize).levels.map((s) => [s.level, s.index, s.entry]);
    // 2^44 >> 39 = 32 (bits 47–39); 2^44 >> 30 = 16384 ≡ 0 (mod 512) (bits 38–30).
    expect(steps(giant.addr, giant.pageSize)).toEqual([
      [0, 32, 'table'],
      [1, 0, 'block'],
    ]);
    expect(steps(huge.addr, huge.pageSize)).toEqual([
      [0, 32, 'table'],
      [1, 1, 'table'],
      [2, 0, 'block'],
    ]);
    expect(steps(normal.addr + 100, normal.pageSize)).toEqual([
      [0, 32, 'table'],
      [1, 1, 'table'],
      [2, 1, 'table'],
      [3, 0, 'page'],
    ]);
    const walk = translationWalk(normal.addr + 100, normal.pageSize);
    expect([walk.offset, walk.pageBase]).toEqual([100, normal.addr]);
    expect(walk.levels.map((s) => [s.bitsHigh, s.bitsLow])).toEqual([
      [47, 39],
      [38, 30],
      [29, 21],
      [20, 12],
    ]);
    // One root, one level-1 table, one level-2 table (the giant page is a level-1 block), one level-3 table.
    const tables = walkTableCount([giant, huge, normal].map((a) => ({ va: a.addr, bytes: a.pages * a.pageSize, pageSize: a.pageSize })));
    expect(tables).toEqual({ level0: 1, level1: 1, level2: 1, level3: 1, total: 4, bytes: 16384 });
  });

  it('PT-2: the walk is modeled for the 4 KiB granule only: a 64 KiB page cannot be walked', () => {
    expect(() => translationWalk(16 * TiB, 64 * KiB)).toThrow(/not modeled/);
  });

  it('PT-3: TLB geometry is a profile setting labelled assumed; coverage = min(1, entries × page size ÷ working set)', async () => {
    expect(ASCEND_910B2.assumed).toContain('tlb');
    expect(ASCEND_310P3.assumed).toContain('tlb');
    expect(ASCEND_910B2.sources.tlb).toMatch(/assumed/);
    expect(ASCEND_910B2.tlb).toEqual({
      normal: { entries: 1024, ways: 8 },
      huge: { entries: 1024, ways: 8 },
      giant: { entries: 64, ways: 4 },
    });
    // 1024 × 4 KiB = 4 MiB of reach over 64 MiB → 1/16; 1024 × 2 MiB = 2 GiB over 64 MiB → 1.
    expect([coverage(1024, 4 * KiB, 64 * MiB), coverage(1024, 2 * MiB, 64 * MiB), coverage(64, GiB, 0)]).toEqual([0.0625, 1, 1]);
    const { host, rt, device } = await session();
    expect((await rt.aclrtMallocAlign32({ size: 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(0);
    expect((await rt.aclrtMallocAlign32({ size: 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY })).ret).toBe(0);
    expect((await rt.aclrtMalloc({ size: 1, policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY })).ret).toBe(0);
    const { byClass, combined } = reportDevice(host.state, device).coverage;
    expect([byClass.normal.coverage, byClass.huge.coverage, byClass.giant.coverage]).toEqual([0.0625, 1, 1]);
    expect([byClass.normal.reach, byClass.huge.reach, byClass.giant.reach]).toEqual([4 * MiB, 2 * GiB, 64 * GiB]);
    // (4 MiB + 64 MiB + 1024 MiB) covered of 1152 MiB.
    expect(combined.coverage).toBeCloseTo(1092 / 1152, 12);
  });

  it('PT-3: editing the TLB in the profile changes the coverage', async () => {
    const bigger = profileFrom('{"extends":"Ascend910B2","name":"BigTlb","tlb":{"normal":{"entries":4096,"ways":8}}}');
    const { host, rt, device } = await session([bigger]);
    expect((await rt.aclrtMallocAlign32({ size: 64 * MiB, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).ret).toBe(0);
    // 4096 × 4 KiB = 16 MiB over 64 MiB.
    expect(reportDevice(host.state, device).coverage.byClass.normal.coverage).toBe(0.25);
  });
});
