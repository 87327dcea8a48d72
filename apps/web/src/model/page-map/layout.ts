/**
 * Where each 2 MiB frame sits on the page map. Frames are grouped in 1 GiB tiles of 512 frames
 * (16 across × 32 down), so a giant page (DM-11: 512 aligned frames) fills exactly one tile and
 * reads as one block. A frame is drawn twice as wide as high, so that its 512 × 4 KiB pages form
 * a grid of square pages (32 × 16; 8 × 4 for 32 × 64 KiB pages). Tiles are laid out in reading
 * order with a one-unit gap; the number of tiles across is chosen to fit the viewport.
 *
 * World units: one unit = the height of a frame; a frame is 2 × 1 units, a tile 32 × 32 units.
 */
export const TILE_COLS = 16;
export const TILE_ROWS = 32;
export const FRAMES_PER_TILE = TILE_COLS * TILE_ROWS;
export const FRAME_W = 2;
export const FRAME_H = 1;
export const TILE_SIZE = TILE_COLS * FRAME_W;
export const TILE_GAP = 1;
export const TILE_PITCH = TILE_SIZE + TILE_GAP;

export interface PageMapLayout {
  readonly frames: number;
  readonly pagesPerFrame: number;
  readonly tiles: number;
  readonly tilesAcross: number;
  readonly tileRows: number;
  /** World size in units (without a trailing gap). */
  readonly width: number;
  readonly height: number;
  /** Pages of one frame as a grid: 32 × 16 for 512 pages, 8 × 4 for 32. */
  readonly pageCols: number;
  readonly pageRows: number;
}

/** The page grid of a frame: twice as many columns as rows, so pages are square in a 2 × 1 frame. */
export function pageGrid(pagesPerFrame: number): { cols: number; rows: number } {
  const cols = Math.max(1, Math.round(Math.sqrt(2 * pagesPerFrame)));
  return { cols, rows: Math.max(1, Math.ceil(pagesPerFrame / cols)) };
}

export function layoutWith(frames: number, pagesPerFrame: number, tilesAcross: number): PageMapLayout {
  const tiles = Math.max(1, Math.ceil(frames / FRAMES_PER_TILE));
  const across = Math.max(1, Math.min(tiles, Math.round(tilesAcross)));
  const tileRows = Math.ceil(tiles / across);
  const grid = pageGrid(pagesPerFrame);
  return {
    frames,
    pagesPerFrame,
    tiles,
    tilesAcross: across,
    tileRows,
    width: across * TILE_PITCH - TILE_GAP,
    height: tileRows * TILE_PITCH - TILE_GAP,
    pageCols: grid.cols,
    pageRows: grid.rows,
  };
}

/** The layout whose tiles come out largest in a viewport of width × height CSS pixels. */
export function chooseLayout(frames: number, pagesPerFrame: number, width: number, height: number): PageMapLayout {
  const tiles = Math.max(1, Math.ceil(frames / FRAMES_PER_TILE));
  let best = layoutWith(frames, pagesPerFrame, 1);
  let bestScale = -1;
  for (let across = 1; across <= tiles; across += 1) {
    const candidate = layoutWith(frames, pagesPerFrame, across);
    const scale = Math.min(width / candidate.width, height / candidate.height);
    if (scale > bestScale + 1e-9) {
      best = candidate;
      bestScale = scale;
    }
  }
  return best;
}

/** Top-left corner of tile `tile` in world units. */
export function tileOrigin(layout: PageMapLayout, tile: number): [number, number] {
  return [(tile % layout.tilesAcross) * TILE_PITCH, Math.floor(tile / layout.tilesAcross) * TILE_PITCH];
}

/** Top-left corner of frame `frame` in world units. */
export function frameOrigin(layout: PageMapLayout, frame: number): [number, number] {
  const tile = Math.floor(frame / FRAMES_PER_TILE);
  const within = frame - tile * FRAMES_PER_TILE;
  const [tx, ty] = tileOrigin(layout, tile);
  return [tx + (within % TILE_COLS) * FRAME_W, ty + Math.floor(within / TILE_COLS) * FRAME_H];
}

/** The frame under world point (x, y), or -1 in a gap, outside, or past the last frame. */
export function frameAt(layout: PageMapLayout, x: number, y: number): number {
  if (x < 0 || y < 0) return -1;
  const tileX = Math.floor(x / TILE_PITCH);
  const tileY = Math.floor(y / TILE_PITCH);
  if (tileX >= layout.tilesAcross || tileY >= layout.tileRows) return -1;
  const localX = x - tileX * TILE_PITCH;
  const localY = y - tileY * TILE_PITCH;
  if (localX >= TILE_SIZE || localY >= TILE_SIZE) return -1;
  const frame =
    (tileY * layout.tilesAcross + tileX) * FRAMES_PER_TILE + Math.floor(localY / FRAME_H) * TILE_COLS + Math.floor(localX / FRAME_W);
  return frame < layout.frames ? frame : -1;
}

/** Page index inside `frame` under world point (x, y), or -1 when the point is not in that frame. */
export function pageAt(layout: PageMapLayout, frame: number, x: number, y: number): number {
  const [fx, fy] = frameOrigin(layout, frame);
  const dx = x - fx;
  const dy = y - fy;
  if (dx < 0 || dy < 0 || dx >= FRAME_W || dy >= FRAME_H) return -1;
  const col = Math.floor((dx / FRAME_W) * layout.pageCols);
  const row = Math.floor((dy / FRAME_H) * layout.pageRows);
  const index = row * layout.pageCols + col;
  return index < layout.pagesPerFrame ? index : -1;
}

/** Top-left corner of page `index` of `frame` in world units; a page is (2 / pageCols) × (1 / pageRows). */
export function pageOrigin(layout: PageMapLayout, frame: number, index: number): [number, number] {
  const [fx, fy] = frameOrigin(layout, frame);
  return [
    fx + ((index % layout.pageCols) * FRAME_W) / layout.pageCols,
    fy + (Math.floor(index / layout.pageCols) * FRAME_H) / layout.pageRows,
  ];
}
