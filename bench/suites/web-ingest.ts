/**
 * Events applied in Chromium (issue 5: ≥ 200,000 events/s without dropping frames below 30 fps), and the
 * round trip of a call made from the page.
 *
 * (a) Paced feed, page map and operation log open: a small server in this process serves the built web
 *     app and speaks the agent's protocol — welcome, snapshot, then event batches of 2,000 (the agent's
 *     frame size) recorded from the simulator beforehand, offered at a fixed rate above the target. It
 *     measures what the page can take regardless of how fast the agent produces events today.
 * (b) End to end: the real agent, a Node driver pipelining aclrtMalloc/aclrtFree over its own socket, the
 *     page a viewer. Bounded by the agent's own throughput, reported beside it.
 * (c) Calls from the page: `window.__pagelens.agent.call` (what `useAgent().call` runs) one after another,
 *     with the playground and with the page map open.
 * The page counts applied events from the replica's seq and times frames with requestAnimationFrame.
 */
import { startBenchAgent } from '../support/agent.ts';
import { load, setUp, WINDOW } from '../support/agent-load.ts';
import { type BenchBrowser, type BenchPage, buildWeb, launchChromium, NAME_SHIM } from '../support/browser.ts';
import { BATCH, type Feed, type Recording, record, startFeed, stream } from '../support/recorded-feed.ts';
import { type BenchResult, type BenchSuite, quantile } from '../support/result.ts';
import { BenchClient } from '../support/ws-driver.ts';

/** The offered rate of the paced feed, in events/s: 20 % above the target so that keeping up shows. */
const FEED_RATE = 240_000;
const FEED_EVENTS = 1_200_000;
const AGENT_SECONDS = 6;
const RTT_CALLS = 300;
const RTT_WARM_UP = 50;
const TARGET_RATE = 200_000;
/** 30 fps. */
const FRAME_BUDGET_MS = 1000 / 30;

/** What the in-page functions read (bench code has no DOM types; `window` is read through Reflect.get). */
interface PageWindow {
  readonly __pagelens?: {
    readonly store: { getState(): { readonly timeline?: { readonly lastSeq: number } } };
    readonly agent: { call(fn: string, args: Record<string, unknown>): Promise<{ ok: boolean; out?: Record<string, unknown> }> };
    idle(): Promise<void>;
  };
  requestAnimationFrame(callback: (now: number) => void): number;
  readonly performance: { now(): number };
}

/** Starts recording [time, replica seq] at every animation frame in the page. */
async function startFrames(page: BenchPage): Promise<void> {
  await page.evaluate(() => {
    const w: PageWindow = Reflect.get(globalThis, 'window');
    const samples: [number, number][] = [];
    Reflect.set(globalThis, '__benchIngest', samples);
    const tick = (now: number): void => {
      samples.push([now, w.__pagelens?.store.getState().timeline?.lastSeq ?? 0]);
      if (Reflect.get(globalThis, '__benchIngest') === samples) w.requestAnimationFrame(tick);
    };
    w.requestAnimationFrame(tick);
  }, undefined);
}

/** Stops recording once the replica reached `lastSeq` (or `timeoutMs` passed); returns the samples. */
async function stopFrames(page: BenchPage, lastSeq: number, timeoutMs: number): Promise<[number, number][]> {
  await page.waitForFunction(
    (seq: number) => {
      const w: PageWindow = Reflect.get(globalThis, 'window');
      return (w.__pagelens?.store.getState().timeline?.lastSeq ?? 0) >= seq;
    },
    lastSeq,
    { timeout: timeoutMs, polling: 100 },
  );
  return page.evaluate(() => {
    const samples: unknown = Reflect.get(globalThis, '__benchIngest');
    Reflect.deleteProperty(globalThis, '__benchIngest');
    return Array.isArray(samples) ? samples : [];
  }, undefined);
}

interface Ingest {
  readonly perSecond: number;
  readonly events: number;
  readonly seconds: number;
  readonly intervals: number[];
}

/** Events per second between the first frame that saw new events and the one that saw the last, and the frame intervals then. */
function ingestOf(samples: readonly [number, number][], fromSeq: number): Ingest {
  const first = samples.findIndex(([, seq]) => seq >= fromSeq);
  const last = samples.length - 1;
  const [t0 = 0, s0 = 0] = samples[first] ?? [];
  const [t1 = 0, s1 = 0] = samples[last] ?? [];
  const intervals: number[] = [];
  for (let index = Math.max(1, first + 1); index <= last; index += 1)
    intervals.push((samples[index]?.[0] ?? 0) - (samples[index - 1]?.[0] ?? 0));
  return {
    perSecond: ((s1 - s0) / (t1 - t0)) * 1000,
    events: s1 - s0,
    seconds: (t1 - t0) / 1000,
    intervals: intervals.sort((a, b) => a - b),
  };
}

