import { PROTOCOL_VERSION } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store/app-store.ts';
import { AgentClient, type ClientEnvironment } from './agent-client.ts';

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket {
  sent: string[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: (() => void) | null = null;
  closed = false;
  constructor(readonly url: string) {}
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {
    this.closed = true;
  }
  open(): void {
    this.onopen?.();
  }
  receive(message: unknown): void {
    this.onmessage?.({ data: JSON.stringify(message) });
  }
  drop(): void {
    this.onclose?.();
  }
}

function harness(options: { token?: string; httpStatus?: number } = {}) {
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
  const store = createAppStore();
  const client = new AgentClient({
    pageUrl: 'http://127.0.0.1:7070/?token=t',
    token: options.token ?? 't',
    role: 'driver',
    store,
    environment,
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
  limits: { deviceBytes: 0, pinnedHostBytes: 0, liveObjects: 0, callsPerSecond: 0 },
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
    expect(JSON.parse(socket?.sent[0] ?? '{}')).toEqual({ type: 'hello', protocol: PROTOCOL_VERSION, role: 'driver' });
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

  it('a lost connection after welcome reconnects', () => {
    const { sockets, timers, store, client } = harness();
    client.start();
    sockets[0]?.open();
    sockets[0]?.receive(welcome);
    sockets[0]?.drop();
    expect(store.getState().connection.status).toBe('unreachable');
    expect(timers).toHaveLength(1);
  });
});
