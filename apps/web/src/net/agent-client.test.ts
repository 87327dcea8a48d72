import { encodeSnapshot, type MemoryEvent, PROTOCOL_VERSION, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { createAppStore, type StoreOptions } from '../store/app-store.ts';
import { AgentClient, type ClientEnvironment } from './agent-client.ts';
import { type EarlySocket, openEarlySocket } from './early-socket.ts';

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket {
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  readonly #listeners: { type: string; listener: (event: { data?: unknown }) => void }[] = [];
  constructor(readonly url: string) {}
  addEventListener(type: string, listener: (event: { data?: unknown }) => void): void {
    this.#listeners.push({ type, listener });
  }
  #dispatch(type: string, event: { data?: unknown }): void {
    for (const entry of this.#listeners) if (entry.type === type) entry.listener(event);
  }
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {
    this.closed = true;
  }
  open(): void {
    this.onopen?.();
    this.#dispatch('open', {});
  }
  receive(message: unknown): void {
    const event = { data: JSON.stringify(message) };
    this.onmessage?.(event);
    this.#dispatch('message', event);
  }
  drop(): void {
    this.onclose?.();
    this.#dispatch('close', {});
  }
}

function harness(options: { token?: string; httpStatus?: number; store?: StoreOptions; early?: EarlySocket } = {}) {
  const sockets: FakeSocket[] = [];
  const timers: { callback: () => void; ms: number }[] = [];
  const environment: ClientEnvironment = {
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket as unknown as WebSocket;
    },
    fetch: async () => new Response('wrong token: …', { status: options.httpStatus ?? 426 }),
    setTimeout: (callback, ms) => timers.push({ callback, ms }),
    clearTimeout: () => {},
    now: () => 1000,
    random: () => 0,
  };
  const store = createAppStore(options.store);
  const client = new AgentClient({
    pageUrl: 'http://127.0.0.1:7070/?token=t',
    token: options.token ?? 't',
    role: 'driver',
    store,
    environment,
    ...(options.early === undefined ? {} : { early: options.early }),
  });
  return { sockets, timers, store, client };
}

