import { describe, expect, it } from 'vitest';
import { barColor, COPY_COLORS_DARK, COPY_COLORS_LIGHT, copyColors, LEGEND_PATHS } from './copy-style.ts';

describe('bar colours per path', () => {
  it('gives every path its own colour in both themes, pinned and pageable clearly apart', () => {
    for (const colors of [COPY_COLORS_LIGHT, COPY_COLORS_DARK]) {
      const fills = LEGEND_PATHS.map((path) => barColor(colors, path));
      expect(new Set(fills).size).toBe(LEGEND_PATHS.length);
      expect(barColor(colors, 'pinned')).not.toBe(barColor(colors, 'pageable-staged'));
      // Selection must not be mistaken for a bar fill.
      expect(fills).not.toContain(colors.selection);
    }
  });

  it('picks the palette of the theme', () => {
    expect(copyColors('light')).toBe(COPY_COLORS_LIGHT);
    expect(copyColors('dark')).toBe(COPY_COLORS_DARK);
    expect(barColor(copyColors('light'), 'pinned')).toBe('#2563eb');
    expect(barColor(copyColors('dark'), 'pageable-staged')).toBe('#fb923c');
  });
});
