import type { Page } from '@playwright/test';
import { callAcl, expect, idle, openExplorer, snap, test } from '../support/fixtures.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

interface MapHooks {
  locate(frame: number, page?: number): { x: number; y: number } | undefined;
  view(): { k: number; x: number; y: number; level: string };
}

declare global {
  interface Window {
    __pagelensPageMap?: MapHooks;
  }
}

/** Where a frame (or a page of it) is on screen right now: the test's eyes on the canvas. */
async function locate(page: Page, frame: number, index?: number): Promise<{ x: number; y: number }> {
  const at = await page.evaluate(([f, p]) => window.__pagelensPageMap?.locate(f, p ?? undefined), [frame, index ?? null] as const);
  if (at === undefined) throw new Error(`frame ${frame} is not on the page map`);
  return at;
}

async function hoverFrame(page: Page, frame: number): Promise<void> {
  const at = await locate(page, frame);
  await page.mouse.move(at.x, at.y);
}

async function clickFrame(page: Page, frame: number): Promise<void> {
  const at = await locate(page, frame);
  await page.mouse.click(at.x, at.y);
}

async function zoomLevel(page: Page): Promise<{ k: number; x: number; y: number; level: string }> {
  const view = await page.evaluate(() => window.__pagelensPageMap?.view());
  if (view === undefined) throw new Error('the page map is not mounted');
  return view;
}

/** The colour the map canvas shows at a point (CSS pixels of the page), once the next frame is drawn. */
async function pixel(page: Page, at: { x: number; y: number }): Promise<string> {
  return page.evaluate(async ({ x, y }) => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="page-map-canvas"] canvas');
    const box = canvas?.getBoundingClientRect();
    const ctx = canvas?.getContext('2d');
    if (canvas === null || canvas === undefined || box === undefined || ctx === null || ctx === undefined) throw new Error('no map canvas');
    const dpr = canvas.width / box.width;
    const [r, g, b] = ctx.getImageData(Math.floor((x - box.left) * dpr), Math.floor((y - box.top) * dpr), 1, 1).data;
    return `rgb(${r} ${g} ${b})`;
  }, at);
}

async function setUp(page: Page): Promise<void> {
  // The agent's session may have initialised ACL already: a repeat answers 100002 and is harmless (LT-1).
  expect([0, 100_002]).toContain((await callAcl(page, 'aclInit', {})).ret ?? 0);
  expect((await callAcl(page, 'aclrtSetDevice', { deviceId: 0 })).ok).toBe(true);
}

async function selectionId(page: Page): Promise<unknown> {
  return page.evaluate(() => {
    // The app's store is on its test hooks; specs read only the selection from it.
    const store: { getState(): { selection?: { kind: string; id: number } } } | undefined = Reflect.get(window.__pagelens ?? {}, 'store');
    return store?.getState().selection;
  });
}

