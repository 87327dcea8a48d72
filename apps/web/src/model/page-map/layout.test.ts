import { describe, expect, it } from 'vitest';
import {
  chooseLayout,
  FRAME_H,
  FRAME_W,
  FRAMES_PER_TILE,
  frameAt,
  frameOrigin,
  layoutWith,
  pageAt,
  pageGrid,
  pageOrigin,
  TILE_PITCH,
  TILE_SIZE,
  tileOrigin,
} from './layout.ts';

describe('page-map layout', () => {
  it('makes pages square: 512 pages are 32 × 16 in a 2 × 1 frame, 32 pages 8 × 4 (DM-11)', () => {
    expect(pageGrid(512)).toEqual({ cols: 32, rows: 16 });
    expect(pageGrid(32)).toEqual({ cols: 8, rows: 4 });
    const layout = layoutWith(32_768, 512, 8);
    expect(FRAME_W / layout.pageCols).toBeCloseTo(FRAME_H / layout.pageRows);
  });

  it('puts 512 frames in one square 1 GiB tile, so a giant page is one block', () => {
    expect(FRAMES_PER_TILE).toBe(512);
    const layout = layoutWith(32_768, 512, 8);
    expect(layout.tiles).toBe(64);
    expect(layout.tileRows).toBe(8);
    const [x0, y0] = frameOrigin(layout, 512);
    const [x1, y1] = frameOrigin(layout, 1023);
    expect([x0, y0]).toEqual(tileOrigin(layout, 1));
    expect(x1 + FRAME_W - x0).toBe(TILE_SIZE);
    expect(y1 + FRAME_H - y0).toBe(TILE_SIZE);
  });

  it('chooses how many tiles go across from the viewport shape', () => {
    expect(chooseLayout(32_768, 512, 1000, 1000).tilesAcross).toBe(8);
    expect(chooseLayout(32_768, 512, 2000, 500).tilesAcross).toBe(16);
    const tall = chooseLayout(32_768, 512, 300, 1200);
    expect(tall.tilesAcross).toBe(4);
    expect(tall.tileRows).toBe(16);
  });

  it('maps frame → position → frame for every frame of 64 GiB and of 310P3', () => {
    for (const [frames, across] of [
      [32_768, 10],
      [11_444, 6],
    ] as const) {
      const layout = layoutWith(frames, 512, across);
      const wrong: number[] = [];
      for (let frame = 0; frame < frames; frame += 1) {
        const [x, y] = frameOrigin(layout, frame);
        if (frameAt(layout, x + 1, y + 0.5) !== frame || frameAt(layout, x + 1.99, y + 0.99) !== frame) wrong.push(frame);
      }
      expect(wrong).toEqual([]);
    }
  });

  it('finds no frame in the gaps between tiles, outside, or past the last frame', () => {
    const layout = layoutWith(11_444, 512, 6);
    expect(frameAt(layout, TILE_SIZE + 0.5, 3)).toBe(-1);
    expect(frameAt(layout, 3, TILE_SIZE + 0.5)).toBe(-1);
    expect(frameAt(layout, -1, 3)).toBe(-1);
    expect(frameAt(layout, layout.width + 5, 3)).toBe(-1);
    // 11,444 = 22 × 512 + 180: tile 22 holds frames 11,264…11,443, rows 0–11 of it (the last row partly).
    const [tx, ty] = tileOrigin(layout, 22);
    expect(frameAt(layout, tx + 0.5, ty + 11.5)).toBe(11_264 + 11 * 16);
    expect(frameAt(layout, tx + 2 * 5 + 0.5, ty + 11.5)).toBe(-1);
    expect(frameAt(layout, tx + 0.5, ty + 20.5)).toBe(-1);
    expect(tileOrigin(layout, 7)).toEqual([TILE_PITCH, TILE_PITCH]);
  });

  it('maps pages inside a frame both ways', () => {
    const layout = layoutWith(32_768, 512, 8);
    for (const page of [0, 1, 31, 32, 255, 511]) {
      const [x, y] = pageOrigin(layout, 700, page);
      expect(pageAt(layout, 700, x + 0.01, y + 0.01)).toBe(page);
    }
    const [x, y] = frameOrigin(layout, 700);
    expect(pageAt(layout, 701, x + 0.5, y + 0.5)).toBe(-1);
    const big = layoutWith(32_768, 32, 8);
    const [bx, by] = pageOrigin(big, 3, 9);
    expect(pageAt(big, 3, bx + 0.1, by + 0.1)).toBe(9);
  });
});
