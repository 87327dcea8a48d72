import { BUILTIN_PROFILE_NAMES, devicePools, type HostState } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import type { Backend } from '../src/backends/backend.ts';
import { resetRefusal } from '../src/session/reset-check.ts';
import { agentPerTest, HUGE_PROP as PROP } from './support/agent-per-test.ts';
import type { TestClient } from './support/ws-client.ts';

// Issue 17 item 2: a scenario asks for a host (profile, devices, fresh) and the playground resets
// to exactly that. The reset tears down what the session made before the host is replaced.

const MiB = 1024 * 1024;
const agent = agentPerTest();
const connect = agent.connect;

/** One object of each kind the simulator tracks per session: allocations, host memory, VMM, streams, events, contexts, peer access. */
async function makeOneOfEachKind(d: TestClient): Promise<void> {
  await d.ok('aclInit', { configPath: null });
  await d.ok('aclrtSetDevice', { deviceId: 0 });
  await d.ok('aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await d.ok('aclrtMallocHost', { size: 4096 });
  const { ptr } = await d.ok('malloc', { size: 64 * 1024 });
  await d.ok('aclrtHostRegister', { ptr, size: 64 * 1024, type: 'ACL_HOST_REGISTER_MAPPED' });
  const { handle } = await d.ok('aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
  const { virPtr } = await d.ok('aclrtReserveMemAddress', { size: 4 * MiB, alignment: 0, expectPtr: null, flags: 0 });
  await d.ok('aclrtMapMem', { virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
  await d.ok('aclrtMemExportToShareableHandle', { handle, handleType: 0, flags: 'ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION' });
  await d.ok('aclrtCreateStream');
  await d.ok('aclrtCreateEvent');
  await d.ok('aclrtCreateContext', { deviceId: 1 });
  await d.ok('aclrtDeviceEnablePeerAccess', { peerDeviceId: 0, flags: 0 });
}

const LIVE_OBJECTS = 24;

/** Allocates 4 KiB buffers until the quota refuses one (at most LIVE_OBJECTS + 1 tries); how many it got. */
async function mallocsUntilRefused(d: TestClient): Promise<number> {
  for (let made = 0; made <= LIVE_OBJECTS; made += 1) {
    const reply = await d.call('aclrtMalloc', { size: 4096, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
    if (reply.type === 'error') {
      expect(reply).toMatchObject({ code: 'quota-exceeded' });
      return made;
    }
    expect(reply).toMatchObject({ type: 'result', ret: 0 });
  }
  throw new Error(`the quota of ${LIVE_OBJECTS} live objects never refused an allocation`);
}

/** How many objects of each kind `state` holds; all zero on a host the session left. */
function objectCounts(state: HostState) {
  return {
    allocations: state.allocations.size,
    handles: state.handles.size,
    physical: state.physical.size,
    reservations: state.reservations.size,
    mappings: state.mappings.size,
    hostBuffers: state.hostBuffers.size,
    shares: state.shares.size,
    streams: state.streams.size,
    events: state.aclEvents.size,
    contexts: state.contexts.size,
    peers: state.devices.reduce((sum, device) => sum + device.peers.size, 0),
  };
}

describe('host reset to a profile and device count', () => {
  it('tears down every kind of object, then gives driver and viewer the chosen host; the quotas start over', async () => {
    const harness = await agent.start({ devices: 2, limits: { liveObjects: LIVE_OBJECTS } });
    const baseline = harness.backend.state().devices.map((device) => devicePools(device));
    const driver = await connect();
    await driver.hello('driver');
    const viewer = await connect();
    await viewer.hello('viewer');
    await makeOneOfEachKind(driver);
    expect(Object.values(objectCounts(harness.backend.state())).every((count) => count > 0)).toBe(true);
    // Fill the live-object quota: the next buffer is refused until the reset.
    expect(await mallocsUntilRefused(driver)).toBeLessThan(LIVE_OBJECTS);

    // What the old host holds at the moment it is replaced: the teardown has run by then.
    let replaced: { counts: ReturnType<typeof objectCounts>; pools: unknown } | undefined;
    const reset = harness.backend.reset.bind(harness.backend);
    harness.backend.reset = async (options) => {
      const state = harness.backend.state();
      replaced = { counts: objectCounts(state), pools: state.devices.map((device) => devicePools(device)) };
      await reset(options);
    };
    const hostFacts = viewer.next((m) => m.type === 'host');
    const notice = viewer.next((m) => m.type === 'notice' && m.code === 'reset');
    const snapshot = viewer.next((m) => m.type === 'snapshot' && m.reset);
    driver.send({ type: 'reset', profile: 'Ascend910B4', devices: 3 });
    // The welcome's facts about the host, anew: the devices, and the host note naming the new model.
    expect(await hostFacts).toMatchObject({
      devices: [0, 1, 2].map((id) => ({ id, profile: 'Ascend910B4', socName: 'Ascend910B4' })),
      host: { provenance: 'simulated', note: expect.stringContaining('910B4') },
    });
    expect(await notice).toMatchObject({ message: 'the host was reset (Ascend910B4 × 3)' });
    const message = await snapshot;
    expect(message.type === 'snapshot' && message.snapshot.devices.map((device) => device.profile.name)).toEqual([
      'Ascend910B4',
      'Ascend910B4',
      'Ascend910B4',
    ]);
    expect(replaced?.counts).toEqual({
      allocations: 0,
      handles: 0,
      physical: 0,
      reservations: 0,
      mappings: 0,
      hostBuffers: 0,
      shares: 0,
      streams: 0,
      events: 0,
      contexts: 0,
      peers: 0,
    });
    expect(replaced?.pools).toEqual(baseline);
    expect(harness.backend.config()).toMatchObject({ profile: 'Ascend910B4', devices: 3 });

    // The fresh host counts nothing against the quota: the whole of it fits again.
    await driver.ok('aclInit', { configPath: null });
    await driver.ok('aclrtSetDevice', { deviceId: 2 });
    expect(await mallocsUntilRefused(driver)).toBe(LIVE_OBJECTS);
  });

  it('accepts the profile in another spelling and keeps the device count when none is given', async () => {
    const harness = await agent.start({ devices: 2 });
    const driver = await connect();
    await driver.hello('driver');
    const snapshot = driver.next((m) => m.type === 'snapshot' && m.reset);
    driver.send({ type: 'reset', profile: '310p3' });
    const message = await snapshot;
    expect(message.type === 'snapshot' && message.snapshot.devices.map((device) => device.profile.name)).toEqual([
      'Ascend310P3',
      'Ascend310P3',
    ]);
    expect(harness.backend.config()).toMatchObject({ profile: 'Ascend310P3', devices: 2 });
  });

  it('is refused for a viewer, who keeps watching the same host', async () => {
    const harness = await agent.start();
    const driver = await connect();
    await driver.hello('driver');
    await driver.ok('aclInit', { configPath: null });
    await driver.ok('aclrtSetDevice', { deviceId: 0 });
    await driver.ok('aclrtMalloc', { size: MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    const viewer = await connect();
    await viewer.hello('viewer');
    const seq = harness.backend.state().seq;
    viewer.send({ type: 'reset', id: 41, profile: 'Ascend310P3', devices: 2 });
    expect(await viewer.next((m) => m.type === 'error')).toMatchObject({
      code: 'not-driver',
      // The refusal answers the reset that asked (the page stops saying "Resetting…").
      id: 41,
      message: expect.stringContaining('only the driver may reset the host'),
    });
    expect(harness.backend.state().seq).toBe(seq);
    expect(harness.backend.state().allocations.size).toBe(1);
    expect(harness.backend.config()).toMatchObject({ profile: 'Ascend910B2', devices: 1 });
    // The driver can still call: nothing was torn down.
    expect(await driver.ok('aclrtGetDeviceCount')).toEqual({ count: 1 });
  });

  it('refuses an unknown profile before tearing anything down, naming the profiles a reset may choose', async () => {
    const harness = await agent.start();
    const driver = await connect();
    await driver.hello('driver');
    await driver.ok('aclInit', { configPath: null });
    await driver.ok('aclrtSetDevice', { deviceId: 0 });
    await driver.ok('aclrtMalloc', { size: MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    const seq = harness.backend.state().seq;
    driver.send({ type: 'reset', profile: 'Ascend999', devices: 2 });
    expect(await driver.next((m) => m.type === 'error')).toEqual({
      type: 'error',
      code: 'invalid-argument',
      field: 'profile',
      message: `unknown profile "Ascend999"; a reset may choose ${BUILTIN_PROFILE_NAMES.join(', ')}`,
      messageCode: { code: 'unknown-profile', values: { profile: 'Ascend999', profiles: BUILTIN_PROFILE_NAMES.join(', ') } },
    });
    expect(harness.backend.state().seq).toBe(seq);
    expect(harness.backend.state().allocations.size).toBe(1);
  });

  it.each([0, 17, 2.5])('refuses devices %s, naming the range a simulated host allows', async (devices) => {
    const harness = await agent.start();
    const driver = await connect();
    await driver.hello('driver');
    driver.send({ type: 'reset', profile: 'Ascend910B2', devices });
    const error = await driver.next((m) => m.type === 'error');
    expect(error).toMatchObject({ code: 'bad-message', field: 'devices', message: expect.stringContaining('1 to 16') });
    expect(harness.backend.config()).toMatchObject({ devices: 1 });
  });
});

describe('resetRefusal', () => {
  const observed = { name: 'acl', host: { provenance: 'observed', hostname: 'npu-1', os: 'linux' } } as unknown as Pick<
    Backend,
    'name' | 'host'
  >;
  const simulated = { name: 'sim', host: { provenance: 'simulated', hostname: 'pagelens', os: 'linux' } } as unknown as Pick<
    Backend,
    'name' | 'host'
  >;

  it('lets the driver reset real devices only without a profile, a device count or a seed, and says why', () => {
    expect(resetRefusal({ type: 'reset' }, true, observed)).toBeUndefined();
    expect(resetRefusal({ type: 'reset', devices: 2 }, true, observed)).toMatchObject({
      code: 'invalid-argument',
      field: 'devices',
      why: { code: 'reset-real-devices', values: { backend: 'acl' } },
    });
    expect(resetRefusal({ type: 'reset', profile: 'Ascend910B2', devices: 2 }, true, simulated)).toBeUndefined();
    expect(resetRefusal({ type: 'reset' }, false, simulated)).toMatchObject({ code: 'not-driver' });
  });
});
