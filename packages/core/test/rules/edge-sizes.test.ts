import { describe, expect, it } from 'vitest';
import { ACL_ERROR_INVALID_PARAM } from '../../src/acl/errors.ts';
import { reportAllocation } from '../../src/analysis/allocation-report.ts';
import type { PageClass } from '../../src/model/events.ts';
import type { MallocFn } from '../../src/model/malloc-policy.ts';
import { devicePools } from '../../src/model/pools.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { formatInteger } from '../../src/units/bytes.ts';
import { allocationAt, codes, lastCallReasons, POLICY, reasonsOf, session } from './harness.ts';

/**
 * Edge sizes of the aclrtMalloc family on the Ascend910B2 profile (pad 32, normal page 4 KiB,
 * huge page 2 MiB, giant page 1 GiB). Every expected number below was worked out by hand from
 * DM-3 (rounding), DM-4/5/6/7 (page class) and DM-11 (whole pages; waste = occupied − requested).
 */

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const NORMAL = 4 * KiB;
const HUGE = 2 * MiB;

interface Row {
  readonly size: number;
  readonly padded: number;
  readonly pageClass: PageClass;
  readonly pages: number;
  /** pages × page size, in bytes. */
  readonly occupied: number;
  /** occupied − size. */
  readonly waste: number;
}

const row = (size: number, padded: number, pageClass: PageClass, pages: number, occupied: number, waste: number): Row => ({
  size,
  padded,
  pageClass,
  pages,
  occupied,
  waste,
});

interface Group {
  readonly rule: string;
  readonly fn: MallocFn;
  readonly policy: number;
  readonly policyName: string;
  readonly rows: readonly Row[];
}

/*
 * aclrtMalloc pads (DM-3): padded = floor((size + 32 + 32 − 1) / 32) × 32 = floor((size + 63) / 32) × 32.
 *   1:            (1 + 63) / 32 = 2            → 64
 *   32:           95 / 32 = 2.97               → 64
 *   33:           96 / 32 = 3                  → 96
 *   4064:         4127 / 32 = 128.97           → 4096   (one 4 KiB page exactly)
 *   4065:         4128 / 32 = 129              → 4128   (just over one page)
 *   1 MiB − 33:   1048606 / 32 = 32768.94      → 1048576 (= 1 MiB: still ≤ 1 MiB)
 *   1 MiB − 32:   1048607 / 32 = 32768.97      → 1048576
 *   1 MiB − 31:   1048608 / 32 = 32769         → 1048608 (the first size whose padded value passes 1 MiB)
 *   1 MiB:        1048639 / 32 = 32769.97      → 1048608 (DM-4's worked example)
 *   2 MiB:        2097215 / 32 = 65537.97      → 2097184 (2 MiB + 32: two huge pages)
 *   2 MiB + 1:    2097216 / 32 = 65538         → 2097216
 *   1 GiB − 1:    1073741886 / 32 = 33554433.9 → 1073741856 (1 GiB + 32)
 *   1 GiB:        1073741887 / 32 = 33554433.9 → 1073741856
 *   1 GiB + 1:    1073741888 / 32 = 33554434   → 1073741888
 * Normal pages = ceil(padded / 4096); huge pages = ceil(padded / 2097152).
 */

/*
 * HUGE_FIRST (DM-4): padded ≤ 1 MiB → normal pages; above → 2 MiB huge pages.
 *   1..1 MiB − 32 stay normal; from 1 MiB − 31 on the padding pushes them to huge pages.
 *   1 MiB − 31: 1 huge page, waste 2097152 − 1048545 = 1048607.
 *   1 GiB ± 1: 1073741856 / 2097152 = 512.00002 → 513 huge pages = 1,075,838,976 B.
 */
