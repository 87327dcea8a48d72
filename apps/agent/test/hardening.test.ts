import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ASCEND_910B2 } from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { SimBackend } from '../src/backends/sim/sim-backend.ts';
import { noJournal } from '../src/journal/entries.ts';
import { startAgentServer } from '../src/server/http-server.ts';
import { type Logger, silentLogger } from '../src/server/logger.ts';
import { type Clock, Hub } from '../src/session/hub.ts';
import type { PeerSocket } from '../src/session/peer-socket.ts';
import { DEFAULT_LIMITS } from '../src/session/quotas.ts';
import { TOKEN } from './support/agent-harness.ts';
import { agentPerTest } from './support/agent-per-test.ts';
import { rawRequest, rawUpgrade } from './support/http.ts';
import type { TestClient } from './support/ws-client.ts';

// Issue 11: what a hostile or unlucky client could still break. Each test failed before its fix.

const agent = agentPerTest();
const connect = agent.connect;

/** A clock whose timers fire only when the test says so. */
function manualClock(): Clock & { fire(): void } {
  let timers: { callback: () => void; handle: ReturnType<typeof setTimeout> }[] = [];
  let next = 1;
  return {
    now: () => 0,
    setTimeout: (callback) => {
      const handle = next++ as unknown as ReturnType<typeof setTimeout>;
      timers.push({ callback, handle });
      return handle;
    },
    clearTimeout: (handle) => {
      timers = timers.filter((t) => t.handle !== handle);
    },
    every: () => () => {},
    defer: (callback) => {
      timers.push({ callback, handle: next++ as unknown as ReturnType<typeof setTimeout> });
    },
    fire: () => {
      const due = timers;
      timers = [];
      for (const t of due) t.callback();
    },
  };
}

/** An in-memory socket that records what the hub sends it, as sent (string or shared bytes). */
function recordingSocket(answering = true): PeerSocket & { sent: (string | Uint8Array)[]; closedWith?: string; texts(): string[] } {
  const socket: PeerSocket & { sent: (string | Uint8Array)[]; closedWith?: string; texts(): string[] } = {
    sent: [],
    send: (data) => socket.sent.push(data),
    close: (_code, reason) => {
      socket.closedWith = reason;
    },
    bufferedAmount: () => 0,
    flush: () => {},
    answering: () => answering,
    texts: () => socket.sent.map((d) => (typeof d === 'string' ? d : Buffer.from(d).toString('utf8'))),
  };
  return socket;
}

const hello = (role: 'driver' | 'viewer', resume?: string) =>
  JSON.stringify({ type: 'hello', protocol: 1, role, ...(resume === undefined ? {} : { resume }) });

describe('item 2: the Host check reads the whole header', () => {
  it.each(['[::1]evil.com', '[::1]evil.com:7070', 'localhost:evil.com'])('refuses Host %s on HTTP and on /ws', async (host) => {
    const harness = await agent.start();
    expect((await rawRequest(harness.port, '/', { host })).status).toBe(403);
    expect((await rawUpgrade(harness.port, `/ws?token=${TOKEN}`, { host })).status).toBe(403);
  });
});

describe('item 6: resume tokens', () => {
  it('each welcome issues a fresh token, and a used token resumes nothing', async () => {
    await agent.start({ resumeGraceMs: 5000 });
    const first = await connect();
    const welcome = await first.hello('driver');
    first.close();
    await first.closed;
    const second = await connect();
    const resumed = await second.hello('driver', welcome.resumeToken);
    expect(resumed.sessionId).toBe(welcome.sessionId);
    expect(resumed.resumeToken).toBeDefined();
    expect(resumed.resumeToken).not.toBe(welcome.resumeToken);
    second.close();
    await second.closed;
    // The first token was spent: it cannot take the waiting session.
    const third = await connect();
    third.send({ type: 'hello', protocol: 1, role: 'driver', resume: welcome.resumeToken });
    expect(await third.next((m) => m.type === 'error')).toMatchObject({ code: 'driver-busy' });
    // The fresh one can.
    const fourth = await connect();
    expect((await fourth.hello('driver', resumed.resumeToken)).sessionId).toBe(welcome.sessionId);
  });

  it('a resume is refused while the driver is still connected and answering, unless takeover is allowed', async () => {
    await agent.start();
    const driver = await connect();
    const welcome = await driver.hello('driver');
    const thief = await connect();
    thief.send({ type: 'hello', protocol: 1, role: 'driver', resume: welcome.resumeToken });
    expect(await thief.next((m) => m.type === 'error')).toMatchObject({
      code: 'driver-busy',
      message: expect.stringContaining('still driven from'),
    });
    expect(await driver.call('aclrtGetDeviceCount')).toMatchObject({ type: 'result', ret: 0 });
  });

  it('with --allow-takeover the resume takes the session and the old connection becomes a viewer', async () => {
    await agent.start({ allowTakeover: true });
    const driver = await connect();
    const welcome = await driver.hello('driver');
    const other = await connect();
    const taken = await other.hello('driver', welcome.resumeToken);
    expect(taken.sessionId).toBe(welcome.sessionId);
    expect(await driver.waitFor((m) => m.type === 'notice')).toMatchObject({ code: 'taken-over' });
  });

  it('a resume takes the session from a connection that stopped answering heartbeats, and closes it', () => {
    const hub = harnessFreeHub();
    const stale = recordingSocket(false);
    const staleHandler = hub.connect(stale, 'stale');
    staleHandler.message(hello('driver'));
    const token = welcomeOf(stale).resumeToken;
    const fresh = recordingSocket(true);
    hub.connect(fresh, 'fresh').message(hello('driver', token));
    expect(welcomeOf(fresh)).toMatchObject({ role: 'driver', sessionId: welcomeOf(stale).sessionId });
    expect(stale.closedWith).toBe('session resumed from another connection');
  });
});

