import { tickStep } from 'd3-array';
import { scaleLinear } from 'd3-scale';

/**
 * The horizontal mapping of the copy timeline: a base domain (ns) fitted to `width` pixels, then
 * a zoom transform (k, x) as d3-zoom reports it: screen x = base x × k + x.
 */
export interface TimeView {
  readonly d0: number;
  readonly d1: number;
  /** Plot width in CSS pixels. */
  readonly width: number;
  readonly k: number;
  readonly x: number;
}

/** The narrowest span a person can zoom to (ns): finer than any copy's fixed latency. */
export const MIN_VISIBLE_NS = 200;

/** A base domain around [t0, t1] with a little air on both sides; never empty. */
export function fitDomain(t0: number, t1: number): [number, number] {
  const span = Math.max(t1 - t0, 1000);
  const pad = span * 0.03;
  return [Math.max(0, t0 - pad), t0 + span + pad];
}

export function timeToX(view: TimeView, t: number): number {
  const span = view.d1 - view.d0;
  if (span <= 0) return view.x;
  return ((t - view.d0) / span) * view.width * view.k + view.x;
}

export function xToTime(view: TimeView, px: number): number {
  const span = view.d1 - view.d0;
  if (view.width <= 0 || view.k <= 0) return view.d0;
  return view.d0 + ((px - view.x) / (view.width * view.k)) * span;
}

/** The times at the plot's left and right edges. */
export function visibleRange(view: TimeView): [number, number] {
  return [xToTime(view, 0), xToTime(view, view.width)];
}

/** Largest zoom factor: the visible span never gets narrower than MIN_VISIBLE_NS. */
export function maxZoom(d0: number, d1: number): number {
  return Math.max(1, (d1 - d0) / MIN_VISIBLE_NS);
}

/** The transform after zooming by `factor` around screen x `at` (what wheel and keys do). */
export function zoomAround(view: TimeView, factor: number, at: number, maxK: number): { k: number; x: number } {
  const k = Math.min(maxK, Math.max(1, view.k * factor));
  const t = xToTime(view, at);
  const span = view.d1 - view.d0;
  const base = span <= 0 ? 0 : ((t - view.d0) / span) * view.width;
  return { k, x: at - base * k };
}

/** The transform that puts time `t` at the middle of the plot at the current zoom. */
export function centerOn(view: TimeView, t: number): { k: number; x: number } {
  const span = view.d1 - view.d0;
  const base = span <= 0 ? 0 : ((t - view.d0) / span) * view.width;
  return { k: view.k, x: view.width / 2 - base * view.k };
}

const UNITS: readonly { readonly ns: number; readonly suffix: string }[] = [
  { ns: 1e9, suffix: 's' },
  { ns: 1e6, suffix: 'ms' },
  { ns: 1e3, suffix: 'µs' },
  { ns: 1, suffix: 'ns' },
];

/**
 * A tick label with a unit chosen by the tick spacing (the largest unit at most 20 steps long) and
 * just enough decimals to tell neighbouring ticks apart: step 500 ns → "1234.5 µs", step 2 ms → "14 ms".
 */
export function tickLabel(value: number, step: number): string {
  const unit = UNITS.find((u) => u.ns <= step * 20) ?? { ns: 1, suffix: 'ns' };
  const scaled = step / unit.ns;
  const decimals = Math.max(0, Math.min(6, Math.ceil(-Math.log10(scaled) - 1e-9)));
  return `${(value / unit.ns).toFixed(decimals)} ${unit.suffix}`;
}

export interface Tick {
  readonly value: number;
  readonly x: number;
  readonly label: string;
}

/** About `count` round ticks across the visible range, with their screen x and label. */
export function timeTicks(view: TimeView, count: number): Tick[] {
  const [a, b] = visibleRange(view);
  if (!(b > a)) return [];
  const step = Math.abs(tickStep(a, b, count));
  return scaleLinear()
    .domain([a, b])
    .ticks(count)
    .map((value) => ({ value, x: timeToX(view, value), label: tickLabel(value, step) }));
}