const welcome = {
  type: 'welcome',
  protocol: PROTOCOL_VERSION,
  sessionId: 's1',
  role: 'driver',
  backend: 'sim',
  host: { provenance: 'simulated', hostname: 'h', kernelVersion: '6.1', hostPageSize: 4096 },
  devices: [],
  functions: ['aclrtMalloc'],
  limits: { deviceBytes: 0, pinnedHostBytes: 0, pageableHostBytes: 0, liveObjects: 0, callsPerSecond: 0 },
  seq: 0,
};

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('AgentClient', () => {
  it('says hello on open and shows connected after welcome', () => {
    const { sockets, store, client } = harness();
    client.start();
    expect(store.getState().connection).toEqual({ status: 'connecting', attempt: 1 });
    const socket = sockets[0];
    expect(socket?.url).toBe('ws://127.0.0.1:7070/ws?token=t');
    socket?.open();
    expect(JSON.parse(socket?.sent[0] ?? '{}')).toEqual({
      type: 'hello',
      protocol: PROTOCOL_VERSION,
      role: 'driver',
      snapshots: 'packed',
      history: true,
    });
    socket?.receive(welcome);
    expect(store.getState().connection).toMatchObject({ status: 'connected', backend: 'sim', protocol: PROTOCOL_VERSION, role: 'driver' });
  });

  it('without a token it asks for the printed URL and opens no socket', () => {
    const { sockets, store, client } = harness({ token: '' });
    client.start();
    expect(store.getState().connection.status).toBe('no-token');
    expect(sockets).toHaveLength(0);
  });

  it('a refused token becomes "unauthorized" and is not retried', async () => {
    const { sockets, timers, store, client } = harness({ httpStatus: 401 });
    client.start();
    sockets[0]?.drop();
    await flush();
    expect(store.getState().connection).toMatchObject({ status: 'unauthorized', reason: 'wrong token: …' });
    expect(timers).toHaveLength(0);
  });

  it('an unreachable agent is retried with backoff', async () => {
    const { sockets, timers, store, client } = harness({ httpStatus: 426 });
    client.start();
    sockets[0]?.drop();
    await flush();
    expect(store.getState().connection).toEqual({ status: 'unreachable', attempt: 2, retryAt: 1500 });
    expect(timers[0]?.ms).toBe(500);
    timers[0]?.callback();
    expect(sockets).toHaveLength(2);
    sockets[1]?.drop();
    await flush();
    expect(timers[1]?.ms).toBe(1000);
  });

  it('a protocol mismatch stops retrying and says so', () => {
    const { sockets, timers, store, client } = harness();
    client.start();
    sockets[0]?.open();
    sockets[0]?.receive({ type: 'error', code: 'protocol-mismatch', message: 'agent speaks protocol 2' });
    expect(store.getState().connection).toEqual({ status: 'incompatible', message: 'agent speaks protocol 2' });
    sockets[0]?.drop();
    expect(timers).toHaveLength(0);
  });

  it('another driver holding the session: says so (not "unreachable"), keeps retrying, then connects', async () => {
    const { sockets, timers, store, client } = harness();
    client.start();
    sockets[0]?.open();
    const busy =
      'another driver session is active (from 127.0.0.1:5000); connect as a viewer (role "viewer"), or start the agent with --allow-takeover';
    sockets[0]?.receive({ type: 'error', code: 'driver-busy', message: busy });
    sockets[0]?.drop();
    await flush();
    expect(store.getState().connection).toEqual({ status: 'driver-busy', message: busy, attempt: 2, retryAt: 1500 });
    expect(store.getState().notices).toEqual([]);
    expect(timers).toHaveLength(1);
    // The next attempt finds the session free.
    timers[0]?.callback();
    sockets[1]?.open();
    sockets[1]?.receive(welcome);
    expect(store.getState().connection.status).toBe('connected');
    // A later loss is an ordinary one again.
    sockets[1]?.drop();
    expect(store.getState().connection.status).toBe('unreachable');
  });

  it("a driver's hello held while the last session is torn down: the panel says it waits, then the welcome connects", () => {
    const { sockets, store, client } = harness();
    client.start();
    sockets[0]?.open();
    const waiting = 'the last driver session is being torn down (its driver did not return in time); you become the driver once that ends';
    sockets[0]?.receive({ type: 'notice', level: 'info', code: 'driver-after-teardown', message: waiting });
    expect(store.getState().connection).toEqual({ status: 'waiting-teardown', message: waiting });
    expect(store.getState().notices).toEqual([]);
    sockets[0]?.receive(welcome);
    expect(store.getState().connection.status).toBe('connected');
    // Once welcomed, the same code is an ordinary notice.
    sockets[0]?.receive({ type: 'notice', level: 'info', code: 'driver-after-teardown', message: waiting });
    expect(store.getState().connection.status).toBe('connected');
    expect(store.getState().notices).toHaveLength(1);
  });

  it('a lost connection after welcome reconnects', () => {
    const { sockets, timers, store, client } = harness();
    client.start();
    sockets[0]?.open();
    sockets[0]?.receive(welcome);
    sockets[0]?.drop();
    expect(store.getState().connection.status).toBe('unreachable');
    expect(timers).toHaveLength(1);
  });

  it('types call arguments by the catalogue: a misspelt parameter or a wrong value does not compile', () => {
    const { sockets, client } = harness();
    client.start();
    sockets[0]?.open();
    sockets[0]?.receive(welcome);
    // The typecheck (part of `pnpm test`) fails if any of these lines compiles.
    const misuses = [
      // @ts-expect-error the parameter is deviceId
      () => client.call('aclrtSetDevice', { deviceID: 0 }),
      // @ts-expect-error a size is a number of bytes, not text
      () => client.call('aclrtMalloc', { size: '4 KiB', policy: 0 }),
      // @ts-expect-error a pointer is written 0x…
      () => client.call('aclrtFree', { devPtr: 'dev' }),
      // @ts-expect-error not a catalogue function
      () => client.call('aclrtMallocEverything', {}),
    ];
    expect(misuses).toHaveLength(4);
    void client.call('aclrtMalloc', { size: 4096, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' });
    void client.call('aclrtHostRegisterV2', { ptr: '0x1000', size: 4096, flag: ['ACL_HOST_REG_PINNED', 'ACL_HOST_REG_MAPPED'] });
    const sent = (sockets[0]?.sent ?? []).map((text) => JSON.parse(text) as { type: string; fn?: string; args?: unknown });
    expect(sent.filter((message) => message.type === 'call')).toEqual([
      { type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: 4096, policy: 'ACL_MEM_MALLOC_HUGE_ONLY' } },
      {
        type: 'call',
        id: 2,
        fn: 'aclrtHostRegisterV2',
        args: { ptr: '0x1000', size: 4096, flag: ['ACL_HOST_REG_PINNED', 'ACL_HOST_REG_MAPPED'] },
      },
    ]);
  });

  it('a result naming 200,000 events (a full device reset) resolves like any other', async () => {
    const { sockets, client } = harness();
    const host = new SimHost({ seed: 1 });
    await new SimRuntime(host).aclInit({ configPath: null });
    client.start();
    sockets[0]?.open();
    sockets[0]?.receive({ ...welcome, seq: host.state.seq });
    sockets[0]?.receive({ type: 'snapshot', seq: host.state.seq, reset: false, snapshot: encodeSnapshot(host.state) });
    const outcome = client.call('aclrtResetDevice', { deviceId: 0 });
    const events = Array.from({ length: 200_000 }, (_, index) => Math.min(index, host.state.seq));
    sockets[0]?.receive({ type: 'result', id: 1, fn: 'aclrtResetDevice', ret: 0, retName: 'ACL_SUCCESS', events, durationNs: 0 });
    await expect(outcome).resolves.toMatchObject({ ok: true });
  });

  it('resolves a call as soon as the replica holds its events; the views hear of them once per frame', async () => {
    const frames: (() => void)[] = [];
    const { sockets, store, client } = harness({ store: { publish: (publish) => frames.push(publish) } });
    const host = new SimHost({ seed: 1 });
    const runtime = new SimRuntime(host);
    await runtime.aclInit({ configPath: null });
    await runtime.aclrtSetDevice({ deviceId: 0 });
    client.start();
    sockets[0]?.open();
    sockets[0]?.receive({ ...welcome, seq: host.state.seq });
    sockets[0]?.receive({ type: 'snapshot', seq: host.state.seq, reset: false, snapshot: encodeSnapshot(host.state) });
    const versionAfterSnapshot = store.getState().version;
    expect(frames).toHaveLength(0);

    const events: MemoryEvent[] = [];
    host.subscribe((batch) => events.push(...batch));
    const { devPtr } = await runtime.aclrtMalloc({ size: 4096, policy: 0 });
    const outcome = client.call('aclrtMalloc', { size: 4096, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    const seqs = events.map((event) => event.seq);
    sockets[0]?.receive({
      type: 'result',
      id: 1,
      fn: 'aclrtMalloc',
      ret: 0,
      retName: 'ACL_SUCCESS',
      out: { devPtr },
      events: seqs,
      durationNs: 0,
    });
    sockets[0]?.receive({ type: 'events', from: seqs[0], to: seqs.at(-1), events: events.slice(0, 1) });
    sockets[0]?.receive({ type: 'events', from: seqs[1], to: seqs.at(-1), events: events.slice(1) });
    await expect(outcome).resolves.toMatchObject({ ok: true, out: { devPtr } });
    expect(store.getState().timeline?.live.allocations.size).toBe(1);
    // Two batches arrived: one publish is waiting for the frame, and the views have not re-rendered yet.
    expect(frames).toHaveLength(1);
    expect(store.getState().version).toBe(versionAfterSnapshot);
    expect(store.getState().hasUnpublished()).toBe(true);
    frames[0]?.();
    expect(store.getState().version).toBe(versionAfterSnapshot + 1);
    expect(store.getState().hasUnpublished()).toBe(false);
  });

  it("a host reset to another profile and device count replaces the welcome's host and devices; the device shown stays in range", () => {
    const { sockets, store, client } = harness();
    client.start();
    sockets[0]?.open();
    const two = [0, 1].map((id) => ({ id, profile: 'Ascend310P3', socName: 'Ascend310P3', capabilities: ['p2p'] }));
    sockets[0]?.receive({ ...welcome, devices: two });
    store.getState().setDevice(1);
    const host = { provenance: 'simulated', hostname: 'h', kernelVersion: '5.15.0', hostPageSize: 4096, note: 'simulated Atlas A2' };
    const one = [{ id: 0, profile: 'Ascend910B2', socName: 'Ascend910B2', capabilities: ['giantPages', 'p2p', 'vmm', 'vaFlag'] }];
    sockets[0]?.receive({ type: 'host', host, devices: one });
    expect(store.getState().session).toMatchObject({ role: 'driver', sessionId: 's1', host, devices: one });
    expect(store.getState().connection).toMatchObject({ status: 'connected', host });
    expect(store.getState().device).toBe(0);
  });

  it('a reset carries an id: its refusal answers that reset, a reset snapshot answers it done, a lost link answers it too', async () => {
    const { sockets, client } = harness();
    client.start();
    sockets[0]?.open();
    sockets[0]?.receive(welcome);
    const refused = client.reset({ profile: 'Ascend999' });
    const sent = JSON.parse(sockets[0]?.sent.at(-1) ?? '{}');
    expect(sent).toMatchObject({ type: 'reset', profile: 'Ascend999' });
    expect(typeof sent.id).toBe('number');
    sockets[0]?.receive({ type: 'error', code: 'invalid-argument', id: sent.id, field: 'profile', message: 'unknown profile "Ascend999"' });
    expect(await refused).toEqual({ ok: false, message: 'unknown profile "Ascend999"' });

    const done = client.reset();
    const host = new SimHost();
    sockets[0]?.receive({ type: 'snapshot', seq: host.state.seq, reset: true, snapshot: encodeSnapshot(host.state) });
    expect(await done).toEqual({ ok: true });

    const lost = client.reset();
    sockets[0]?.drop();
    expect(await lost).toMatchObject({ ok: false });
  });

  it('refuses a malformed event batch, naming the field, and stops reading', () => {
    const { sockets, store, client } = harness();
    client.start();
    sockets[0]?.open();
    sockets[0]?.receive(welcome);
    sockets[0]?.receive({ type: 'events', from: 1, to: 1, events: [{ seq: 1, t: 0, provenance: 'simulated', kind: 'free', id: '7' }] });
    expect(store.getState().connection).toEqual({
      status: 'incompatible',
      message: 'field "events.0.id": received "7"; Invalid input: expected number, received string',
    });
    expect(sockets[0]?.closed).toBe(true);
  });
});

describe("the boot script's early socket", () => {
  const PAGE = 'http://127.0.0.1:7070/?token=t&role=viewer';
  const open = (page = PAGE) => {
    const made: FakeSocket[] = [];
    const early = openEarlySocket(page, (url) => {
      const socket = new FakeSocket(url);
      made.push(socket);
      return socket as unknown as WebSocket;
    });
    return { early, socket: made[0] };
  };
  const snapshotOf = async () => {
    const host = new SimHost({ seed: 2 });
    await new SimRuntime(host).aclInit({ configPath: null });
    return { type: 'snapshot', seq: host.state.seq, reset: false, snapshot: encodeSnapshot(host.state) };
  };

  it("is not opened without a token; with one it says the page's hello on open", () => {
    expect(open('http://127.0.0.1:7070/').early).toBeUndefined();
    const { early, socket } = open();
    expect(socket?.url).toBe('ws://127.0.0.1:7070/ws?token=t');
    expect(socket?.sent).toEqual([]);
    socket?.open();
    expect(socket?.sent.map((text) => JSON.parse(text))).toEqual([
      { type: 'hello', protocol: PROTOCOL_VERSION, role: 'viewer', snapshots: 'packed', history: true },
    ]);
    expect(early?.received).toEqual([]);
  });

  it('is adopted by the client with what arrived before: no second socket, no second hello', async () => {
    const { early, socket } = open();
    socket?.open();
    socket?.receive({ ...welcome, role: 'viewer' });
    socket?.receive(await snapshotOf());
    expect(early?.received).toHaveLength(2);
    const { sockets, store, client } = harness(early === undefined ? {} : { early });
    client.start();
    expect(sockets).toHaveLength(0);
    expect(store.getState().connection.status).toBe('connected');
    expect(store.getState().timeline).toBeDefined();
    expect(early?.received).toEqual([]);
    expect(socket?.sent).toHaveLength(1);
    // Later messages go to the client directly.
    socket?.receive({ type: 'presence', driver: true, driverWaiting: false, driverEnding: false, viewers: 1 });
    expect(store.getState().presence).toEqual({ driver: true, driverWaiting: false, driverEnding: false, viewers: 1 });
    socket?.receive({ type: 'presence', driver: false, driverWaiting: false, driverEnding: true, viewers: 1 });
    expect(store.getState().presence).toMatchObject({ driver: false, driverEnding: true });
    expect(early?.received).toEqual([]);
  });

  it('still connecting when adopted: the one hello goes out on open', () => {
    const { early, socket } = open();
    const { sockets, store, client } = harness(early === undefined ? {} : { early });
    client.start();
    expect(store.getState().connection.status).toBe('connecting');
    socket?.open();
    expect(socket?.sent).toHaveLength(1);
    socket?.receive({ ...welcome, role: 'viewer' });
    expect(store.getState().connection.status).toBe('connected');
    expect(sockets).toHaveLength(0);
  });

  it('closed before the app loaded, or already adopted once: the client opens its own socket', () => {
    const { early, socket } = open();
    socket?.drop();
    const first = harness(early === undefined ? {} : { early });
    first.client.start();
    expect(first.sockets).toHaveLength(1);
    first.sockets[0]?.open();
    expect(JSON.parse(first.sockets[0]?.sent[0] ?? '{}')).toMatchObject({ type: 'hello', role: 'driver' });

    const again = open();
    const adopting = harness(again.early === undefined ? {} : { early: again.early });
    adopting.client.start();
    const retrying = harness(again.early === undefined ? {} : { early: again.early });
    retrying.client.start();
    expect(adopting.sockets).toHaveLength(0);
    expect(retrying.sockets).toHaveLength(1);
  });
});
