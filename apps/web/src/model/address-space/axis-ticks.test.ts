import { describe, expect, it } from 'vitest';
import { axisTicks, powerOfTwoTicks } from './axis-ticks.ts';

const GiB = 1024 ** 3;
const BASE = 16 * 1024 * GiB;

describe('axis ticks', () => {
  it('hex ticks fall on power-of-two boundaries and read as hex addresses', () => {
    const view = { start: BASE, end: BASE + 128 * GiB, width: 650 };
    const ticks = axisTicks(view, { units: 'binary', addresses: 'hex' });
    expect(ticks.map((t) => t.label)).toEqual(['0x100000000000', '0x100800000000', '0x101000000000', '0x101800000000', '0x102000000000']);
    expect(ticks[2]?.x).toBeCloseTo(325, 6);
  });

  it('decimal ticks use the address preference and d3 steps', () => {
    const view = { start: 0, end: 10_000_000, width: 800 };
    const ticks = axisTicks(view, { units: 'binary', addresses: 'dec' });
    expect(ticks.map((t) => t.label)).toEqual(['0', '2,000,000', '4,000,000', '6,000,000', '8,000,000', '10,000,000']);
  });

  it('down at single 4 KiB pages the hex ticks step by pages', () => {
    const start = BASE + 0x20_0000;
    const view = { start, end: start + 4 * 4096, width: 600 };
    const ticks = axisTicks(view, { units: 'binary', addresses: 'hex' });
    expect(ticks.map((t) => t.label)).toEqual(['0x100000200000', '0x100000201000', '0x100000202000', '0x100000203000', '0x100000204000']);
  });

  it('never gives more ticks than asked for', () => {
    for (const target of [1, 2, 3, 5, 7]) {
      const ticks = powerOfTwoTicks(12345, 12345 + 987_654, target);
      expect(ticks.length).toBeLessThanOrEqual(target + 1);
      expect(ticks.length).toBeGreaterThan(0);
      const step = (ticks[1] ?? 0) - (ticks[0] ?? 0);
      if (ticks.length > 1) expect(Math.log2(step) % 1).toBe(0);
    }
    expect(powerOfTwoTicks(10, 10, 4)).toEqual([]);
  });
});
