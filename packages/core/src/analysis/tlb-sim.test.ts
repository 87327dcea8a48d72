import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GIANT_PAGE, HUGE_PAGE, NORMAL_PAGE, PAGE_CLASSES, type PageClass } from './page-size.ts';
import { type AccessPattern, type BufferSegment, simulateTlb, type TlbClassGeometry, type TlbGeometry } from './tlb-sim.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
/** 16 TiB: the device SVM window (RULES.md), aligned to every page size. */
const BASE = 2 ** 44;

function geometry(normal: TlbClassGeometry, huge: TlbClassGeometry = { entries: 32, ways: 4 }): TlbGeometry {
  return { normal, huge, giant: { entries: 16, ways: 16 } };
}
const L1 = geometry({ entries: 64, ways: 4 });
const normalBuffer = (bytes: number, va = BASE): BufferSegment[] => [{ va, bytes, pageSize: NORMAL_PAGE }];
const pages = (...indices: number[]): AccessPattern => ({ kind: 'explicit', offsets: indices.map((i) => i * NORMAL_PAGE) });

describe('simulateTlb: hand-computed cases', () => {
  it('PT-1: one sequential pass over 8 MiB of 4 KiB pages misses once per page', () => {
    // 8 MiB ÷ 64 B = 131,072 accesses over 2,048 pages; a 64-entry TLB keeps the last 64.
    const result = simulateTlb(normalBuffer(8 * MiB), { kind: 'sequential', stride: 64, passes: 1 }, L1);
    expect(result).toMatchObject({ accesses: 131_072, misses: 2048, walks: 2048, hits: 129_024 });
    expect(result.byClass.normal).toEqual({
      accesses: 131_072,
      hits: 129_024,
      misses: 2048,
      walks: 2048,
      evictions: 1984,
      distinctPages: 2048,
    });
    expect(result.hitRate).toBeCloseTo(63 / 64, 12);
  });

  it('PT-1: the same 8 MiB in 2 MiB pages takes 4 walks', () => {
    const result = simulateTlb([{ va: BASE, bytes: 8 * MiB, pageSize: HUGE_PAGE }], { kind: 'sequential', stride: 64, passes: 1 }, L1);
    expect(result.byClass.huge).toMatchObject({ accesses: 131_072, misses: 4, distinctPages: 4, evictions: 0 });
  });

  it('has no misses on a second pass over a buffer that fits', () => {
    // 32 pages over 16 sets of 4 ways: two pages per set, so no conflict either.
    const once = simulateTlb(normalBuffer(128 * 1024), { kind: 'sequential', stride: 64, passes: 1 }, L1);
    const twice = simulateTlb(normalBuffer(128 * 1024), { kind: 'sequential', stride: 64, passes: 2 }, L1);
    expect(once.misses).toBe(32);
    expect(twice).toMatchObject({ accesses: 4096, misses: 32, hits: 4064 });
    expect(twice.byClass.normal.evictions).toBe(0);
  });

  it('thrashes two pages accessed alternately in a 1-way, 1-set TLB', () => {
    const thrash = simulateTlb(normalBuffer(8192), pages(0, 1, 0, 1, 0, 1), geometry({ entries: 1, ways: 1 }));
    expect(thrash.byClass.normal).toMatchObject({ accesses: 6, hits: 0, misses: 6, evictions: 5, distinctPages: 2 });
    const roomy = simulateTlb(normalBuffer(8192), pages(0, 1, 0, 1, 0, 1), geometry({ entries: 2, ways: 2 }));
    expect(roomy.byClass.normal).toMatchObject({ hits: 4, misses: 2, evictions: 0 });
  });

  it('evicts the least recently used way of a 2-way set, not the oldest filled', () => {
    // A B A C A B: C evicts B (A was used since), then B evicts C → 4 misses, 2 hits.
    // FIFO would evict A at C and miss on both later A and B: 5 misses, 1 hit.
    const result = simulateTlb(normalBuffer(3 * NORMAL_PAGE), pages(0, 1, 0, 2, 0, 1), geometry({ entries: 2, ways: 2 }));
    expect(result.byClass.normal).toMatchObject({ hits: 2, misses: 4, evictions: 2 });
  });

  it('indexes sets by page number mod sets: conflicts fill one set while another stays empty', () => {
    // 4 entries, 2 ways → 2 sets. Pages 0, 2, 4 all land in set 0; page 4 evicts page 0.
    const setAssociative = simulateTlb(normalBuffer(5 * NORMAL_PAGE), pages(0, 2, 4, 0), geometry({ entries: 4, ways: 2 }));
    expect(setAssociative.byClass.normal).toMatchObject({ misses: 4, hits: 0, evictions: 2 });
    const fullyAssociative = simulateTlb(normalBuffer(5 * NORMAL_PAGE), pages(0, 2, 4, 0), geometry({ entries: 4, ways: 4 }));
    expect(fullyAssociative.byClass.normal).toMatchObject({ misses: 3, hits: 1, evictions: 0 });
  });

  it('keeps page numbers past 2^32 intact (no 32-bit truncation of set index or tag)', () => {
    // Pages 2^32 − 2 … 2^32 + 1 in 3 sets of 1 way. 2^32 mod 3 = 1, so page 2^32 − 1 sits in
    // set 0 and page 2^32 in set 1: alternating them hits. Truncated, 2^32 → 0 shares set 0.
    const buffer = normalBuffer(4 * NORMAL_PAGE, 2 ** 44 - 2 * NORMAL_PAGE);
    const result = simulateTlb(buffer, pages(1, 2, 1, 2, 1, 2), geometry({ entries: 3, ways: 1 }));
    expect(result.byClass.normal).toMatchObject({ misses: 2, hits: 4 });
  });

  it('keeps one TLB per page class for a buffer that mixes page sizes', () => {
    const segments: BufferSegment[] = [
      { va: BASE, bytes: 2 * MiB, pageSize: NORMAL_PAGE },
      { va: BASE + 2 * MiB, bytes: 4 * MiB, pageSize: HUGE_PAGE },
      { va: BASE + 6 * MiB, bytes: 8192, pageSize: NORMAL_PAGE },
    ];
    const result = simulateTlb(segments, { kind: 'sequential', stride: NORMAL_PAGE, passes: 1 }, L1);
    expect(result.byClass.normal).toEqual({ accesses: 514, hits: 0, misses: 514, walks: 514, evictions: 450, distinctPages: 514 });
    expect(result.byClass.huge).toEqual({ accesses: 1024, hits: 1022, misses: 2, walks: 2, evictions: 0, distinctPages: 2 });
    expect(result.byClass.giant.accesses).toBe(0);
    expect(result).toMatchObject({ accesses: 1538, misses: 516, walks: 516 });
  });

  it('DM-11: simulates 64 KiB normal pages when told the normal page size', () => {
    const buffer = [{ va: BASE, bytes: 8 * MiB, pageSize: 65536 }];
    const result = simulateTlb(buffer, { kind: 'sequential', stride: 64, passes: 1 }, L1, 65536);
    expect(result.byClass.normal).toMatchObject({ misses: 128, distinctPages: 128 });
    expect(() => simulateTlb(buffer, { kind: 'sequential', stride: 64, passes: 1 }, L1)).toThrow(/65536 is not a page size here/);
  });

  it('wraps strided offsets around the buffer: (i × stride) mod bytes', () => {
    // 4 MiB, stride 2 MiB + 64: offsets 0, 2 MiB + 64, 128, 2 MiB + 192, … → pages 0, 512, 0, 512, …
    const strided = simulateTlb(normalBuffer(4 * MiB), { kind: 'strided', stride: 2 * MiB + 64, count: 10 }, L1);
    expect(strided.byClass.normal).toMatchObject({ accesses: 10, misses: 2, hits: 8, distinctPages: 2 });
    const past = simulateTlb(normalBuffer(4 * MiB), { kind: 'strided', stride: 4 * MiB + NORMAL_PAGE, count: 5 }, L1);
    expect(past.byClass.normal).toMatchObject({ misses: 5, distinctPages: 5 });
  });

  it('draws random offsets deterministically and over the whole buffer, also past 4 GiB', () => {
    const small = normalBuffer(16 * NORMAL_PAGE);
    const tiny = geometry({ entries: 4, ways: 2 });
    const a = simulateTlb(small, { kind: 'random', count: 2000, seed: 7 }, tiny);
    expect(simulateTlb(small, { kind: 'random', count: 2000, seed: 7 }, tiny)).toEqual(a);
    expect(simulateTlb(small, { kind: 'random', count: 2000, seed: 8 }, tiny).hits).not.toBe(a.hits);
    expect(a.byClass.normal.distinctPages).toBe(16);
    // 8 GiB of giant pages: offsets drawn from 32 bits only would never leave the first 4 pages.
    const giant = simulateTlb([{ va: BASE, bytes: 8 * GiB, pageSize: GIANT_PAGE }], { kind: 'random', count: 1000, seed: 1 }, L1);
    expect(giant.byClass.giant).toMatchObject({ accesses: 1000, distinctPages: 8, misses: 8 });
  });

  it('reports a hit rate of 1 and zero counts when nothing is accessed', () => {
    const result = simulateTlb(normalBuffer(NORMAL_PAGE), { kind: 'explicit', offsets: [] }, L1);
    expect(result).toMatchObject({ accesses: 0, hits: 0, misses: 0, walks: 0, hitRate: 1 });
  });
});