function welcomeOf(socket: ReturnType<typeof recordingSocket>): { role: string; sessionId: string; resumeToken?: string } {
  const text = socket.texts().find((t) => t.includes('"type":"welcome"'));
  if (text === undefined) throw new Error(`no welcome in ${socket.texts().join('\n').slice(0, 400)}`);
  return JSON.parse(text);
}

let hubs: { shutdown(): Promise<void> }[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.shutdown();
  hubs = [];
});

/** A hub on a fresh simulator with no server: sockets are in-memory. */
function harnessFreeHub(clock?: Clock): Hub {
  const hub = new Hub({
    backend: new SimBackend(ASCEND_910B2, 1, 1),
    journal: noJournal,
    log: silentLogger,
    limits: DEFAULT_LIMITS,
    allowTakeover: false,
    resumeGraceMs: 30_000,
    ...(clock === undefined ? {} : { clock }),
  });
  hubs.push(hub);
  return hub;
}

describe('item 7: nothing that may be a token reaches the log', () => {
  it('paths, queries and headers carrying the token are refused without logging it', async () => {
    const lines: string[] = [];
    const log: Logger = {
      info: (m) => lines.push(m),
      warn: (m) => lines.push(m),
      error: (m) => lines.push(m),
    };
    const harness = await agent.start({ log });
    const port = harness.port;
    await rawUpgrade(port, `/ws/${TOKEN}`);
    await rawUpgrade(port, `/${TOKEN}?token=${TOKEN}`);
    await rawUpgrade(port, `/ws?token=${TOKEN}x`);
    await rawUpgrade(port, `/ws?token=${TOKEN}`, { host: `${TOKEN}.example` });
    await rawUpgrade(port, `/ws?token=${TOKEN}`, { origin: `http://${TOKEN}.example` });
    await rawRequest(port, `/ws/${TOKEN}`);
    await rawRequest(port, `/assets/${TOKEN}.js`);
    await rawRequest(port, `/${TOKEN}`, { host: `${TOKEN}:1` });
    expect(lines.length).toBeGreaterThanOrEqual(5);
    for (const line of lines) expect(line).not.toContain(TOKEN.slice(0, 12));
  });
});

