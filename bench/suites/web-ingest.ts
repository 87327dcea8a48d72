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
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import {
  ACL_FUNCTION_NAMES,
  ASCEND_910B2,
  encodeSnapshot,
  type Hex,
  type MemoryEvent,
  PROTOCOL_VERSION,
  SimHost,
  SimRuntime,
} from '@pagelens/core';
import WebSocket, { WebSocketServer } from 'ws';
import { startBenchAgent } from '../support/agent.ts';
import { type BenchBrowser, type BenchPage, buildWeb, launchChromium, NAME_SHIM } from '../support/browser.ts';
import { type BenchResult, type BenchSuite, quantile } from '../support/result.ts';

/** Events per batch, as the agent sends them (EVENTS_PER_FRAME). */
const BATCH = 2000;
/** The offered rate of the paced feed, in events/s: 20 % above the target so that keeping up shows. */
const FEED_RATE = 240_000;
const FEED_EVENTS = 1_200_000;
/** Above this many bytes queued to the page the feed waits, as the agent stops sending (its high-water mark). */
const HIGH_WATER = 4 * 1024 * 1024;
const AGENT_SECONDS = 6;
const PIPELINE = 256;
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

/** A simulator session recorded as the agent would send it: welcome, snapshot, and event batches as JSON text. */
interface Recording {
  readonly hello: string[];
  readonly batches: string[];
  readonly firstSeq: number;
  readonly lastSeq: number;
}

/** aclrtMalloc/aclrtFree of 4–256 KiB NORMAL_ONLY with about 2,000 live, as the agent suite's load. */
async function record(events: number): Promise<Recording> {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const runtime = new SimRuntime(host);
  await runtime.aclInit({ configPath: null });
  await runtime.aclrtSetDevice({ deviceId: 0 });
  const state = host.state;
  const welcome = {
    type: 'welcome',
    protocol: PROTOCOL_VERSION,
    sessionId: 'bench-feed',
    role: 'viewer',
    backend: 'sim',
    host: { provenance: 'simulated', hostname: 'bench', kernelVersion: ASCEND_910B2.host.kernelVersion, hostPageSize: 4096 },
    devices: [{ id: 0, profile: ASCEND_910B2.name, socName: ASCEND_910B2.name, capabilities: ['giantPages', 'p2p', 'vmm', 'vaFlag'] }],
    functions: [...ACL_FUNCTION_NAMES],
    limits: { deviceBytes: 0, pinnedHostBytes: 0, liveObjects: 0, callsPerSecond: 0 },
    seq: state.seq,
  };
  const hello = [
    JSON.stringify(welcome),
    JSON.stringify({ type: 'snapshot', seq: state.seq, reset: false, snapshot: encodeSnapshot(state) }),
  ];
  const firstSeq = state.seq + 1;
  const batches: string[] = [];
  let pending: MemoryEvent[] = [];
  host.subscribe((batch) => {
    pending.push(...batch);
    while (pending.length >= BATCH) {
      const chunk = pending.slice(0, BATCH);
      pending = pending.slice(BATCH);
      batches.push(JSON.stringify({ type: 'events', from: chunk[0]?.seq, to: chunk.at(-1)?.seq, events: chunk }));
    }
  });
  const live: Hex[] = [];
  for (let call = 0; batches.length * BATCH < events; call += 1) {
    const devPtr = live.length > 2000 || (live.length > 0 && call % 2 === 1) ? live.pop() : undefined;
    if (devPtr !== undefined) await runtime.aclrtFree({ devPtr });
    else {
      const out = await runtime.aclrtMalloc({ size: 4096 * (1 + (call % 64)), policy: 3 });
      if (out.devPtr !== undefined) live.push(out.devPtr);
    }
  }
  return { hello, batches, firstSeq, lastSeq: firstSeq + batches.length * BATCH - 1 };
}

/** The agent's Content-Security-Policy (apps/agent/src/server/static-files.ts): no eval, as in real use. */
const CSP =
  "default-src 'self'; connect-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/** Serves the built app and, on /ws, the recording to each page that says hello. */
interface Feed {
  readonly url: string;
  /** Resolves once a page has said hello and has the snapshot; then `stream` sends the batches. */
  connected(): Promise<WebSocket>;
  close(): Promise<void>;
}

