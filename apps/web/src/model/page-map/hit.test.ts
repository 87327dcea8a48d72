import { describe, expect, it } from 'vitest';
import { simulated } from '../../../test/page-map-scene.ts';
import { hitTest, sameHit } from './hit.ts';
import { frameOrigin, layoutWith, pageOrigin } from './layout.ts';
import { detailLevel, fitLayout, IDENTITY, makeView, toScreen, zoomToFrame } from './viewport.ts';

const MiB = 1024 * 1024;

describe('page-map hit testing', () => {
  it('finds the frame under the pointer at the whole-device zoom, and nothing in a gap', async () => {
    const { table } = await simulated();
    const layout = layoutWith(table.count, table.pagesPerFrame, 8);
    const fit = fitLayout(layout, 1200, 1200);
    const view = makeView(fit, IDENTITY, 1200, 1200);
    for (const frame of [0, 17, 511, 512, 20_000, 32_767]) {
      const [x, y] = frameOrigin(layout, frame);
      const [sx, sy] = toScreen(view, x + 1, y + 0.5);
      expect(hitTest(layout, view, table, 'frames', sx, sy)).toEqual({ frame });
    }
    const [gx, gy] = toScreen(view, 32.5, 5);
    expect(hitTest(layout, view, table, 'frames', gx, gy)).toBeUndefined();
    expect(hitTest(layout, view, table, 'frames', 1, 1)).toBeUndefined();
  });

  it('at page zoom finds the page inside a split frame, but not inside a huge page', async () => {
    const { table, malloc } = await simulated();
    await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    await malloc(3 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST');
    const layout = layoutWith(table.count, table.pagesPerFrame, 8);
    const fit = fitLayout(layout, 1200, 1200);
    const near = makeView(fit, zoomToFrame(fit, layout, 0, 300, 1200, 1200), 1200, 1200);
    expect(detailLevel(near, layout)).toBe('pages');
    const [px, py] = pageOrigin(layout, 0, 45);
    const [sx, sy] = toScreen(near, px + 0.01, py + 0.01);
    expect(hitTest(layout, near, table, 'pages', sx, sy)).toEqual({ frame: 0, page: 45 });
    const top = makeView(fit, zoomToFrame(fit, layout, 32_767, 300, 1200, 1200), 1200, 1200);
    const [hx, hy] = pageOrigin(layout, 32_767, 45);
    const [tx, ty] = toScreen(top, hx + 0.01, hy + 0.01);
    expect(hitTest(layout, top, table, 'pages', tx, ty)).toEqual({ frame: 32_767 });
    expect(sameHit({ frame: 1, page: 2 }, { frame: 1, page: 2 })).toBe(true);
    expect(sameHit({ frame: 1 }, { frame: 1, page: 2 })).toBe(false);
    expect(sameHit(undefined, undefined)).toBe(true);
  });
});
