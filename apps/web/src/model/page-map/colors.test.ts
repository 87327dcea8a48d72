import { describe, expect, it } from 'vitest';
import { hexRgba, LIGHT, ownerRgba } from '../colors.ts';
import { colorScheme, cssColor, FILL_LEVELS, fillLevel, kindColors, OwnerColorTable } from './colors.ts';

const luminance = (packed: number): number => 0.2126 * (packed & 255) + 0.7152 * ((packed >>> 8) & 255) + 0.0722 * ((packed >>> 16) & 255);

describe('page-map colours', () => {
  it('turns pages in use into a fill level 1…8 (0 only when none is used)', () => {
    expect(fillLevel(0, 512)).toBe(0);
    expect(fillLevel(1, 512)).toBe(1);
    expect(fillLevel(64, 512)).toBe(1);
    expect(fillLevel(65, 512)).toBe(2);
    expect(fillLevel(256, 512)).toBe(4);
    expect(fillLevel(511, 512)).toBe(FILL_LEVELS);
    expect(fillLevel(512, 512)).toBe(FILL_LEVELS);
    expect(fillLevel(16, 32)).toBe(4);
  });

  it('shades fuller split frames darker in the light theme', () => {
    const kinds = kindColors(LIGHT, false);
    for (let level = 2; level <= FILL_LEVELS; level += 1) {
      expect(luminance(kinds.normal[level] ?? 0)).toBeLessThan(luminance(kinds.normal[level - 1] ?? 0));
      expect(luminance(kinds.shared[level] ?? 0)).toBeLessThan(luminance(kinds.shared[level - 1] ?? 0));
    }
    expect(kinds.huge).toBe(hexRgba(LIGHT.huge));
    expect(kinds.free).toBe(hexRgba(LIGHT.free));
  });

  it('keeps one colour per owner id, the same as ownerRgba, growing as ids grow', () => {
    const table = new OwnerColorTable(false);
    expect(table.get(5)).toBe(ownerRgba(5, false));
    expect(table.get(100_000)).toBe(ownerRgba(100_000, false));
    expect(table.get(5)).toBe(ownerRgba(5, false));
    expect(new OwnerColorTable(true).get(5)).toBe(ownerRgba(5, true));
    expect(table.get(7)).not.toBe(table.get(8));
  });

  it('caches schemes and shares lookup tables between the two modes of a theme', () => {
    const owner = colorScheme('owner', false);
    expect(colorScheme('owner', false)).toBe(owner);
    expect(colorScheme('kind', false).owners).toBe(owner.owners);
    expect(colorScheme('owner', true).owners).not.toBe(owner.owners);
    expect(cssColor(hexRgba('#3b82f6'))).toBe('rgb(59 130 246)');
  });
});
