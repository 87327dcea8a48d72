import { scaleLinear } from 'd3-scale';
import { address, type FormatPrefs } from '../format.ts';
import type { StripView } from './strip-layout.ts';

export interface AxisTick {
  readonly va: number;
  /** CSS pixels from the strip's left edge. */
  readonly x: number;
  readonly label: string;
}

/** Room one label needs: a full 48-bit address in the mono font, plus a gap. */
export const TICK_SPACING_HEX = 130;
export const TICK_SPACING_DEC = 160;

/**
 * Tick positions for the address axis. In hex they fall on powers of two (0x…0000 boundaries,
 * the ones a reader of hex addresses expects: 2 MiB, 1 GiB, 4 KiB…); in decimal on d3's 1-2-5
 * steps. Positions come from a d3 linear scale over the visible interval.
 */
export function axisTicks(view: StripView, prefs: FormatPrefs): AxisTick[] {
  const scale = scaleLinear().domain([view.start, view.end]).range([0, view.width]);
  const spacing = prefs.addresses === 'hex' ? TICK_SPACING_HEX : TICK_SPACING_DEC;
  const target = Math.max(2, Math.floor(view.width / spacing));
  const values = prefs.addresses === 'hex' ? powerOfTwoTicks(view.start, view.end, target) : scale.ticks(target);
  return values
    .filter((va) => va >= view.start && va <= view.end && Number.isSafeInteger(va))
    .map((va) => ({ va, x: scale(va), label: address(va, prefs) }));
}

/** Multiples of the smallest power of two giving at most `target` ticks in [start, end]. */
export function powerOfTwoTicks(start: number, end: number, target: number): number[] {
  const span = end - start;
  if (!(span > 0) || target < 1) return [];
  let step = 2 ** Math.ceil(Math.log2(span / target));
  if (span / step > target) step *= 2;
  step = Math.max(1, step);
  const want = Math.min(2, target);
  // A step near the span can leave no multiple inside it: halve until the axis has its ticks.
  while (step > 1 && Math.floor(end / step) - Math.ceil(start / step) + 1 < want) step /= 2;
  const ticks: number[] = [];
  for (let va = Math.ceil(start / step) * step; va <= end; va += step) ticks.push(va);
  return ticks;
}
