import { argsAreValid, fingerprint, isAclFunctionName, normalizeArgs, parseClientMessage, Rng } from '@pagelens/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TOKEN } from './support/agent-harness.ts';
import { stateDifference } from './support/same-state.ts';
import { TestClient } from './support/ws-client.ts';

/** The simulator's seeded PRNG as a function, so a failing case can be repeated. */
function prng(seed: number): () => number {
  const rng = new Rng(seed);
  return () => rng.next();
}

const TEMPLATES: unknown[] = [
  { type: 'hello', protocol: 1, role: 'driver' },
  { type: 'ping', id: 1 },
  { type: 'reset', devices: 2 },
  { type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: 4096, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' } },
  { type: 'call', id: 2, fn: 'aclrtFree', args: { devPtr: '0x100000000000' } },
  { type: 'call', id: 3, fn: 'aclrtMemcpy', args: { dst: '0x1', destMax: 8, src: '0x2', count: 8, kind: 1 } },
  {
    type: 'call',
    id: 4,
    fn: 'aclrtMallocPhysical',
    args: { size: 2097152, prop: { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0 }, flags: 0 },
  },
  {
    type: 'call',
    id: 5,
    fn: 'aclrtMemSetAccess',
    args: { virPtr: '0x1', size: 2, desc: [{ flags: 3, location: { type: 1, id: 0 } }], count: 1 },
  },
  { type: 'call', id: 6, fn: 'aclrtHostRegisterV2', args: { ptr: '0x1000', size: 4096, flag: 'ACL_HOST_REG_PINNED|ACL_HOST_REG_MAPPED' } },
];

const STRANGE: unknown[] = [
  null,
  true,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 63),
  1e308,
  '',
  '0x',
  '0xZZ',
  '0x20000000000000',
  'x'.repeat(5000),
  '\u0000\ud800',
  [],
  [1, [2, [3]]],
  {},
  JSON.parse('{"__proto__": {"polluted": true}}'),
  { constructor: 'x' },
];

function randomValue(next: () => number, depth = 0): unknown {
  const roll = next();
  if (depth > 3 || roll < 0.5) return STRANGE[Math.floor(next() * STRANGE.length)];
  if (roll < 0.75) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  const object: Record<string, unknown> = {};
  for (let i = 0; i < Math.floor(next() * 4); i += 1)
    object[['type', 'id', 'fn', 'args', 'size', 'role', 'x'][Math.floor(next() * 7)] ?? 'x'] = randomValue(next, depth + 1);
  return object;
}

/** Replaces, deletes or adds one field somewhere inside `value`. */
function mutate(value: unknown, next: () => number): unknown {
  if (value === null || typeof value !== 'object') return randomValue(next);
  const copy: Record<string, unknown> = Array.isArray(value) ? { ...value } : { ...(value as Record<string, unknown>) };
  const keys = Object.keys(copy);
  const key = keys[Math.floor(next() * keys.length)];
  const roll = next();
  if (key === undefined || roll < 0.15) copy[`extra${Math.floor(next() * 3)}`] = randomValue(next);
  else if (roll < 0.35) delete copy[key];
  else if (roll < 0.6 && copy[key] !== null && typeof copy[key] === 'object') copy[key] = mutate(copy[key], next);
  else copy[key] = randomValue(next);
  return Array.isArray(value) ? Object.values(copy) : copy;
}

/** True when the agent would accept the message as a valid call (the fuzzer must only send invalid ones in phase 1). */
function acceptable(text: string): boolean {
  const parsed = parseClientMessage(text);
  if (!parsed.ok) return false;
  const message = parsed.value;
  if (message.type !== 'call') return message.type === 'ping' || message.type === 'reset' || message.type === 'hello';
  if (!isAclFunctionName(message.fn)) return false;
  const normalized = normalizeArgs(message.fn, message.args);
  return normalized.ok && argsAreValid(message.fn, normalized.value);
}

function garbage(next: () => number): string {
  const kind = next();
  if (kind < 0.3) return JSON.stringify(randomValue(next));
  if (kind < 0.4) return JSON.stringify(TEMPLATES[Math.floor(next() * TEMPLATES.length)]).slice(0, Math.floor(next() * 40));
  if (kind < 0.45) return String.fromCharCode(...Array.from({ length: 20 }, () => Math.floor(next() * 0xffff)));
  let value = TEMPLATES[Math.floor(next() * TEMPLATES.length)];
  for (let i = 0; i < 1 + Math.floor(next() * 3); i += 1) value = mutate(value, next);
  return JSON.stringify(value) ?? 'undefined';
}

