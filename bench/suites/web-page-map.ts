/**
 * The page map in Chromium (DESIGN.md "Scale targets"): a 64 GiB device (32,768 frames) holding
 * 100,000 live allocations. Measures (a) a full redraw, (b) frame work while a scripted wheel
 * zoom and drag run, (c) opening the URL to the first full render of that snapshot.
 *
 * The web app is built into a temporary directory (or taken from $PAGELENS_WEB_DIR) and served by
 * the real CLI. A Node driver creates the allocations over the WebSocket; the browser opens as a
 * viewer of the same host. Playwright comes from the e2e package (bench adds no dependency).
 */
import { startBenchAgent } from '../support/agent.ts';
import { BROWSER_FLAGS, buildWeb, launchChromium, NAME_SHIM } from '../support/browser.ts';
import { type BenchResult, type BenchSuite, quantile } from '../support/result.ts';
import { BenchClient } from '../support/ws-driver.ts';

const ALLOCATIONS = 100_000;
/** The agent is left alone this long after filling the device before the page opens. */
const QUIET_MS = 1000;
/** Calls in flight at once while filling the device. */
const WINDOW = 2_000;
const REDRAWS = 40;
const WARM_UP = 5;

/** What the page map exposes on window for measurement (apps/web/src/components/page-map/page-map-hooks.ts). */
interface MapHooks {
  draw(): { drawMs: number; flushedMs: number };
  lastPaint(): { at: number; count: number };
  record(on: boolean): void;
  samples(): number[];
  locate(frame: number): { x: number; y: number } | undefined;
}
/**
 * The browser globals the in-page functions use. Bench code is typed for Node (no DOM library), so
 * each in-page function reads `window` through Reflect.get into this shape.
 */
interface PageWindow {
  readonly __pagelensPageMap?: MapHooks;
  readonly document: { querySelector(selector: string): { readonly textContent: string | null } | null };
  requestAnimationFrame(callback: (now: number) => void): number;
  readonly performance: { now(): number };
}

/** 100,000 live allocations, mixed: 90 % 64 KiB NORMAL_ONLY (shared split frames), 10 % one 2 MiB huge page each. */
async function fill(client: BenchClient): Promise<number> {
  await client.call('aclInit', {});
  await client.call('aclrtSetDevice', { deviceId: 0 });
  let live = 0;
  for (let start = 0; start < ALLOCATIONS; start += WINDOW) {
    const calls: Promise<Record<string, unknown>>[] = [];
    for (let i = start; i < Math.min(ALLOCATIONS, start + WINDOW); i += 1) {
      const huge = i % 10 === 9;
      calls.push(
        client.call('aclrtMalloc', {
          size: huge ? 2 * 1024 * 1024 - 64 : 64 * 1024,
          policy: huge ? 'ACL_MEM_MALLOC_HUGE_ONLY' : 'ACL_MEM_MALLOC_NORMAL_ONLY',
        }),
      );
    }
    for (const result of await Promise.all(calls)) if (result.ret === 0) live += 1;
  }
  return live;
}

const ms = (name: string, value: number, detail: string, target?: number): BenchResult => ({
  name,
  value,
  unit: 'ms',
  higherIsBetter: false,
  detail,
  ...(target === undefined ? {} : { target }),
});