async function startFeed(webDir: string, recording: Recording): Promise<Feed> {
  const server: Server = createServer((request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://x').pathname).replace(/^([/\\])+/, '');
    try {
      const body = readFileSync(join(webDir, path === '' ? 'index.html' : path));
      const type = CONTENT_TYPES[extname(path === '' ? 'index.html' : path)] ?? 'application/octet-stream';
      response.writeHead(200, { 'Content-Type': type, 'Content-Security-Policy': CSP });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  const sockets = new WebSocketServer({ server, path: '/ws' });
  let waiting: ((socket: WebSocket) => void) | undefined;
  sockets.on('connection', (socket) => {
    socket.once('message', () => {
      for (const text of recording.hello) socket.send(text);
      waiting?.(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/?token=feed&role=viewer`,
    connected: () =>
      new Promise((resolve) => {
        waiting = resolve;
      }),
    close: () =>
      new Promise((resolve) => {
        sockets.close();
        server.close(() => resolve());
      }),
  };
}

/** Sends every batch at `rate` events/s (catching up when late), waiting whenever the page has 4 MiB unread. */
async function stream(socket: WebSocket, batches: readonly string[], rate: number): Promise<{ seconds: number; waitedMs: number }> {
  const started = performance.now();
  let sent = 0;
  let waitedMs = 0;
  while (sent < batches.length) {
    const due = Math.min(batches.length, Math.floor(((performance.now() - started) / 1000) * (rate / BATCH)) + 1);
    while (sent < due && socket.bufferedAmount < HIGH_WATER) socket.send(batches[sent++] ?? '');
    const pause = socket.bufferedAmount >= HIGH_WATER ? 2 : Math.max(1, ((sent * BATCH) / rate) * 1000 - (performance.now() - started));
    if (socket.bufferedAmount >= HIGH_WATER) waitedMs += pause;
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return { seconds: (performance.now() - started) / 1000, waitedMs };
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
    const driver = await LeanDriver.connect(agent.port, agent.token);
    await driver.call('aclInit', {});
    await driver.call('aclrtSetDevice', { deviceId: 0 });
    const page = await openPage(browser, `http://127.0.0.1:${agent.port}/?token=${agent.token}&role=viewer`);
    const fromSeq = await page.evaluate(() => {
      const w: PageWindow = Reflect.get(globalThis, 'window');
      return (w.__pagelens?.store.getState().timeline?.lastSeq ?? 0) + 1;
    }, undefined);
    await startFrames(page);
    const before = driver.events;
    const started = performance.now();
    const stop = started + AGENT_SECONDS * 1000;
    const calls = await driver.load(() => performance.now() > stop);
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

/** A driver that parses only what it must (results), so it takes little of the CPU the page needs. */
class LeanDriver {
  readonly #socket: WebSocket;
  readonly #waiting = new Map<number, (message: Record<string, unknown>) => void>();
  #nextId = 1;
  events = 0;
  lastSeq = 0;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: Buffer) => {
      const head = /^\{"type":"events","from":(\d+),"to":(\d+)/.exec(data.toString('latin1', 0, Math.min(64, data.length)));
      if (head !== null) {
        this.events += Number(head[2]) - Number(head[1]) + 1;
        this.lastSeq = Math.max(this.lastSeq, Number(head[2]));
        return;
      }
      const message: unknown = JSON.parse(data.toString('utf8'));
      if (typeof message !== 'object' || message === null) return;
      const id: unknown = Reflect.get(message, 'id');
      if (typeof id === 'number') {
        this.#waiting.get(id)?.(Object.fromEntries(Object.entries(message)));
        this.#waiting.delete(id);
      }
    });
  }

  static async connect(port: number, token: string): Promise<LeanDriver> {
    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws?token=${token}`);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    const welcomed = new Promise((resolve) => socket.once('message', resolve));
    socket.send(JSON.stringify({ type: 'hello', protocol: PROTOCOL_VERSION, role: 'driver' }));
    await welcomed;
    return new LeanDriver(socket);
  }

  call(fn: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve) => {
      this.#waiting.set(id, resolve);
      this.#socket.send(JSON.stringify({ type: 'call', id, fn, args }));
    });
  }

  /** PIPELINE malloc/free calls in flight (about 2,000 live allocations) until `done`; returns the calls made. */
  async load(done: () => boolean): Promise<number> {
    let calls = 0;
    const live: unknown[] = [];
    const worker = async (): Promise<void> => {
      while (!done()) {
        const devPtr = live.length > 2000 || (live.length > 0 && calls % 2 === 1) ? live.pop() : undefined;
        if (devPtr !== undefined) await this.call('aclrtFree', { devPtr });
        else {
          const reply = await this.call('aclrtMalloc', { size: 4096 * (1 + (calls % 64)), policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
          const out: unknown = reply.out;
          if (typeof out === 'object' && out !== null) live.push(Reflect.get(out, 'devPtr'));
        }
        calls += 1;
      }
    };
    await Promise.all(Array.from({ length: PIPELINE }, worker));
    return calls;
  }

  close(): void {
    this.#socket.close();
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
          detail: `end to end: ${agent.events.toLocaleString('en-US')} events applied in ${agent.seconds.toFixed(1)} s by a viewer page with the page map open, while a Node driver kept ${PIPELINE} aclrtMalloc/aclrtFree calls in flight on the real agent for ${AGENT_SECONDS} s (${agent.calls.toLocaleString('en-US')} calls; the agent delivered ${Math.round(agent.agentPerSecond).toLocaleString('en-US')} events/s to that driver, which bounds this figure); ${describeFrames(agent)}. Target from DESIGN.md (agent → browser ≥ 200,000 events/s)`,
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
