/** One canvas ready to draw on: a context scaled so drawing is in CSS pixels. */
export interface CanvasFrame {
  readonly ctx: CanvasRenderingContext2D;
  /** CSS pixels. */
  readonly width: number;
  readonly height: number;
  readonly dpr: number;
}

/**
 * Sizes a canvas's backing store to `width` × `height` CSS pixels (by default its own box) at
 * device-pixel resolution, and returns its context scaled to CSS pixels; undefined where there is
 * no 2D context. Resizing clears the canvas, so the backing store is touched only when it changes.
 */
export function canvasFrame(canvas: HTMLCanvasElement, width = canvas.clientWidth, height = canvas.clientHeight): CanvasFrame | undefined {
  const dpr = window.devicePixelRatio || 1;
  const pixelWidth = Math.round(width * dpr);
  const pixelHeight = Math.round(height * dpr);
  if (canvas.width !== pixelWidth || canvas.height !== pixelHeight) {
    canvas.width = pixelWidth;
    canvas.height = pixelHeight;
  }
  const ctx = canvas.getContext('2d');
  if (ctx === null) return undefined;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return { ctx, width, height, dpr };
}
