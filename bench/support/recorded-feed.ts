/**
 * A recorded simulator session served to a page as the agent would send it: the built app over
 * HTTP, then on /ws the welcome and snapshot, then event batches paced at a chosen rate. It measures
 * what the page can take, whatever the agent's own throughput (bench/suites/web-ingest.ts).
 */
import { createServer, type Server } from 'node:http';
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
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { serveStatic } from '../../apps/agent/src/server/static-files.ts';

/** Events per batch, as the agent sends them (EVENTS_PER_FRAME). */
export const BATCH = 2000;
/** Above this many bytes queued to the page the feed waits, as the agent stops sending (its high-water mark). */
const HIGH_WATER = 4 * 1024 * 1024;

/** A simulator session recorded as the agent would send it: welcome, snapshot, and event batches as JSON text. */
export interface Recording {
  readonly hello: string[];
  readonly batches: string[];
  readonly firstSeq: number;
  readonly lastSeq: number;
}

/** aclrtMalloc/aclrtFree of 4–256 KiB NORMAL_ONLY with about 2,000 live, as the agent suite's load. */
export async function record(events: number): Promise<Recording> {
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

/** Serves the built app and, on /ws, the recording to each page that says hello. */
export interface Feed {
  readonly url: string;
  /** Resolves once a page has said hello and has the snapshot; then `stream` sends the batches. */
  connected(): Promise<WebSocket>;
  close(): Promise<void>;
}

export async function startFeed(webDir: string, recording: Recording): Promise<Feed> {
  // The agent's own file serving, with its headers (the CSP allows no eval, as in real use).
  const server: Server = createServer((request, response) => {
    serveStatic(webDir, new URL(request.url ?? '/', 'http://feed.invalid').pathname, request.method ?? 'GET', response).catch(() =>
      response.destroy(),
    );
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
export async function stream(socket: WebSocket, batches: readonly string[], rate: number): Promise<{ seconds: number; waitedMs: number }> {
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
