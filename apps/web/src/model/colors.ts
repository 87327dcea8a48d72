/**
 * Colours for drawing. Owners get a stable colour from their id (the same allocation has the same
 * colour in every view); page kinds have fixed colours. Canvas code uses the packed RGBA numbers.
 */
export interface Palette {
  readonly free: string;
  readonly huge: string;
  readonly giant: string;
  readonly normal: string;
  readonly grid: string;
  readonly selection: string;
  readonly text: string;
  readonly muted: string;
  readonly background: string;
}

export const LIGHT: Palette = {
  free: '#e8ecf2',
  huge: '#3b82f6',
  giant: '#7c3aed',
  normal: '#10b981',
  grid: '#cfd6e1',
  selection: '#f59e0b',
  text: '#1b2230',
  muted: '#5b6577',
  background: '#ffffff',
};

export const DARK: Palette = {
  free: '#222b38',
  huge: '#60a5fa',
  giant: '#a78bfa',
  normal: '#34d399',
  grid: '#334155',
  selection: '#fbbf24',
  text: '#e3e8f0',
  muted: '#97a3b6',
  background: '#161d28',
};

/** A colour for object `id`: golden-angle hues, so neighbouring ids differ clearly. */
export function ownerHue(id: number): number {
  return (id * 137.508) % 360;
}

export function ownerColor(id: number, dark = false): string {
  return `hsl(${ownerHue(id).toFixed(1)} ${dark ? 60 : 65}% ${dark ? 58 : 48}%)`;
}

/** The same colour as packed little-endian RGBA (for ImageData). */
export function ownerRgba(id: number, dark = false): number {
  const [r, g, b] = hslToRgb(ownerHue(id) / 360, dark ? 0.6 : 0.65, dark ? 0.58 : 0.48);
  return packRgba(r, g, b, 255);
}

export function packRgba(r: number, g: number, b: number, a: number): number {
  return ((a << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

/** "#rrggbb" → packed RGBA. */
export function hexRgba(hex: string, alpha = 255): number {
  const value = Number.parseInt(hex.slice(1), 16);
  return packRgba((value >> 16) & 255, (value >> 8) & 255, value & 255, alpha);
}

export function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const channel = (n: number): number => {
    const k = (n + h * 12) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [channel(0), channel(8), channel(4)];
}
