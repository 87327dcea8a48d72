import {
  ASCEND_910B2,
  cloneHostState,
  decodeSnapshot,
  encodeSnapshot,
  type HostState,
  type MemoryEvent,
  parseAgentMessage,
  reduce,
  type Snapshot,
} from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SimBackend } from '../src/backends/sim/sim-backend.ts';
import { noJournal } from '../src/journal/entries.ts';
import { silentLogger } from '../src/server/logger.ts';
import { type HistoryCaps, PAGE_OVERHEAD_BYTES, pageFrame, SessionHistory } from '../src/session/history.ts';
import { type Clock, Hub } from '../src/session/hub.ts';
import type { PeerSocket } from '../src/session/peer-socket.ts';
import { DEFAULT_LIMITS } from '../src/session/quotas.ts';

// Issue 17 item 1: a client that joins late (or reconnects) gets the session's history.

/** A clock whose deferred work runs one event-loop turn at a time, when the test says so. */
function turnClock(): Clock & { turn(): number; pendingTurns(): number; tick(): void } {
  let deferred: (() => void)[] = [];
  const periodic = new Set<() => void>();
  let next = 1;
  return {
    now: () => 0,
    setTimeout: () => next++ as unknown as ReturnType<typeof setTimeout>,
    clearTimeout: () => {},
    every: (callback) => {
      periodic.add(callback);
      return () => periodic.delete(callback);
    },
    /** Runs every periodic callback once (as if their period had passed). */
    tick: () => {
      for (const callback of [...periodic]) callback();
    },
    defer: (callback) => {
      deferred.push(callback);
    },
    /** Runs what was deferred before this turn; returns how many callbacks ran. */
    turn: () => {
      const due = deferred;
      deferred = [];
      for (const callback of due) callback();
      return due.length;
    },
    pendingTurns: () => deferred.length,
  };
}

interface MemorySocket extends PeerSocket {
  readonly sent: (string | Uint8Array)[];
  buffered: number;
  texts(): string[];
  bytesOf(type: string): number;
}

function memorySocket(): MemorySocket {
  const socket: MemorySocket = {
    sent: [],
    buffered: 0,
    send: (data) => socket.sent.push(data),
    close: () => {},
    bufferedAmount: () => socket.buffered,
    flush: () => {},
    texts: () => socket.sent.map((d) => (typeof d === 'string' ? d : Buffer.from(d).toString('utf8'))),
    bytesOf: (type) =>
      socket.sent
        .filter((d) => (typeof d === 'string' ? d : Buffer.from(d).toString('utf8', 0, 40)).startsWith(`{"type":"${type}"`))
        .reduce((sum, d) => sum + (typeof d === 'string' ? Buffer.byteLength(d) : d.length), 0),
  };
  return socket;
}

const hubs: Hub[] = [];
afterEach(async () => {
  for (const hub of hubs.splice(0)) await hub.shutdown();
});

function makeHub(clock: Clock, options: { caps?: HistoryCaps; turnBytes?: number } = {}): { hub: Hub; backend: SimBackend } {
  const backend = new SimBackend(ASCEND_910B2, 1, 1);
  const hub = new Hub({
    backend,
    journal: noJournal,
    log: silentLogger,
    limits: { ...DEFAULT_LIMITS, callsPerSecond: 0 },
    allowTakeover: false,
    resumeGraceMs: 30_000,
    clock,
    ...(options.caps === undefined ? {} : { historyCaps: options.caps }),
    ...(options.turnBytes === undefined ? {} : { historyTurnBytes: options.turnBytes }),
  });
  hubs.push(hub);
  return { hub, backend };
}

const hello = (role: 'driver' | 'viewer', history = true) =>
  JSON.stringify({ type: 'hello', protocol: 1, role, ...(history ? { history: true } : {}) });

/** Lets the session's queue run (it awaits promises, never timers), up to `limit` I/O turns, until `done`. */
async function until(done: () => boolean, limit = 1000): Promise<void> {
  for (let i = 0; i < limit && !done(); i += 1) await new Promise((resolve) => setImmediate(resolve));
  if (!done()) throw new Error('condition not met');
}

