import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Bitset } from './bitset.ts';

describe('Bitset', () => {
  it('finds lowest and highest members across words and summary words', () => {
    const set = new Bitset(5000);
    expect(set.lowest()).toBe(-1);
    expect(set.highest()).toBe(-1);
    for (const i of [7, 31, 32, 1023, 1024, 4999]) set.add(i);
    expect(set.count).toBe(6);
    expect(set.lowest()).toBe(7);
    expect(set.lowest(8)).toBe(31);
    expect(set.lowest(33)).toBe(1023);
    expect(set.lowest(1025)).toBe(4999);
    expect(set.highest()).toBe(4999);
    expect(set.highest(4998)).toBe(1024);
    expect(set.highest(1023)).toBe(1023);
    expect(set.highest(30)).toBe(7);
    set.delete(7);
    expect(set.highest(30)).toBe(-1);
    expect(set.count).toBe(5);
  });

  it('agrees with a plain set on random operations', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat()), { maxLength: 300 }),
        fc.nat(),
        (size, ops, probe) => {
          const set = new Bitset(size);
          const model = new Set<number>();
          for (const [add, raw] of ops) {
            const i = raw % size;
            if (add) {
              set.add(i);
              model.add(i);
            } else {
              set.delete(i);
              model.delete(i);
            }
          }
          const sorted = [...model].sort((a, b) => a - b);
          const from = probe % size;
          expect(set.count).toBe(model.size);
          expect(set.lowest(from)).toBe(sorted.find((v) => v >= from) ?? -1);
          expect(set.highest(from)).toBe([...sorted].reverse().find((v) => v <= from) ?? -1);
          let absentAbove = from;
          while (absentAbove < size && model.has(absentAbove)) absentAbove += 1;
          expect(set.lowestAbsent(from)).toBe(absentAbove);
          let absentBelow = from;
          while (absentBelow >= 0 && model.has(absentBelow)) absentBelow -= 1;
          expect(set.highestAbsent(from)).toBe(absentBelow);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('Bitset stretches', () => {
  it('finds where a stretch of members ends, in both directions and across words', () => {
    const set = new Bitset(100);
    set.addRange(10, 60);
    expect(set.lowestAbsent(10)).toBe(70);
    expect(set.lowestAbsent(69)).toBe(70);
    expect(set.lowestAbsent(5)).toBe(5);
    expect(set.highestAbsent(69)).toBe(9);
    expect(set.highestAbsent(70)).toBe(70);
    set.addRange(0, 100);
    expect(set.lowestAbsent(0)).toBe(100);
    expect(set.highestAbsent(99)).toBe(-1);
    expect(set.lowestAbsent(100)).toBe(100);
    expect(set.highestAbsent(-1)).toBe(-1);
  });
});

describe('Bitset ranges', () => {
  it('addRange and deleteRange agree with one-by-one updates', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 3000 }),
        fc.array(fc.tuple(fc.boolean(), fc.nat(), fc.nat({ max: 200 })), { maxLength: 60 }),
        (size, ops) => {
          const ranged = new Bitset(size);
          const single = new Bitset(size);
          for (const [add, rawStart, rawCount] of ops) {
            const start = rawStart % size;
            const count = Math.min(rawCount, size - start);
            if (add) ranged.addRange(start, count);
            else ranged.deleteRange(start, count);
            for (let i = start; i < start + count; i += 1) {
              if (add) single.add(i);
              else single.delete(i);
            }
          }
          expect(ranged.count).toBe(single.count);
          expect(Array.from(ranged.words)).toEqual(Array.from(single.words));
          expect(Array.from(ranged.summary)).toEqual(Array.from(single.summary));
        },
      ),
      { numRuns: 300 },
    );
  });
});