const MALLOC_HUGE_FIRST: Group = {
  rule: 'DM-4',
  fn: 'aclrtMalloc',
  policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST,
  policyName: 'HUGE_FIRST',
  rows: [
    row(1, 64, 'normal', 1, 4096, 4095),
    row(32, 64, 'normal', 1, 4096, 4064),
    row(33, 96, 'normal', 1, 4096, 4063),
    row(4064, 4096, 'normal', 1, 4096, 32),
    row(4065, 4128, 'normal', 2, 8192, 4127),
    row(MiB - 33, 1048576, 'normal', 256, 1048576, 33),
    row(MiB - 32, 1048576, 'normal', 256, 1048576, 32),
    row(MiB - 31, 1048608, 'huge', 1, 2097152, 1048607),
    row(MiB, 1048608, 'huge', 1, 2097152, 1048576),
    row(2 * MiB, 2097184, 'huge', 2, 4194304, 2097152),
    row(2 * MiB + 1, 2097216, 'huge', 2, 4194304, 2097151),
    row(GiB - 1, 1073741856, 'huge', 513, 1075838976, 2097153),
    row(GiB, 1073741856, 'huge', 513, 1075838976, 2097152),
    row(GiB + 1, 1073741888, 'huge', 513, 1075838976, 2097151),
  ],
};

/*
 * NORMAL_ONLY (DM-6): normal pages whatever the size.
 *   1 MiB − 31 and 1 MiB: 1048608 / 4096 = 256.008 → 257 pages = 1,052,672 B.
 *   2 MiB, 2 MiB + 1: 2097184 or 2097216 / 4096 → 513 pages = 2,101,248 B.
 *   1 GiB ± 1: 1073741856 or 1073741888 / 4096 → 262,145 pages = 1,073,745,920 B.
 */
const MALLOC_NORMAL_ONLY: Group = {
  rule: 'DM-6',
  fn: 'aclrtMalloc',
  policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY,
  policyName: 'NORMAL_ONLY',
  rows: [
    row(1, 64, 'normal', 1, 4096, 4095),
    row(32, 64, 'normal', 1, 4096, 4064),
    row(33, 96, 'normal', 1, 4096, 4063),
    row(4064, 4096, 'normal', 1, 4096, 32),
    row(4065, 4128, 'normal', 2, 8192, 4127),
    row(MiB - 33, 1048576, 'normal', 256, 1048576, 33),
    row(MiB - 32, 1048576, 'normal', 256, 1048576, 32),
    row(MiB - 31, 1048608, 'normal', 257, 1052672, 4127),
    row(MiB, 1048608, 'normal', 257, 1052672, 4096),
    row(2 * MiB, 2097184, 'normal', 513, 2101248, 4096),
    row(2 * MiB + 1, 2097216, 'normal', 513, 2101248, 4095),
    row(GiB - 1, 1073741856, 'normal', 262145, 1073745920, 4097),
    row(GiB, 1073741856, 'normal', 262145, 1073745920, 4096),
    row(GiB + 1, 1073741888, 'normal', 262145, 1073745920, 4095),
  ],
};

/*
 * HUGE_ONLY (DM-5): whole 2 MiB pages even for 1 byte.
 *   1: 2097152 − 1 = 2097151 wasted.   4064: 2097152 − 4064 = 2093088.
 *   1 MiB − 33: 2097152 − 1048543 = 1048609.
 */
const MALLOC_HUGE_ONLY: Group = {
  rule: 'DM-5',
  fn: 'aclrtMalloc',
  policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY,
  policyName: 'HUGE_ONLY',
  rows: [
    row(1, 64, 'huge', 1, 2097152, 2097151),
    row(32, 64, 'huge', 1, 2097152, 2097120),
    row(33, 96, 'huge', 1, 2097152, 2097119),
    row(4064, 4096, 'huge', 1, 2097152, 2093088),
    row(4065, 4128, 'huge', 1, 2097152, 2093087),
    row(MiB - 33, 1048576, 'huge', 1, 2097152, 1048609),
    row(MiB - 32, 1048576, 'huge', 1, 2097152, 1048608),
    row(MiB - 31, 1048608, 'huge', 1, 2097152, 1048607),
    row(MiB, 1048608, 'huge', 1, 2097152, 1048576),
    row(2 * MiB, 2097184, 'huge', 2, 4194304, 2097152),
    row(2 * MiB + 1, 2097216, 'huge', 2, 4194304, 2097151),
    row(GiB - 1, 1073741856, 'huge', 513, 1075838976, 2097153),
    row(GiB, 1073741856, 'huge', 513, 1075838976, 2097152),
    row(GiB + 1, 1073741888, 'huge', 513, 1075838976, 2097151),
  ],
};

