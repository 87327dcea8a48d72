import { type AgentMessage, argsAreValid, fingerprint, isAclFunctionName, normalizeArgs, parseClientMessage, Rng } from '@pagelens/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TOKEN } from './support/agent-harness.ts';
import { extremeCalls, type Probe, payloadCalls, payloadProbes, ping } from './support/hostile-messages.ts';
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

  it('hostile messages up to the 1 MiB limit, before hello, from a viewer and from a driver, each get their one answer, and the agent keeps serving', async () => {
    const probes = payloadProbes();
    // Before hello: within the 10 s the agent waits for one.
    const stranger = await TestClient.connect(harness.port, TOKEN);
    await expectAnswers(stranger, probes, 'stranger');
    stranger.close();
    const viewer = await TestClient.connect(harness.port, TOKEN);
    await viewer.hello('viewer');
    await expectAnswers(viewer, [...probes, ...extremeCalls().filter((_, index) => index % 10 === 0)], 'viewer');
    const driver = await TestClient.connect(harness.port, TOKEN);
    await driver.hello('driver');
    await driver.ok('aclInit', { configPath: null });
    await driver.ok('aclrtSetDevice', { deviceId: 0 });
    const backendErrors = await expectAnswers(driver, [...probes, ...extremeCalls(), ...payloadCalls()], 'driver');
    expect(backendErrors).toEqual([]);
    // Still serving: both connections answer a ping, the driver can call, and a newcomer is welcomed.
    await expectAnswers(viewer, [ping()], 'viewer');
    await expectAnswers(driver, [ping()], 'driver');
    expect(await driver.call('aclrtGetDeviceCount')).toMatchObject({ type: 'result', ret: 0, out: { count: 1 } });
    const newcomer = await TestClient.connect(harness.port, TOKEN);
    await expectAnswers(newcomer, [ping()], 'stranger');
    await newcomer.hello('viewer');
    for (const client of [viewer, driver, newcomer]) client.close();
  }, 300_000);
});

/** Who sends: a client that has not said hello, a viewer, or the driver. */
type Sender = 'stranger' | 'viewer' | 'driver';

const isAnswer = (m: AgentMessage): boolean => m.type === 'error' || m.type === 'result' || m.type === 'pong';

/** The answer a probe must get from this sender, as a key: an error code, or what answers an id. */
function expectedKey(probe: Probe, sender: Sender): string {
  if (probe.kind === 'refused') return 'bad-message';
  if (sender === 'stranger') return 'hello-required';
  if (probe.kind === 'ping') return `pong#${probe.id}`;
  return sender === 'viewer' ? `not-driver#${probe.id}` : `answer#${probe.id}`;
}

/** The key of an answer received (see expectedKey); a driver's call is answered by a result or any error. */
function answerKey(message: AgentMessage, sender: Sender): string {
  if (message.type === 'pong') return `pong#${message.id}`;
  if (message.type === 'result') return `answer#${message.id}`;
  if (message.type !== 'error') return message.type;
  if (message.id === undefined) return message.code;
  return sender === 'driver' ? `answer#${message.id}` : `${message.code}#${message.id}`;
}

/** Calls in flight at once: below the session's queue limit (1000), so none is refused for that. */
const PROBE_BATCH = 400;

/**
 * Sends the probes in batches and checks that each got exactly its one answer (under its id where it
 * carried one) and that every error text is short. Returns the backend-error texts a driver got.
 */
async function expectAnswers(client: TestClient, probes: readonly Probe[], sender: Sender): Promise<string[]> {
  const backendErrors: string[] = [];
  for (let start = 0; start < probes.length; start += PROBE_BATCH) {
    const batch = probes.slice(start, start + PROBE_BATCH);
    const mark = client.messages.length;
    for (const probe of batch) client.send(probe.text);
    // Counts forward from the mark, so waiting stays linear however long the history grows.
    let scanned = mark;
    let answers = 0;
    const answered = (): boolean => {
      for (; scanned < client.messages.length; scanned += 1) {
        const message = client.messages[scanned];
        if (message !== undefined && isAnswer(message)) answers += 1;
      }
      return answers >= batch.length;
    };
    await client.waitFor(answered, 120_000);
    const received = client.messages.slice(mark).filter(isAnswer);
    expect(received.map((m) => answerKey(m, sender)).sort()).toEqual(batch.map((probe) => expectedKey(probe, sender)).sort());
    for (const message of received) {
      if (message.type !== 'error') continue;
      expect(message.message.length, message.message.slice(0, 200)).toBeLessThan(1000);
      if (message.code === 'backend-error') backendErrors.push(message.message);
    }
  }
  return backendErrors;
}
