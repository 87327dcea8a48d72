import { ACL_HOST_REG, type AgentMessage, devicePools } from '@pagelens/core';
import { describe, expect, it, vi } from 'vitest';
import { AclBackend } from '../src/backends/acl/acl-backend.ts';
import { freshDouble, readLog } from './acl/support/acl-double.ts';
import { startHarnessOn, TOKEN } from './support/agent-harness.ts';
import { agentPerTest, HUGE_PROP as PROP } from './support/agent-per-test.ts';
import { TestClient } from './support/ws-client.ts';

// The acl backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

// Issue 11 item 5 and its siblings: every kind of object a session can make is gone after its
// teardown, so the next session starts from the baseline and cannot reach the last one's objects.

const MiB = 1024 * 1024;
const REG = ACL_HOST_REG.byName;
const agent = agentPerTest();
const connect = agent.connect;

/**
 * The presence that says the ended session is gone: no driver, none waiting to reconnect, none
 * being torn down (driverEnding goes false only once the teardown has reached the backend).
 */
const sessionEnded = (m: AgentMessage): boolean => m.type === 'presence' && !m.driver && !m.driverWaiting && !m.driverEnding;

/** One of every object kind, in two processes of the session on two devices; returns the shareable handle. */
async function makeOneOfEverything(d: TestClient): Promise<string> {
  const p1 = { process: 1 };
  await d.ok('aclInit', { configPath: null });
  await d.ok('aclrtSetDevice', { deviceId: 0 });
  await d.ok('aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  await d.ok('aclrtMallocHost', { size: 4096 });
  const { ptr } = await d.ok('malloc', { size: 64 * 1024 });
  await d.ok('aclrtHostRegisterV2', { ptr, size: 64 * 1024, flag: REG.ACL_HOST_REG_PINNED | REG.ACL_HOST_REG_MAPPED });
  const { handle } = await d.ok('aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
  const { virPtr } = await d.ok('aclrtReserveMemAddress', { size: 4 * MiB, alignment: 0, expectPtr: null, flags: 0 });
  await d.ok('aclrtMapMem', { virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
  await d.ok('aclrtCreateStream');
  await d.ok('aclrtDeviceEnablePeerAccess', { peerDeviceId: 1, flags: 0 });
  const { shareableHandle } = await d.ok('aclrtMemExportToShareableHandle', {
    handle,
    handleType: 0,
    flags: 'ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION',
  });
  const share = String(shareableHandle);
  // The second process imports it on the other device (peer access from device 1 to device 0).
  for (const [fn, args] of [
    ['aclInit', { configPath: null }],
    ['aclrtSetDevice', { deviceId: 1 }],
    ['aclrtDeviceEnablePeerAccess', { peerDeviceId: 0, flags: 0 }],
    ['aclrtMemImportFromShareableHandle', { shareableHandle: share, deviceId: 1 }],
  ] as const) {
    const reply = await d.call(fn, args, p1);
    expect(reply, fn).toMatchObject({ type: 'result', ret: 0 });
  }
  return share;
}

describe('teardown of every object kind', () => {
  it('after the driver leaves, nothing of its session is left: objects, shares, peer access, pools', async () => {
    const harness = await agent.start({ devices: 2, resumeGraceMs: 20 });
    const baseline = harness.backend.state().devices.map((device) => devicePools(device));
    const viewer = await connect();
    await viewer.hello('viewer');
    const driver = await connect();
    await driver.hello('driver');
    const share = await makeOneOfEverything(driver);
    const before = harness.backend.state();
    expect(before.shares.size).toBe(1);
    expect([...(before.devices[0]?.peers ?? [])]).toEqual([1]);
    driver.close();
    await viewer.next(sessionEnded, 5000);

    const state = harness.backend.state();
    expect({
      allocations: state.allocations.size,
      handles: state.handles.size,
      physical: state.physical.size,
      reservations: state.reservations.size,
      mappings: state.mappings.size,
      hostBuffers: state.hostBuffers.size,
      streams: state.streams.size,
      shares: state.shares.size,
      peers: state.devices.map((device) => device.peers.size),
    }).toEqual({
      allocations: 0,
      handles: 0,
      physical: 0,
      reservations: 0,
      mappings: 0,
      hostBuffers: 0,
      streams: 0,
      shares: 0,
      peers: [0, 0],
    });
    expect(state.devices.map((device) => devicePools(device))).toEqual(baseline);

    // VM-11: a later session cannot import the old share, and says why.
    const next = await connect();
    await next.hello('driver');
    expect(next.replica.shares.size).toBe(0);
    await next.call('aclInit', { configPath: null }, { process: 1 });
    await next.call('aclrtSetDevice', { deviceId: 0 }, { process: 1 });
    expect(await next.call('aclrtMemImportFromShareableHandle', { shareableHandle: share, deviceId: 0 }, { process: 1 })).toMatchObject({
      type: 'result',
      ret: 100000,
      message: expect.stringContaining('VM-11'),
    });
    // LT-4: peer access must be enabled again before a cross-device import.
    expect(next.replica.devices.map((device) => device.peers.size)).toEqual([0, 0]);
  });

  it('VM-11: a share ends when its exporter frees the handle, even while the session goes on', async () => {
    await agent.start();
    const d = await connect();
    await d.hello('driver');
    await d.ok('aclInit', { configPath: null });
    await d.ok('aclrtSetDevice', { deviceId: 0 });
    const { handle } = await d.ok('aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
    const { shareableHandle } = await d.ok('aclrtMemExportToShareableHandle', {
      handle,
      handleType: 0,
      flags: 'ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION',
    });
    expect(d.replica.shares.size).toBe(1);
    await d.ok('aclrtFreePhysical', { handle });
    expect(d.replica.shares.size).toBe(0);
    const p1 = { process: 1 };
    await d.call('aclInit', { configPath: null }, p1);
    await d.call('aclrtSetDevice', { deviceId: 0 }, p1);
    const reply = await d.call('aclrtMemImportFromShareableHandle', { shareableHandle, deviceId: 0 }, p1);
    expect(reply).toMatchObject({ type: 'result', ret: 100000, message: expect.stringContaining('VM-11') });
  });
});

/** A created context current with two streams and three events in it, and one event in the device's default context. */
async function makeContextsAndEvents(d: TestClient): Promise<void> {
  await d.call('aclInit', { configPath: null });
  await d.ok('aclrtSetDevice', { deviceId: 0 });
  await d.ok('aclrtCreateEvent');
  const { stream: onDefault } = await d.ok('aclrtCreateStream');
  await d.ok('aclrtCreateContext', { deviceId: 1 });
  const { stream } = await d.ok('aclrtCreateStream');
  await d.ok('aclrtCreateStreamWithConfig', { priority: 0, flag: 0 });
  const { event } = await d.ok('aclrtCreateEvent');
  await d.ok('aclrtCreateEventWithFlag', { flag: 'ACL_EVENT_SYNC' });
  await d.ok('aclrtCreateEventExWithFlag', { flag: 'ACL_EVENT_SYNC' });
  await d.ok('aclrtRecordEvent', { event, stream });
  expect(onDefault).toMatch(/^0x/);
}

function contextsLeft(state: ReturnType<AclBackend['state']>) {
  return { contexts: state.contexts.size, streams: state.streams.size, events: state.aclEvents.size };
}

describe('teardown of contexts, streams and events (CX-2, CX-3)', () => {
  it('simulator: a session that created a context, two streams in it and events leaves nothing when it disconnects', async () => {
    const harness = await agent.start({ devices: 2, resumeGraceMs: 20 });
    const viewer = await connect();
    await viewer.hello('viewer');
    const driver = await connect();
    await driver.hello('driver');
    await makeContextsAndEvents(driver);
    expect(contextsLeft(harness.backend.state())).toEqual({ contexts: 2, streams: 5, events: 4 });
    driver.close();
    await viewer.next(sessionEnded, 5000);
    expect(contextsLeft(harness.backend.state())).toEqual({ contexts: 0, streams: 0, events: 0 });
  });

  it('acl + C double: the same session is released on the runtime, context by context', async () => {
    const double = freshDouble();
    process.env.ACL_DOUBLE_LOG = double.log;
    const backend = await AclBackend.open({ aclLib: double.lib, allowMutations: true, sampleMs: 0, env: {} });
    const harness = await startHarnessOn(backend, { resumeGraceMs: 20 });
    const viewer = await TestClient.connect(harness.port, TOKEN);
    const driver = await TestClient.connect(harness.port, TOKEN);
    try {
      await viewer.hello('viewer');
      await driver.hello('driver');
      await makeContextsAndEvents(driver);
      expect(contextsLeft(backend.state())).toEqual({ contexts: 2, streams: 5, events: 4 });
      const mark = readLog(double.log).length;
      driver.close();
      await viewer.next(sessionEnded, 10_000);
      expect(contextsLeft(backend.state())).toEqual({ contexts: 0, streams: 0, events: 0 });
      // Every release reached the double and succeeded: each object in the context that made it.
      const teardown = readLog(double.log)
        .slice(mark)
        .filter((call) => call.fn !== 'aclrtGetCurrentContext' && call.fn !== 'aclGetRecentErrMsg');
      expect(teardown.filter((call) => call.ret !== 0)).toEqual([]);
      const names = teardown.map((call) => call.fn);
      expect(names.filter((fn) => fn === 'aclrtDestroyEvent')).toHaveLength(4);
      expect(names.filter((fn) => fn === 'aclrtDestroyStream')).toHaveLength(3);
      expect(names.filter((fn) => fn === 'aclrtDestroyContext')).toHaveLength(1);
      expect(names.indexOf('aclrtDestroyContext')).toBeLessThan(names.indexOf('aclrtResetDeviceForce'));
    } finally {
      viewer.close();
      driver.close();
      await harness.close();
      delete process.env.ACL_DOUBLE_LOG;
    }
  });
});

/** A mapped handle retained twice (VM-12): three aclrtFreePhysical calls are owed. Answers the handle. */
async function retainTwice(d: TestClient): Promise<string> {
  await d.call('aclInit', { configPath: null });
  await d.ok('aclrtSetDevice', { deviceId: 0 });
  const { handle } = await d.ok('aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
  const { virPtr } = await d.ok('aclrtReserveMemAddress', { size: 2 * MiB, alignment: 0, expectPtr: null, flags: 0 });
  await d.ok('aclrtMapMem', { virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
  for (let n = 0; n < 2; n += 1) expect(await d.ok('aclrtMemRetainAllocationHandle', { virPtr })).toEqual({ handle });
  return String(handle);
}

function vmmLeft(state: ReturnType<AclBackend['state']>) {
  return {
    handles: state.handles.size,
    physical: state.physical.size,
    reservations: state.reservations.size,
    mappings: state.mappings.size,
  };
}

describe('teardown of a retained handle (VM-12)', () => {
  it('simulator: a handle retained twice is freed once per reference; nothing is left, the pools are back', async () => {
    const harness = await agent.start({ devices: 2, resumeGraceMs: 20 });
    const baseline = harness.backend.state().devices.map((device) => devicePools(device));
    const viewer = await connect();
    await viewer.hello('viewer');
    const driver = await connect();
    await driver.hello('driver');
    await retainTwice(driver);
    expect([...harness.backend.state().handles.values()].map((handle) => handle.retains)).toEqual([2]);
    driver.close();
    await viewer.next(sessionEnded, 5000);
    const state = harness.backend.state();
    expect(vmmLeft(state)).toEqual({ handles: 0, physical: 0, reservations: 0, mappings: 0 });
    expect(state.devices.map((device) => devicePools(device))).toEqual(baseline);
  });

  it('acl + C double: the teardown calls aclrtFreePhysical three times, all answer 0, and the memory is back on the runtime', async () => {
    const double = freshDouble();
    process.env.ACL_DOUBLE_LOG = double.log;
    const backend = await AclBackend.open({ aclLib: double.lib, allowMutations: true, sampleMs: 0, env: {} });
    const harness = await startHarnessOn(backend, { resumeGraceMs: 20 });
    const viewer = await TestClient.connect(harness.port, TOKEN);
    const driver = await TestClient.connect(harness.port, TOKEN);
    let next: TestClient | undefined;
    try {
      await viewer.hello('viewer');
      await driver.hello('driver');
      const handle = await retainTwice(driver);
      const mark = readLog(double.log).length;
      driver.close();
      await viewer.next(sessionEnded, 10_000);
      expect(vmmLeft(backend.state())).toEqual({ handles: 0, physical: 0, reservations: 0, mappings: 0 });
      const teardown = readLog(double.log)
        .slice(mark)
        .filter((call) => call.fn !== 'aclrtGetCurrentContext' && call.fn !== 'aclGetRecentErrMsg');
      expect(teardown.filter((call) => call.ret !== 0)).toEqual([]);
      const frees = teardown.filter((call) => call.fn === 'aclrtFreePhysical');
      expect(frees.map((call) => call.args)).toEqual([{ handle }, { handle }, { handle }]);
      // The double releases physical memory only through aclrtFreePhysical (a device reset keeps it):
      // a new session finds the huge pool whole again.
      next = await TestClient.connect(harness.port, TOKEN);
      await next.hello('driver');
      await next.ok('aclrtSetDevice', { deviceId: 0 });
      const { free, total } = await next.ok('aclrtGetMemInfo', { attr: 'ACL_HBM_MEM_HUGE' });
      expect(free).toBe(total);
    } finally {
      next?.close();
      viewer.close();
      driver.close();
      await harness.close();
      delete process.env.ACL_DOUBLE_LOG;
    }
  });
});

/** IP-1 … IP-3: a key of one allocation exported twice (one allow-listed); process 1, when given, imports the allowed one. */
async function exportKeys(d: TestClient, importer: boolean): Promise<{ keys: string[]; devPtr: string }> {
  await d.call('aclInit', { configPath: null });
  await d.ok('aclrtSetDevice', { deviceId: 0 });
  const { devPtr } = await d.ok('aclrtMalloc', { size: 2 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
  const { key: open } = await d.ok('aclrtIpcMemGetExportKey', { devPtr, size: 2 * MiB, len: 65, flags: 1 });
  const { key: listed } = await d.ok('aclrtIpcMemGetExportKey', { devPtr, size: MiB, len: 65, flags: 0 });
  const keys = [String(open), String(listed)];
  if (importer) {
    const p1 = { process: 1 };
    expect(await d.call('aclrtSetDevice', { deviceId: 1 }, p1)).toMatchObject({ type: 'result', ret: 0 });
    for (const key of keys) {
      const reply = await d.call('aclrtIpcMemImportByKey', { key, flags: 0 }, p1);
      // The allow-listed key has no pids yet: the second process is refused (IP-2), the open one imports.
      expect(reply, key).toMatchObject({ type: 'result', ret: key === keys[0] ? 0 : 207006 });
    }
  }
  return { keys, devPtr: String(devPtr) };
}

function ipcLeft(state: ReturnType<AclBackend['state']>) {
  return { keys: state.ipcKeys.size, imports: state.ipcImports.size, allocations: state.allocations.size };
}

describe('teardown of IPC keys and imports (IP-4)', () => {
  it('simulator: the exporting and the importing process leave no key, no import, no allocation; a later session cannot import', async () => {
    const harness = await agent.start({ devices: 2, resumeGraceMs: 20 });
    const baseline = harness.backend.state().devices.map((device) => devicePools(device));
    const viewer = await connect();
    await viewer.hello('viewer');
    const driver = await connect();
    await driver.hello('driver');
    const { keys } = await exportKeys(driver, true);
    expect(ipcLeft(harness.backend.state())).toEqual({ keys: 2, imports: 1, allocations: 1 });
    driver.close();
    await viewer.next(sessionEnded, 5000);
    const state = harness.backend.state();
    expect(ipcLeft(state)).toEqual({ keys: 0, imports: 0, allocations: 0 });
    expect(state.devices.map((device) => devicePools(device))).toEqual(baseline);
    const next = await connect();
    await next.hello('driver');
    expect(await next.call('aclrtSetDevice', { deviceId: 0 }, { process: 1 })).toMatchObject({ type: 'result', ret: 0 });
    expect(await next.call('aclrtIpcMemImportByKey', { key: keys[0], flags: 0 }, { process: 1 })).toMatchObject({
      type: 'result',
      ret: 107000,
      message: expect.stringContaining('IP-3'),
    });
  });

  it('acl + C double: the teardown closes each key (all answer 0) before freeing the allocation', async () => {
    const double = freshDouble();
    process.env.ACL_DOUBLE_LOG = double.log;
    const backend = await AclBackend.open({ aclLib: double.lib, allowMutations: true, sampleMs: 0, env: {} });
    const harness = await startHarnessOn(backend, { resumeGraceMs: 20 });
    const viewer = await TestClient.connect(harness.port, TOKEN);
    const driver = await TestClient.connect(harness.port, TOKEN);
    try {
      await viewer.hello('viewer');
      await driver.hello('driver');
      const { keys, devPtr } = await exportKeys(driver, false);
      expect(ipcLeft(backend.state())).toEqual({ keys: 2, imports: 0, allocations: 1 });
      const mark = readLog(double.log).length;
      driver.close();
      await viewer.next(sessionEnded, 10_000);
      expect(ipcLeft(backend.state())).toEqual({ keys: 0, imports: 0, allocations: 0 });
      const teardown = readLog(double.log)
        .slice(mark)
        .filter((call) => call.fn !== 'aclrtGetCurrentContext' && call.fn !== 'aclGetRecentErrMsg');
      expect(teardown.filter((call) => call.ret !== 0)).toEqual([]);
      const names = teardown.map((call) => call.fn);
      expect(teardown.filter((call) => call.fn === 'aclrtIpcMemClose').map((call) => call.args.key)).toEqual(expect.arrayContaining(keys));
      expect(names.filter((fn) => fn === 'aclrtIpcMemClose')).toHaveLength(2);
      expect(names.lastIndexOf('aclrtIpcMemClose')).toBeLessThan(names.indexOf('aclrtFree'));
      expect(teardown.find((call) => call.fn === 'aclrtFree')?.args).toEqual({ devPtr });
    } finally {
      viewer.close();
      driver.close();
      await harness.close();
      delete process.env.ACL_DOUBLE_LOG;
    }
  });
});