/*
 * HUGE1G_ONLY (DM-3, DM-7): no pad, 32-byte rounding only: padded = ceil(size / 32) × 32;
 * then whole 1 GiB pages: ceil(padded / 1073741824).
 *   1 → 32; 33 → 64; 4065 → 4096; 1 MiB − 33 → 1048544; 1 MiB − 31 → 1048576; 2 MiB + 1 → 2097184.
 *   1 GiB − 1 → 1073741824: exactly one giant page (with the pad it would be 1 GiB + 32 → two).
 *   1 GiB + 1 → 1073741856 → 2 giant pages = 2 GiB, waste 2147483648 − 1073741825 = 1073741823.
 */
const MALLOC_HUGE1G: Group = {
  rule: 'DM-7',
  fn: 'aclrtMalloc',
  policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY,
  policyName: 'HUGE1G_ONLY',
  rows: [
    row(1, 32, 'giant', 1, GiB, 1073741823),
    row(32, 32, 'giant', 1, GiB, 1073741792),
    row(33, 64, 'giant', 1, GiB, 1073741791),
    row(4064, 4064, 'giant', 1, GiB, 1073737760),
    row(4065, 4096, 'giant', 1, GiB, 1073737759),
    row(MiB - 33, 1048544, 'giant', 1, GiB, 1072693281),
    row(MiB - 32, 1048544, 'giant', 1, GiB, 1072693280),
    row(MiB - 31, 1048576, 'giant', 1, GiB, 1072693279),
    row(MiB, 1048576, 'giant', 1, GiB, 1072693248),
    row(2 * MiB, 2097152, 'giant', 1, GiB, 1071644672),
    row(2 * MiB + 1, 2097184, 'giant', 1, GiB, 1071644671),
    row(GiB - 1, 1073741824, 'giant', 1, GiB, 1),
    row(GiB, 1073741824, 'giant', 1, GiB, 0),
    row(GiB + 1, 1073741856, 'giant', 2, 2 * GiB, 1073741823),
  ],
};

/*
 * aclrtMallocAlign32 and aclrtMallocWithCfg (DM-3): 32-byte rounding, no pad:
 * padded = ceil(size / 32) × 32. Under HUGE_FIRST (DM-4):
 *   4065 → 4096: one page, waste 31 (aclrtMalloc needed two).
 *   1 MiB → 1048576 ≤ 1 MiB → 256 normal pages, waste 0 (aclrtMalloc took a 2 MiB huge page).
 *   2 MiB → 2097152 → exactly one huge page; 2 MiB + 1 → 2097184 → two.
 *   1 GiB − 1 → 1073741824 → 512 huge pages, waste 1; 1 GiB + 1 → 1073741856 → 513.
 */
const NO_PAD_HUGE_FIRST_ROWS: readonly Row[] = [
  row(1, 32, 'normal', 1, 4096, 4095),
  row(32, 32, 'normal', 1, 4096, 4064),
  row(33, 64, 'normal', 1, 4096, 4063),
  row(4064, 4064, 'normal', 1, 4096, 32),
  row(4065, 4096, 'normal', 1, 4096, 31),
  row(MiB - 33, 1048544, 'normal', 256, 1048576, 33),
  row(MiB - 32, 1048544, 'normal', 256, 1048576, 32),
  row(MiB - 31, 1048576, 'normal', 256, 1048576, 31),
  row(MiB, 1048576, 'normal', 256, 1048576, 0),
  row(2 * MiB, 2097152, 'huge', 1, 2097152, 0),
  row(2 * MiB + 1, 2097184, 'huge', 2, 4194304, 2097151),
  row(GiB - 1, 1073741824, 'huge', 512, 1073741824, 1),
  row(GiB, 1073741824, 'huge', 512, 1073741824, 0),
  row(GiB + 1, 1073741856, 'huge', 513, 1075838976, 2097151),
];

const ALIGN32_HUGE_FIRST: Group = {
  rule: 'DM-3',
  fn: 'aclrtMallocAlign32',
  policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST,
  policyName: 'HUGE_FIRST',
  rows: NO_PAD_HUGE_FIRST_ROWS,
};