describe('simulateTlb: input validation', () => {
  const sequential: AccessPattern = { kind: 'sequential', stride: 64, passes: 1 };
  const buffer = normalBuffer(8192);

  it('refuses a geometry with no entries or ways that do not divide them', () => {
    expect(() => simulateTlb(buffer, sequential, geometry({ entries: 0, ways: 1 }))).toThrow(
      /normal TLB entries must be an integer from 1/,
    );
    expect(() => simulateTlb(buffer, sequential, geometry({ entries: 64, ways: 3 }))).toThrow(
      /normal TLB ways must be a positive integer dividing/,
    );
    expect(() => simulateTlb(buffer, sequential, geometry({ entries: 64, ways: 0 }))).toThrow(RangeError);
    expect(() => simulateTlb(buffer, sequential, geometry({ entries: 2 ** 21, ways: 1 }))).toThrow(RangeError);
  });

  it('refuses non-positive strides, negative counts and offsets outside the buffer', () => {
    expect(() => simulateTlb(buffer, { kind: 'sequential', stride: 0, passes: 1 }, L1)).toThrow(/stride must be a positive integer/);
    expect(() => simulateTlb(buffer, { kind: 'strided', stride: -64, count: 1 }, L1)).toThrow(/stride/);
    expect(() => simulateTlb(buffer, { kind: 'strided', stride: 1.5, count: 1 }, L1)).toThrow(/stride/);
    expect(() => simulateTlb(buffer, { kind: 'sequential', stride: 64, passes: -1 }, L1)).toThrow(/passes/);
    expect(() => simulateTlb(buffer, { kind: 'random', count: 1, seed: 0.5 }, L1)).toThrow(/seed/);
    expect(() => simulateTlb(buffer, { kind: 'explicit', offsets: [0, 8192] }, L1)).toThrow(/offsets\[1\] = 8192 is outside the buffer/);
    expect(() => simulateTlb(buffer, { kind: 'explicit', offsets: [-1] }, L1)).toThrow(RangeError);
    expect(() => simulateTlb(buffer, { kind: 'explicit', offsets: [0.5] }, L1)).toThrow(RangeError);
  });

  it('refuses segment lists with gaps, overlaps, bad page sizes or pages split between segments', () => {
    const at = (va: number, bytes: number, pageSize = NORMAL_PAGE): BufferSegment => ({ va, bytes, pageSize });
    expect(() => simulateTlb([], sequential, L1)).toThrow(/at least one segment/);
    expect(() => simulateTlb([at(BASE, 8192), at(BASE + 12288, 4096)], sequential, L1)).toThrow(/contiguous and sorted/);
    expect(() => simulateTlb([at(BASE, 8192), at(BASE + 4096, 4096)], sequential, L1)).toThrow(/contiguous/);
    expect(() => simulateTlb([at(BASE, 4096), at(BASE + 4096, HUGE_PAGE, HUGE_PAGE)], sequential, L1)).toThrow(/page boundary/);
    expect(() => simulateTlb([at(BASE, 0)], sequential, L1)).toThrow(/bytes must be a positive/);
    expect(() => simulateTlb([at(BASE, 8192, 8192)], sequential, L1)).toThrow(/8192 is not a page size/);
    expect(() => simulateTlb([at(0, 2 ** 41)], sequential, L1)).toThrow(/at most 268435456/);
  });
});

