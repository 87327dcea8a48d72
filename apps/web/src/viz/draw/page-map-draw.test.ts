import { describe, expect, it } from 'vitest';
import { simulated } from '../../../test/page-map-scene.ts';
import { asContext, RecordingContext } from '../../../test/recording-context.ts';
import { colorScheme } from '../../model/page-map/colors.ts';
import { layoutWith, TILE_PITCH } from '../../model/page-map/layout.ts';
import { mapSelection } from '../../model/page-map/selection.ts';
import { fitLayout, IDENTITY, MARGIN, makeView, type ZoomState, zoomToFrame } from '../../model/page-map/viewport.ts';
import { drawPageMap, type PageMapScene, type RasterTarget } from './page-map-draw.ts';
import { outlineSegments } from './page-map-outline.ts';

const MiB = 1024 * 1024;
const SIZE = 8 * TILE_PITCH * 2 + 2 * MARGIN;

/** A raster target that keeps what it was given, like the browser's scratch canvases. */
function fakeTarget() {
  const log: { slot: string; width: number; height: number; key: string | undefined }[] = [];
  const keys = new Map<string, string | undefined>();
  const target: RasterTarget = {
    pixels: (_slot, width, height) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) }),
    commit: (slot, pixels, key) => {
      log.push({ slot, width: pixels.width, height: pixels.height, key });
      keys.set(slot, key);
      return { slot } as unknown as CanvasImageSource;
    },
    reuse: (slot, key) => (keys.get(slot) === key ? ({ slot } as unknown as CanvasImageSource) : undefined),
  };
  return { target, log };
}

async function scene(zoom: ZoomState = IDENTITY) {
  const sim = await simulated();
  const layout = layoutWith(sim.table.count, sim.table.pagesPerFrame, 8);
  const fit = fitLayout(layout, SIZE, SIZE);
  const base = { table: sim.table, layout, scheme: colorScheme('owner', false), contentKey: 'v1' };
  const at = (z: ZoomState): PageMapScene => ({ ...base, view: makeView(fit, z, SIZE, SIZE) });
  return { ...sim, layout, fit, at, scene: at(zoom) };
}

describe('drawPageMap', () => {
  it('draws the whole device from one frame image, one drawImage per 1 GiB tile, and reuses it while nothing changed', async () => {
    const { scene: whole } = await scene();
    const { target, log } = fakeTarget();
    const ctx = new RecordingContext();
    const stats = drawPageMap(asContext(ctx), whole, target);
    expect(stats).toMatchObject({ level: 'frames', tiles: 64, frameImage: 'built', pageImages: 0 });
    expect(log).toEqual([{ slot: 'frames', width: 128, height: 256, key: 'v1' }]);
    const images = ctx.ops('drawImage');
    expect(images).toHaveLength(64);
    // Tile 0: source rect 16 × 32 frames at (0, 0), drawn at the margin as a square.
    const [, sx, sy, sw, sh, dx, dy, dw, dh] = images[0]?.args ?? [];
    expect([sx, sy, sw, sh, dx, dy]).toEqual([0, 0, 16, 32, MARGIN, MARGIN]);
    expect(dw).toBeCloseTo(Number(dh), 9);
    expect(ctx.imageSmoothingEnabled).toBe(false);
    expect(drawPageMap(asContext(new RecordingContext()), whole, target).frameImage).toBe('reused');
    expect(drawPageMap(asContext(new RecordingContext()), { ...whole, contentKey: 'v2' }, target).frameImage).toBe('built');
  });

  it('culls: zoomed in, only the visible tiles are drawn', async () => {
    const { at } = await scene();
    const ctx = new RecordingContext();
    const stats = drawPageMap(asContext(ctx), at({ k: 6, x: 0, y: 0 }), fakeTarget().target);
    expect(stats.level).toBe('frames');
    expect(stats.tiles).toBeLessThanOrEqual(4);
    expect(ctx.ops('drawImage').length).toBe(stats.tiles);
  });

  it('at page zoom draws the visible frames page by page, with frame lines', async () => {
    const { at, malloc, fit, layout } = await scene();
    for (let i = 0; i < 10; i += 1) await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    const { target, log } = fakeTarget();
    const ctx = new RecordingContext();
    const stats = drawPageMap(asContext(ctx), at(zoomToFrame(fit, layout, 0, 200, SIZE, SIZE)), target);
    expect(stats.level).toBe('pages');
    expect(stats.tiles).toBe(1);
    expect(stats.pageImages).toBe(1);
    const pages = log.find((entry) => entry.slot === 'pages');
    // One pixel per page: a multiple of the 32 × 16 page grid, and far fewer than all 16,777,216 pages.
    expect((pages?.width ?? 0) % 32).toBe(0);
    expect((pages?.height ?? 0) % 16).toBe(0);
    expect((pages?.width ?? 0) * (pages?.height ?? 0)).toBeLessThan(100_000);
    expect(ctx.ops('stroke').length).toBeGreaterThan(0);
  });

  it('outlines the selected giant page as one 512-frame block, in the selection colour', async () => {
    const sim = await scene();
    const id = sim.idOf(await sim.malloc(1024 * MiB, 'ACL_MEM_MALLOC_HUGE1G_ONLY'));
    const selection = mapSelection(sim.state, 0, sim.table, { kind: 'allocation', id });
    const ctx = new RecordingContext();
    drawPageMap(asContext(ctx), { ...sim.scene, selection }, fakeTarget().target);
    const strokes = ctx.ops('stroke').filter((call) => call.strokeStyle === sim.scene.scheme.palette.selection);
    expect(strokes).toHaveLength(1);
    // The outline of a 16 × 32 block: 2 × (16 + 32) unit edges, and no edge inside it.
    const lines = ctx.calls.filter((call) => call.op === 'lineTo');
    expect(lines.length).toBe(2 * 2 * (16 + 32));
  });
});

describe('outlineSegments', () => {
  it('returns only the boundary of a set of cells', () => {
    const square = outlineSegments((c, r) => c >= 0 && c < 2 && r >= 0 && r < 2, 0, 2, 0, 2);
    expect(square.length / 4).toBe(8);
    const ell = outlineSegments((c, r) => (c === 0 && r >= 0 && r < 2) || (c === 1 && r === 1), 0, 2, 0, 2);
    expect(ell.length / 4).toBe(8);
    expect(outlineSegments(() => false, 0, 4, 0, 4)).toEqual([]);
  });
});
