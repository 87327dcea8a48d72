import { coverage, GiB, KiB, MiB } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { scene } from '../../../test/tlb-scene.ts';
import { coverageRows, sortRows } from './coverage-rows.ts';

const geometry = (normal: number, huge = 1024) => ({
  normal: { entries: normal, ways: 1 },
  huge: { entries: huge, ways: 1 },
  giant: { entries: 64, ways: 4 },
});

describe('coverage per allocation', () => {
  it('gives each allocation and physical memory its PTEs, its own coverage and its fit', async () => {
    const s = await scene();
    const small = await s.malloc(64 * KiB, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'aclrtMallocAlign32');
    const big = await s.malloc(GiB, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'aclrtMallocAlign32');
    await s.malloc(4 * MiB, 'ACL_MEM_MALLOC_HUGE_ONLY', 'aclrtMallocAlign32');
    const handle = await s.physical(2 * MiB, 'ACL_HBM_MEM_HUGE');
    const rows = coverageRows(s.state, 0, geometry(1024));
    expect(rows.map((r) => [r.kind, r.fn, r.pageClass, r.ptes])).toEqual([
      ['allocation', 'aclrtMallocAlign32', 'normal', 16],
      ['allocation', 'aclrtMallocAlign32', 'normal', 262_144],
      ['allocation', 'aclrtMallocAlign32', 'huge', 2],
      ['physical', 'aclrtMallocPhysical', 'huge', 1],
    ]);
    const [a, b, c, d] = rows;
    expect(a?.address).toBe(small);
    expect(b?.address).toBe(big);
    expect(d?.address).toBe(Number.parseInt(handle.slice(2), 16));
    // 16 + 262,144 normal PTEs > 1,024 entries: the small one fits alone, the big one never (PT-3).
    expect([a?.fit, b?.fit, c?.fit, d?.fit]).toEqual(['alone', 'never', 'together', 'together']);
    expect(a?.coverage).toBe(1);
    expect(b?.coverage).toBe(1024 / 262_144);
    // The same figure as core's PT-3 coverage() for each object alone.
    for (const r of rows) expect(r.coverage).toBe(coverage(1024, r.pageSize, r.ptes * r.pageSize));
  });

  it('fits together once the class TLB holds every page', async () => {
    const s = await scene();
    await s.malloc(64 * KiB, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'aclrtMallocAlign32');
    await s.malloc(GiB, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'aclrtMallocAlign32');
    const rows = coverageRows(s.state, 0, geometry(262_160));
    expect(rows.map((r) => r.fit)).toEqual(['together', 'together']);
    expect(coverageRows(s.state, 0, geometry(262_159)).map((r) => r.fit)).toEqual(['alone', 'alone']);
  });

  it('ignores other devices', async () => {
    const s = await scene();
    await s.malloc(MiB, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    expect(coverageRows(s.state, 1, geometry(1024))).toEqual([]);
  });

  it('sorts by any column both ways, ties in creation order', async () => {
    const s = await scene();
    await s.malloc(4 * MiB, 'ACL_MEM_MALLOC_HUGE_ONLY', 'aclrtMallocAlign32');
    await s.malloc(64 * KiB, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'aclrtMallocAlign32');
    await s.malloc(8 * KiB, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'aclrtMallocAlign32');
    await s.malloc(8 * KiB, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'aclrtMallocAlign32');
    const rows = coverageRows(s.state, 0, geometry(1024));
    const ids = rows.map((r) => r.id);
    const order = (list: readonly { id: number }[]) => list.map((r) => ids.indexOf(r.id));
    expect(order(sortRows(rows, 'size', 'ascending'))).toEqual([2, 3, 1, 0]);
    expect(order(sortRows(rows, 'size', 'descending'))).toEqual([0, 1, 2, 3]);
    expect(order(sortRows(rows, 'ptes', 'descending'))).toEqual([1, 0, 2, 3]);
    expect(order(sortRows(rows, 'pageClass', 'ascending'))).toEqual([1, 2, 3, 0]);
    expect(order(sortRows(rows, 'object', 'descending'))).toEqual([3, 2, 1, 0]);
    expect(rows.map((r) => r.size)).toEqual([4 * MiB, 64 * KiB, 8 * KiB, 8 * KiB]);
  });
});
