import type { Hit } from '../../model/page-map/hit.ts';
import { FRAME_H, FRAME_W, frameOrigin, type PageMapLayout, pageOrigin } from '../../model/page-map/layout.ts';
import { toScreen, type View } from '../../model/page-map/viewport.ts';

/** The interactive layer: a ring around the hovered frame, and around the hovered page at page zoom. */
export function drawHover(
  ctx: CanvasRenderingContext2D,
  layout: PageMapLayout,
  view: View,
  hit: Hit | undefined,
  colour: string,
  halo: string,
): void {
  ctx.clearRect(0, 0, view.width, view.height);
  if (hit === undefined) return;
  const rings: [number, number, number, number][] = [];
  const [fx, fy] = toScreen(view, ...frameOrigin(layout, hit.frame));
  rings.push([fx, fy, FRAME_W * view.scale, FRAME_H * view.scale]);
  if (hit.page !== undefined) {
    const [px, py] = toScreen(view, ...pageOrigin(layout, hit.frame, hit.page));
    rings.push([px, py, (FRAME_W * view.scale) / layout.pageCols, (FRAME_H * view.scale) / layout.pageRows]);
  }
  ctx.save();
  for (const [style, width] of [
    [halo, 3],
    [colour, 1.5],
  ] as const) {
    ctx.strokeStyle = style;
    ctx.lineWidth = width;
    // Tiny cells get a ring a few pixels larger than the cell, so the hover is visible at the whole-device zoom.
    for (const [x, y, w, h] of rings) {
      const grow = Math.max(0, (4 - Math.min(w, h)) / 2);
      ctx.strokeRect(x - grow, y - grow, w + 2 * grow, h + 2 * grow);
    }
  }
  ctx.restore();
}