describe('item 8: connections', () => {
  it('past --max-connections a socket is refused with 503 and the reason; a closed one frees its place', async () => {
    const harness = await agent.start({ maxConnections: 2 });
    const a = await connect();
    await a.hello('viewer');
    const b = await connect();
    await b.hello('viewer');
    const refused = await rawUpgrade(harness.port, `/ws?token=${TOKEN}`);
    expect(refused.status).toBe(503);
    expect(refused.body).toContain('--max-connections');
    a.close();
    await a.closed;
    // The server counts the place free once the socket's close has run: retry until then (bounded).
    let admitted: TestClient | undefined;
    for (let attempt = 0; attempt < 50 && admitted === undefined; attempt += 1) {
      admitted = await connect().catch(() => undefined);
      if (admitted === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(admitted).toBeDefined();
    await admitted?.hello('viewer');
  });

  it('viewers joining together get one presence message each, and share the snapshot and presence bytes', () => {
    const clock = manualClock();
    const hub = harnessFreeHub(clock);
    const sockets = Array.from({ length: 100 }, () => recordingSocket());
    for (const socket of sockets) hub.connect(socket, 'viewer').message(hello('viewer'));
    const presenceOf = (socket: ReturnType<typeof recordingSocket>) =>
      socket.sent.filter((d) => (typeof d === 'string' ? d : Buffer.from(d).toString('utf8')).includes('"type":"presence"'));
    expect(sockets.map((s) => presenceOf(s).length)).toEqual(sockets.map(() => 0));
    clock.fire();
    expect(sockets.map((s) => presenceOf(s).length)).toEqual(sockets.map(() => 1));
    const first = sockets[0];
    if (first === undefined) throw new Error('no socket');
    expect(JSON.parse(first.texts().find((t) => t.includes('"type":"presence"')) ?? '{}')).toMatchObject({ viewers: 100 });
    const snapshotOf = (socket: ReturnType<typeof recordingSocket>) =>
      socket.sent.find((d) => typeof d !== 'string' && Buffer.from(d).toString('utf8', 0, 20).includes('snapshot'));
    const shared = snapshotOf(first);
    expect(shared).toBeDefined();
    for (const socket of sockets) {
      expect(snapshotOf(socket)).toBe(shared);
      expect(presenceOf(socket)[0]).toBe(presenceOf(first)[0]);
    }
  });
});

describe('bounded memory per client, however it sends', () => {
  it('a client that keeps sending without reading its replies is closed', () => {
    const hub = harnessFreeHub();
    let unread = 0;
    const socket = recordingSocket();
    socket.bufferedAmount = () => unread;
    const handler = hub.connect(socket, 'viewer');
    handler.message(hello('viewer'));
    for (let i = 0; i < 10; i += 1) handler.message(JSON.stringify({ type: 'ping', id: i }));
    expect(socket.closedWith).toBeUndefined();
    unread = 17 * 1024 * 1024;
    handler.message(JSON.stringify({ type: 'ping', id: 99 }));
    expect(socket.closedWith).toBe('client keeps sending but does not read its replies');
  });

  it('calls waiting in a session hold at most 16 MiB of messages: a burst of 1 MiB calls is refused past it', async () => {
    const hub = harnessFreeHub();
    const socket = recordingSocket();
    const handler = hub.connect(socket, 'driver');
    handler.message(hello('driver'));
    // Valid calls of ~1 MB (JSON allows the padding); what a session may queue is counted in message bytes.
    const big = (id: number) => `${JSON.stringify({ type: 'call', id, fn: 'aclrtGetDeviceCount', args: {} })}${' '.repeat(1000 * 1000)}`;
    const length = big(10).length;
    for (let id = 10; id < 40; id += 1) handler.message(big(id));
    const refusedNow = socket.texts().filter((t) => t.includes('"code":"rate-limited"'));
    expect(refusedNow.length).toBe(30 - Math.floor((16 * 1024 * 1024) / length));
    expect(refusedNow[0]).toContain('of calls are already waiting');
  });
});

describe('a bug in handling one message', () => {
  it('closes that client with 1011 and leaves the agent serving the others', async () => {
    const webDir = mkdtempSync(join(tmpdir(), 'pagelens-web-'));
    writeFileSync(join(webDir, 'index.html'), '<!doctype html>');
    const errors: string[] = [];
    const server = await startAgentServer({
      host: '127.0.0.1',
      port: 0,
      webDir,
      policy: { token: TOKEN, allowedHosts: new Set(), allowedOrigins: new Set() },
      log: { info: () => {}, warn: () => {}, error: (m) => errors.push(m) },
      accept: (socket) => ({
        message: (text) => {
          if (text === 'boom') throw new Error('a bug');
          socket.send(`echo ${text}`);
        },
        closed: () => {},
      }),
    });
    try {
      const open = async () => {
        const ws = new WebSocket(`ws://127.0.0.1:${server.port}/ws?token=${TOKEN}`);
        await new Promise((resolve) => ws.once('open', resolve));
        return ws;
      };
      const victim = await open();
      const closed = new Promise<number>((resolve) => victim.once('close', (code) => resolve(code)));
      victim.send('boom');
      expect(await closed).toBe(1011);
      expect(errors.join('\n')).toContain('a bug');
      const other = await open();
      const reply = new Promise<string>((resolve) => other.once('message', (data: Buffer) => resolve(data.toString())));
      other.send('hi');
      expect(await reply).toBe('echo hi');
      other.close();
    } finally {
      await server.close();
      rmSync(webDir, { recursive: true, force: true });
    }
  });
});