test('100 × 64 KiB NORMAL_ONLY: zooming into their frame shows each 4 KiB page and its owner', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await setUp(page);
  for (let i = 0; i < 100; i += 1) {
    expect((await callAcl(page, 'aclrtMalloc', { size: 64 * KiB, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' })).ok).toBe(true);
  }
  await idle(page);
  const legend = page.getByTestId('page-map-legend');
  // 64 KiB + 32 B padding = 17 pages each (DM-3); 30 fit in a frame, so 100 use 4 frames from the bottom.
  await expect(legend.getByTestId('legend-count-split')).toHaveText('4');
  await expect(legend.getByTestId('legend-count-pages')).toContainText('1,700 /');
  await expect(page.getByTestId('page-map-modeled')).toContainText('Physical placement is modeled');

  // Wheel-zoom at the bottom of memory, where normal pages go, until each 4 KiB page is a few pixels wide.
  const start = await locate(page, 0);
  await page.mouse.move(start.x, start.y);
  const pageWidth = async (): Promise<number> => (await locate(page, 0, 1)).x - (await locate(page, 0, 0)).x;
  for (let i = 0; i < 30 && (await pageWidth()) < 10; i += 1) await page.mouse.wheel(0, -400);
  expect(await pageWidth()).toBeGreaterThanOrEqual(10);
  await expect(page.getByTestId('page-map-status')).toHaveAttribute('data-level', 'pages');
  await expect(page.getByTestId('page-map-status')).toContainText('one cell per 4 KiB page');

  // Allocation 2 holds pages 17–33 of frame 0: hover page 20.
  const target = await locate(page, 0, 20);
  await page.mouse.move(target.x, target.y);
  const tip = page.getByTestId('page-map-tooltip');
  await expect(tip).toContainText('Page 20 of 512 · frame 0');
  await expect(tip).toContainText('Normal page (4 KiB), in use');
  await expect(tip).toContainText('aclrtMalloc · ACL_MEM_MALLOC_NORMAL_ONLY');
  await expect(tip).toContainText('Size 64 KiB (padded 65,568 B)');
  await expect(tip).toContainText('Physical 0x14000 – 0x14fff');
  await snap(page, 'page-map-normal-pages');

  // The last two pages of frame 0 are free: 30 allocations × 17 pages = 510 of 512.
  const free = await locate(page, 0, 511);
  await page.mouse.move(free.x, free.y);
  await expect(tip).toContainText('Free normal page');

  // Keyboard: focus the map, zoom out and in, then back to the whole device.
  await page.getByTestId('page-map-canvas').focus();
  const before = (await zoomLevel(page)).k;
  await page.keyboard.press('-');
  await expect.poll(async () => (await zoomLevel(page)).k).toBeCloseTo(before / 2, 3);
  await page.keyboard.press('+');
  await expect.poll(async () => (await zoomLevel(page)).k).toBeCloseTo(before, 3);
  // With the map focused, → pans the map (not the time cursor, which has → app-wide).
  const panned = (await zoomLevel(page)).x;
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await zoomLevel(page)).x).toBeLessThan(panned);
  await expect(page.getByTestId('page-map-status')).toHaveAttribute('data-level', 'pages');
  await page.keyboard.press('0');
  await expect.poll(async () => (await zoomLevel(page)).k).toBe(1);
  await expect(page.getByTestId('page-map-status')).toHaveAttribute('data-level', 'frames');
  // The help overlay lists the map's keys while the page map is shown.
  await page.keyboard.press('?');
  await expect(page.getByTestId('help-overlay')).toContainText('Page map: zoom in');
  await expect(page.getByTestId('help-overlay')).toContainText('Page map: pan left');
});

test('3 MiB HUGE_FIRST: two huge frames in the allocation’s colour; hover names it, click selects it', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await setUp(page);
  const made = await callAcl(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  expect(made.ok).toBe(true);
  await idle(page);
  await expect(page.getByTestId('legend-count-huge')).toHaveText('2');

  // Huge pages come from the top of memory (modeled): frames 32,766 and 32,767.
  const tip = page.getByTestId('page-map-tooltip');
  await hoverFrame(page, 32_767);
  await expect(tip).toContainText('Frame 32,767');
  await expect(tip).toContainText('Huge page (2 MiB)');
  await expect(tip).toContainText('Size 3 MiB');
  await expect(tip).toContainText('ACL_MEM_MALLOC_HUGE_FIRST');
  await expect(tip).toContainText(String(made.out?.devPtr));
  const id = Number(/Allocation #(\d+)/.exec((await tip.textContent()) ?? '')?.[1]);
  expect(id).toBeGreaterThan(0);

  await clickFrame(page, 32_766);
  await expect.poll(() => selectionId(page)).toMatchObject({ kind: 'allocation', id });

  // Zoom to the selection (z): both frames show one colour, different from the free frame beside them.
  await page.keyboard.press('z');
  await expect.poll(async () => (await zoomLevel(page)).k).toBeGreaterThan(10);
  await page.mouse.move(5, 5);
  const a = await pixel(page, await locate(page, 32_766));
  const b = await pixel(page, await locate(page, 32_767));
  const free = await pixel(page, await locate(page, 32_765));
  expect(a).toBe(b);
  expect(a).not.toBe(free);
  await snap(page, 'page-map-huge-selected');
});

/** How many times the map has painted, once the frames after the last change have run. */
async function paints(page: Page): Promise<number> {
  return page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    // The other specs declare the map's hooks without lastPaint (one global declaration): read it by name.
    const lastPaint: unknown = Reflect.get(window.__pagelensPageMap ?? {}, 'lastPaint');
    return typeof lastPaint === 'function' ? Number(Reflect.apply(lastPaint, window.__pagelensPageMap, []).count) : -1;
  });
}