/** The obvious LRU: one recency list per set, most recent first. */
function reference(segments: readonly BufferSegment[], offsets: readonly number[], tlb: TlbGeometry) {
  const lists = new Map<string, number[]>();
  const seen = new Set<string>();
  const zero = () => ({ accesses: 0, hits: 0, misses: 0, walks: 0, evictions: 0, distinctPages: 0 });
  const counts: Record<PageClass, ReturnType<typeof zero>> = { normal: zero(), huge: zero(), giant: zero() };
  const start = segments[0]?.va ?? 0;
  for (const offset of offsets) {
    const va = start + offset;
    const segment = segments.find((s) => va >= s.va && va < s.va + s.bytes);
    if (segment === undefined) throw new Error('offset outside every segment');
    const pageClass: PageClass = segment.pageSize === GIANT_PAGE ? 'giant' : segment.pageSize === HUGE_PAGE ? 'huge' : 'normal';
    const { entries, ways } = tlb[pageClass];
    const page = Math.floor(va / segment.pageSize);
    const key = `${pageClass}:${page % (entries / ways)}`;
    const list = lists.get(key) ?? [];
    lists.set(key, list);
    const c = counts[pageClass];
    c.accesses += 1;
    const at = list.indexOf(page);
    if (at >= 0) {
      c.hits += 1;
      list.splice(at, 1);
    } else {
      c.misses += 1;
      c.walks += 1;
      if (list.length === ways) {
        list.pop();
        c.evictions += 1;
      }
      if (!seen.has(`${pageClass}:${page}`)) c.distinctPages += 1;
      seen.add(`${pageClass}:${page}`);
    }
    list.unshift(page);
  }
  return counts;
}

