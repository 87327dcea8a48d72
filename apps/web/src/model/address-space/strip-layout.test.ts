import { describe, expect, it } from 'vitest';
import {
  bytesPerPixel,
  clampZoom,
  hitRanges,
  holeAround,
  layoutRanges,
  maxZoom,
  PAGE_PIXELS_AT_MAX_ZOOM,
  vaToX,
  viewOf,
  xToVa,
  zoomToRange,
} from './strip-layout.ts';
import { RangeKind, type RangeSet } from './strip-model.ts';

const GiB = 1024 ** 3;
const BASE = 16 * 1024 * GiB;
const DOMAIN = { start: BASE, end: BASE + 128 * GiB };

/** Contiguous equal ranges [start + i·stride, + size). */
function ranges(count: number, start: number, size: number, stride = size): RangeSet {
  const set: RangeSet = {
    count,
    start: new Float64Array(count),
    end: new Float64Array(count),
    kind: new Uint8Array(count).fill(RangeKind.allocation),
    id: new Int32Array(count),
    color: new Int32Array(count),
    pageClass: new Uint8Array(count),
    pageSize: new Float64Array(count).fill(4096),
  };
  for (let i = 0; i < count; i += 1) {
    set.start[i] = start + i * stride;
    set.end[i] = start + i * stride + size;
    set.id[i] = i + 1;
    set.color[i] = i + 1;
  }
  return set;
}

describe('VA ↔ x', () => {
  it('at zoom 1 the whole 128 GiB window spans the width', () => {
    const view = viewOf(DOMAIN, 1024, { k: 1, x: 0 });
    expect(view.start).toBe(DOMAIN.start);
    expect(view.end).toBe(DOMAIN.end);
    expect(vaToX(view, BASE + 64 * GiB)).toBe(512);
    expect(bytesPerPixel(view)).toBe(128 * 1024 ** 2);
  });

  it('zoom k with translate x shows 1/k of the window starting where x points', () => {
    // k = 8, panned so base pixel 256 sits at the left edge: x = −256·8.
    const view = viewOf(DOMAIN, 1024, { k: 8, x: -256 * 8 });
    expect(view.start).toBe(BASE + 32 * GiB);
    expect(view.end).toBe(BASE + 48 * GiB);
    expect(xToVa(view, 512)).toBe(BASE + 40 * GiB);
    expect(vaToX(view, BASE + 40 * GiB)).toBeCloseTo(512, 9);
  });

  it('at the deepest zoom a 4 KiB page is PAGE_PIXELS_AT_MAX_ZOOM pixels wide', () => {
    const k = maxZoom(DOMAIN, 800);
    const view = viewOf(DOMAIN, 800, { k, x: 0 });
    expect(4096 / bytesPerPixel(view)).toBeCloseTo(PAGE_PIXELS_AT_MAX_ZOOM, 6);
    // Exact page addresses survive the round trip at 16 TiB (doubles keep 53 bits).
    const page = BASE + 4096 * 7;
    expect(Math.round(xToVa(view, vaToX(view, page)))).toBe(page);
  });

  it('clamps zoom to [1, max] and never pans past the window', () => {
    expect(clampZoom({ k: 0.5, x: 40 }, DOMAIN, 1000)).toEqual({ k: 1, x: 0 });
    expect(clampZoom({ k: 4, x: 100 }, DOMAIN, 1000)).toEqual({ k: 4, x: 0 });
    expect(clampZoom({ k: 4, x: -5000 }, DOMAIN, 1000)).toEqual({ k: 4, x: -3000 });
    expect(clampZoom({ k: 1e12, x: 0 }, DOMAIN, 1000).k).toBe(maxZoom(DOMAIN, 1000));
  });

  it('zoomToRange shows the range with its margin', () => {
    const start = BASE + 10 * GiB;
    const end = start + 4 * 1024 * 1024;
    const view = viewOf(DOMAIN, 1000, zoomToRange(DOMAIN, 1000, start, end, 0.1));
    expect(view.start).toBeCloseTo(start - 0.4 * 1024 * 1024, 0);
    expect(view.end).toBeCloseTo(end + 0.4 * 1024 * 1024, 0);
  });
});

describe('layoutRanges: culling and per-pixel aggregates', () => {
  it('draws wide ranges as themselves and skips those out of view', () => {
    const set = ranges(4, BASE, GiB, 32 * GiB); // at 0, 32, 64, 96 GiB
    const view = viewOf(DOMAIN, 1280, { k: 4, x: -1280 }); // 32–64 GiB
    const rects = layoutRanges(set, view);
    expect(rects.map((r) => r.index)).toEqual([1]);
    expect(rects[0]?.x0).toBeCloseTo(0, 6);
    expect(rects[0]?.x1).toBeCloseTo(40, 6);
    expect(rects[0]?.count).toBe(1);
  });

  it('merges 100,000 sub-pixel allocations into at most one rect per pixel', () => {
    const set = ranges(100_000, BASE, 64 * 1024, 1024 * 1024); // 64 KiB every 1 MiB
    const view = viewOf(DOMAIN, 1000, { k: 1, x: 0 });
    const rects = layoutRanges(set, view);
    const width = (set.end[99_999] ?? 0) - BASE;
    expect(rects.length).toBeLessThanOrEqual(Math.ceil(width / bytesPerPixel(view)) + 1);
    expect(rects.reduce((sum, r) => sum + r.count, 0)).toBe(100_000);
    // 64 KiB of every MiB: coverage is 1/16 per column.
    const full = rects[1];
    expect(full?.coverage).toBeCloseTo(1 / 16, 1);
    expect((full?.x1 ?? 0) - (full?.x0 ?? 0)).toBe(1);
  });

  it('keeps the widest contributor of a column as its colour source', () => {
    const set = ranges(3, BASE, 10, 100);
    set.end[1] = BASE + 100 + 60; // the middle one is widest
    const rects = layoutRanges(set, viewOf(DOMAIN, 1000, { k: 1, x: 0 }));
    expect(rects).toHaveLength(1);
    expect(rects[0]?.index).toBe(1);
    expect(rects[0]?.count).toBe(3);
  });
});

describe('hit tests', () => {
  it('finds the ranges within the slack and the hole around a free address', () => {
    const set = ranges(3, BASE, 4096, 16384);
    expect(hitRanges(set, BASE + 100, 0)).toEqual({ first: 0, last: 1 });
    expect(hitRanges(set, BASE + 8000, 0)).toEqual({ first: 1, last: 1 });
    expect(hitRanges(set, BASE + 8000, 20000)).toEqual({ first: 0, last: 2 });
    expect(holeAround([set], DOMAIN, BASE + 8000)).toEqual({ start: BASE + 4096, end: BASE + 16384 });
    expect(holeAround([set], DOMAIN, BASE + 40000)).toEqual({ start: BASE + 32768 + 4096, end: DOMAIN.end });
  });
});