const WITHCFG_HUGE_FIRST: Group = {
  rule: 'DM-3',
  fn: 'aclrtMallocWithCfg',
  policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST,
  policyName: 'HUGE_FIRST',
  rows: NO_PAD_HUGE_FIRST_ROWS,
};

/*
 * aclrtMallocAlign32 / aclrtMallocWithCfg with HUGE_ONLY and NORMAL_ONLY (DM-3 + DM-5/DM-6), a few rows:
 *   HUGE_ONLY 2 MiB → 2097152 → one huge page, waste 0 (aclrtMalloc: two pages).
 *   NORMAL_ONLY 1 MiB → 1048576 → 256 pages, waste 0 (aclrtMalloc: 257 pages).
 *   NORMAL_ONLY 1 GiB → 262,144 pages exactly (aclrtMalloc: 262,145).
 */
const NO_PAD_OTHER: readonly Group[] = [
  {
    rule: 'DM-5',
    fn: 'aclrtMallocAlign32',
    policy: POLICY.ACL_MEM_MALLOC_HUGE_ONLY,
    policyName: 'HUGE_ONLY',
    rows: [
      row(1, 32, 'huge', 1, HUGE, 2097151),
      row(2 * MiB, 2097152, 'huge', 1, HUGE, 0),
      row(GiB + 1, 1073741856, 'huge', 513, 1075838976, 2097151),
    ],
  },
  {
    rule: 'DM-6',
    fn: 'aclrtMallocWithCfg',
    policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY,
    policyName: 'NORMAL_ONLY',
    rows: [
      row(MiB, 1048576, 'normal', 256, MiB, 0),
      row(GiB, GiB, 'normal', 262144, GiB, 0),
      row(GiB + 1, 1073741856, 'normal', 262145, 1073745920, 4095),
    ],
  },
  {
    rule: 'DM-7',
    fn: 'aclrtMallocWithCfg',
    policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY,
    policyName: 'HUGE1G_ONLY',
    rows: [
      row(1, 32, 'giant', 1, GiB, 1073741823),
      row(GiB, GiB, 'giant', 1, GiB, 0),
      row(GiB + 1, 1073741856, 'giant', 2, 2 * GiB, 1073741823),
    ],
  },
  {
    rule: 'DM-7',
    fn: 'aclrtMallocAlign32',
    policy: POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY,
    policyName: 'HUGE1G_ONLY',
    rows: [row(GiB - 1, GiB, 'giant', 1, GiB, 1), row(GiB + 1, 1073741856, 'giant', 2, 2 * GiB, 1073741823)],
  },
];

/*
 * aclrtMallocCached pads like aclrtMalloc (DM-3): the same numbers as the aclrtMalloc HUGE_FIRST rows.
 */
const CACHED_HUGE_FIRST: Group = {
  rule: 'DM-3',
  fn: 'aclrtMallocCached',
  policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST,
  policyName: 'HUGE_FIRST',
  rows: [
    row(1, 64, 'normal', 1, 4096, 4095),
    row(4065, 4128, 'normal', 2, 8192, 4127),
    row(MiB - 32, 1048576, 'normal', 256, 1048576, 32),
    row(MiB, 1048608, 'huge', 1, 2097152, 1048576),
    row(2 * MiB, 2097184, 'huge', 2, 4194304, 2097152),
  ],
};

const GROUPS: readonly Group[] = [
  MALLOC_HUGE_FIRST,
  MALLOC_NORMAL_ONLY,
  MALLOC_HUGE_ONLY,
  MALLOC_HUGE1G,
  ALIGN32_HUGE_FIRST,
  WITHCFG_HUGE_FIRST,
  ...NO_PAD_OTHER,
  CACHED_HUGE_FIRST,
];

function label(size: number): string {
  const named: Record<number, string> = {
    [MiB - 33]: '1 MiB − 33',
    [MiB - 32]: '1 MiB − 32',
    [MiB - 31]: '1 MiB − 31',
    [MiB]: '1 MiB',
    [2 * MiB]: '2 MiB',
    [2 * MiB + 1]: '2 MiB + 1',
    [GiB - 1]: '1 GiB − 1',
    [GiB]: '1 GiB',
    [GiB + 1]: '1 GiB + 1',
  };
  return named[size] ?? `${size}`;
}

