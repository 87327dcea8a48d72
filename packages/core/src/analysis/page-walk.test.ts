import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GIANT_PAGE, HUGE_PAGE, NORMAL_PAGE } from './page-size.ts';
import { translationWalk, walkTableCount } from './page-walk.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/*
 * VA 0x1000_0020_1234 by hand: 0x1000_0000_0000 = 2^44, and 0x20_1234 = 2^21 + 0x1234, so
 * VA = 2^44 + 2^21 + 0x1000 + 0x234.
 *   level 0, bits 47–39: floor(VA / 2^39) mod 512 = 2^5 = 32          (the rest is < 2^39)
 *   level 1, bits 38–30: floor(VA / 2^30) mod 512 = 2^14 mod 512 = 0  (2^21 + 0x1234 < 2^30)
 *   level 2, bits 29–21: floor(VA / 2^21) mod 512 = (2^23 + 1) mod 512 = 1
 *   level 3, bits 20–12: floor(VA / 2^12) mod 512 = (2^32 + 2^9 + 1) mod 512 = 1
 * offsets: 4 KiB → 0x234; 2 MiB → VA mod 2^21 = 0x1234; 1 GiB → VA mod 2^30 = 0x20_1234.
 * A 32-bit shift, (VA >>> 39) & 511, shifts the low word 0x20_1234 by 39 mod 32 = 7: 0x24 = 36, not 32.
 */
const VA = 0x1000_0020_1234;

describe('translationWalk', () => {
  it('PT-2: a 4 KiB page walks four levels down to a level-3 page entry', () => {
    const walk = translationWalk(VA, NORMAL_PAGE);
    expect(walk.levels).toEqual([
      { level: 0, index: 32, bitsHigh: 47, bitsLow: 39, entry: 'table' },
      { level: 1, index: 0, bitsHigh: 38, bitsLow: 30, entry: 'table' },
      { level: 2, index: 1, bitsHigh: 29, bitsLow: 21, entry: 'table' },
      { level: 3, index: 1, bitsHigh: 20, bitsLow: 12, entry: 'page' },
    ]);
    expect(walk.offset).toBe(0x234);
    expect(walk.pageBase).toBe(0x1000_0020_1000);
    expect(walk.va).toBe(VA);
    expect(walk.pageSize).toBe(NORMAL_PAGE);
  });

  it('PT-2: a 2 MiB page stops at a level-2 block', () => {
    const walk = translationWalk(VA, HUGE_PAGE);
    expect(walk.levels.map((step) => [step.level, step.index, step.entry])).toEqual([
      [0, 32, 'table'],
      [1, 0, 'table'],
      [2, 1, 'block'],
    ]);
    expect(walk.offset).toBe(0x1234);
    expect(walk.pageBase).toBe(0x1000_0020_0000);
  });

  it('PT-2: a 1 GiB page stops at a level-1 block', () => {
    const walk = translationWalk(VA, GIANT_PAGE);
    expect(walk.levels.map((step) => [step.level, step.index, step.entry])).toEqual([
      [0, 32, 'table'],
      [1, 0, 'block'],
    ]);
    expect(walk.offset).toBe(0x20_1234);
    expect(walk.pageBase).toBe(0x1000_0000_0000);
  });

  it('PT-2: reads every index as 511 at the top of the 48-bit space', () => {
    const walk = translationWalk(2 ** 48 - 1, NORMAL_PAGE);
    expect(walk.levels.map((step) => step.index)).toEqual([511, 511, 511, 511]);
    expect(walk.offset).toBe(0xfff);
  });

  it('PT-2: recovers the indices and offset a VA was built from', () => {
    const index = fc.integer({ min: 0, max: 511 });
    fc.assert(
      fc.property(index, index, index, index, fc.integer({ min: 0, max: 4095 }), (i0, i1, i2, i3, offset) => {
        const va = i0 * 2 ** 39 + i1 * 2 ** 30 + i2 * 2 ** 21 + i3 * 2 ** 12 + offset;
        const walk = translationWalk(va, NORMAL_PAGE);
        expect(walk.levels.map((step) => step.index)).toEqual([i0, i1, i2, i3]);
        expect(walk.offset).toBe(offset);
        expect(walk.pageBase + walk.offset).toBe(va);
        const huge = translationWalk(va, HUGE_PAGE);
        expect(huge.offset).toBe(i3 * 4096 + offset);
        expect(huge.pageBase % HUGE_PAGE).toBe(0);
      }),
    );
  });

  it('PT-2: refuses the 64 KiB granule, other sizes and VAs outside 48 bits', () => {
    expect(() => translationWalk(VA, 64 * 1024)).toThrow(/64 KiB granule walk is not modeled/);
    expect(() => translationWalk(VA, 8192)).toThrow(RangeError);
    expect(() => translationWalk(2 ** 48, NORMAL_PAGE)).toThrow(/\[0, 2\^48\)/);
    expect(() => translationWalk(-1, NORMAL_PAGE)).toThrow(RangeError);
    expect(() => translationWalk(1.5, NORMAL_PAGE)).toThrow(RangeError);
  });
});