export const webPageMapSuite: BenchSuite = {
  name: 'web-page-map',
  async run(): Promise<BenchResult[]> {
    const web = buildWeb();
    const agent = await startBenchAgent(['--no-journal', '--max-calls-per-sec', '0', '--web-dir', web.dir]);
    const browser = await launchChromium();
    const driver = await BenchClient.connect(agent.port, agent.token, 'driver');
    try {
      const filling = performance.now();
      const live = await fill(driver);
      if (live !== ALLOCATIONS) throw new Error(`only ${live} of ${ALLOCATIONS} allocations succeeded`);
      const fillSeconds = (performance.now() - filling) / 1000;
      // The page opens on a quiet agent, as a user opens the URL on a host that holds 100,000 allocations;
      // not during the tail of a 100,000-call burst (its last events still on the way to the driver).
      await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
      const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
      const scene = `${ALLOCATIONS.toLocaleString('en-US')} live allocations (90 % 64 KiB NORMAL_ONLY, 10 % 2 MiB HUGE_ONLY) on a 64 GiB Ascend910B2 (32,768 frames), Chromium headless (${BROWSER_FLAGS}) at 1280×720`;

      await page.addInitScript(NAME_SHIM);
      // (c) Opening the URL: the viewer receives the snapshot and the map draws it.
      const opened = performance.now();
      await page.goto(`http://127.0.0.1:${agent.port}/?token=${agent.token}&role=viewer`);
      await page.waitForFunction(
        (expected: string) => {
          const w: PageWindow = Reflect.get(globalThis, 'window');
          const hooks = w.__pagelensPageMap;
          const huge = w.document.querySelector('[data-testid="legend-count-huge"]')?.textContent;
          return hooks !== undefined && huge === expected && hooks.lastPaint().count > 0;
        },
        (ALLOCATIONS / 10).toLocaleString('en-US'),
        { timeout: 120_000, polling: 'raf' },
      );
      // The paint that follows the commit that showed the snapshot, in ms since navigation started.
      const firstRender = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const w: PageWindow = Reflect.get(globalThis, 'window');
            w.requestAnimationFrame(() => w.requestAnimationFrame(() => resolve(w.__pagelensPageMap?.lastPaint().at ?? Number.NaN)));
          }),
        undefined,
      );
      const openWall = performance.now() - opened;

      // (a) Full redraws of the whole device: the frame image rebuilt from the typed arrays every time.
      const redraws = await page.evaluate(
        ({ count, warm }: { count: number; warm: number }) => {
          const w: PageWindow = Reflect.get(globalThis, 'window');
          const hooks = w.__pagelensPageMap;
          if (hooks === undefined) throw new Error('the page map is not mounted');
          for (let i = 0; i < warm; i += 1) hooks.draw();
          return Array.from({ length: count }, () => hooks.draw());
        },
        { count: REDRAWS, warm: WARM_UP },
      );
      const flushed = redraws.map((r) => r.flushedMs).sort((a, b) => a - b);
      const issued = redraws.map((r) => r.drawMs).sort((a, b) => a - b);

      // (b) Pan and zoom: wheel in at the middle of the map, drag around, wheel back out, while every paint
      // is timed in the page and the requestAnimationFrame intervals are recorded.
      const centre = await page.evaluate(() => {
        const w: PageWindow = Reflect.get(globalThis, 'window');
        return w.__pagelensPageMap?.locate(16_000);
      }, undefined);
      if (centre === undefined) throw new Error('cannot find frame 16,000 on screen');
      await page.evaluate(() => {
        const w: PageWindow = Reflect.get(globalThis, 'window');
        w.__pagelensPageMap?.record(true);
        const intervals: number[] = [];
        let last = w.performance.now();
        const tick = (now: number): void => {
          intervals.push(now - last);
          last = now;
          if (Reflect.get(globalThis, '__benchFrames') !== undefined) w.requestAnimationFrame(tick);
        };
        Reflect.set(globalThis, '__benchFrames', intervals);
        w.requestAnimationFrame(tick);
      }, undefined);
      await page.mouse.move(centre.x, centre.y);
      for (let i = 0; i < 24; i += 1) await page.mouse.wheel(0, -200);
      for (let round = 0; round < 3; round += 1) {
        await page.mouse.down();
        await page.mouse.move(centre.x + 150, centre.y + 60, { steps: 30 });
        await page.mouse.move(centre.x - 150, centre.y - 60, { steps: 30 });
        await page.mouse.up();
        await page.mouse.move(centre.x, centre.y);
      }
      for (let i = 0; i < 24; i += 1) await page.mouse.wheel(0, 200);
      const motion = await page.evaluate(
        () =>
          new Promise<{ paints: number[]; intervals: number[] }>((resolve) => {
            const w: PageWindow = Reflect.get(globalThis, 'window');
            w.requestAnimationFrame(() => {
              const hooks = w.__pagelensPageMap;
              const intervals: unknown = Reflect.get(globalThis, '__benchFrames');
              Reflect.deleteProperty(globalThis, '__benchFrames');
              const paints = hooks?.samples() ?? [];
              hooks?.record(false);
              // The first interval only says how long the page was idle before the script started.
              resolve({ paints, intervals: Array.isArray(intervals) ? intervals.slice(1).filter((v) => typeof v === 'number') : [] });
            });
          }),
        undefined,
      );
      const paints = [...motion.paints].sort((a, b) => a - b);
      const intervals = [...motion.intervals].sort((a, b) => a - b);
      const dropped = motion.intervals.filter((v) => v > 25).length;
      if (paints.length < 10) throw new Error(`only ${paints.length} paints were recorded while panning and zooming`);

      const setup = `${scene}; the device was filled in ${fillSeconds.toFixed(1)} s over one driver socket`;
      return [
        ms(
          'web.page_map.full_redraw.median',
          quantile(flushed, 0.5),
          `${REDRAWS} full redraws of the whole device after ${WARM_UP} warm-up, each rebuilding the frame image from the typed arrays and drawing it, timed until a one-pixel read-back returns (issuing the draw calls alone: median ${quantile(issued, 0.5).toFixed(2)} ms); ${setup}. Target from DESIGN.md`,
          8,
        ),
        ms(
          'web.page_map.full_redraw.p95',
          quantile(flushed, 0.95),
          `p95 of the same ${REDRAWS} redraws (issuing alone: p95 ${quantile(issued, 0.95).toFixed(2)} ms). Target from DESIGN.md`,
          8,
        ),
        ms(
          'web.page_map.pan_zoom.paint_p95',
          quantile(paints, 0.95),
          `p95 of the page map's work per frame (${paints.length} paints, each timed with a one-pixel read-back) while 24 wheel steps zoom in to 4 KiB pages, 3 drags pan, and 24 steps zoom out; median ${quantile(paints, 0.5).toFixed(2)} ms, max ${(paints[paints.length - 1] ?? 0).toFixed(2)} ms; ${scene}. Target from DESIGN.md (pan/zoom p95 frame)`,
          16,
        ),
        ms(
          'web.page_map.pan_zoom.frame_interval_p95',
          quantile(intervals, 0.95),
          `p95 of ${intervals.length} requestAnimationFrame intervals during the same script (median ${quantile(intervals, 0.5).toFixed(1)} ms, ${dropped} over 25 ms); headless Chromium paces frames at 60 Hz, so 16.7 ms is the floor, so this is reported beside the paint time rather than held to the 16 ms target`,
        ),
        ms(
          'web.page_map.open_to_first_render',
          firstRender,
          `navigation start → the first page-map paint of a viewer's snapshot with ${ALLOCATIONS.toLocaleString('en-US')} allocations (wall time from goto to that paint seen by the bench: ${openWall.toFixed(0)} ms), opened ${QUIET_MS / 1000} s after the fill's last result; the page asks for the snapshot packed in columns (hello.snapshots = "packed"); ${scene}. Target from issue 5 (initial snapshot of 100,000 allocations rendered in ≤ 1 s)`,
          1000,
        ),
      ];
    } finally {
      driver.close();
      await browser.close();
      await agent.stop();
      web.cleanup();
    }
  },
};
