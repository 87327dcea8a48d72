import { describe, expect, it } from 'vitest';
import { FRAME_W, frameOrigin, layoutWith, TILE_PITCH } from './layout.ts';
import {
  constrainZoom,
  detailLevel,
  fitLayout,
  IDENTITY,
  MARGIN,
  makeView,
  mapBox,
  pagePixels,
  scaleExtent,
  tileWindow,
  toScreen,
  toWorld,
  visibleFrameSpan,
  visibleTiles,
  zoomToFrame,
} from './viewport.ts';

const layout = layoutWith(32_768, 512, 8);
const W = 8 * TILE_PITCH + 2 * MARGIN;
const fit = fitLayout(layout, W, W);

describe('page-map viewport', () => {
  it('fits the whole device at zoom 1, anchored top-left', () => {
    expect(fit.scale).toBeCloseTo((W - 2 * MARGIN) / layout.width, 6);
    const view = makeView(fit, IDENTITY, W, W);
    expect(toScreen(view, 0, 0)).toEqual([MARGIN, MARGIN]);
    expect(visibleTiles(layout, view)).toHaveLength(64);
    expect(detailLevel(view, layout)).toBe('frames');
    expect(visibleFrameSpan(layout, view)).toEqual([0, 32_767]);
  });

  it('maps screen ↔ world at several zooms', () => {
    for (const zoom of [IDENTITY, { k: 4, x: -100, y: -50 }, { k: 300, x: -12_345, y: -6_789 }]) {
      const view = makeView(fit, zoom, W, W);
      const [wx, wy] = toWorld(view, 123, 77);
      const [sx, sy] = toScreen(view, wx, wy);
      expect(sx).toBeCloseTo(123, 6);
      expect(sy).toBeCloseTo(77, 6);
    }
  });

  it('culls to the tiles and frames on screen', () => {
    // Zoom 8 at the origin: a quarter of a row of tiles is visible.
    const view = makeView(fit, { k: 8, x: 0, y: 0 }, W, W);
    const tiles = visibleTiles(layout, view);
    expect(tiles).toEqual([0]);
    const window = tileWindow(layout, view, 0);
    expect(window.c0).toBe(0);
    expect(window.r0).toBe(0);
    expect(window.c1).toBeLessThan(16);
    expect(window.r1).toBeLessThan(32);
    // Panned to the last tile.
    const [lx, ly] = frameOrigin(layout, 32_767);
    const end = makeView(fit, { k: 8, x: W / 2 - 8 * (MARGIN + lx * fit.scale), y: W / 2 - 8 * (MARGIN + ly * fit.scale) }, W, W);
    expect(visibleTiles(layout, end)).toContain(63);
    expect(visibleTiles(layout, end)).not.toContain(0);
  });

  it('switches to pages once a page is 1.5 px wide, and zooms no deeper than a 40 px page', () => {
    const [, deepest] = scaleExtent(fit, layout);
    expect(pagePixels(makeView(fit, { k: deepest, x: 0, y: 0 }, W, W), layout)).toBeCloseTo(40, 6);
    const threshold = (1.5 * layout.pageCols) / (FRAME_W * fit.scale);
    expect(detailLevel(makeView(fit, { k: threshold * 0.99, x: 0, y: 0 }, W, W), layout)).toBe('frames');
    expect(detailLevel(makeView(fit, { k: threshold * 1.01, x: 0, y: 0 }, W, W), layout)).toBe('pages');
  });

  it('zooms to a frame by centring it', () => {
    const zoom = zoomToFrame(fit, layout, 20_000, 50, W, W);
    const view = makeView(fit, zoom, W, W);
    const [x, y] = frameOrigin(layout, 20_000);
    const [sx, sy] = toScreen(view, x + 1, y + 0.5);
    expect(sx).toBeCloseTo(W / 2, 6);
    expect(sy).toBeCloseTo(W / 2, 6);
    const span = visibleFrameSpan(layout, view);
    expect(span?.[0]).toBeLessThanOrEqual(20_000);
    expect(span?.[1]).toBeGreaterThanOrEqual(20_000);
  });

  it('keeps the map in view: zoom 1 stays put, a zoomed map cannot leave more than the margin empty', () => {
    const box = mapBox(fit, layout);
    expect(constrainZoom(IDENTITY, box, W, W)).toEqual(IDENTITY);
    // Dragged far right at zoom 1: pulled back so the map stays inside.
    const dragged = constrainZoom({ k: 1, x: 500, y: 0 }, box, W, W);
    expect(dragged.x * 1 + box.x1).toBeLessThanOrEqual(W - MARGIN + 1e-9);
    // Zoomed 50× and panned past the top-left corner: the map's corner comes back to the margin.
    const past = constrainZoom({ k: 50, x: 1000, y: 1000 }, box, W, W);
    expect(50 * box.x0 + past.x).toBeCloseTo(MARGIN, 6);
    expect(50 * box.y0 + past.y).toBeCloseTo(MARGIN, 6);
    // …and past the bottom-right corner: the far edge stops at the margin.
    const far = constrainZoom({ k: 50, x: -1e7, y: -1e7 }, box, W, W);
    expect(50 * box.x1 + far.x).toBeCloseTo(W - MARGIN, 6);
    // A pan inside the map is left alone.
    const inside = { k: 50, x: -5000, y: -4000 };
    expect(constrainZoom(inside, box, W, W)).toEqual(inside);
  });
});
