import {
  FRAME_H,
  FRAME_W,
  FRAMES_PER_TILE,
  type PageMapLayout,
  TILE_COLS,
  TILE_PITCH,
  TILE_ROWS,
  TILE_SIZE,
  tileOrigin,
} from './layout.ts';

/** A d3-zoom transform in CSS pixels: screen = k × base + (x, y). */
export interface ZoomState {
  readonly k: number;
  readonly x: number;
  readonly y: number;
}

export const IDENTITY: ZoomState = { k: 1, x: 0, y: 0 };

/** How the whole map fits the viewport at zoom 1: base = world × scale + (ox, oy), in CSS pixels. */
export interface Fit {
  readonly scale: number;
  readonly ox: number;
  readonly oy: number;
}

/** World → screen for one draw: screen = world × scale + (tx, ty). */
export interface View {
  readonly scale: number;
  readonly tx: number;
  readonly ty: number;
  readonly width: number;
  readonly height: number;
}

/** Pixels kept free around the map at zoom 1. */
export const MARGIN = 6;
/** Pages are drawn one by one once a page is at least this many CSS pixels wide. */
export const PAGE_LEVEL_PX = 1.5;
/** The deepest zoom makes a page this wide. */
export const MAX_PAGE_PX = 40;

/** The map anchored at the top-left (reading order: frame 0 first), as large as fits. */
export function fitLayout(layout: PageMapLayout, width: number, height: number): Fit {
  const scale = Math.max(1e-3, Math.min((width - 2 * MARGIN) / layout.width, (height - 2 * MARGIN) / layout.height));
  return { scale, ox: MARGIN, oy: MARGIN };
}

export function makeView(fit: Fit, zoom: ZoomState, width: number, height: number): View {
  return { scale: fit.scale * zoom.k, tx: zoom.x + zoom.k * fit.ox, ty: zoom.y + zoom.k * fit.oy, width, height };
}

export function toWorld(view: View, sx: number, sy: number): [number, number] {
  return [(sx - view.tx) / view.scale, (sy - view.ty) / view.scale];
}

export function toScreen(view: View, wx: number, wy: number): [number, number] {
  return [wx * view.scale + view.tx, wy * view.scale + view.ty];
}

/** CSS pixels of one page's width at this view. */
export function pagePixels(view: View, layout: PageMapLayout): number {
  return (view.scale * FRAME_W) / layout.pageCols;
}

export type DetailLevel = 'frames' | 'pages';

export function detailLevel(view: View, layout: PageMapLayout): DetailLevel {
  return pagePixels(view, layout) >= PAGE_LEVEL_PX ? 'pages' : 'frames';
}

/** Zoom factors from the whole device (1) to a page MAX_PAGE_PX wide. */
export function scaleExtent(fit: Fit, layout: PageMapLayout): [number, number] {
  const deepest = (MAX_PAGE_PX * layout.pageCols) / (FRAME_W * fit.scale);
  return [1, Math.max(2, deepest)];
}

/** Tiles that intersect the viewport (culling), in tile order. */
export function visibleTiles(layout: PageMapLayout, view: View): number[] {
  const [x0, y0] = toWorld(view, 0, 0);
  const [x1, y1] = toWorld(view, view.width, view.height);
  const c0 = Math.max(0, Math.floor(x0 / TILE_PITCH));
  const c1 = Math.min(layout.tilesAcross - 1, Math.floor(x1 / TILE_PITCH));
  const r0 = Math.max(0, Math.floor(y0 / TILE_PITCH));
  const r1 = Math.min(layout.tileRows - 1, Math.floor(y1 / TILE_PITCH));
  const tiles: number[] = [];
  for (let r = r0; r <= r1; r += 1) {
    for (let c = c0; c <= c1; c += 1) {
      const tile = r * layout.tilesAcross + c;
      if (tile >= layout.tiles) continue;
      const [tx, ty] = tileOrigin(layout, tile);
      if (tx + TILE_SIZE <= x0 || ty + TILE_SIZE <= y0 || tx >= x1 || ty >= y1) continue;
      tiles.push(tile);
    }
  }
  return tiles;
}

/** Frame columns [c0, c1) and rows [r0, r1) of a tile inside the viewport; empty when c0 ≥ c1 or r0 ≥ r1. */
export interface TileWindow {
  readonly tile: number;
  readonly c0: number;
  readonly c1: number;
  readonly r0: number;
  readonly r1: number;
}

