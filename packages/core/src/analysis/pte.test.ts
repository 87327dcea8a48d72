import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GIANT_PAGE, HUGE_PAGE, NORMAL_PAGE, pageClassOf, pageSizeOf } from './page-size.ts';
import { coverage, coverageByClass, pagesFor, ptesFor, tlbReach } from './pte.ts';
import type { TlbGeometry } from './tlb-sim.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

const TLB: TlbGeometry = {
  normal: { entries: 64, ways: 4 },
  huge: { entries: 32, ways: 4 },
  giant: { entries: 16, ways: 16 },
};

describe('page sizes', () => {
  it('DM-11: normal pages follow the kernel page size, huge and giant pages do not', () => {
    expect([pageSizeOf('normal'), pageSizeOf('huge'), pageSizeOf('giant')]).toEqual([4096, 2097152, 1073741824]);
    expect(pageSizeOf('normal', 64 * KiB)).toBe(65536);
    expect(pageSizeOf('huge', 64 * KiB)).toBe(HUGE_PAGE);
    expect(GIANT_PAGE).toBe(512 * HUGE_PAGE);
    expect(pageClassOf(64 * KiB, 64 * KiB)).toBe('normal');
    expect(() => pageClassOf(64 * KiB)).toThrow(RangeError);
    expect(() => pageSizeOf('normal', 3000)).toThrow(/power of two/);
  });
});

describe('pagesFor / ptesFor', () => {
  it('PT-1: 1 GiB needs 262,144 PTEs at 4 KiB, 512 at 2 MiB, 1 at 1 GiB', () => {
    expect(ptesFor(GiB, NORMAL_PAGE)).toBe(262_144);
    expect(ptesFor(GiB, HUGE_PAGE)).toBe(512);
    expect(ptesFor(GiB, GIANT_PAGE)).toBe(1);
  });

  it('DM-11: 64 KiB normal pages need 16× fewer PTEs than 4 KiB ones', () => {
    expect(ptesFor(GiB, 64 * KiB)).toBe(16_384);
  });

  it('DM-11: a partial page is a whole page (DM-4 padded 1 MiB + 32 B)', () => {
    expect(pagesFor(0, NORMAL_PAGE)).toBe(0);
    expect(pagesFor(1, NORMAL_PAGE)).toBe(1);
    expect(pagesFor(4096, NORMAL_PAGE)).toBe(1);
    expect(pagesFor(4097, NORMAL_PAGE)).toBe(2);
    expect(pagesFor(1_048_608, NORMAL_PAGE)).toBe(257);
    expect(pagesFor(1_048_608, HUGE_PAGE)).toBe(1);
    expect(pagesFor(GiB + 1, GIANT_PAGE)).toBe(2);
  });

  it('stays exact near 2^53 where a float ceil of a non-exact quotient would drift', () => {
    const bytes = Number.MAX_SAFE_INTEGER; // 2^53 − 1
    expect(pagesFor(bytes, NORMAL_PAGE)).toBe(2 ** 41);
    expect(pagesFor(2 ** 52, GIANT_PAGE)).toBe(2 ** 22);
  });

  it('rejects what is not a byte count or a page size', () => {
    expect(() => pagesFor(-1, NORMAL_PAGE)).toThrow(/bytes must be a non-negative safe integer, got -1/);
    expect(() => pagesFor(1.5, NORMAL_PAGE)).toThrow(RangeError);
    expect(() => pagesFor(2 ** 53, NORMAL_PAGE)).toThrow(RangeError);
    expect(() => pagesFor(4096, 3000)).toThrow(/pageSize must be a power of two/);
    expect(() => pagesFor(4096, 0)).toThrow(RangeError);
    expect(() => ptesFor(Number.NaN, NORMAL_PAGE)).toThrow(RangeError);
  });

  it('holds whole pages: pages × size covers bytes with less than one page to spare', () => {
    fc.assert(
      fc.property(fc.nat({ max: 2 ** 40 }), fc.integer({ min: 0, max: 30 }), (bytes, log2) => {
        const pageSize = 2 ** log2;
        const pages = pagesFor(bytes, pageSize);
        expect(pages * pageSize).toBeGreaterThanOrEqual(bytes);
        expect(pages * pageSize - bytes).toBeLessThan(pageSize);
      }),
    );
  });
});