async function openPage(browser: BenchBrowser, url: string): Promise<BenchPage> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 }, deviceScaleFactor: 1 });
  await page.addInitScript(NAME_SHIM);
  await page.goto(url);
  await page.waitForFunction(
    () => {
      const w: PageWindow = Reflect.get(globalThis, 'window');
      return w.__pagelens?.store.getState().timeline !== undefined;
    },
    undefined,
    { timeout: 60_000 },
  );
  return page;
}

/** (a) The recording offered at FEED_RATE to a fresh page showing `view`. */
async function feedRun(browser: BenchBrowser, feed: Feed, recording: Recording, view: 'pages' | 'log') {
  const connected = feed.connected();
  const page = await openPage(browser, feed.url);
  const socket = await connected;
  await page.click(`[data-testid="tab-${view}"]`);
  await startFrames(page);
  const sent = await stream(socket, recording.batches, FEED_RATE);
  const samples = await stopFrames(page, recording.lastSeq, 120_000);
  await page.close();
  return { ...ingestOf(samples, recording.firstSeq), sent };
}

/** (b) A Node driver pipelining calls on the real agent while the page watches. */
async function agentRun(browser: BenchBrowser, webDir: string) {
  const agent = await startBenchAgent(['--no-journal', '--max-calls-per-sec', '0', '--web-dir', webDir]);
  try {
    // A driver that parses only its results, so it takes little of the CPU the page needs.
    const driver = await BenchClient.connect(agent.port, agent.token, 'driver', { ignoreEvents: true });
    await setUp(driver);
    const page = await openPage(browser, `http://127.0.0.1:${agent.port}/?token=${agent.token}&role=viewer`);
    const fromSeq = await page.evaluate(() => {
      const w: PageWindow = Reflect.get(globalThis, 'window');
      return (w.__pagelens?.store.getState().timeline?.lastSeq ?? 0) + 1;
    }, undefined);
    await startFrames(page);
    const before = driver.events;
    const started = performance.now();
    const stop = started + AGENT_SECONDS * 1000;
    const calls = await load(driver, () => performance.now() > stop);
    const lastSeq = driver.lastSeq;
    const seconds = (performance.now() - started) / 1000;
    const samples = await stopFrames(page, lastSeq, 60_000);
    driver.close();
    await page.close();
    return { ...ingestOf(samples, fromSeq), agentPerSecond: (driver.events - before) / seconds, calls };
  } finally {
    await agent.stop();
  }
}

