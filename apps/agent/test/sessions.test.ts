import { ASCEND_910B2, devicePools } from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackendProcess } from '../src/backends/backend.ts';
import { SimBackend } from '../src/backends/sim/sim-backend.ts';
import { type Harness, startHarness, startHarnessOn, TOKEN } from './support/agent-harness.ts';
import { stateDifference } from './support/same-state.ts';
import { TestClient } from './support/ws-client.ts';

let harness: Harness | undefined;
const clients: TestClient[] = [];

async function connect(): Promise<TestClient> {
  if (harness === undefined) throw new Error('no harness');
  const client = await TestClient.connect(harness.port, TOKEN);
  clients.push(client);
  return client;
}

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await harness?.close();
  harness = undefined;
});

async function allocateSomething(driver: TestClient): Promise<void> {
  await driver.ok('aclInit', { configPath: null });
  await driver.ok('aclrtSetDevice', { deviceId: 0 });
  await driver.ok('aclrtMalloc', { size: 3 * 1024 * 1024, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await driver.ok('aclrtMallocHost', { size: 4096 });
  const prop = { handleType: 0, allocationType: 0, memAttr: 'ACL_HBM_MEM_NORMAL', location: { type: 1, id: 0 }, reserve: 0 };
  const { handle } = await driver.ok('aclrtMallocPhysical', { size: 2 * 1024 * 1024, prop, flags: 0 });
  const { virPtr } = await driver.ok('aclrtReserveMemAddress', { size: 4 * 1024 * 1024, alignment: 0, expectPtr: null, flags: 0 });
  await driver.ok('aclrtMapMem', { virPtr, size: 2 * 1024 * 1024, offset: 0, handle, flags: 0 });
  await driver.ok('aclrtCreateStream');
}

describe('roles', () => {
  it('one driver may call; a viewer’s call gets a clear error; a second driver is refused with the reason', async () => {
    harness = await startHarness();
    const driver = await connect();
    await driver.hello('driver');
    const viewer = await connect();
    await viewer.hello('viewer');
    const refused = await viewer.call('aclInit', { configPath: null });
    expect(refused).toMatchObject({ type: 'error', code: 'not-driver' });
    const second = await connect();
    second.send({ type: 'hello', protocol: 1, role: 'driver' });
    const error = await second.next((m) => m.type === 'error');
    expect(error).toMatchObject({ code: 'driver-busy', message: expect.stringContaining('--allow-takeover') });
    expect((await second.closed).code).toBe(1008);
    expect(await driver.ok('aclInit', { configPath: null })).toEqual({});
  });

  it('with --allow-takeover a second driver takes the session and the first becomes a viewer', async () => {
    harness = await startHarness({ allowTakeover: true });
    const first = await connect();
    await first.hello('driver');
    await first.ok('aclInit', { configPath: null });
    const second = await connect();
    const welcome = await second.hello('driver');
    expect(welcome.role).toBe('driver');
    const notice = await first.waitFor((m) => m.type === 'notice');
    expect(notice).toMatchObject({ code: 'taken-over', messageCode: { code: 'taken-over', values: { remote: expect.any(String) } } });
    expect(await first.call('aclrtSetDevice', { deviceId: 0 })).toMatchObject({ type: 'error', code: 'not-driver' });
    // Same session: aclInit already happened.
    expect(await second.call('aclInit', { configPath: null })).toMatchObject({ type: 'result', ret: 100002 });
  });

  it('the driver and two viewers see identical event streams', async () => {
    harness = await startHarness();
    const driver = await connect();
    await driver.hello('driver');
    const a = await connect();
    await a.hello('viewer');
    const b = await connect();
    await b.hello('viewer');
    await allocateSomething(driver);
    const last = harness.backend.state().seq;
    await Promise.all([a.applied(last), b.applied(last)]);
    expect(a.events.map((e) => e.seq)).toEqual(driver.events.map((e) => e.seq));
    expect(JSON.stringify(a.events)).toBe(JSON.stringify(driver.events));
    expect(JSON.stringify(b.events)).toBe(JSON.stringify(driver.events));
    expect(stateDifference(a.replica, harness.backend.state())).toBeUndefined();
  });

  it('a viewer joining late gets a snapshot of the state so far', async () => {
    harness = await startHarness();
    const driver = await connect();
    await driver.hello('driver');
    await allocateSomething(driver);
    const late = await connect();
    await late.hello('viewer');
    expect(late.replica.allocations.size).toBe(1);
    expect(stateDifference(late.replica, harness.backend.state())).toBeUndefined();
  });
});

describe('teardown and resume', () => {
  it('R-1: a driver that disconnects mid-session leaves every pool at baseline after the grace period', async () => {
    harness = await startHarness({ resumeGraceMs: 50 });
    const device = harness.backend.state().devices[0];
    if (device === undefined) throw new Error('no device');
    const baseline = devicePools(device);
    const viewer = await connect();
    await viewer.hello('viewer');
    const driver = await connect();
    await driver.hello('driver');
    await allocateSomething(driver);
    expect(devicePools(device)).not.toEqual(baseline);
    driver.close();
    // No driver, none waiting, none being torn down: the teardown has ended.
    await viewer.next((m) => m.type === 'presence' && !m.driver && !m.driverWaiting && !m.driverEnding, 3000);
    expect(devicePools(harness.backend.state().devices[0] ?? device)).toEqual(baseline);
    const state = harness.backend.state();
    expect(
      state.allocations.size +
        state.handles.size +
        state.reservations.size +
        state.mappings.size +
        state.hostBuffers.size +
        state.streams.size,
    ).toBe(0);
    const unmaps = viewer.events.filter((e) => e.kind === 'call' && e.fn === 'aclrtUnmapMem');
    const frees = viewer.events.filter((e) => e.kind === 'call' && e.fn === 'aclrtFree');
    expect(unmaps.length).toBe(1);
    expect(frees.length).toBe(1);
    expect(unmaps[0]?.seq ?? 0).toBeLessThan(frees[0]?.seq ?? 0);
  });

  it('a driver that reconnects within the grace period with its resume token gets its session back', async () => {
    harness = await startHarness({ resumeGraceMs: 5000 });
    const driver = await connect();
    const welcome = await driver.hello('driver');
    await allocateSomething(driver);
    driver.close();
    await driver.closed;
    const again = await connect();
    const back = await again.hello('driver', welcome.resumeToken);
    expect(back.sessionId).toBe(welcome.sessionId);
    expect(again.replica.allocations.size).toBe(1);
    expect(await again.call('aclInit', { configPath: null })).toMatchObject({ type: 'result', ret: 100002 });
  });

  it('after the grace period the token no longer resumes: the old session was torn down', async () => {
    harness = await startHarness({ resumeGraceMs: 50 });
    const driver = await connect();
    const welcome = await driver.hello('driver');
    await allocateSomething(driver);
    driver.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const again = await connect();
    const fresh = await again.hello('driver', welcome.resumeToken);
    expect(fresh.sessionId).not.toBe(welcome.sessionId);
    expect(await again.waitFor((m) => m.type === 'notice')).toMatchObject({ code: 'resume-expired' });
    expect(again.replica.allocations.size).toBe(0);
  });

  it('while the session waits for its driver, another driver is refused with the time left', async () => {
    harness = await startHarness({ resumeGraceMs: 5000 });
    const driver = await connect();
    await driver.hello('driver');
    driver.close();
    await driver.closed;
    const other = await connect();
    other.send({ type: 'hello', protocol: 1, role: 'driver' });
    expect(await other.next((m) => m.type === 'error')).toMatchObject({
      code: 'driver-busy',
      message: expect.stringMatching(/s left to reconnect/),
    });
  });

  for (const allowTakeover of [false, true]) {
    it(`a driver whose hello comes while the expired session is torn down waits, then gets a new session${allowTakeover ? ' (--allow-takeover too)' : ''}`, async () => {
      const backend = new GatedSim();
      harness = await startHarnessOn(backend, { resumeGraceMs: 20, allowTakeover });
      const viewer = await connect();
      await viewer.hello('viewer');
      const driver = await connect();
      const first = await driver.hello('driver');
      await allocateSomething(driver);
      const held = backend.hold('aclrtFree');
      driver.close();
      // The teardown is stopped at its aclrtFree: presence says so.
      await held.reached;
      await viewer.next((m) => m.type === 'presence' && m.driverEnding && !m.driver && !m.driverWaiting, 5000);
      const next = await connect();
      next.send({ type: 'hello', protocol: 1, role: 'driver' });
      expect(await next.next((m) => m.type === 'notice')).toMatchObject({ level: 'info', code: 'driver-after-teardown' });
      // A second driver meanwhile waits too, and is refused as busy once the first has the new session.
      const later = await connect();
      later.send({ type: 'hello', protocol: 1, role: 'driver' });
      await later.next((m) => m.type === 'notice' && m.code === 'driver-after-teardown');
      expect(next.messages.some((m) => m.type === 'welcome')).toBe(false);
      held.release();
      const welcome = await next.waitFor((m) => m.type === 'welcome');
      expect(welcome).toMatchObject({ role: 'driver' });
      expect(welcome.type === 'welcome' && welcome.sessionId).not.toBe(first.sessionId);
      // The old session's objects were all released before the new one began.
      const state = harness.backend.state();
      expect(state.allocations.size + state.handles.size + state.reservations.size + state.mappings.size + state.hostBuffers.size).toBe(0);
      if (allowTakeover) {
        // With takeover allowed, the later driver takes the new session, never the ended one.
        const taken = await later.waitFor((m) => m.type === 'welcome');
        expect(taken.type === 'welcome' && taken.sessionId).toBe(welcome.type === 'welcome' && welcome.sessionId);
        expect(await next.waitFor((m) => m.type === 'notice' && m.code === 'taken-over')).toBeDefined();
      } else {
        expect(await later.waitFor((m) => m.type === 'error')).toMatchObject({ code: 'driver-busy' });
        expect(await next.call('aclInit', { configPath: null })).toMatchObject({ type: 'result', ret: 0 });
      }
    });
  }

  it('reset tears everything down and gives every client a fresh host with the chosen profile', async () => {
    harness = await startHarness();
    const driver = await connect();
    await driver.hello('driver');
    const viewer = await connect();
    await viewer.hello('viewer');
    await allocateSomething(driver);
    const snapshot = viewer.next((m) => m.type === 'snapshot' && m.reset);
    const notice = viewer.next((m) => m.type === 'notice');
    driver.send({ type: 'reset', profile: 'Ascend310P3', devices: 2 });
    // Every client is told, in English and as a code of core's table (the web shows it in its language).
    expect(await notice).toMatchObject({
      code: 'reset',
      message: 'the host was reset (Ascend310P3 × 2)',
      messageCode: { code: 'host-reset', values: { profile: 'Ascend310P3', devices: 2 } },
    });
    const message = await snapshot;
    expect(message.type === 'snapshot' && message.snapshot.devices.map((d) => d.profile.name)).toEqual(['Ascend310P3', 'Ascend310P3']);
    expect(viewer.replica.allocations.size).toBe(0);
    await driver.ok('aclrtSetDevice', { deviceId: 1 });
    const giant = await driver.call('aclrtMalloc', { size: 1024 ** 3, policy: 'ACL_MEM_MALLOC_HUGE1G_ONLY' });
    expect(giant).toMatchObject({ type: 'result', ret: 207000 });
  });

  it('a reset may not read files on the agent: only built-in profiles', async () => {
    harness = await startHarness();
    const driver = await connect();
    await driver.hello('driver');
    driver.send({ type: 'reset', profile: '/etc/passwd.json' });
    expect(await driver.next((m) => m.type === 'error')).toMatchObject({
      code: 'invalid-argument',
      message: expect.stringContaining('unknown profile'),
      messageCode: { code: 'unknown-profile', values: { profile: '/etc/passwd.json' } },
    });
  });
});

/** The simulator, with one ACL function held at a gate: a teardown that takes as long as a test needs. */
class GatedSim extends SimBackend {
  #gate: { fn: string; open: Promise<void>; arrived: () => void } | undefined;

  constructor() {
    super(ASCEND_910B2, 1, 1);
  }

  /** The next calls of `fn` wait until `release`; `reached` resolves when the first arrives. */
  hold(fn: string): { reached: Promise<void>; release: () => void } {
    let release = (): void => undefined;
    let arrived = (): void => undefined;
    const open = new Promise<void>((resolve) => {
      release = resolve;
    });
    const reached = new Promise<void>((resolve) => {
      arrived = resolve;
    });
    this.#gate = { fn, open, arrived };
    return {
      reached,
      release: () => {
        this.#gate = undefined;
        release();
      },
    };
  }

  override openProcess(name: string): BackendProcess {
    const opened = super.openProcess(name);
    const runtime = opened.runtime;
    const gated: BackendProcess['runtime']['call'] = async (fn, args) => {
      const gate = this.#gate;
      if (gate !== undefined && gate.fn === fn) {
        gate.arrived();
        await gate.open;
      }
      return runtime.call(fn, args);
    };
    return { pid: opened.pid, runtime: new Proxy(runtime, { get: (target, key) => (key === 'call' ? gated : Reflect.get(target, key)) }) };
  }
}
