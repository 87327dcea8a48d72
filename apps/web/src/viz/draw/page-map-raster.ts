import { FrameKind, type FrameTable } from '@pagelens/core';
import { type ColorScheme, dimColor, fillLevel } from '../../model/page-map/colors.ts';
import { FRAMES_PER_TILE, type PageMapLayout, TILE_COLS, TILE_ROWS } from '../../model/page-map/layout.ts';
import type { TileWindow } from '../../model/page-map/viewport.ts';

/** The part of ImageData the rasterisers write: packed little-endian RGBA through a Uint32Array view. */
export interface Pixels {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8ClampedArray;
}

export function pixelWords(pixels: Pixels): Uint32Array {
  return new Uint32Array(pixels.data.buffer, pixels.data.byteOffset, pixels.width * pixels.height);
}

/**
 * A frame's colour at frame zoom. Huge and giant frames, and split frames wholly held by one
 * allocation, take their owner's colour (or their kind's); split frames shared by several owners
 * or partly free are shaded by how many pages are in use (darker = fuller).
 */
export function frameColor(table: FrameTable, frame: number, scheme: ColorScheme): number {
  const { kinds } = scheme;
  switch (table.kind[frame]) {
    case FrameKind.huge:
      return scheme.by === 'owner' ? scheme.owners.get(table.owner[frame] ?? 0) : kinds.huge;
    case FrameKind.giant:
      return scheme.by === 'owner' ? scheme.owners.get(table.owner[frame] ?? 0) : kinds.giant;
    case FrameKind.split: {
      const level = fillLevel(table.used[frame] ?? 0, table.pagesPerFrame);
      if (scheme.by === 'kind') return kinds.normal[level] ?? kinds.normalPage;
      const owner = table.owner[frame] ?? 0;
      if (owner !== 0 && !table.pages.has(frame)) return scheme.owners.get(owner);
      return kinds.shared[level] ?? kinds.normalPage;
    }
    default:
      return kinds.free;
  }
}

/** A frame's colour, dimmed when the process filter shows another process and none of this frame's memory is its. */
function shownFrameColor(table: FrameTable, frame: number, scheme: ColorScheme): number {
  const colour = frameColor(table, frame, scheme);
  const { focus } = scheme;
  if (focus === undefined || table.kind[frame] === FrameKind.free || focus.frames[frame] === 1) return colour;
  return dimColor(colour, scheme.kinds.free);
}

/** A used page's colour under the process filter: its owner's, or dimmed when the owner is another process's. */
function shownPageColor(owner: number, colour: number, scheme: ColorScheme): number {
  const { focus } = scheme;
  return focus === undefined || focus.owners.has(owner) ? colour : dimColor(colour, scheme.kinds.free);
}

/** Size of the frame-level image: one pixel per frame, tiles of 16 × 32 pixels side by side. */
export function frameImageSize(layout: PageMapLayout): { width: number; height: number } {
  return { width: layout.tilesAcross * TILE_COLS, height: layout.tileRows * TILE_ROWS };
}

/** Writes one pixel per frame of the given tiles (every tile when omitted); pixels past the last frame stay 0 (transparent). */
export function rasterFrames(table: FrameTable, layout: PageMapLayout, scheme: ColorScheme, out: Pixels, tiles?: readonly number[]): void {
  const words = pixelWords(out);
  const list = tiles ?? Array.from({ length: layout.tiles }, (_, tile) => tile);
  for (const tile of list) {
    const left = (tile % layout.tilesAcross) * TILE_COLS;
    const top = Math.floor(tile / layout.tilesAcross) * TILE_ROWS;
    const base = tile * FRAMES_PER_TILE;
    for (let row = 0; row < TILE_ROWS; row += 1) {
      let index = (top + row) * out.width + left;
      let frame = base + row * TILE_COLS;
      for (let col = 0; col < TILE_COLS; col += 1, index += 1, frame += 1) {
        words[index] = frame < table.count ? shownFrameColor(table, frame, scheme) : 0;
      }
    }
  }
}

/** Size of the page-level image of a tile window: one pixel per page. */
export function pageImageSize(layout: PageMapLayout, window: TileWindow): { width: number; height: number } {
  return { width: Math.max(0, window.c1 - window.c0) * layout.pageCols, height: Math.max(0, window.r1 - window.r0) * layout.pageRows };
}

/** Fills a pageCols × pageRows block of `words` (row stride `stride`) at (x, y) with one colour. */
function fillBlock(words: Uint32Array, stride: number, x: number, y: number, cols: number, rows: number, colour: number): void {
  for (let r = 0; r < rows; r += 1) words.fill(colour, (y + r) * stride + x, (y + r) * stride + x + cols);
}

/**
 * One pixel per normal page for the frames of a tile window (culled to what is on screen). Huge
 * and giant frames are one page each and come out as one block; split frames show each page's
 * owner (or free/used by kind).
 */
export function rasterPages(table: FrameTable, layout: PageMapLayout, scheme: ColorScheme, window: TileWindow, out: Pixels): void {
  const words = pixelWords(out);
  const { pageCols, pageRows, pagesPerFrame } = layout;
  const { kinds } = scheme;
  const stride = out.width;
  const base = window.tile * FRAMES_PER_TILE;
  for (let row = window.r0; row < window.r1; row += 1) {
    for (let col = window.c0; col < window.c1; col += 1) {
      const frame = base + row * TILE_COLS + col;
      const x = (col - window.c0) * pageCols;
      const y = (row - window.r0) * pageRows;
      if (frame >= table.count) {
        fillBlock(words, stride, x, y, pageCols, pageRows, 0);
        continue;
      }
      const kind = table.kind[frame];
      if (kind !== FrameKind.split) {
        fillBlock(words, stride, x, y, pageCols, pageRows, shownFrameColor(table, frame, scheme));
        continue;
      }
      const owners = table.pages.get(frame);
      if (owners === undefined) {
        const owner = table.owner[frame] ?? 0;
        const colour = scheme.by === 'owner' ? scheme.owners.get(owner) : kinds.normalPage;
        fillBlock(words, stride, x, y, pageCols, pageRows, shownPageColor(owner, colour, scheme));
        continue;
      }
      for (let page = 0; page < pageCols * pageRows; page += 1) {
        const owner = page < pagesPerFrame ? (owners[page] ?? 0) : 0;
        const colour =
          owner === 0 ? kinds.free : shownPageColor(owner, scheme.by === 'owner' ? scheme.owners.get(owner) : kinds.normalPage, scheme);
        words[(y + Math.floor(page / pageCols)) * stride + x + (page % pageCols)] = colour;
      }
    }
  }
}