/** Normal pages (the first may start mid-page), up to 3 huge pages, normal pages (the last may end mid-page). */
const mixedBuffer = fc
  .record({ k: fc.integer({ min: 1, max: 2 ** 20 }), n: fc.nat(8), head: fc.nat(4095), m: fc.nat(3), p: fc.nat(8), tail: fc.nat(4095) })
  .filter(({ n, m, p }) => n + m + p > 0)
  .map(({ k, n, head, m, p, tail }) => {
    const base = k * HUGE_PAGE;
    const segments: BufferSegment[] = [];
    if (n > 0) segments.push({ va: base - n * NORMAL_PAGE + head, bytes: n * NORMAL_PAGE - head, pageSize: NORMAL_PAGE });
    if (m > 0) segments.push({ va: base, bytes: m * HUGE_PAGE, pageSize: HUGE_PAGE });
    if (p > 0) segments.push({ va: base + m * HUGE_PAGE, bytes: p * NORMAL_PAGE - tail, pageSize: NORMAL_PAGE });
    return segments;
  });
const classGeometry = fc
  .record({ sets: fc.integer({ min: 1, max: 4 }), ways: fc.integer({ min: 1, max: 4 }) })
  .map(({ sets, ways }) => ({ entries: sets * ways, ways }));
const anyGeometry = fc.record({ normal: classGeometry, huge: classGeometry, giant: classGeometry });
const bufferBytes = (segments: readonly BufferSegment[]) => segments.reduce((sum, s) => sum + s.bytes, 0);
/** Buffer offset of the first byte of every page, in order. */
function pageStarts(segments: readonly BufferSegment[]): number[] {
  const start = segments[0]?.va ?? 0;
  const starts: number[] = [];
  for (const { va, bytes, pageSize } of segments) {
    for (let page = va - (va % pageSize); page < va + bytes; page += pageSize) starts.push(Math.max(va, page) - start);
  }
  return starts;
}