type MallocRuntime = Awaited<ReturnType<typeof session>>['rt'];

function call(rt: MallocRuntime, fn: MallocFn, size: number, policy: number) {
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

const PAGE_BYTES: Record<PageClass, number> = { normal: NORMAL, huge: HUGE, giant: GiB };

describe('edge sizes of the aclrtMalloc family on Ascend910B2', () => {
  for (const group of GROUPS) {
    describe(`${group.fn}, ${group.policyName}`, () => {
      for (const r of group.rows) {
        it(`${group.rule}: ${group.fn}(${label(r.size)}, ${group.policyName}) → ${formatInteger(r.padded)} B → ${r.pages} × ${r.pageClass}, ${formatInteger(r.waste)} B wasted (DM-3, DM-11)`, async () => {
          const { host, rt, device } = await session([ASCEND_910B2]);
          const freeBefore = devicePools(device).all.free;
          const result = await call(rt, group.fn, r.size, group.policy);
          expect(result.ret, result.message).toBe(0);
          const allocation = allocationAt(host, result.devPtr);
          expect({
            padded: allocation.padded,
            pageClass: allocation.pageClass,
            pages: allocation.pages,
            pageSize: allocation.pageSize,
          }).toEqual({ padded: r.padded, pageClass: r.pageClass, pages: r.pages, pageSize: PAGE_BYTES[r.pageClass] });
          // DM-11: occupied bytes leave the device's free memory, and waste is occupied − requested.
          expect(allocation.pages * allocation.pageSize).toBe(r.occupied);
          expect(freeBefore - devicePools(device).all.free).toBe(r.occupied);
          const report = reportAllocation(allocation, ASCEND_910B2);
          expect([report.occupied, report.waste]).toEqual([r.occupied, r.waste]);
          const occupies = reasonsOf(allocation).find((reason) => reason.code === 'occupies');
          expect(occupies?.values).toMatchObject({ pages: r.pages, occupied: r.occupied, waste: r.waste });
          // The frame table agrees: normal pages counted one by one, huge pages one frame each, giant pages 512 frames each.
          const frames = device.frames;
          const held = { normal: frames.normalPagesUsed, huge: frames.hugeFrames, giant: frames.giantFrames / 512 };
          expect(held).toEqual({ normal: 0, huge: 0, giant: 0, [r.pageClass]: r.pages });
          // Freeing gives every byte back.
          expect((await rt.aclrtFree({ devPtr: result.devPtr ?? '0x0' })).ret).toBe(0);
          expect(devicePools(device).all.free).toBe(freeBefore);
        });
      }
    });
  }

  for (const fn of ['aclrtMalloc', 'aclrtMallocAlign32', 'aclrtMallocCached', 'aclrtMallocWithCfg'] as const) {
    it(`DM-2: ${fn}(0) → 100000 and nothing is allocated`, async () => {
      const { host, rt, events } = await session([ASCEND_910B2]);
      const result = await call(rt, fn, 0, POLICY.ACL_MEM_MALLOC_HUGE_FIRST);
      expect(result.ret).toBe(ACL_ERROR_INVALID_PARAM);
      expect(result.devPtr).toBeUndefined();
      expect(host.state.allocations.size).toBe(0);
      expect(lastCallReasons(events)).toEqual(['size-zero']);
    });
  }

  it('DM-4: the 1 MiB threshold is compared with the padded size: 1 MiB − 32 stays normal, 1 MiB − 31 goes huge', async () => {
    const { host, rt } = await session();
    const below = await rt.aclrtMalloc({ size: MiB - 32, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST });
    const above = await rt.aclrtMalloc({ size: MiB - 31, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST });
    expect(codes(allocationAt(host, below.devPtr))).toContain('huge-first-small');
    expect(codes(allocationAt(host, above.devPtr))).toContain('huge-first-large');
    expect([allocationAt(host, below.devPtr).pageClass, allocationAt(host, above.devPtr).pageClass]).toEqual(['normal', 'huge']);
  });
});
