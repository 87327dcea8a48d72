import { firstEndingAfter, type RangeSet } from './strip-model.ts';

/**
 * The strip's geometry. At zoom k = 1 the whole domain fills the width; a zoom transform
 * (k, x) from the zoom behaviour maps base pixel b to screen pixel x + k·b. The visible part is
 * then a VA interval, and every drawing and hit test works from that interval.
 */
export interface ZoomState {
  readonly k: number;
  readonly x: number;
}

/** The VA interval [start, end) shown across `width` CSS pixels. */
export interface StripView {
  readonly start: number;
  readonly end: number;
  readonly width: number;
}

export interface Domain {
  readonly start: number;
  readonly end: number;
}

/** A 4 KiB page should be this many pixels wide at the deepest zoom. */
export const PAGE_PIXELS_AT_MAX_ZOOM = 24;
const SMALLEST_PAGE = 4096;

export function viewOf(domain: Domain, width: number, zoom: ZoomState): StripView {
  const span = domain.end - domain.start;
  const w = Math.max(1, width);
  const start = domain.start + (-zoom.x / zoom.k / w) * span;
  return { start, end: start + span / zoom.k, width: w };
}

export function vaToX(view: StripView, va: number): number {
  return ((va - view.start) / (view.end - view.start)) * view.width;
}

export function xToVa(view: StripView, x: number): number {
  return view.start + (x / view.width) * (view.end - view.start);
}

/** Bytes one CSS pixel stands for. */
export function bytesPerPixel(view: StripView): number {
  return (view.end - view.start) / view.width;
}

/** The deepest zoom: a 4 KiB page becomes PAGE_PIXELS_AT_MAX_ZOOM pixels wide. */
export function maxZoom(domain: Domain, width: number): number {
  const pages = (domain.end - domain.start) / SMALLEST_PAGE;
  return Math.max(1, (pages * PAGE_PIXELS_AT_MAX_ZOOM) / Math.max(1, width));
}

/** Keeps the view inside the domain: no panning past either end, k within [1, max]. */
export function clampZoom(zoom: ZoomState, domain: Domain, width: number): ZoomState {
  const k = Math.min(maxZoom(domain, width), Math.max(1, zoom.k));
  const x = Math.min(0, Math.max(width * (1 - k), zoom.x));
  return { k, x };
}

/** The transform showing [start, end) with `margin` (a fraction of the range) on each side. */
export function zoomToRange(domain: Domain, width: number, start: number, end: number, margin = 0.1): ZoomState {
  const span = domain.end - domain.start;
  const length = Math.max(end - start, 1) * (1 + 2 * margin);
  const k = span / length;
  const viewStart = start - (end - start) * margin;
  const x = (-(viewStart - domain.start) / span) * width * k;
  return clampZoom({ k, x }, domain, width);
}

/** One thing to paint: a range at least a pixel wide, or a pixel column standing for several. */
export interface StripRect {
  readonly x0: number;
  readonly x1: number;
  /** Index into the set of the range (the largest one, for an aggregate). */
  readonly index: number;
  /** Ranges it stands for: 1 for a plain range. */
  readonly count: number;
  /** Fraction of the column covered, 0–1 (1 for plain ranges). */
  readonly coverage: number;
}

/**
 * Culls `set` to the view and merges ranges narrower than a pixel into per-pixel aggregates, so
 * the work is bounded by the visible ranges and the output by about twice the width, however many
 * ranges there are (100,000 allocations at full zoom-out become at most one rect per pixel).
 */
export function layoutRanges(set: RangeSet, view: StripView): StripRect[] {
  const rects: StripRect[] = [];
  const scale = view.width / (view.end - view.start);
  let column = Number.NaN;
  let covered = 0;
  let count = 0;
  let biggest = -1;
  let biggestWidth = -1;
  const flush = (): void => {
    if (count === 0) return;
    rects.push({ x0: column, x1: column + 1, index: biggest, count, coverage: Math.min(1, covered) });
    count = 0;
    covered = 0;
    biggestWidth = -1;
  };
  for (let i = firstEndingAfter(set, view.start); i < set.count; i += 1) {
    const start = set.start[i] ?? 0;
    if (start >= view.end) break;
    const x0 = Math.max(-1, (start - view.start) * scale);
    const x1 = Math.min(view.width + 1, ((set.end[i] ?? 0) - view.start) * scale);
    const width = x1 - x0;
    if (width >= 1) {
      flush();
      rects.push({ x0, x1, index: i, count: 1, coverage: 1 });
      continue;
    }
    const at = Math.floor(x0);
    if (at !== column) {
      flush();
      column = at;
    }
    count += 1;
    covered += width;
    if (width > biggestWidth) {
      biggestWidth = width;
      biggest = i;
    }
  }
  flush();
  return rects;
}

/** What lies under the pointer: ranges within half a pixel either side of `va`. */
export interface StripHit {
  readonly first: number;
  /** Exclusive. */
  readonly last: number;
}

export function hitRanges(set: RangeSet, va: number, slack: number): StripHit {
  const first = firstEndingAfter(set, va - slack);
  let last = first;
  while (last < set.count && (set.start[last] ?? 0) <= va + slack) last += 1;
  return { first, last };
}

/** The hole around `va`: the gap between the neighbouring ranges of `sets`, clipped to the domain. */
export function holeAround(sets: readonly RangeSet[], domain: Domain, va: number): Domain {
  let start = domain.start;
  let end = domain.end;
  for (const set of sets) {
    const next = firstEndingAfter(set, va);
    if (next < set.count) end = Math.min(end, set.start[next] ?? end);
    if (next > 0) start = Math.max(start, set.end[next - 1] ?? start);
  }
  return { start, end };
}
