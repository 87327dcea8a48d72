import { aclrtMemMallocPolicy, FRAME_BYTES, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { simulated } from '../../../test/page-map-scene.ts';
import { colorScheme, dimColor, fillLevel, focusedScheme } from '../../model/page-map/colors.ts';
import { layoutWith } from '../../model/page-map/layout.ts';
import { processFocus } from '../../model/processes/process-filter.ts';
import { frameColor, frameImageSize, pageImageSize, pixelWords, rasterFrames, rasterPages } from './page-map-raster.ts';

const MiB = 1024 * 1024;
const pixels = (width: number, height: number) => ({ width, height, data: new Uint8ClampedArray(width * height * 4) });

describe('page-map raster', () => {
  it('colours each frame kind, by kind and by owner', async () => {
    const { table, malloc, idOf } = await simulated();
    const huge = idOf(await malloc(3 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST'));
    const whole = idOf(await malloc(2 * MiB - 64, 'ACL_MEM_MALLOC_NORMAL_ONLY'));
    await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY');
    const giant = idOf(await malloc(1024 * MiB, 'ACL_MEM_MALLOC_HUGE1G_ONLY'));
    const kind = colorScheme('kind', false);
    const owner = colorScheme('owner', false);
    const top = table.count - 1;
    expect(frameColor(table, top, kind)).toBe(kind.kinds.huge);
    expect(frameColor(table, top, owner)).toBe(owner.owners.get(huge));
    // The giant page takes the highest wholly free 1 GiB block: the one below the huge pages' block.
    const giantFrame = table.count - 512 - 1;
    expect(frameColor(table, giantFrame, kind)).toBe(kind.kinds.giant);
    expect(frameColor(table, giantFrame, owner)).toBe(owner.owners.get(giant));
    expect(frameColor(table, 0, owner)).toBe(owner.owners.get(whole));
    expect(frameColor(table, 0, kind)).toBe(kind.kinds.normal[8]);
    // Frame 1 holds 17 pages of a small allocation: shared/partly free, shaded by fill level.
    expect(frameColor(table, 1, kind)).toBe(kind.kinds.normal[fillLevel(17, 512)]);
    expect(frameColor(table, 1, owner)).toBe(owner.kinds.shared[1]);
    expect(frameColor(table, 2, owner)).toBe(owner.kinds.free);
  });

  it('writes one pixel per frame at the frame position inside its tile', async () => {
    const { table, malloc, idOf } = await simulated();
    const huge = idOf(await malloc(3 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST'));
    const layout = layoutWith(table.count, table.pagesPerFrame, 8);
    const size = frameImageSize(layout);
    expect(size).toEqual({ width: 128, height: 256 });
    const out = pixels(size.width, size.height);
    const scheme = colorScheme('owner', false);
    rasterFrames(table, layout, scheme, out);
    const words = pixelWords(out);
    // Frame 32,767: tile 63 (column 7, row 7), last column and row of the tile.
    expect(words[255 * 128 + 127]).toBe(scheme.owners.get(huge));
    expect(words[255 * 128 + 126]).toBe(scheme.owners.get(huge));
    expect(words[255 * 128 + 125]).toBe(scheme.kinds.free);
    // Frame 16 is the first of the second row of tile 0.
    expect(words[1 * 128 + 0]).toBe(scheme.kinds.free);
  });

  it('leaves pixels past the last frame transparent (310P3: 11,444 frames)', async () => {
    const { table } = await simulated((await import('@pagelens/core')).ASCEND_310P3);
    expect(table.count).toBe(11_444);
    const layout = layoutWith(table.count, table.pagesPerFrame, 6);
    const size = frameImageSize(layout);
    const out = pixels(size.width, size.height);
    rasterFrames(table, layout, colorScheme('kind', false), out);
    const words = pixelWords(out);
    let drawn = 0;
    for (const word of words) if (word !== 0) drawn += 1;
    expect(drawn).toBe(11_444);
  });

  it('draws each page of a shared frame in its owner colour, a huge frame as one block', async () => {
    const { table, malloc, idOf } = await simulated();
    const a = idOf(await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY'));
    const b = idOf(await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY'));
    const huge = idOf(await malloc(3 * MiB, 'ACL_MEM_MALLOC_HUGE_FIRST'));
    const layout = layoutWith(table.count, table.pagesPerFrame, 8);
    const scheme = colorScheme('owner', false);
    const window = { tile: 0, c0: 0, c1: 2, r0: 0, r1: 1 };
    const size = pageImageSize(layout, window);
    expect(size).toEqual({ width: 64, height: 16 });
    const out = pixels(size.width, size.height);
    rasterPages(table, layout, scheme, window, out);
    const words = pixelWords(out);
    expect(words[0]).toBe(scheme.owners.get(a));
    expect(words[16]).toBe(scheme.owners.get(a));
    expect(words[17]).toBe(scheme.owners.get(b));
    expect(words[31]).toBe(scheme.owners.get(b));
    // Pages 32–33 of frame 0 start the second pixel row (the image is two frames, 64 pages, wide).
    expect(words[64]).toBe(scheme.owners.get(b));
    expect(words[65]).toBe(scheme.owners.get(b));
    expect(words[66]).toBe(scheme.kinds.free);
    // Frame 1 is free: its whole block is the free colour.
    expect(words[32]).toBe(scheme.kinds.free);
    expect(words[63]).toBe(scheme.kinds.free);
    const kind = colorScheme('kind', false);
    rasterPages(table, layout, kind, window, out);
    expect(words[0]).toBe(kind.kinds.normalPage);
    expect(words[66]).toBe(kind.kinds.free);
    const last = { tile: 63, c0: 14, c1: 16, r0: 31, r1: 32 };
    const hugeOut = pixels(64, 16);
    rasterPages(table, layout, scheme, last, hugeOut);
    expect(new Set(pixelWords(hugeOut))).toEqual(new Set([scheme.owners.get(huge)]));
    expect(FRAME_BYTES / table.pagesPerFrame).toBe(4096);
  });

  it('dims the frames and pages of other processes while the process filter shows one', async () => {
    const { host, rt, state, table, malloc, idOf } = await simulated();
    const mine = idOf(await malloc(64 * 1024, 'ACL_MEM_MALLOC_NORMAL_ONLY'));
    const other = new SimRuntime(host, 'other');
    await other.aclInit({ configPath: null });
    await other.aclrtSetDevice({ deviceId: 0 });
    const small = await other.aclrtMalloc({ size: 64 * 1024, policy: aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_NORMAL_ONLY });
    const huge = await other.aclrtMalloc({ size: 3 * MiB, policy: aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE_ONLY });
    expect([small.ret, huge.ret]).toEqual([0, 0]);
    const theirs = [...state.allocations.values()].filter((item) => item.pid === other.pid).map((item) => item.id);
    const [theirSmall = -1, theirHuge = -1] = theirs;
    const base = colorScheme('owner', false);
    const scheme = focusedScheme(base, processFocus(state, table, rt.pid));
    const free = base.kinds.free;
    const layout = layoutWith(table.count, table.pagesPerFrame, 8);
    // Frame level: the shared frame 0 holds some of mine, so it stays; the other's huge frames recede.
    const frames = pixels(frameImageSize(layout).width, frameImageSize(layout).height);
    rasterFrames(table, layout, scheme, frames);
    const words = pixelWords(frames);
    expect(words[0]).toBe(base.kinds.shared[1]);
    expect(words[255 * 128 + 127]).toBe(dimColor(base.owners.get(theirHuge), free));
    expect(words[255 * 128 + 125]).toBe(free);
    // Page level (17 pages each: 64 KiB + 32 B of padding): my pages in my colour, the other's pages of the same frame dimmed, free pages free.
    const window = { tile: 0, c0: 0, c1: 1, r0: 0, r1: 1 };
    const size = pageImageSize(layout, window);
    const pages = pixels(size.width, size.height);
    rasterPages(table, layout, scheme, window, pages);
    const pageWords = pixelWords(pages);
    expect(pageWords[0]).toBe(base.owners.get(mine));
    expect(pageWords[17]).toBe(dimColor(base.owners.get(theirSmall), free));
    expect(pageWords[40]).toBe(free);
    // A dimmed colour is neither the owner's nor the free colour.
    expect(dimColor(base.owners.get(theirSmall), free)).not.toBe(base.owners.get(theirSmall));
    expect(dimColor(base.owners.get(theirSmall), free)).not.toBe(free);
    // Without a focus nothing is dimmed.
    rasterPages(table, layout, base, window, pages);
    expect(pageWords[17]).toBe(base.owners.get(theirSmall));
  });
});
