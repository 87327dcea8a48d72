import { ASCEND_310P3, ASCEND_910B2, GiB, KiB, MiB, policyWhatIf, type WhatIfRequest } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { scene } from '../../../test/tlb-scene.ts';
import { LIVE_KEY, requestOf, shortPolicyName, WhatIfCache, whatIfInput } from './what-if.ts';
import { whatIfChart } from './what-if-chart.ts';

const requests: WhatIfRequest[] = [
  { fn: 'aclrtMalloc', size: MiB },
  { fn: 'aclrtMalloc', size: MiB },
  { fn: 'aclrtMallocAlign32', size: MiB },
  { fn: 'aclrtMalloc', size: 3 * MiB },
  { fn: 'aclrtMalloc', size: 100 },
  { fn: 'aclrtMallocCached', size: GiB },
  { fn: 'aclrtMalloc', size: 3 * MiB },
];

const strip = ({ policy, policyName, ...rest }: ReturnType<typeof policyWhatIf>[number]) => ({ key: policyName, policy, ...rest });

describe('policy what-if (DM-4 … DM-7)', () => {
  it.each([
    ['Ascend910B2', ASCEND_910B2],
    ['Ascend310P3', ASCEND_310P3],
  ])('sums to exactly policyWhatIf on %s', (_name, profile) => {
    const cache = new WhatIfCache();
    expect(cache.totals(requests, profile)).toEqual(policyWhatIf(requests, profile).map(strip));
    // A second pass is served from the cache and gives the same numbers.
    expect(cache.totals(requests, profile)).toEqual(policyWhatIf(requests, profile).map(strip));
  });

  it('takes only aclrtMalloc-family allocations as requests', () => {
    expect(requestOf({ fn: 'aclrtMallocCached', size: 5 })).toEqual({ fn: 'aclrtMallocCached', size: 5 });
    expect(requestOf({ fn: 'aclrtMallocPhysical', size: 5 })).toBeUndefined();
    expect(requestOf({ fn: 'malloc', size: 5 })).toBeUndefined();
  });

  it('names the policies even with no requests', () => {
    const totals = new WhatIfCache().totals([], ASCEND_910B2);
    expect(totals.map((t) => shortPolicyName(t.key))).toEqual(['HUGE_FIRST', 'HUGE_ONLY', 'NORMAL_ONLY', 'HUGE1G_ONLY']);
    expect(totals.every((t) => t.ptes === 0 && t.waste === 0)).toBe(true);
  });

  it('on 310P, HUGE1G_ONLY refuses every request (DM-7)', () => {
    const giant = new WhatIfCache().totals(requests, ASCEND_310P3)[3];
    expect(giant).toMatchObject({ refused: requests.length, ptes: 0 });
  });

  it('reads the live allocations of one device, with their actual pages', async () => {
    const s = await scene();
    await s.malloc(GiB, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    await s.malloc(MiB, 'ACL_MEM_MALLOC_HUGE_FIRST');
    await s.physical(2 * MiB, 'ACL_HBM_MEM_HUGE');
    const input = whatIfInput(s.state, 0);
    expect(input.requests).toEqual([
      { fn: 'aclrtMalloc', size: GiB },
      { fn: 'aclrtMalloc', size: MiB },
    ]);
    // 1 GiB + 32 B in 4 KiB pages, and 1 MiB + 32 B in one huge page (DM-3, DM-4).
    expect(input.live).toMatchObject({ key: LIVE_KEY, pages: { normal: 262_145, huge: 1, giant: 0 }, ptes: 262_146, refused: 0 });
    expect(input.live.waste).toBe(4 * KiB - 0 + (2 * MiB - MiB));
  });
});

describe('what-if chart', () => {
  const rows = new WhatIfCache().totals([{ fn: 'aclrtMallocAlign32', size: GiB }], ASCEND_910B2);
  const chart = whatIfChart(rows, { width: 600, formatCount: String, formatBytes: (b) => `${b} B` });

  it('orders rows as given, one row height apart', () => {
    expect(chart.rows.map((r) => shortPolicyName(r.key))).toEqual(['HUGE_FIRST', 'HUGE_ONLY', 'NORMAL_ONLY', 'HUGE1G_ONLY']);
    expect(chart.rows.map((r) => r.y)).toEqual([22, 56, 90, 124]);
    expect(chart.height).toBe(22 + 4 * 34);
  });

  it('PTE bars: longest for NORMAL_ONLY (262,144), shortest for HUGE1G_ONLY (1), labelled with the value', () => {
    const [hugeFirst, , normal, giant] = chart.rows;
    expect(normal?.ptes.text).toBe('262144');
    expect(normal?.ptes.width).toBeCloseTo(chart.panels.ptes.width, 6);
    expect(hugeFirst?.ptes.text).toBe('512');
    expect(giant?.ptes.text).toBe('1');
    expect(giant?.ptes.width ?? 0).toBeLessThan(hugeFirst?.ptes.width ?? 0);
    expect(hugeFirst?.ptes.width ?? 0).toBeLessThan(normal?.ptes.width ?? 0);
    // The longest bar has no room after it: its label goes inside.
    expect(normal?.ptes.inside).toBe(true);
    expect(giant?.ptes.inside).toBe(false);
    expect(giant?.ptes.labelX).toBeCloseTo((giant?.ptes.x ?? 0) + (giant?.ptes.width ?? 0) + 4, 6);
  });

  it('PTE bars are split by page class; waste bars are linear', () => {
    const mixed = new WhatIfCache().totals(
      [
        { fn: 'aclrtMalloc', size: 512 * KiB },
        { fn: 'aclrtMalloc', size: 3 * MiB },
      ],
      ASCEND_910B2,
    );
    const mixedChart = whatIfChart(mixed, { width: 600, formatCount: String, formatBytes: String });
    const first = mixedChart.rows[0];
    expect(first?.ptes.segments.map((s) => s.pageClass)).toEqual(['normal', 'huge']);
    const widths = first?.ptes.segments.map((s) => s.width) ?? [];
    expect(widths.reduce((a, b) => a + b, 0)).toBeCloseTo(first?.ptes.width ?? -1, 9);
    // 129 normal pages vs 2 huge pages (HUGE_FIRST: ≤ 1 MiB after padding → normal, DM-4).
    expect((widths[0] ?? 0) / (widths[1] ?? 1)).toBeCloseTo(129 / 2, 9);
    // Waste: NORMAL_ONLY wastes 4 KiB − 32 B… per request; HUGE1G_ONLY wastes most of two 1 GiB pages.
    const wastes = mixedChart.rows.map((r) => r.waste);
    const giantWaste = wastes[3];
    expect(giantWaste?.value).toBe(2 * GiB - 512 * KiB - 3 * MiB);
    expect(giantWaste?.width).toBeCloseTo(mixedChart.panels.waste.width, 6);
    const normalWaste = wastes[2];
    expect(normalWaste?.width).toBeCloseTo((mixedChart.panels.waste.width * (normalWaste?.value ?? 0)) / (giantWaste?.value ?? 1), 9);
    // An exact 1 GiB in HUGE1G_ONLY wastes nothing: a zero-length bar.
    expect(chart.rows[3]?.waste).toMatchObject({ value: 0, width: 0 });
  });
});
