import { FrameKind, type FrameTable } from '@pagelens/core';
import type { ColorScheme } from '../../model/page-map/colors.ts';
import {
  FRAME_H,
  FRAME_W,
  FRAMES_PER_TILE,
  type PageMapLayout,
  TILE_COLS,
  TILE_ROWS,
  TILE_SIZE,
  tileOrigin,
} from '../../model/page-map/layout.ts';
import type { MapSelection } from '../../model/page-map/selection.ts';
import {
  type DetailLevel,
  detailLevel,
  pagePixels,
  type TileWindow,
  tileWindow,
  toScreen,
  type View,
  visibleTiles,
} from '../../model/page-map/viewport.ts';
import { outlineSegments, strokeSegments } from './page-map-outline.ts';
import { frameImageSize, type Pixels, pageImageSize, rasterFrames, rasterPages } from './page-map-raster.ts';

export interface PageMapScene {
  readonly table: FrameTable;
  readonly layout: PageMapLayout;
  readonly view: View;
  readonly scheme: ColorScheme;
  readonly selection?: MapSelection | undefined;
  /** Changes whenever the frame table, the layout or the colours do: the frame image is rebuilt only then. */
  readonly contentKey: string;
}

export type RasterSlot = 'frames' | 'pages';

/** Scratch images the draw writes pixels into and then scales onto the screen (a canvas in the browser). */
export interface RasterTarget {
  pixels(slot: RasterSlot, width: number, height: number): Pixels;
  /** Puts the pixels where drawImage can read them; `key` marks what they show, for reuse. */
  commit(slot: RasterSlot, pixels: Pixels, key?: string): CanvasImageSource;
  /** The committed image of `slot` if it was committed with this key. */
  reuse(slot: RasterSlot, key: string): CanvasImageSource | undefined;
}

export interface DrawStats {
  readonly level: DetailLevel;
  readonly tiles: number;
  readonly frameImage: 'built' | 'reused' | 'none';
  readonly pageImages: number;
}

/** Frame-level picture: one pixel per frame, cached while the content stays the same, scaled per visible tile. */
function drawFrameLevel(
  ctx: CanvasRenderingContext2D,
  scene: PageMapScene,
  target: RasterTarget,
  tiles: readonly number[],
): DrawStats['frameImage'] {
  const { layout, view } = scene;
  let source = target.reuse('frames', scene.contentKey);
  let built: DrawStats['frameImage'] = 'reused';
  if (source === undefined) {
    const size = frameImageSize(layout);
    const pixels = target.pixels('frames', size.width, size.height);
    rasterFrames(scene.table, layout, scene.scheme, pixels);
    source = target.commit('frames', pixels, scene.contentKey);
    built = 'built';
  }
  const side = TILE_SIZE * view.scale;
  for (const tile of tiles) {
    const [wx, wy] = tileOrigin(layout, tile);
    const [sx, sy] = toScreen(view, wx, wy);
    const col = (tile % layout.tilesAcross) * TILE_COLS;
    const row = Math.floor(tile / layout.tilesAcross) * TILE_ROWS;
    ctx.drawImage(source, col, row, TILE_COLS, TILE_ROWS, sx, sy, side, side);
  }
  return built;
}

function windowOrigin(layout: PageMapLayout, view: View, window: TileWindow): [number, number] {
  const [tx, ty] = tileOrigin(layout, window.tile);
  return toScreen(view, tx + window.c0 * FRAME_W, ty + window.r0 * FRAME_H);
}