test('time travel: a step that changes frames redraws the map, a step that changes none leaves it as drawn', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await setUp(page);
  // 1 MiB HUGE_ONLY takes one huge frame, the top one (modeled); aclrtGetDevice changes no frame.
  expect((await callAcl(page, 'aclrtMalloc', { size: MiB, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' })).ok).toBe(true);
  expect((await callAcl(page, 'aclrtGetDevice', {})).ok).toBe(true);
  await idle(page);
  await expect(page.getByTestId('legend-count-huge')).toHaveText('1');
  await page.mouse.move(5, 5);
  const owned = await pixel(page, await locate(page, 32_767));
  const free = await pixel(page, await locate(page, 32_765));
  expect(owned).not.toBe(free);
  const position = page.getByTestId('tt-position');
  const before = await paints(page);

  // Back over aclrtGetDevice: another state, the same frames: no paint, the same picture.
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('time-travel')).toHaveAttribute('data-live', 'false');
  const stepped = await position.textContent();
  expect(await paints(page)).toBe(before);
  expect(await pixel(page, await locate(page, 32_767))).toBe(owned);

  // Back over the allocation: the frame is free in that state, and the map shows it.
  await page.keyboard.press('ArrowLeft');
  await expect(position).not.toHaveText(stepped ?? '');
  await expect(page.getByTestId('legend-count-huge')).toHaveText('0');
  expect(await pixel(page, await locate(page, 32_767))).toBe(free);
  expect(await paints(page)).toBeGreaterThan(before);

  // And forward again: the allocation's colour is back.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('legend-count-huge')).toHaveText('1');
  expect(await pixel(page, await locate(page, 32_767))).toBe(owned);
});

test('fragmentation: HUGE_ONLY fails while normal pages are free, and no frame is wholly free', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await setUp(page);
  // 62 GiB of huge pages (less the 32 B padding: exactly 31,744 frames), then two half-frame buffers in each of the
  // remaining 1,024 frames, then free every other one: every frame is half used (DM-5, DM-6).
  const scene = await page.evaluate(
    async ({ huge, half }) => {
      const hooks = window.__pagelens;
      if (hooks === undefined) throw new Error('no hooks');
      const big = await hooks.agent.call('aclrtMalloc', { size: huge, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' });
      const pointers: unknown[] = [];
      for (let batch = 0; batch < 8; batch += 1) {
        const calls = Array.from({ length: 256 }, () =>
          hooks.agent.call('aclrtMalloc', { size: half, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' }),
        );
        for (const outcome of await Promise.all(calls)) pointers.push(outcome.out?.devPtr);
      }
      const frees = pointers.filter((_, i) => i % 2 === 0).map((devPtr) => hooks.agent.call('aclrtFree', { devPtr }));
      const freed = (await Promise.all(frees)).every((outcome) => outcome.ok);
      const refused = await hooks.agent.call('aclrtMalloc', { size: 2 * 1024 * 1024, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' });
      const normal = await hooks.agent.call('aclrtMalloc', { size: 64 * 1024, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
      return { big: big.ok, made: pointers.length, freed, refused: refused.ret, normal: normal.ok };
    },
    { huge: 62 * GiB - 64, half: MiB - 64 },
  );
  expect(scene).toEqual({ big: true, made: 2048, freed: true, refused: 207_001, normal: true });
  await idle(page);
  await expect(page.getByTestId('legend-count-free')).toHaveText('0');
  await expect(page.getByTestId('legend-count-largest-run')).toHaveText('0');
  await expect(page.getByTestId('legend-count-split')).toHaveText('1,024');
  await expect(page.getByTestId('legend-count-huge')).toHaveText('31,744');
  // The overview shows the same: huge pool empty, normal pool still has about 1 GiB free.
  await expect(page.getByTestId('pool-huge')).toContainText('0 B free');
  await expect(page.getByTestId('pool-normal')).not.toContainText(' 0 B free');

  const tip = page.getByTestId('page-map-tooltip');
  await hoverFrame(page, 500);
  await expect(tip).toContainText('Split into normal pages');
  await expect(tip).toContainText('256 / 512 pages used');
  await snap(page, 'page-map-fragmented');
});

test('colour by page kind, remembered after a reload', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await setUp(page);
  await callAcl(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await idle(page);
  const map = page.getByTestId('page-map');
  await expect(map).toHaveAttribute('data-color-by', 'owner');
  await page.getByTestId('color-by-kind').click();
  await expect(map).toHaveAttribute('data-color-by', 'kind');
  const hugeColour = await page.getByTestId('legend-huge').getAttribute('data-colour');
  await page.getByTestId('page-map-canvas').focus();
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('+');
  await page.keyboard.press('0');
  // Select the huge allocation and zoom to it (z), then compare the canvas with the legend swatch.
  await clickFrame(page, 32_767);
  await page.keyboard.press('z');
  await expect.poll(async () => (await zoomLevel(page)).k).toBeGreaterThan(10);
  await page.mouse.move(5, 5);
  expect(await pixel(page, await locate(page, 32_766))).toBe(hugeColour);
  expect(await pixel(page, await locate(page, 32_765))).not.toBe(hugeColour);
  await snap(page, 'page-map-by-kind');
  await page.reload();
  await expect(page.getByTestId('page-map')).toHaveAttribute('data-color-by', 'kind');
});

test('a 1 GiB giant page on a fresh host is one 512-frame block', async ({ page, agent }) => {
  await openExplorer(page, agent);
  await setUp(page);
  expect((await callAcl(page, 'aclrtMalloc', { size: GiB, policy: 'ACL_MEM_MALLOC_HUGE1G_ONLY' })).ok).toBe(true);
  await idle(page);
  await expect(page.getByTestId('legend-count-giant')).toHaveText('512');
  const tip = page.getByTestId('page-map-tooltip');
  await hoverFrame(page, 32_300);
  await expect(tip).toContainText('Part of a giant page (1 GiB)');
  await expect(tip).toContainText('Giant page: frames 32,256–32,767 (one block)');
  await page.mouse.move(5, 5);
  // The four corners of the 1 GiB tile and its middle share the owner's colour; the next tile is free.
  const colours = new Set<string>();
  for (const frame of [32_256, 32_271, 32_752, 32_767, 32_500]) colours.add(await pixel(page, await locate(page, frame)));
  expect(colours.size).toBe(1);
  expect(await pixel(page, await locate(page, 32_255))).not.toBe([...colours][0]);
  // Selected, it is outlined as one block.
  await clickFrame(page, 32_300);
  await expect.poll(() => selectionId(page)).toMatchObject({ kind: 'allocation' });
  await snap(page, 'page-map-giant');
  // Dark theme and Chinese: the same picture stays legible.
  await page.getByTestId('theme-toggle').getByRole('button', { name: 'Dark' }).click();
  await page.getByTestId('language').selectOption('zh');
  await hoverFrame(page, 32_300);
  await expect(tip).toContainText('巨页：第 32,256–32,767 帧（一个整体）');
  await expect(page.getByTestId('page-map-modeled')).toContainText('物理位置为建模结果');
  await snap(page, 'page-map-giant-dark-zh');
});

test.describe('on a 310P3', () => {
  test.use({ agentArgs: ['--profile', 'Ascend310P3'] });

  test('the page map has 11,444 frames and the overview has no giant pool', async ({ page, agent }) => {
    await openExplorer(page, agent);
    await expect(page.getByTestId('page-map-canvas')).toHaveAttribute('data-frames', '11444');
    await expect(page.getByTestId('legend-count-total')).toHaveText('11,444');
    await expect(page.getByTestId('page-map-empty')).toBeVisible();
    await expect(page.getByTestId('pool-giant')).toContainText('no 1 GiB pages on this SoC');
    await expect(page.getByTestId('overview')).toContainText('DDR');
    await setUp(page);
    await callAcl(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    await idle(page);
    const tip = page.getByTestId('page-map-tooltip');
    await hoverFrame(page, 11_443);
    await expect(tip).toContainText('Frame 11,443');
    await expect(tip).toContainText('Huge page (2 MiB)');
    await snap(page, 'page-map-310p3');
  });
});

test.describe('with two devices', () => {
  test.use({ agentArgs: ['--devices', '2'] });

  test('the overview lists both; clicking one shows it everywhere; units follow GiB/GB', async ({ page, agent }) => {
    await openExplorer(page, agent);
    await setUp(page);
    await callAcl(page, 'aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    await idle(page);
    const first = page.getByTestId('device-card-0');
    const second = page.getByTestId('device-card-1');
    await expect(first).toHaveAttribute('data-selected', 'true');
    await expect(first.getByTestId('device-provenance')).toHaveText('simulated');
    await expect(first.getByTestId('device-objects')).toContainText('1 allocation');
    await expect(second.getByTestId('device-objects')).toContainText('nothing allocated yet');
    await expect(page.getByTestId('pool-note')).toContainText('DM-15');
    await second.getByRole('button', { name: 'Device 1' }).click();
    await expect(second).toHaveAttribute('data-selected', 'true');
    await expect(page.getByTestId('device-select')).toHaveValue('1');
    await expect(page.getByTestId('legend-count-huge')).toHaveText('0');
    await expect(first.getByTestId('pool-huge')).toContainText('of 64 GiB');
    await page.getByTestId('units-toggle').getByRole('button', { name: 'GB' }).click();
    await expect(first.getByTestId('pool-huge')).toContainText('of 68.72 GB');
    await snap(page, 'overview-two-devices');
  });
});
