import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type ParsedAgentMessage, parseAgentMessage } from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Harness, startHarness, TOKEN } from './support/agent-harness.ts';
import { rawUpgrade } from './support/http.ts';
import { TestClient } from './support/ws-client.ts';

let harness: Harness | undefined;
const clients: TestClient[] = [];

async function driver(): Promise<TestClient> {
  if (harness === undefined) throw new Error('no harness');
  const client = await TestClient.connect(harness.port, TOKEN);
  clients.push(client);
  await client.hello('driver');
  await client.ok('aclInit', { configPath: null });
  await client.ok('aclrtSetDevice', { deviceId: 0 });
  return client;
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await harness?.close();
  harness = undefined;
});

describe('per-session quotas answer with clear errors', () => {
  it('device bytes', async () => {
    harness = await startHarness({ limits: { deviceBytes: 8 * 1024 * 1024 } });
    const d = await driver();
    await d.ok('aclrtMalloc', { size: 6 * 1024 * 1024, policy: 0 });
    const refused = await d.call('aclrtMalloc', { size: 4 * 1024 * 1024, policy: 0 });
    expect(refused).toMatchObject({ type: 'error', code: 'quota-exceeded', message: expect.stringContaining('--max-device-bytes') });
    // The same words as a code of core's table, for the page's language: in whole 2 MiB pages, 8 MiB held and 6 MiB more.
    expect(refused).toMatchObject({
      messageCode: { code: 'quota-device-bytes', values: { more: 6 * 1024 * 1024, total: 14 * 1024 * 1024, limit: 8 * 1024 * 1024 } },
    });
    expect(harness.backend.state().allocations.size).toBe(1);
  });

  it('pinned host bytes', async () => {
    harness = await startHarness({ limits: { pinnedHostBytes: 1024 * 1024 } });
    const d = await driver();
    expect(await d.call('aclrtMallocHost', { size: 2 * 1024 * 1024 })).toMatchObject({
      type: 'error',
      code: 'quota-exceeded',
      message: expect.stringContaining('pinned'),
    });
  });

  it('live objects', async () => {
    harness = await startHarness({ limits: { liveObjects: 3 } });
    const d = await driver();
    for (let i = 0; i < 3; i += 1) await d.ok('aclrtMalloc', { size: 4096, policy: 2 });
    expect(await d.call('aclrtMalloc', { size: 4096, policy: 2 })).toMatchObject({
      type: 'error',
      code: 'quota-exceeded',
      message: expect.stringContaining('--max-objects 3'),
      messageCode: { code: 'quota-objects', values: { held: 3, limit: 3 } },
    });
  });

  it('live objects: created contexts, streams with config and events count; default contexts and streams do not', async () => {
    harness = await startHarness({ limits: { liveObjects: 3 } });
    const d = await driver();
    await d.ok('aclrtCreateContext', { deviceId: 0 });
    await d.ok('aclrtCreateStreamWithConfig', { priority: 0, flag: 0 });
    await d.ok('aclrtCreateEvent');
    expect(await d.call('aclrtCreateEventExWithFlag', { flag: 'ACL_EVENT_SYNC' })).toMatchObject({
      type: 'error',
      code: 'quota-exceeded',
      message: expect.stringContaining('--max-objects 3'),
    });
  });

  it('calls per second', async () => {
    harness = await startHarness({ limits: { callsPerSecond: 5 } });
    if (harness === undefined) throw new Error('no harness');
    const client = await TestClient.connect(harness.port, TOKEN);
    clients.push(client);
    await client.hello('driver');
    const replies = await Promise.all(Array.from({ length: 10 }, () => client.call('aclrtGetDeviceCount')));
    expect(replies.filter((r) => r.type === 'result')).toHaveLength(5);
    expect(replies.filter((r) => r.type === 'error' && r.code === 'rate-limited')).toHaveLength(5);
  });
});