/** The driver makes `count` calls (an aclrtMalloc and an aclrtGetMemInfo each), one after the other. */
async function makeCalls(
  driver: { message(text: string): void },
  socket: MemorySocket,
  clock: ReturnType<typeof turnClock>,
  count: number,
) {
  driver.message(JSON.stringify({ type: 'call', id: 1, fn: 'aclInit', args: { configPath: null } }));
  driver.message(JSON.stringify({ type: 'call', id: 2, fn: 'aclrtSetDevice', args: { deviceId: 0 } }));
  for (let i = 0; i < count - 2; i += 1) {
    driver.message(JSON.stringify({ type: 'call', id: 3 + i, fn: 'aclrtMalloc', args: { size: 4096 * (i + 1), policy: 0 } }));
  }
  const results = () => socket.texts().filter((t) => t.startsWith('{"type":"result"')).length;
  await until(() => results() >= count);
  clock.turn();
}

type Parsed = ReturnType<typeof parseAgentMessage> & { ok: true };

function messagesOf(socket: MemorySocket): Parsed['value'][] {
  return socket.texts().map((text) => {
    const parsed = parseAgentMessage(text);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.value;
  });
}

/** What the client rebuilds: the base snapshot, then every page in order (checked contiguous). */
function rebuild(socket: MemorySocket): { state: HostState; seqs: number[]; calls: number; callsBefore: number } {
  const messages = messagesOf(socket);
  const announce = messages.filter((m) => m.type === 'history').at(-1);
  if (announce?.type !== 'history') throw new Error('no history announced');
  const start = messages.lastIndexOf(announce);
  const base = messages.slice(start).find((m) => m.type === 'historyBase');
  if (base?.type !== 'historyBase') throw new Error('no base');
  expect(base.seq).toBe(announce.from);
  const state = decodeSnapshot(base.snapshot as Snapshot);
  const seqs: number[] = [];
  let calls = 0;
  for (const m of messages.slice(start)) {
    if (m.type !== 'historyPage') continue;
    expect(m.from).toBe((seqs.at(-1) ?? announce.from) + 1);
    expect(m.events[0]?.seq).toBe(m.from);
    expect(m.events.at(-1)?.seq).toBe(m.to);
    for (const event of m.events as MemoryEvent[]) {
      reduce(state, event);
      seqs.push(event.seq);
      if (event.kind === 'call') calls += 1;
    }
  }
  expect(seqs.length).toBe(announce.events);
  expect(seqs.at(-1)).toBe(announce.to);
  return { state, seqs, calls, callsBefore: announce.callsBefore };
}

function liveEventSeqs(socket: MemorySocket): number[] {
  return messagesOf(socket).flatMap((m) => (m.type === 'events' ? m.events.map((e) => e.seq) : []));
}

function drain(clock: ReturnType<typeof turnClock>, limit = 10_000): number {
  let turns = 0;
  while (clock.pendingTurns() > 0 && turns < limit) {
    clock.turn();
    turns += 1;
  }
  return turns;
}

