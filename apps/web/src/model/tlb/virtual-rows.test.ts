import { describe, expect, it } from 'vitest';
import { scrollToRow, visibleRows } from './virtual-rows.ts';

describe('virtual rows', () => {
  it('draws only the rows in view plus overscan, with spacers for the rest', () => {
    expect(visibleRows(0, 260, 26, 100_000, 8)).toEqual({ start: 0, end: 18, before: 0, after: (100_000 - 18) * 26 });
    expect(visibleRows(26 * 1000, 260, 26, 100_000, 8)).toEqual({ start: 992, end: 1018, before: 992 * 26, after: (100_000 - 1018) * 26 });
  });

  it('clamps at the end and for short lists', () => {
    expect(visibleRows(26 * 99_995, 260, 26, 100_000, 8)).toMatchObject({ start: 99_987, end: 100_000, after: 0 });
    expect(visibleRows(0, 260, 26, 3)).toEqual({ start: 0, end: 3, before: 0, after: 0 });
    expect(visibleRows(5000, 260, 26, 0)).toEqual({ start: 0, end: 0, before: 0, after: 0 });
  });

  it('scrolls a row into the middle only when it is out of view', () => {
    expect(scrollToRow(3, 0, 260, 26, 26)).toBeUndefined();
    expect(scrollToRow(500, 0, 260, 26, 26)).toBe(500 * 26 - 117);
    expect(scrollToRow(0, 1000, 260, 26, 26)).toBe(0);
  });
});