describe('transport hardening', () => {
  it('uses ws ≥ 8.21 (memory-exhaustion fix)', () => {
    const require = createRequire(import.meta.url);
    const { version } = JSON.parse(readFileSync(require.resolve('ws/package.json'), 'utf8')) as { version: string };
    const [major = 0, minor = 0] = version.split('.').map(Number);
    expect(major > 8 || (major === 8 && minor >= 21)).toBe(true);
  });

  it('the welcome is handed to the OS before the snapshot is built, so the client starts while the agent packs', async () => {
    harness = await startHarness();
    const order: string[] = [];
    const handler = harness.hub.connect(
      {
        send: (data) => order.push(/"type":"(\w+)"/.exec(typeof data === 'string' ? data : Buffer.from(data).toString('utf8'))?.[1] ?? '?'),
        close: () => {},
        bufferedAmount: () => 0,
        flush: () => order.push('flush'),
      },
      'test',
    );
    handler.message(JSON.stringify({ type: 'hello', protocol: 1, role: 'viewer', snapshots: 'packed' }));
    expect(order.slice(0, 3)).toEqual(['welcome', 'flush', 'snapshot']);
    handler.closed(1000, 'done');
  });

  it('never negotiates permessage-deflate', async () => {
    harness = await startHarness();
    const response = await rawUpgrade(harness.port, `/ws?token=${TOKEN}`, {
      'sec-websocket-extensions': 'permessage-deflate; client_max_window_bits',
    });
    expect(response.status).toBe(101);
    expect(response.headers['sec-websocket-extensions']).toBeUndefined();
  });

  it('S-7: a client that stops reading is skipped, resynced when it drains, and always gets its results', async () => {
    harness = await startHarness({ watermarks: { high: 64 * 1024, low: 16 * 1024, stallMs: 60_000 } });
    // An in-memory socket whose send queue the test controls (the hub sees only PeerSocket).
    const sent: ParsedAgentMessage[] = [];
    let buffered = 0;
    const handler = harness.hub.connect(
      {
        send: (data) => {
          const text = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
          const parsed = parseAgentMessage(text);
          if (!parsed.ok) throw new Error(parsed.message);
          sent.push(parsed.value);
          buffered += text.length;
        },
        close: () => {},
        bufferedAmount: () => buffered,
        flush: () => {},
      },
      'test',
    );
    const until = async (check: () => boolean) => {
      for (let i = 0; i < 400 && !check(); i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(check()).toBe(true);
    };
    handler.message(JSON.stringify({ type: 'hello', protocol: 1, role: 'driver' }));
    handler.message(JSON.stringify({ type: 'call', id: 1, fn: 'aclrtSetDevice', args: { deviceId: 0 } }));
    for (let i = 0; i < 500; i += 1)
      handler.message(JSON.stringify({ type: 'call', id: 10 + i, fn: 'aclrtMalloc', args: { size: 4096, policy: 2 } }));
    await until(() => sent.filter((m) => m.type === 'result').length === 501);
    const eventsWhileStuck = sent.filter((m) => m.type === 'events').length;
    const lastSeq = harness.backend.state().seq;
    const deliveredSeq = Math.max(0, ...sent.flatMap((m) => (m.type === 'events' ? [m.to] : m.type === 'snapshot' ? [m.seq] : [])));
    expect(deliveredSeq).toBeLessThan(lastSeq);
    // More work while still stuck: results keep coming, event batches do not.
    for (let i = 0; i < 100; i += 1)
      handler.message(JSON.stringify({ type: 'call', id: 1000 + i, fn: 'aclrtMalloc', args: { size: 4096, policy: 2 } }));
    await until(() => sent.filter((m) => m.type === 'result').length === 601);
    expect(sent.filter((m) => m.type === 'events').length).toBe(eventsWhileStuck);
    // The client drains: it is resynced with a snapshot of the current state.
    buffered = 0;
    await until(() => sent.some((m) => m.type === 'resync'));
    const snapshot = sent.at(-1);
    expect(snapshot?.type).toBe('snapshot');
    if (snapshot?.type === 'snapshot') {
      expect(snapshot.seq).toBe(harness.backend.state().seq);
      expect(snapshot.snapshot.allocations).toHaveLength(600);
    }
    handler.closed(1000, '');
  });

  it('a client that sends binary frames is closed with 1003', async () => {
    harness = await startHarness();
    const socket = new WebSocket(`ws://127.0.0.1:${harness.port}/ws?token=${TOKEN}`);
    await new Promise((resolve) => socket.once('open', resolve));
    const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
    socket.send(Buffer.from([1, 2, 3]));
    expect(await closed).toBe(1003);
  });

  it('a client that never says hello is closed', async () => {
    harness = await startHarness();
    const client = await TestClient.connect(harness.port, TOKEN);
    clients.push(client);
    client.send({ type: 'ping' });
    expect(await client.next((m) => m.type === 'error')).toMatchObject({ code: 'hello-required' });
  });
});