describe('SessionHistory', () => {
  const caps: HistoryCaps = { events: 50, bytes: 1024 * 1024, pageEvents: 10, pageBytes: 64 * 1024 };
  const host = () => new SimBackend(ASCEND_910B2, 1, 1);

  /** Events as the backend emits them, recorded batch by batch as the fan-out would. */
  async function recorded(history: SessionHistory, backend: SimBackend, mallocs: number): Promise<MemoryEvent[]> {
    const all: MemoryEvent[] = [];
    const stop = backend.subscribe((events) => {
      all.push(...events);
      history.record(events, JSON.stringify(events));
    });
    const { runtime } = backend.openProcess('test');
    await runtime.aclInit({ configPath: null });
    await runtime.aclrtSetDevice({ deviceId: 0 });
    for (let i = 0; i < mallocs; i += 1) await runtime.aclrtMalloc({ size: 4096, policy: 0 });
    stop();
    return all;
  }

  it('keeps every event since the reset in pages of at most pageEvents, in order', async () => {
    const backend = host();
    const history = new SessionHistory(backend.state(), caps);
    const start = cloneHostState(backend.state());
    const events = await recorded(history, backend, 10);
    const plan = history.plan();
    expect(plan).toEqual({ from: start.seq, to: backend.state().seq, events: events.length, callsBefore: 0 });
    const seen: number[] = [];
    for (let page = history.pageAfter(plan.from); page !== undefined; page = history.pageAfter(page.to)) {
      expect(page.count).toBeLessThanOrEqual(caps.pageEvents);
      const parsed = parseAgentMessage(pageFrame(page).toString('utf8'));
      if (!parsed.ok || parsed.value.type !== 'historyPage') throw new Error('not a page');
      seen.push(...parsed.value.events.map((e) => e.seq));
    }
    expect(seen).toEqual(events.map((e) => e.seq));
  });

  it('past the event cap keeps a base state at the start of what it holds, and counts the calls before it', async () => {
    const backend = host();
    const history = new SessionHistory(backend.state(), caps);
    const events = await recorded(history, backend, 40);
    const plan = history.plan();
    expect(history.size.events).toBeLessThanOrEqual(caps.events);
    expect(plan.events).toBe(history.size.events);
    expect(plan.from).toBeGreaterThan(0);
    const dropped = events.filter((e) => e.seq <= plan.from);
    expect(plan.callsBefore).toBe(dropped.filter((e) => e.kind === 'call').length);
    expect(plan.callsBefore).toBeGreaterThan(0);
    // The base is the state the events before it make.
    const base = parseAgentMessage(history.baseFrame(false).toString('utf8'));
    if (!base.ok || base.value.type !== 'historyBase') throw new Error('not a base');
    const expected = decodeSnapshot(encodeSnapshot(cloneHostState(new SimBackend(ASCEND_910B2, 1, 1).state())));
    for (const event of dropped) reduce(expected, event);
    expect(base.value.seq).toBe(plan.from);
    expect(base.value.snapshot).toEqual(encodeSnapshot(expected));
    // A folded position is no longer served.
    expect(history.pageAfter(plan.from - 1)).toBeUndefined();
    expect(history.pageAfter(plan.from)?.from).toBe(plan.from + 1);
  });

  it('holds the byte cap, page overhead included, however small the batches', async () => {
    const backend = host();
    const small: HistoryCaps = { events: 1_000_000, bytes: 8 * 1024, pageEvents: 1, pageBytes: 64 * 1024 };
    const history = new SessionHistory(backend.state(), small);
    await recorded(history, backend, 60);
    expect(history.size.bytes).toBeLessThanOrEqual(small.bytes);
    expect(history.size.bytes).toBeGreaterThan(small.bytes / 2);
    expect(history.size.pages).toBeGreaterThan(5);
    expect(history.size.bytes).toBeGreaterThanOrEqual(history.size.pages * PAGE_OVERHEAD_BYTES - PAGE_OVERHEAD_BYTES);
  });

  it('a reset clears it: the new state is the base and nothing follows', async () => {
    const backend = host();
    const history = new SessionHistory(backend.state(), caps);
    await recorded(history, backend, 5);
    const generation = history.generation;
    await backend.reset({});
    history.reset(backend.state());
    expect(history.plan()).toEqual({ from: backend.state().seq, to: backend.state().seq, events: 0, callsBefore: 0 });
    expect(history.size).toEqual({ events: 0, bytes: 0, pages: 0 });
    expect(history.generation).toBe(generation + 1);
  });
});