/** Page-level picture: one pixel per page of the frames on screen, per visible tile window. */
function drawPageLevel(ctx: CanvasRenderingContext2D, scene: PageMapScene, target: RasterTarget, windows: readonly TileWindow[]): number {
  const { layout, view } = scene;
  let images = 0;
  for (const window of windows) {
    const size = pageImageSize(layout, window);
    if (size.width === 0 || size.height === 0) continue;
    const pixels = target.pixels('pages', size.width, size.height);
    rasterPages(scene.table, layout, scene.scheme, window, pixels);
    const source = target.commit('pages', pixels);
    const [sx, sy] = windowOrigin(layout, view, window);
    const w = (window.c1 - window.c0) * FRAME_W * view.scale;
    const h = (window.r1 - window.r0) * FRAME_H * view.scale;
    ctx.drawImage(source, 0, 0, size.width, size.height, sx, sy, w, h);
    images += 1;
  }
  return images;
}

/** Separating lines between frames (and pages) once cells are big enough to tell apart. */
function drawGrid(ctx: CanvasRenderingContext2D, scene: PageMapScene, windows: readonly TileWindow[], level: DetailLevel): void {
  const { layout, view, scheme } = scene;
  const frameH = FRAME_H * view.scale;
  if (frameH < 5) return;
  ctx.save();
  ctx.strokeStyle = scheme.palette.background;
  const page = pagePixels(view, layout);
  for (const window of windows) {
    const [ox, oy] = windowOrigin(layout, view, window);
    const cols = window.c1 - window.c0;
    const rows = window.r1 - window.r0;
    if (cols <= 0 || rows <= 0) continue;
    if (level === 'pages' && page >= 6) {
      // Page lines only inside split and free frames: a huge or giant frame is one page, with nothing smaller inside.
      ctx.globalAlpha = 0.55;
      ctx.lineWidth = 1;
      const frameW = FRAME_W * view.scale;
      const ph = frameH / layout.pageRows;
      const base = window.tile * FRAMES_PER_TILE;
      ctx.beginPath();
      for (let row = window.r0; row < window.r1; row += 1) {
        for (let col = window.c0; col < window.c1; col += 1) {
          const frame = base + row * TILE_COLS + col;
          const kind = scene.table.kind[frame];
          if (frame >= scene.table.count || kind === FrameKind.huge || kind === FrameKind.giant) continue;
          const fx = ox + (col - window.c0) * frameW;
          const fy = oy + (row - window.r0) * frameH;
          for (let c = 1; c < layout.pageCols; c += 1) {
            ctx.moveTo(fx + c * page, fy);
            ctx.lineTo(fx + c * page, fy + frameH);
          }
          for (let r = 1; r < layout.pageRows; r += 1) {
            ctx.moveTo(fx, fy + r * ph);
            ctx.lineTo(fx + frameW, fy + r * ph);
          }
        }
      }
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    ctx.lineWidth = level === 'pages' ? Math.min(3, Math.max(1, frameH / 24)) : 1;
    ctx.beginPath();
    for (let c = 0; c <= cols; c += 1) {
      ctx.moveTo(ox + c * FRAME_W * view.scale, oy);
      ctx.lineTo(ox + c * FRAME_W * view.scale, oy + rows * frameH);
    }
    for (let r = 0; r <= rows; r += 1) {
      ctx.moveTo(ox, oy + r * frameH);
      ctx.lineTo(ox + cols * FRAME_W * view.scale, oy + r * frameH);
    }
    ctx.stroke();
  }
  ctx.restore();
}

/** A thin frame around each 1 GiB tile, so the 512-frame blocks (giant pages) read as blocks. */
function drawTileBorders(ctx: CanvasRenderingContext2D, scene: PageMapScene, tiles: readonly number[]): void {
  const { layout, view, scheme } = scene;
  ctx.save();
  ctx.strokeStyle = scheme.palette.grid;
  ctx.lineWidth = 1;
  for (const tile of tiles) {
    const [wx, wy] = tileOrigin(layout, tile);
    const [sx, sy] = toScreen(view, wx, wy);
    const rows = Math.ceil(Math.min(FRAMES_PER_TILE, layout.frames - tile * FRAMES_PER_TILE) / TILE_COLS);
    ctx.strokeRect(sx - 0.5, sy - 0.5, TILE_SIZE * view.scale + 1, rows * FRAME_H * view.scale + 1);
  }
  ctx.restore();
}

/** The selected object's outline: around the frames it occupies, and at page zoom around its pages in shared frames. */
function drawSelection(ctx: CanvasRenderingContext2D, scene: PageMapScene, windows: readonly TileWindow[], level: DetailLevel): void {
  const { layout, view, scheme, selection, table } = scene;
  if (selection === undefined || selection.frameCount === 0) return;
  const cellW = FRAME_W * view.scale;
  const cellH = FRAME_H * view.scale;
  const paths: { segments: number[]; x: number; y: number; w: number; h: number }[] = [];
  for (const window of windows) {
    const base = window.tile * FRAMES_PER_TILE;
    const member = (col: number, row: number): boolean => {
      if (col < 0 || row < 0 || col >= TILE_COLS || row >= TILE_ROWS) return false;
      const frame = base + row * TILE_COLS + col;
      return frame < table.count && selection.frames[frame] === 1;
    };
    // One cell of margin so the sides of cells just off screen are still drawn.
    const segments = outlineSegments(
      member,
      Math.max(0, window.c0 - 1),
      Math.min(TILE_COLS, window.c1 + 1),
      Math.max(0, window.r0 - 1),
      window.r1 + 1,
    );
    const [tx, ty] = tileOrigin(layout, window.tile);
    const [x, y] = toScreen(view, tx, ty);
    paths.push({ segments, x, y, w: cellW, h: cellH });
    if (level !== 'pages' || selection.owners.size === 0) continue;
    for (let row = window.r0; row < window.r1; row += 1) {
      for (let col = window.c0; col < window.c1; col += 1) {
        const frame = base + row * TILE_COLS + col;
        const owners = table.pages.get(frame);
        if (selection.frames[frame] !== 1 || owners === undefined) continue;
        const inPage = (pc: number, pr: number): boolean =>
          pc >= 0 &&
          pr >= 0 &&
          pc < layout.pageCols &&
          pr < layout.pageRows &&
          selection.owners.has(owners[pr * layout.pageCols + pc] ?? 0);
        const pageSegments = outlineSegments(inPage, 0, layout.pageCols, 0, layout.pageRows);
        const [fx, fy] = toScreen(view, tx + col * FRAME_W, ty + row * FRAME_H);
        paths.push({ segments: pageSegments, x: fx, y: fy, w: cellW / layout.pageCols, h: cellH / layout.pageRows });
      }
    }
  }
  ctx.save();
  // A halo in the background colour under the selection colour keeps the outline visible on any fill.
  for (const [style, width] of [
    [scheme.palette.background, 4],
    [scheme.palette.selection, 2],
  ] as const) {
    ctx.strokeStyle = style;
    ctx.lineWidth = width;
    for (const path of paths) strokeSegments(ctx, path.segments, path.x, path.y, path.w, path.h);
  }
  ctx.restore();
}

/** The whole page map for one view: culled to the visible tiles, frames or pages by zoom. */
export function drawPageMap(ctx: CanvasRenderingContext2D, scene: PageMapScene, target: RasterTarget): DrawStats {
  const { layout, view } = scene;
  ctx.clearRect(0, 0, view.width, view.height);
  ctx.imageSmoothingEnabled = false;
  const tiles = visibleTiles(layout, view);
  const level = detailLevel(view, layout);
  const windows = tiles.map((tile) => tileWindow(layout, view, tile));
  let frameImage: DrawStats['frameImage'] = 'none';
  let pageImages = 0;
  if (level === 'frames') frameImage = drawFrameLevel(ctx, scene, target, tiles);
  else pageImages = drawPageLevel(ctx, scene, target, windows);
  drawGrid(ctx, scene, windows, level);
  drawTileBorders(ctx, scene, tiles);
  drawSelection(ctx, scene, windows, level);
  return { level, tiles: tiles.length, frameImage, pageImages };
}
