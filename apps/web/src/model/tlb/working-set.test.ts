import { GiB, MiB, reportDevice } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { scene } from '../../../test/tlb-scene.ts';
import { classRows, requestedBytes, samePageSizes } from './working-set.ts';

describe('working set → rows (PT-1, PT-3)', () => {
  it('1 GiB NORMAL_ONLY and 1 GiB HUGE_FIRST through aclrtMallocAlign32 need 262,144 and 512 PTEs', async () => {
    const s = await scene();
    await s.malloc(GiB, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'aclrtMallocAlign32');
    await s.malloc(GiB, 'ACL_MEM_MALLOC_HUGE_FIRST', 'aclrtMallocAlign32');
    const device = s.state.devices[0];
    if (device === undefined) throw new Error('no device');
    const report = reportDevice(s.state, device);
    const { rows, combined } = classRows(report.workingSet, device.profile.tlb, 4096);
    const [normal, huge, giant] = rows;
    expect(normal).toMatchObject({ pageClass: 'normal', bytes: GiB, ptes: 262_144, entries: 1024, reach: 4 * MiB, coverage: 1 / 256 });
    expect(huge).toMatchObject({ pageClass: 'huge', bytes: GiB, ptes: 512, reach: 2 * GiB, coverage: 1 });
    expect(giant).toMatchObject({ pageClass: 'giant', bytes: 0, ptes: 0, coverage: 1 });
    expect(combined.ptes).toBe(262_656);
    expect(combined.coverage).toBeCloseTo((4 * MiB + GiB) / (2 * GiB), 12);
  });

  it('aclrtMalloc pads 32 B (DM-3), so 1 GiB takes one page more', async () => {
    const s = await scene();
    await s.malloc(GiB, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    await s.malloc(GiB, 'ACL_MEM_MALLOC_HUGE_FIRST');
    const device = s.state.devices[0];
    if (device === undefined) throw new Error('no device');
    const { rows } = classRows(reportDevice(s.state, device).workingSet, device.profile.tlb, 4096);
    expect(rows.map((row) => row.ptes)).toEqual([262_145, 513, 0]);
    expect(requestedBytes(s.state, 0)).toBe(2 * GiB);
  });

  it('an edited geometry changes reach and coverage, not PTEs', () => {
    const geometry = { normal: { entries: 262_144, ways: 8 }, huge: { entries: 16, ways: 4 }, giant: { entries: 64, ways: 4 } };
    const { rows } = classRows({ normal: GiB, huge: GiB, giant: 0 }, geometry, 4096);
    expect(rows.map((row) => [row.ptes, row.reach, row.coverage])).toEqual([
      [262_144, GiB, 1],
      [512, 32 * MiB, 1 / 32],
      [0, 64 * GiB, 1],
    ]);
  });

  it('the same bytes at 4 KiB / 2 MiB / 1 GiB: 262,144 / 512 / 1 (PT-1)', () => {
    expect(samePageSizes(GiB, GiB, 4096).map((row) => [row.pageSize, row.heldPtes, row.requestedPtes])).toEqual([
      [4096, 262_144, 262_144],
      [2 * MiB, 512, 512],
      [GiB, 1, 1],
    ]);
    expect(samePageSizes(GiB + 4096, GiB, 65_536).map((row) => row.heldPtes)).toEqual([16_385, 513, 2]);
  });
});