describe('tlbReach / coverage', () => {
  it('PT-1: a larger page gives a larger TLB reach for the same entries', () => {
    expect(tlbReach(64, NORMAL_PAGE)).toBe(256 * KiB);
    expect(tlbReach(64, HUGE_PAGE)).toBe(128 * MiB);
    expect(tlbReach(64, GIANT_PAGE)).toBe(64 * GiB);
    expect(tlbReach(0, HUGE_PAGE)).toBe(0);
    expect(() => tlbReach(2 ** 30, GIANT_PAGE)).toThrow(/exceeds 2\^53/);
  });

  it('PT-3: coverage = min(1, entries × page size ÷ working set); an empty working set is covered', () => {
    expect(coverage(64, NORMAL_PAGE, MiB)).toBe(0.25);
    expect(coverage(64, NORMAL_PAGE, 256 * KiB)).toBe(1);
    expect(coverage(64, NORMAL_PAGE, 128 * KiB)).toBe(1);
    expect(coverage(64, HUGE_PAGE, GiB)).toBe(0.125);
    expect(coverage(0, HUGE_PAGE, GiB)).toBe(0);
    expect(coverage(0, HUGE_PAGE, 0)).toBe(1);
    expect(() => coverage(64, NORMAL_PAGE, -1)).toThrow(/workingSetBytes/);
    expect(() => coverage(-1, NORMAL_PAGE, 1)).toThrow(/entries/);
  });

  it('PT-3: coverage is monotone in entries and stays within [0, 1]', () => {
    fc.assert(
      fc.property(
        fc.nat({ max: 1 << 20 }),
        fc.nat({ max: 1 << 20 }),
        fc.constantFrom(NORMAL_PAGE, 64 * KiB, HUGE_PAGE, GIANT_PAGE),
        fc.nat({ max: 2 ** 46 }),
        (a, b, pageSize, workingSet) => {
          const [fewer, more] = a <= b ? [a, b] : [b, a];
          const low = coverage(fewer, pageSize, workingSet);
          const high = coverage(more, pageSize, workingSet);
          expect(low).toBeLessThanOrEqual(high);
          expect(low).toBeGreaterThanOrEqual(0);
          expect(high).toBeLessThanOrEqual(1);
        },
      ),
    );
  });
});

describe('coverageByClass', () => {
  it('PT-3: reports each class on its own TLB and weighs the combined figure by bytes', () => {
    const report = coverageByClass({ normal: MiB, huge: 128 * MiB, giant: 0 }, TLB);
    // normal: 64 × 4 KiB = 256 KiB of 1 MiB → 0.25; huge: 32 × 2 MiB = 64 MiB of 128 MiB → 0.5.
    expect(report.byClass.normal).toEqual({ bytes: MiB, pageSize: 4096, pages: 256, ptes: 256, reach: 256 * KiB, coverage: 0.25 });
    expect(report.byClass.huge).toEqual({ bytes: 128 * MiB, pageSize: HUGE_PAGE, pages: 64, ptes: 64, reach: 64 * MiB, coverage: 0.5 });
    expect(report.byClass.giant).toEqual({ bytes: 0, pageSize: GIANT_PAGE, pages: 0, ptes: 0, reach: 16 * GiB, coverage: 1 });
    // covered = 256 KiB + 64 MiB of 129 MiB: not the plain mean (0.25 + 0.5 + 1) ÷ 3.
    expect(report.combined.bytes).toBe(129 * MiB);
    expect(report.combined.pages).toBe(320);
    expect(report.combined.ptes).toBe(320);
    expect(report.combined.reach).toBe(256 * KiB + 64 * MiB + 16 * GiB);
    expect(report.combined.coveredBytes).toBe(256 * KiB + 64 * MiB);
    expect(report.combined.coverage).toBeCloseTo(64.25 / 129, 12);
  });

  it('DM-11: takes the normal page size, so 64 KiB pages reach 16× further', () => {
    const report = coverageByClass({ normal: 16 * MiB, huge: 0, giant: 0 }, TLB, 64 * KiB);
    expect(report.byClass.normal.pages).toBe(256);
    expect(report.byClass.normal.reach).toBe(4 * MiB);
    expect(report.byClass.normal.coverage).toBe(0.25);
  });

  it('covers an empty working set fully and rejects a bad geometry', () => {
    expect(coverageByClass({ normal: 0, huge: 0, giant: 0 }, TLB).combined.coverage).toBe(1);
    expect(() => coverageByClass({ normal: 1, huge: 0, giant: 0 }, { ...TLB, huge: { entries: 30, ways: 4 } })).toThrow(/huge TLB ways/);
    expect(() => coverageByClass({ normal: -5, huge: 0, giant: 0 }, TLB)).toThrow(RangeError);
  });
});