export function tileWindow(layout: PageMapLayout, view: View, tile: number): TileWindow {
  const [tx, ty] = tileOrigin(layout, tile);
  const [x0, y0] = toWorld(view, 0, 0);
  const [x1, y1] = toWorld(view, view.width, view.height);
  const clamp = (value: number, max: number): number => Math.max(0, Math.min(max, value));
  let r1 = clamp(Math.ceil((y1 - ty) / FRAME_H), TILE_ROWS);
  // The last tile may hold fewer than 512 frames: stop at the last row that has one.
  const inTile = Math.min(FRAMES_PER_TILE, layout.frames - tile * FRAMES_PER_TILE);
  r1 = Math.min(r1, Math.ceil(inTile / TILE_COLS));
  return {
    tile,
    c0: clamp(Math.floor((x0 - tx) / FRAME_W), TILE_COLS),
    c1: clamp(Math.ceil((x1 - tx) / FRAME_W), TILE_COLS),
    r0: clamp(Math.floor((y0 - ty) / FRAME_H), TILE_ROWS),
    r1,
  };
}

/** First and last frame index on screen (for the status line); undefined when none is. */
export function visibleFrameSpan(layout: PageMapLayout, view: View): [number, number] | undefined {
  let first = Number.POSITIVE_INFINITY;
  let last = -1;
  for (const tile of visibleTiles(layout, view)) {
    const w = tileWindow(layout, view, tile);
    if (w.c0 >= w.c1 || w.r0 >= w.r1) continue;
    const base = tile * FRAMES_PER_TILE;
    first = Math.min(first, base + w.r0 * TILE_COLS + w.c0);
    last = Math.max(last, Math.min(layout.frames - 1, base + (w.r1 - 1) * TILE_COLS + w.c1 - 1));
  }
  return last < 0 ? undefined : [first, last];
}

/** The zoom that centres frame `frame` at `k` (keyboard "zoom to", e2e). */
export function zoomToFrame(fit: Fit, layout: PageMapLayout, frame: number, k: number, width: number, height: number): ZoomState {
  const tile = Math.floor(frame / FRAMES_PER_TILE);
  const within = frame - tile * FRAMES_PER_TILE;
  const [tx, ty] = tileOrigin(layout, tile);
  const cx = fit.ox + (tx + (within % TILE_COLS) * FRAME_W + FRAME_W / 2) * fit.scale;
  const cy = fit.oy + (ty + Math.floor(within / TILE_COLS) * FRAME_H + FRAME_H / 2) * fit.scale;
  return { k, x: width / 2 - k * cx, y: height / 2 - k * cy };
}

/** The map's box at zoom 1, in the element's CSS pixels. */
export function mapBox(fit: Fit, layout: PageMapLayout): { x0: number; y0: number; x1: number; y1: number } {
  return { x0: fit.ox, y0: fit.oy, x1: fit.ox + layout.width * fit.scale, y1: fit.oy + layout.height * fit.scale };
}

/** One axis of constrainZoom: the offset that keeps [lo, hi] (screen) placed as described there. */
function clampAxis(offset: number, lo: number, hi: number, viewport: number, slack: number): number {
  const size = hi - lo;
  const min = size + 2 * slack <= viewport ? slack - lo : viewport - slack - hi;
  const max = size + 2 * slack <= viewport ? viewport - slack - hi : slack - lo;
  // The smallest shift that satisfies the bounds (min ≤ max holds in both cases).
  return offset + Math.max(min, Math.min(max, 0));
}

/**
 * Keeps the map in view while panning and zooming: a map smaller than the viewport stays wholly
 * inside it (at least `slack` px from each edge); a larger one may not leave more than `slack` px
 * of empty space at any edge. Zoom 1 (the map anchored at the top-left margin) is unchanged.
 */
export function constrainZoom(
  zoom: ZoomState,
  box: { x0: number; y0: number; x1: number; y1: number },
  width: number,
  height: number,
  slack = MARGIN,
): ZoomState {
  const x = clampAxis(zoom.x, zoom.k * box.x0 + zoom.x, zoom.k * box.x1 + zoom.x, width, slack);
  const y = clampAxis(zoom.y, zoom.k * box.y0 + zoom.y, zoom.k * box.y1 + zoom.y, height, slack);
  return { k: zoom.k, x, y };
}
