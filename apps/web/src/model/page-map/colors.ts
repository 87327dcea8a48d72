import { DARK, hexRgba, LIGHT, ownerRgba, type Palette, packRgba } from '../colors.ts';
import type { ProcessFocus } from '../processes/process-filter.ts';

/** Fill levels a split frame is shaded by: darker = more of its normal pages in use. */
export const FILL_LEVELS = 8;

/** Packed RGBA colours for one theme, looked up per frame and per page while drawing. */
export interface KindColors {
  readonly free: number;
  readonly huge: number;
  readonly giant: number;
  /** Normal-page (split) frames by fill level 1…FILL_LEVELS (index 0 unused). */
  readonly normal: Uint32Array;
  /** Split frames shared by several owners, in colour-by-owner mode, by fill level. */
  readonly shared: Uint32Array;
  /** A used normal page at page zoom, colour-by-kind mode. */
  readonly normalPage: number;
}

/** Fill level 1…FILL_LEVELS of a split frame with `used` of `pagesPerFrame` pages in use (0 when none). */
export function fillLevel(used: number, pagesPerFrame: number): number {
  if (used <= 0) return 0;
  return Math.max(1, Math.min(FILL_LEVELS, Math.ceil((used / pagesPerFrame) * FILL_LEVELS)));
}

function unpack(hex: string): [number, number, number] {
  const value = Number.parseInt(hex.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255];
}

/**
 * From a faint tint of `hex` over the free colour (level 1) to the full colour (the last level).
 * In the light theme the full colour is darkened a quarter, so fuller reads darker; in the dark
 * theme fuller reads brighter against the dark free colour.
 */
function ramp(hex: string, free: string, dark: boolean): Uint32Array {
  const target = unpack(hex).map((channel) => (dark ? channel : channel * 0.75));
  const base = unpack(free);
  const out = new Uint32Array(FILL_LEVELS + 1);
  for (let level = 1; level <= FILL_LEVELS; level += 1) {
    const f = 0.2 + (0.8 * level) / FILL_LEVELS;
    const [r = 0, g = 0, b = 0] = base.map((from, i) => Math.round(from + ((target[i] ?? 0) - from) * f));
    out[level] = packRgba(r, g, b, 255);
  }
  return out;
}

const SHARED_LIGHT = '#475569';
const SHARED_DARK = '#cbd5e1';

export function kindColors(palette: Palette, dark: boolean): KindColors {
  return {
    free: hexRgba(palette.free),
    huge: hexRgba(palette.huge),
    giant: hexRgba(palette.giant),
    normal: ramp(palette.normal, palette.free, dark),
    shared: ramp(dark ? SHARED_DARK : SHARED_LIGHT, palette.free, dark),
    normalPage: hexRgba(palette.normal),
  };
}

/**
 * Owner colours by object id, computed once per id and kept (ids are small, dense integers from
 * the host). Avoids an HSL conversion per frame per draw.
 */
export class OwnerColorTable {
  #lut = new Uint32Array(1024);
  readonly dark: boolean;

  constructor(dark: boolean) {
    this.dark = dark;
  }

  get(id: number): number {
    if (id >= this.#lut.length) {
      let size = this.#lut.length;
      while (size <= id) size *= 2;
      const grown = new Uint32Array(size);
      grown.set(this.#lut);
      this.#lut = grown;
    }
    const cached = this.#lut[id] ?? 0;
    if (cached !== 0) return cached;
    // Alpha is 255, so a computed colour is never 0 and 0 means "not yet computed".
    const colour = ownerRgba(id, this.dark);
    this.#lut[id] = colour;
    return colour;
  }
}

export interface ColorScheme {
  readonly by: 'owner' | 'kind';
  readonly dark: boolean;
  readonly palette: Palette;
  readonly kinds: KindColors;
  readonly owners: OwnerColorTable;
  /** While the process filter shows one process: the memory of the others is drawn dimmed. */
  readonly focus?: ProcessFocus | undefined;
}

/** How far a dimmed colour moves toward the free colour: far enough to recede, not so far it reads as free. */
const DIM_TOWARD_FREE = 0.78;

/** `colour` faded toward the theme's free colour (packed RGBA in, packed RGBA out). */
export function dimColor(colour: number, free: number): number {
  const mix = (shift: number) => {
    const from = (colour >>> shift) & 255;
    const to = (free >>> shift) & 255;
    return Math.round(from + (to - from) * DIM_TOWARD_FREE);
  };
  return packRgba(mix(0), mix(8), mix(16), 255);
}

/** The scheme with the process focus set (a new object: the cached schemes stay unfocused). */
export function focusedScheme(scheme: ColorScheme, focus: ProcessFocus | undefined): ColorScheme {
  return focus === undefined ? scheme : { ...scheme, focus };
}

const schemes = new Map<string, ColorScheme>();

/** The colour scheme for a theme and mode; lookup tables are cached for the page's lifetime. */
export function colorScheme(by: 'owner' | 'kind', dark: boolean): ColorScheme {
  const key = `${by}:${dark}`;
  const cached = schemes.get(key);
  if (cached !== undefined) return cached;
  const palette = dark ? DARK : LIGHT;
  const sibling = schemes.get(`${by === 'owner' ? 'kind' : 'owner'}:${dark}`);
  const scheme: ColorScheme = {
    by,
    dark,
    palette,
    kinds: sibling?.kinds ?? kindColors(palette, dark),
    owners: sibling?.owners ?? new OwnerColorTable(dark),
  };
  schemes.set(key, scheme);
  return scheme;
}

/** Packed RGBA → "rgb(r g b)" for CSS (legend swatches). */
export function cssColor(packed: number): string {
  return `rgb(${packed & 255} ${(packed >>> 8) & 255} ${(packed >>> 16) & 255})`;
}