/** (c) Sequential calls from the page, with the playground and then the page map open; in-page times in ms. */
async function callRun(browser: BenchBrowser, webDir: string): Promise<Record<'playground' | 'pages', number[]>> {
  const agent = await startBenchAgent(['--no-journal', '--max-calls-per-sec', '0', '--web-dir', webDir]);
  try {
    const page = await openPage(browser, `http://127.0.0.1:${agent.port}/?token=${agent.token}`);
    await page.evaluate(async () => {
      const w: PageWindow = Reflect.get(globalThis, 'window');
      await w.__pagelens?.agent.call('aclInit', {});
      await w.__pagelens?.agent.call('aclrtSetDevice', { deviceId: 0 });
    }, undefined);
    const times: Record<'playground' | 'pages', number[]> = { playground: [], pages: [] };
    for (const view of ['playground', 'pages'] as const) {
      await page.click(`[data-testid="tab-${view}"]`);
      times[view] = await page.evaluate(
        async ({ count, warm }: { count: number; warm: number }) => {
          const w: PageWindow = Reflect.get(globalThis, 'window');
          const agent = w.__pagelens?.agent;
          if (agent === undefined) throw new Error('no test hooks');
          await w.__pagelens?.idle();
          const samples: number[] = [];
          for (let i = 0; i < count; i += 1) {
            const started = w.performance.now();
            const outcome = await agent.call('aclrtMalloc', { size: 65536, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
            if (i >= warm) samples.push(w.performance.now() - started);
            if (outcome.out?.devPtr !== undefined) await agent.call('aclrtFree', { devPtr: outcome.out.devPtr });
          }
          return samples;
        },
        { count: RTT_CALLS, warm: RTT_WARM_UP },
      );
    }
    await page.close();
    return { playground: times.playground.sort((a, b) => a - b), pages: times.pages.sort((a, b) => a - b) };
  } finally {
    await agent.stop();
  }
}

/**
 * A frame interval in whole vsyncs of headless Chromium's 60 Hz, back in ms: requestAnimationFrame
 * times are vsync multiples plus timer jitter, and two vsyncs (33.3 ms, 30 fps) must not count as
 * below 30 fps because the timer said 33.4.
 */
const VSYNC_MS = 1000 / 60;
const inVsyncs = (ms: number): number => Math.max(1, Math.round(ms / VSYNC_MS)) * VSYNC_MS;
const over = (intervals: readonly number[]): number =>
  intervals.filter((ms) => inVsyncs(ms) > FRAME_BUDGET_MS + 0.01).length / Math.max(1, intervals.length);
const describeFrames = (run: Ingest): string =>
  `${run.intervals.length} frames, median ${quantile(run.intervals, 0.5).toFixed(1)} ms, p95 ${quantile(run.intervals, 0.95).toFixed(1)} ms, max ${(run.intervals.at(-1) ?? 0).toFixed(0)} ms, ${(over(run.intervals) * 100).toFixed(1)} % longer than two vsyncs (below 30 fps)`;

function ingestResults(prefix: string, label: string, run: Ingest & { sent: { seconds: number; waitedMs: number } }): BenchResult[] {
  const offered = `${FEED_EVENTS.toLocaleString('en-US')} recorded simulator events (aclrtMalloc/aclrtFree, ~2,000 live) offered at ${FEED_RATE.toLocaleString('en-US')}/s in batches of ${BATCH.toLocaleString('en-US')} by a bench-local server speaking the agent protocol (sent in ${run.sent.seconds.toFixed(1)} s; it waited ${(run.sent.waitedMs / 1000).toFixed(1)} s for the page, which it does whenever 4 MiB are unread) to Chromium headless at 1280×720 with the ${label} open`;
  return [
    {
      name: `${prefix}.events_per_sec`,
      value: run.perSecond,
      unit: 'events/s',
      higherIsBetter: true,
      detail: `${run.events.toLocaleString('en-US')} events applied to the replica in ${run.seconds.toFixed(2)} s, counted from its seq at each animation frame; ${offered}; ${describeFrames(run)}. Target from issue 5`,
      target: TARGET_RATE,
    },
    {
      name: `${prefix}.frame_interval_p95`,
      value: inVsyncs(quantile(run.intervals, 0.95)),
      unit: 'ms',
      higherIsBetter: false,
      detail: `p95 of the requestAnimationFrame intervals while those events arrived, in whole 60 Hz vsyncs (${describeFrames(run)}); target: 30 fps, two vsyncs (issue 5: no frames dropped below 30 fps)`,
      target: FRAME_BUDGET_MS + 0.01,
    },
    {
      name: `${prefix}.frames_below_30fps`,
      value: over(run.intervals) * 100,
      unit: '%',
      higherIsBetter: false,
      detail: `share of frame intervals of three or more vsyncs (below 30 fps) while those events arrived; ${describeFrames(run)}`,
    },
  ];
}

export const webIngestSuite: BenchSuite = {
  name: 'web-ingest',
  async run(): Promise<BenchResult[]> {
    const web = buildWeb();
    const recording = await record(FEED_EVENTS);
    const feed = await startFeed(web.dir, recording);
    const browser = await launchChromium();
    try {
      const pageMap = await feedRun(browser, feed, recording, 'pages');
      const log = await feedRun(browser, feed, recording, 'log');
      const agent = await agentRun(browser, web.dir);
      const calls = await callRun(browser, web.dir);
      const rtt = (view: 'playground' | 'pages', label: string, q: number, name: string): BenchResult => ({
        name,
        value: quantile(calls[view], q),
        unit: 'ms',
        higherIsBetter: false,
        detail: `${calls[view].length} sequential aclrtMalloc calls (each followed by its aclrtFree) through window.__pagelens.agent.call, which useAgent().call runs, timed in the page from the call to its outcome (the replica then holds its events) with the ${label} open on a fresh simulator; median ${quantile(calls[view], 0.5).toFixed(2)} ms, p95 ${quantile(calls[view], 0.95).toFixed(2)} ms, max ${(calls[view].at(-1) ?? 0).toFixed(1)} ms`,
      });
      return [
        ...ingestResults('web.ingest.page_map', 'page map', pageMap),
        ...ingestResults('web.ingest.log', 'operation log', log),
        {
          name: 'web.ingest.agent.events_per_sec',
          value: agent.perSecond,
          unit: 'events/s',
          higherIsBetter: true,
          detail: `end to end: ${agent.events.toLocaleString('en-US')} events applied in ${agent.seconds.toFixed(1)} s by a viewer page with the page map open, while a Node driver kept ${WINDOW} aclrtMalloc/aclrtFree calls in flight on the real agent for ${AGENT_SECONDS} s (${agent.calls.toLocaleString('en-US')} calls; the agent delivered ${Math.round(agent.agentPerSecond).toLocaleString('en-US')} events/s to that driver, which bounds this figure); ${describeFrames(agent)}. Target from DESIGN.md (agent → browser ≥ 200,000 events/s)`,
          target: TARGET_RATE,
        },
        rtt('playground', 'playground', 0.5, 'web.call_rtt.playground.p50'),
        rtt('pages', 'page map', 0.5, 'web.call_rtt.page_map.p50'),
        rtt('pages', 'page map', 0.95, 'web.call_rtt.page_map.p95'),
      ];
    } finally {
      await browser.close();
      await feed.close();
      web.cleanup();
    }
  },
};
