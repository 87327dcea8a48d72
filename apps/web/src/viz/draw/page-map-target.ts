import type { RasterSlot, RasterTarget } from './page-map-draw.ts';
import type { Pixels } from './page-map-raster.ts';

interface Slot {
  canvas: HTMLCanvasElement;
  ctx: CanvasRenderingContext2D;
  image: ImageData | undefined;
  key: string | undefined;
}

/**
 * The browser's raster target: one scratch canvas per slot; ImageData buffers are reused while
 * their size fits, and the frame image is kept until its content key changes.
 */
export function createRasterTarget(doc: Document): RasterTarget & { invalidate(): void } {
  const slots = new Map<RasterSlot, Slot>();
  const slot = (name: RasterSlot): Slot => {
    const existing = slots.get(name);
    if (existing !== undefined) return existing;
    const canvas = doc.createElement('canvas');
    const ctx = canvas.getContext('2d', { willReadFrequently: false });
    if (ctx === null) throw new Error('no 2D canvas context for the page map');
    const created: Slot = { canvas, ctx, image: undefined, key: undefined };
    slots.set(name, created);
    return created;
  };
  return {
    pixels(name, width, height) {
      const s = slot(name);
      if (s.image === undefined || s.image.width !== width || s.image.height !== height) s.image = s.ctx.createImageData(width, height);
      return s.image;
    },
    commit(name, pixels: Pixels, key) {
      const s = slot(name);
      if (s.canvas.width < pixels.width) s.canvas.width = pixels.width;
      if (s.canvas.height < pixels.height) s.canvas.height = pixels.height;
      if (s.image !== undefined && s.image.data === pixels.data) s.ctx.putImageData(s.image, 0, 0);
      s.key = key;
      return s.canvas;
    },
    reuse(name, key) {
      const s = slots.get(name);
      return s !== undefined && s.key === key ? s.canvas : undefined;
    },
    invalidate() {
      for (const s of slots.values()) s.key = undefined;
    },
  };
}