describe('simulateTlb: properties', () => {
  it('agrees with a plain LRU model on mixed buffers, sorted or not', () => {
    fc.assert(
      fc.property(
        mixedBuffer,
        anyGeometry,
        fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 200, size: 'max' }),
        fc.boolean(),
        (segments, tlb, raw, sorted) => {
          // Pick a page first, then a byte in it: every page is equally likely, so pages recur
          // often enough for hits, conflicts and evictions (uniform bytes would mostly land in huge pages).
          const starts = pageStarts(segments);
          const bytes = bufferBytes(segments);
          const offsets = raw.map(([page, byte]) => {
            const at = page % starts.length;
            const start = starts[at] ?? 0;
            return start + (byte % ((starts[at + 1] ?? bytes) - start));
          });
          if (sorted) offsets.sort((a, b) => a - b);
          const result = simulateTlb(segments, { kind: 'explicit', offsets }, tlb);
          expect(result.byClass).toEqual(reference(segments, offsets, tlb));
        },
      ),
    );
  });

  const pattern: fc.Arbitrary<AccessPattern> = fc.oneof(
    fc.record({ kind: fc.constant('sequential' as const), stride: fc.integer({ min: 256, max: 3 * NORMAL_PAGE }), passes: fc.nat(3) }),
    fc.record({ kind: fc.constant('strided' as const), stride: fc.integer({ min: 1, max: 2 ** 24 }), count: fc.nat(500) }),
    fc.record({ kind: fc.constant('random' as const), count: fc.nat(500), seed: fc.integer() }),
  );

  it('hits + misses = accesses, walks = misses, and misses ≥ distinct pages (cold misses)', () => {
    fc.assert(
      fc.property(mixedBuffer, anyGeometry, pattern, (segments, tlb, p) => {
        const result = simulateTlb(segments, p, tlb);
        expect(result.hits + result.misses).toBe(result.accesses);
        expect(result.walks).toBe(result.misses);
        for (const pageClass of PAGE_CLASSES) {
          const c = result.byClass[pageClass];
          expect(c.hits + c.misses).toBe(c.accesses);
          expect(c.misses).toBeGreaterThanOrEqual(c.distinctPages);
          expect(c.evictions).toBeLessThanOrEqual(c.misses);
        }
      }),
    );
  });

  it('misses only cold when a fully associative TLB holds every distinct page', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 64 }), fc.integer({ min: 0, max: 32 }), pattern, (bufferPages, spare, p) => {
        const entries = bufferPages + spare;
        const tlb = geometry({ entries, ways: entries });
        const result = simulateTlb(normalBuffer(bufferPages * NORMAL_PAGE), p, tlb);
        expect(result.misses).toBe(result.byClass.normal.distinctPages);
        expect(result.byClass.normal.evictions).toBe(0);
      }),
    );
  });
});