describe('the hub pages the history to clients that join late', () => {
  it('a viewer joining after 19 calls rebuilds the exact state, with every event and call since the reset', async () => {
    const clock = turnClock();
    const { hub, backend } = makeHub(clock);
    const driverSocket = memorySocket();
    const driver = hub.connect(driverSocket, 'driver');
    driver.message(hello('driver'));
    await makeCalls(driver, driverSocket, clock, 19);
    const viewerSocket = memorySocket();
    hub.connect(viewerSocket, 'viewer').message(hello('viewer'));
    drain(clock);
    const rebuilt = rebuild(viewerSocket);
    expect(rebuilt.calls).toBe(19);
    expect(rebuilt.callsBefore).toBe(0);
    expect(encodeSnapshot(rebuilt.state)).toEqual(encodeSnapshot(backend.state()));
    // Every seq since the base, the driver's live ones among them, in the same order.
    const first = rebuilt.seqs[0] ?? 0;
    expect(rebuilt.seqs).toEqual(Array.from({ length: rebuilt.seqs.length }, (_, i) => first + i));
    const live = liveEventSeqs(driverSocket);
    expect(live.length).toBeGreaterThan(19);
    expect(rebuilt.seqs.slice(-live.length)).toEqual(live);
    // A client that did not ask gets none of it.
    const plain = memorySocket();
    hub.connect(plain, 'plain').message(hello('viewer', false));
    drain(clock);
    expect(plain.texts().some((t) => t.startsWith('{"type":"history'))).toBe(false);
  });

  it('a client that packs its snapshots gets the base packed, which parses to the same rows', async () => {
    const clock = turnClock();
    const { hub } = makeHub(clock);
    const driverSocket = memorySocket();
    const driver = hub.connect(driverSocket, 'driver');
    driver.message(hello('driver'));
    await makeCalls(driver, driverSocket, clock, 4);
    const rows = memorySocket();
    const packed = memorySocket();
    hub.connect(rows, 'rows').message(hello('viewer'));
    hub
      .connect(packed, 'packed')
      .message(JSON.stringify({ type: 'hello', protocol: 1, role: 'viewer', snapshots: 'packed', history: true }));
    drain(clock);
    const baseText = packed.texts().find((t) => t.startsWith('{"type":"historyBase"'));
    expect(baseText).toContain('"packed":');
    expect(encodeSnapshot(rebuild(packed).state)).toEqual(encodeSnapshot(rebuild(rows).state));
  });

  it('a driver that reconnects gets the history of its session too', async () => {
    const clock = turnClock();
    const { hub } = makeHub(clock);
    const first = memorySocket();
    const driver = hub.connect(first, 'driver');
    driver.message(hello('driver'));
    await makeCalls(driver, first, clock, 5);
    const token = (JSON.parse(first.texts()[0] ?? '{}') as { resumeToken: string }).resumeToken;
    driver.closed(1006, 'gone');
    const again = memorySocket();
    hub.connect(again, 'driver').message(JSON.stringify({ type: 'hello', protocol: 1, role: 'driver', resume: token, history: true }));
    drain(clock);
    expect(rebuild(again).calls).toBe(5);
  });

  it('a reset clears the history: clients are told it is empty and paging under way stops', async () => {
    const clock = turnClock();
    const { hub } = makeHub(clock, { caps: { events: 100_000, bytes: 32 << 20, pageEvents: 2, pageBytes: 1 << 20 } });
    const driverSocket = memorySocket();
    const driver = hub.connect(driverSocket, 'driver');
    driver.message(hello('driver'));
    await makeCalls(driver, driverSocket, clock, 10);
    const viewerSocket = memorySocket();
    hub.connect(viewerSocket, 'viewer').message(hello('viewer'));
    // Paging has begun (the announcement) but no page was sent yet.
    expect(viewerSocket.bytesOf('historyPage')).toBe(0);
    driver.message(JSON.stringify({ type: 'reset' }));
    await until(() => viewerSocket.texts().some((t) => t.includes('"reset":true')));
    drain(clock);
    const texts = viewerSocket.texts();
    const resetAt = texts.findIndex((t) => t.includes('"reset":true'));
    const after = texts.slice(resetAt + 1).filter((t) => t.startsWith('{"type":"history'));
    expect(after.map((t) => JSON.parse(t) as { type: string; events: number })).toEqual([
      expect.objectContaining({ type: 'history', events: 0, callsBefore: 0 }),
    ]);
  });

  it('a slow viewer gets no pages while its queue is full, and does not hold back the others', async () => {
    const clock = turnClock();
    const { hub } = makeHub(clock, { caps: { events: 100_000, bytes: 32 << 20, pageEvents: 4, pageBytes: 1 << 20 } });
    const driverSocket = memorySocket();
    const driver = hub.connect(driverSocket, 'driver');
    driver.message(hello('driver'));
    await makeCalls(driver, driverSocket, clock, 19);
    const slow = memorySocket();
    slow.buffered = 2 * 1024 * 1024;
    hub.connect(slow, 'slow').message(hello('viewer'));
    const quick = Array.from({ length: 5 }, () => memorySocket());
    for (const socket of quick) hub.connect(socket, 'quick').message(hello('viewer'));
    drain(clock);
    for (const socket of quick) expect(rebuild(socket).calls).toBe(19);
    expect(slow.bytesOf('historyBase') + slow.bytesOf('historyPage')).toBe(0);
    // Once it reads, it gets its history (looked at again on the pager's periodic tick).
    slow.buffered = 0;
    clock.tick();
    drain(clock);
    expect(rebuild(slow).calls).toBe(19);
  });

  it('a viewer whose next page the cap folded away starts over from the new base and still ends with the exact state', async () => {
    const clock = turnClock();
    const { hub, backend } = makeHub(clock, { caps: { events: 40, bytes: 32 << 20, pageEvents: 5, pageBytes: 1 << 20 } });
    const driverSocket = memorySocket();
    const driver = hub.connect(driverSocket, 'driver');
    driver.message(hello('driver'));
    await makeCalls(driver, driverSocket, clock, 12);
    const viewer = memorySocket();
    viewer.buffered = 2 * 1024 * 1024;
    hub.connect(viewer, 'viewer').message(hello('viewer'));
    const first = messagesOf(viewer).find((m) => m.type === 'history');
    // While it does not read, the driver goes on and the cap folds what it was to get.
    for (let i = 0; i < 20; i += 1) {
      driver.message(JSON.stringify({ type: 'call', id: 200 + i, fn: 'aclrtMalloc', args: { size: 8192, policy: 0 } }));
    }
    await until(() => driverSocket.texts().some((t) => t.startsWith('{"type":"result","id":219')));
    clock.turn();
    viewer.buffered = 0;
    clock.tick();
    drain(clock);
    const announcements = messagesOf(viewer).filter((m) => m.type === 'history');
    expect(announcements).toHaveLength(2);
    const last = announcements[1];
    if (first?.type !== 'history' || last?.type !== 'history') throw new Error('no announcements');
    expect(last.from).toBeGreaterThan(first.from);
    expect(last.callsBefore).toBeGreaterThan(0);
    const rebuilt = rebuild(viewer);
    expect(encodeSnapshot(rebuilt.state)).toEqual(encodeSnapshot(backend.state()));
    expect(rebuilt.callsBefore + rebuilt.calls).toBe(32);
  });

  it('a hundred viewers joining at once: each turn pages at most the turn budget, and the driver is answered and streamed between turns', async () => {
    const clock = turnClock();
    const turnBytes = 64 * 1024;
    const { hub } = makeHub(clock, { turnBytes, caps: { events: 100_000, bytes: 32 << 20, pageEvents: 200, pageBytes: 16 * 1024 } });
    const driverSocket = memorySocket();
    const driver = hub.connect(driverSocket, 'driver');
    driver.message(hello('driver'));
    await makeCalls(driver, driverSocket, clock, 300);
    const viewers = Array.from({ length: 100 }, () => memorySocket());
    for (const socket of viewers) hub.connect(socket, 'viewer').message(hello('viewer'));
    const historyBytes = () => viewers.reduce((sum, s) => sum + s.bytesOf('historyBase') + s.bytesOf('historyPage'), 0);
    // One turn of paging, then the driver calls: its result goes out before any further paging.
    const perTurn: number[] = [];
    let before = historyBytes();
    clock.turn();
    perTurn.push(historyBytes() - before);
    const pagedBeforeCall = historyBytes();
    driver.message(JSON.stringify({ type: 'call', id: 1000, fn: 'aclrtMalloc', args: { size: 4096, policy: 0 } }));
    await until(() => driverSocket.texts().some((t) => t.startsWith('{"type":"result","id":1000')));
    expect(historyBytes()).toBe(pagedBeforeCall);
    // The call's events reach every viewer in the next turn, while their history is still arriving.
    before = historyBytes();
    clock.turn();
    perTurn.push(historyBytes() - before);
    const callEvents = liveEventSeqs(driverSocket).slice(-2);
    for (const socket of viewers) expect(liveEventSeqs(socket)).toEqual(callEvents);
    expect(viewers.filter(complete).length).toBeLessThan(viewers.length / 2);
    // The rest, turn by turn.
    while (clock.pendingTurns() > 0) {
      before = historyBytes();
      clock.turn();
      perTurn.push(historyBytes() - before);
    }
    // A turn stops once it has spent its budget: over it by less than one frame.
    const frames = viewers
      .flatMap((s) => s.sent)
      .filter((d) => typeof d !== 'string' && /^\{"type":"history(Base|Page)"/.test(Buffer.from(d).toString('utf8', 0, 30)));
    const largestFrame = Math.max(...frames.map((d) => d.length));
    for (const turn of perTurn) expect(turn).toBeLessThan(turnBytes + largestFrame);
    // Each got all of it (rebuilt in full for three of them; the others got the same bytes, below).
    for (const socket of [0, 49, 99].map((i) => viewers[i] ?? memorySocket())) expect(rebuild(socket).calls).toBe(300);
    expect(viewers.every(complete)).toBe(true);
    // Fair: every viewer got the same bytes, and the turns were spread, not one viewer after another.
    const each = viewers.map((s) => s.bytesOf('historyBase') + s.bytesOf('historyPage'));
    expect(new Set(each).size).toBe(1);
    expect(perTurn.length).toBeGreaterThan(10);
  });
});

/** The client has every page announced. */
function complete(socket: MemorySocket): boolean {
  const messages = messagesOf(socket);
  const announce = messages.findLast((m) => m.type === 'history');
  const last = messages.findLast((m) => m.type === 'historyPage');
  return announce?.type === 'history' && last?.type === 'historyPage' && last.to === announce.to;
}