let harness: Harness;

beforeEach(async () => {
  harness = await startHarness({ limits: { callsPerSecond: 0 } });
});

afterEach(async () => {
  await harness.close();
});

describe('R-7: protocol fuzzing', () => {
  it('100,000 random and mutated messages get error replies, change nothing, and the agent keeps serving with bounded memory', async () => {
    const client = await TestClient.connect(harness.port, TOKEN);
    await client.hello('driver');
    const before = fingerprint(harness.backend.state());
    const next = prng(20261129);
    global.gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    let sent = 0;
    const BATCH = 2000;
    while (sent < 100_000) {
      const batch: string[] = [];
      while (batch.length < BATCH) {
        const text = garbage(next);
        if (!acceptable(text)) batch.push(text);
      }
      const done = client.messages.length + batch.length;
      for (const text of batch) client.send(text);
      sent += batch.length;
      for (let wait = 0; client.messages.length < done && wait < 1000; wait += 1) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(client.messages.length).toBe(done);
    }
    const replies = client.messages.filter((m) => m.type === 'error');
    expect(replies.length).toBeGreaterThanOrEqual(100_000);
    expect(new Set(replies.map((m) => (m.type === 'error' ? m.code : '')))).toEqual(
      new Set(['bad-message', 'unknown-function', 'invalid-argument']),
    );
    expect(fingerprint(harness.backend.state()) === before).toBe(true);
    client.messages.length = 0;
    global.gc?.();
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(200 * 1024 * 1024);
    // Still serving: a call works on the same connection and a new client can join.
    expect(await client.ok('aclrtGetDeviceCount')).toEqual({ count: 1 });
    const viewer = await TestClient.connect(harness.port, TOKEN);
    await viewer.hello('viewer');
    viewer.close();
    client.close();
  }, 120_000);

  it('valid calls mixed into the noise keep the replica identical to the agent', async () => {
    const client = await TestClient.connect(harness.port, TOKEN);
    await client.hello('driver');
    await client.ok('aclInit', { configPath: null }).catch(() => undefined);
    await client.ok('aclrtSetDevice', { deviceId: 0 });
    const next = prng(7);
    // Batches below the queue limit, each answered in full before the next: every message gets exactly one reply.
    for (let batch = 0; batch < 6; batch += 1) {
      const answered = client.messages.filter((m) => m.type === 'error' || m.type === 'result' || m.type === 'pong').length;
      let expected = answered;
      for (let i = 0; i < 500; i += 1) {
        const text =
          next() < 0.5
            ? garbage(next)
            : JSON.stringify({
                type: 'call',
                id: i,
                fn: 'aclrtMalloc',
                args: { size: Math.floor(next() * 8 * 1024 * 1024) + 1, policy: Math.floor(next() * 3) },
              });
        // A reset replies with a snapshot; hellos and pings with one message each.
        if (!text.includes('"reset"')) expected += 1;
        client.send(text);
      }
      for (let wait = 0; wait < 2000; wait += 1) {
        if (client.messages.filter((m) => m.type === 'error' || m.type === 'result' || m.type === 'pong').length >= expected) break;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
    await client.call('aclrtGetDeviceCount');
    await client.applied(harness.backend.state().seq);
    const trail = client.messages
      .filter((m) => m.type !== 'error' && m.type !== 'result')
      .map((m) => (m.type === 'events' ? `e${m.from}-${m.to}` : m.type === 'snapshot' ? `s${m.seq}${m.reset ? 'R' : ''}` : m.type));
    expect(stateDifference(client.replica, harness.backend.state()), trail.join(' ')).toBeUndefined();
    client.close();
  }, 60_000);

  it('an oversized message closes only that socket (1009)', async () => {
    const client = await TestClient.connect(harness.port, TOKEN);
    client.send(`{"type":"ping","pad":"${'x'.repeat(1024 * 1024)}"}`);
    expect((await client.closed).code).toBe(1009);
    const other = await TestClient.connect(harness.port, TOKEN);
    await other.hello('viewer');
    other.close();
  });
});