describe('walkTableCount', () => {
  const base = 2 ** 44; // 16 TiB: the device SVM window (RULES.md), 512 GiB-aligned

  it('PT-1, PT-2: 1 GiB needs 515 tables at 4 KiB, 3 at 2 MiB, 2 at 1 GiB', () => {
    // 4 KiB: root + one level-1 + one level-2 table + 512 level-3 tables (one per 2 MiB).
    expect(walkTableCount([{ va: base, bytes: GiB, pageSize: NORMAL_PAGE }])).toEqual({
      level0: 1,
      level1: 1,
      level2: 1,
      level3: 512,
      total: 515,
      bytes: 515 * 4096,
    });
    expect(walkTableCount([{ va: base, bytes: GiB, pageSize: HUGE_PAGE }]).total).toBe(3);
    expect(walkTableCount([{ va: base, bytes: GiB, pageSize: GIANT_PAGE }])).toMatchObject({ level1: 1, level2: 0, level3: 0, total: 2 });
  });

  it('PT-2: counts a table once when ranges share it, and twice when a range crosses its boundary', () => {
    const shared = walkTableCount([
      { va: base + 2 * MiB, bytes: 4096, pageSize: NORMAL_PAGE },
      { va: base + 2 * MiB + 8192, bytes: 1, pageSize: NORMAL_PAGE },
      { va: base + 4 * MiB, bytes: 2 * MiB, pageSize: HUGE_PAGE },
    ]);
    expect(shared).toMatchObject({ level0: 1, level1: 1, level2: 1, level3: 1 });
    // 4 MiB straddling the 512 GiB line at 2^39: two of every lower table.
    const crossing = walkTableCount([{ va: 2 ** 39 - 2 * MiB, bytes: 4 * MiB, pageSize: NORMAL_PAGE }]);
    expect(crossing).toMatchObject({ level0: 1, level1: 2, level2: 2, level3: 2, total: 7 });
  });

  it('counts nothing for no ranges and refuses overlapping or misaligned ones', () => {
    expect(walkTableCount([]).total).toBe(0);
    expect(() =>
      walkTableCount([
        { va: base, bytes: 2 * MiB, pageSize: HUGE_PAGE },
        { va: base + 4096, bytes: 4096, pageSize: NORMAL_PAGE },
      ]),
    ).toThrow(/ranges\[1\] overlaps ranges\[0\]/);
    expect(() => walkTableCount([{ va: base + 4096, bytes: 2 * MiB, pageSize: HUGE_PAGE }])).toThrow(/aligned/);
    expect(() => walkTableCount([{ va: base, bytes: 0, pageSize: HUGE_PAGE }])).toThrow(/positive/);
    expect(() => walkTableCount([{ va: 2 ** 48 - GiB, bytes: 2 * GiB, pageSize: GIANT_PAGE }])).toThrow(/48-bit/);
    expect(() => walkTableCount([{ va: base, bytes: 65536, pageSize: 65536 }])).toThrow(/64 KiB granule/);
  });
});
