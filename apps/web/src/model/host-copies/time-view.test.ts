import { describe, expect, it } from 'vitest';
import {
  centerOn,
  fitDomain,
  MIN_VISIBLE_NS,
  maxZoom,
  type TimeView,
  tickLabel,
  timeTicks,
  timeToX,
  visibleRange,
  xToTime,
  zoomAround,
} from './time-view.ts';

const base: TimeView = { d0: 0, d1: 1_000_000, width: 500, k: 1, x: 0 };

describe('time ↔ x mapping and zoom', () => {
  it('maps the fitted domain onto the width, and back', () => {
    expect(timeToX(base, 0)).toBe(0);
    expect(timeToX(base, 500_000)).toBe(250);
    expect(timeToX(base, 1_000_000)).toBe(500);
    expect(xToTime(base, 125)).toBe(250_000);
    for (const t of [0, 1234, 777_777, 1_000_000]) expect(xToTime(base, timeToX(base, t))).toBeCloseTo(t, 6);
  });

  it('applies the zoom transform: screen x = base x × k + x', () => {
    const zoomed: TimeView = { ...base, k: 4, x: -500 };
    expect(timeToX(zoomed, 500_000)).toBe(250 * 4 - 500);
    expect(visibleRange(zoomed)).toEqual([250_000, 500_000]);
  });

  it('zooming around a point keeps the time under it in place, and clamps to the extent', () => {
    const at = 100;
    const t = xToTime(base, at);
    const next = zoomAround(base, 8, at, 1000);
    expect(next.k).toBe(8);
    expect(xToTime({ ...base, ...next }, at)).toBeCloseTo(t, 6);
    expect(zoomAround(base, 0.1, at, 1000).k).toBe(1);
    expect(zoomAround(base, 1e9, at, 50).k).toBe(50);
  });

  it('centres a time in the plot at the current zoom', () => {
    const view: TimeView = { ...base, k: 10 };
    const next = centerOn(view, 700_000);
    expect(timeToX({ ...view, ...next }, 700_000)).toBeCloseTo(250, 6);
    expect(next.k).toBe(10);
  });

  it('fits a domain with air on both sides, never before 0 and never empty', () => {
    const [a, b] = fitDomain(1000, 101_000);
    expect(a).toBeLessThan(1000);
    expect(b).toBeGreaterThan(101_000);
    expect(fitDomain(0, 0)[0]).toBe(0);
    const [c, d] = fitDomain(5000, 5000);
    expect(d - c).toBeGreaterThan(0);
  });

  it('caps the zoom so the visible span never drops below MIN_VISIBLE_NS', () => {
    expect(maxZoom(0, 1_000_000)).toBe(1_000_000 / MIN_VISIBLE_NS);
    expect(maxZoom(0, 10)).toBe(1);
  });

  it('labels ticks with a unit from the spacing and enough decimals to differ', () => {
    expect(tickLabel(14_000_000, 2_000_000)).toBe('14 ms');
    expect(tickLabel(1_234_500, 500)).toBe('1234.5 µs');
    expect(tickLabel(2_000_000_000, 500_000_000)).toBe('2.0 s');
    expect(tickLabel(300, 20)).toBe('300 ns');
    const ticks = timeTicks({ ...base, k: 100, x: -100 * 250 }, 5);
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    const labels = ticks.map((tick) => tick.label);
    expect(new Set(labels).size).toBe(labels.length);
    for (const tick of ticks) expect(tick.x).toBeCloseTo(timeToX({ ...base, k: 100, x: -100 * 250 }, tick.value), 6);
    expect(timeTicks({ ...base, width: 0 }, 5)).toEqual([]);
  });
});
