import { describe, expect, it } from 'vitest';
import { atBottom, navigate, rowWindow, scrollToRow } from './windowing.ts';

describe('rowWindow', () => {
  it('renders only the rows in view plus the overscan, with padding for the rest', () => {
    const window = rowWindow({ scrollTop: 4200, viewport: 420, rowHeight: 42, count: 100_000, overscan: 5 });
    // Rows 100..110 are visible (11 rows, one partly).
    expect(window).toEqual({ start: 95, end: 116, padTop: 95 * 42, padBottom: (100_000 - 116) * 42, total: 4_200_000, slots: 21 });
    expect(window.end - window.start).toBeLessThan(30);
  });

  it('clamps at both ends and past the end of a list that shrank', () => {
    expect(rowWindow({ scrollTop: 0, viewport: 420, rowHeight: 42, count: 3 })).toEqual({
      start: 0,
      end: 3,
      padTop: 0,
      padBottom: 0,
      total: 126,
      slots: 27,
    });
    const past = rowWindow({ scrollTop: 99_999, viewport: 420, rowHeight: 42, count: 50, overscan: 0 });
    expect(past.end).toBe(50);
    expect(past.start).toBe(40);
    expect(rowWindow({ scrollTop: 0, viewport: 420, rowHeight: 42, count: 0 })).toEqual({
      start: 0,
      end: 0,
      padTop: 0,
      padBottom: 0,
      total: 0,
      slots: 1,
    });
  });

  it('gives every row of a window its own slot, wherever the window is', () => {
    for (const viewport of [0, 30, 41, 42, 43, 420, 719]) {
      for (const count of [1, 7, 40, 1000]) {
        for (let scrollTop = -50; scrollTop < count * 42 + 100; scrollTop += 17) {
          const window = rowWindow({ scrollTop, viewport, rowHeight: 42, count, overscan: 3 });
          const slots = new Set<number>();
          for (let index = window.start; index < window.end; index += 1) slots.add(index % window.slots);
          expect(slots.size, `viewport ${viewport}, count ${count}, scrollTop ${scrollTop}`).toBe(window.end - window.start);
        }
      }
    }
  });
});

describe('scrolling', () => {
  it('moves as little as possible to show a row', () => {
    expect(scrollToRow(5, 0, 420, 42)).toBe(0);
    expect(scrollToRow(20, 0, 420, 42)).toBe(21 * 42 - 420);
    expect(scrollToRow(2, 1000, 420, 42)).toBe(84);
  });

  it('knows when the list is at its end (to follow new calls)', () => {
    expect(atBottom(580, 420, 1000)).toBe(true);
    expect(atBottom(500, 420, 1000)).toBe(false);
  });
});

describe('navigate', () => {
  it.each([
    ['ArrowDown', 3, 4],
    ['ArrowUp', 3, 2],
    ['ArrowUp', 0, 0],
    ['ArrowDown', 9, 9],
    ['PageDown', 3, 8],
    ['PageUp', 3, 0],
    ['Home', 5, 0],
    ['End', 2, 9],
    ['ArrowUp', undefined, 9],
    ['x', 3, undefined],
  ] as const)('%s from %s → %s', (key, from, to) => {
    expect(navigate(key, from, 10, 5)).toBe(to);
  });

  it('does nothing in an empty list', () => {
    expect(navigate('ArrowDown', undefined, 0, 5)).toBeUndefined();
  });
});
