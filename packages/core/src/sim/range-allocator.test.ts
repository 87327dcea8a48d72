import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RangeAllocator } from './range-allocator.ts';

describe('RangeAllocator', () => {
  it('aligns, coalesces and gives the whole range back', () => {
    const ranges = new RangeAllocator(0x1000_0000, 0x100_0000);
    const a = ranges.take(0x1000, 0x1000);
    const b = ranges.take(0x20_0000, 0x20_0000);
    expect(a).toBe(0x1000_0000);
    expect(b).toBe(0x1020_0000);
    ranges.release(a ?? 0, 0x1000);
    ranges.release(b ?? 0, 0x20_0000);
    expect(ranges.holes()).toEqual([[0x1000_0000, 0x1100_0000]]);
    expect(ranges.used).toBe(0);
  });

  it('refuses what does not fit and takes exact ranges only when free', () => {
    const ranges = new RangeAllocator(0, 1 << 20);
    expect(ranges.take((1 << 20) + 1, 1)).toBeUndefined();
    expect(ranges.takeAt(4096, 4096)).toBe(true);
    expect(ranges.takeAt(6000, 10)).toBe(false);
    expect(ranges.take(1 << 20, 1)).toBeUndefined();
  });

  it('never hands out overlapping ranges and restores everything (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 1 << 16 }), fc.constantFrom(1, 64, 4096, 65536), fc.boolean()), { maxLength: 200 }),
        (ops) => {
          const ranges = new RangeAllocator(1 << 30, 1 << 24);
          const live: [number, number][] = [];
          for (const [size, alignment, free] of ops) {
            if (free && live.length > 0) {
              const [addr, length] = live.splice(size % live.length, 1)[0] ?? [0, 0];
              ranges.release(addr, length);
              continue;
            }
            const addr = ranges.take(size, alignment);
            if (addr === undefined) continue;
            expect(addr % alignment).toBe(0);
            for (const [other, length] of live) expect(addr + size <= other || other + length <= addr).toBe(true);
            live.push([addr, size]);
          }
          for (const [addr, length] of live) ranges.release(addr, length);
          expect(ranges.holes()).toEqual([[1 << 30, (1 << 30) + (1 << 24)]]);
        },
      ),
    );
  });
});
