import { ACL_FUNCTION_NAMES, ASCEND_910B2, devicePools, fingerprint } from '@pagelens/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Harness, startHarness, TOKEN } from './support/agent-harness.ts';
import { stateDifference } from './support/same-state.ts';
import { TestClient } from './support/ws-client.ts';

let harness: Harness;
let driver: TestClient;

beforeEach(async () => {
  harness = await startHarness({ devices: 2 });
  driver = await TestClient.connect(harness.port, TOKEN);
  await driver.hello('driver');
  await driver.ok('aclInit', { configPath: null });
  await driver.ok('aclrtSetDevice', { deviceId: 0 });
});

afterEach(async () => {
  driver.close();
  await harness.close();
});

const PROP = {
  handleType: 'ACL_MEM_HANDLE_TYPE_NONE',
  allocationType: 'ACL_MEM_ALLOCATION_TYPE_PINNED',
  memAttr: 'ACL_HBM_MEM_HUGE',
  location: { type: 'ACL_MEM_LOCATION_TYPE_DEVICE', id: 0 },
  reserve: 0,
};

describe('a scripted client can drive every AclRuntime function over the protocol', () => {
  it('runs a session that calls every function in the catalogue, with C names and identifiers', async () => {
    const called = new Set<string>();
    const run = async (fn: string, args: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => {
      called.add(fn);
      const reply = await driver.call(fn, args, extra);
      if (reply.type !== 'result') throw new Error(`${fn}: ${JSON.stringify(reply)}`);
      expect(reply.ret, `${fn}: ${reply.message ?? ''}`).toBe(0);
      expect(reply.retName).toBe('ACL_SUCCESS');
      return reply.out ?? {};
    };
    called.add('aclInit').add('aclrtSetDevice');
    expect(await run('aclrtGetDevice')).toEqual({ deviceId: 0 });
    expect(await run('aclrtGetDeviceCount')).toEqual({ count: 2 });
    expect(await run('aclrtGetRunMode')).toEqual({ runMode: 1 });
    expect(await run('aclrtGetSocName')).toEqual({ socName: 'Ascend910B2' });
    const { stream } = await run('aclrtCreateStream');
    const { devPtr } = await run('aclrtMalloc', { size: 3 * 1024 * 1024, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    const { devPtr: small } = await run('aclrtMallocAlign32', { size: 4096, policy: 2 });
    const { devPtr: cached } = await run('aclrtMallocCached', { size: 4096, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
    const { devPtr: cfg } = await run('aclrtMallocWithCfg', {
      size: 4 * 1024 * 1024,
      policy: 'ACL_MEM_MALLOC_HUGE_FIRST_P2P',
      cfg: { attrs: [{ attr: 'ACL_RT_MEM_ATTR_MODULE_ID', value: { moduleId: 33 } }] },
    });
    const { hostPtr } = await run('aclrtMallocHost', { size: 3 * 1024 * 1024 });
    const { ptr: vaHost } = await run('aclrtMallocHostWithCfg', {
      size: 8192,
      cfg: { attrs: [{ attr: 'ACL_RT_MEM_ATTR_VA_FLAG', value: { vaFlag: 1 } }], numAttrs: 1 },
    });
    const { ptr: pageable } = await run('malloc', { size: 1024 * 1024 });
    await run('aclrtMemcpy', {
      dst: devPtr,
      destMax: 3 * 1024 * 1024,
      src: hostPtr,
      count: 3 * 1024 * 1024,
      kind: 'ACL_MEMCPY_HOST_TO_DEVICE',
    });
    await run('aclrtMemcpyAsync', { dst: hostPtr, destMax: 4096, src: small, count: 4096, kind: 2, stream });
    await run('aclrtSynchronizeStream', { stream });
    await run('aclrtSynchronizeStreamWithTimeout', { stream, timeout: 1000 });
    await run('aclrtSynchronizeDevice');
    // Contexts, events and the rest of the stream calls (CX-1 … CX-3, EV-1 … EV-6, CP-5 … CP-7).
    const { context: primary } = await run('aclrtGetCurrentContext');
    const { context } = await run('aclrtCreateContext', { deviceId: 1 });
    const { stream: own } = await run('aclrtCtxGetCurrentDefaultStream');
    expect(own).not.toBe('0x0');
    const { stream: configured } = await run('aclrtCreateStreamWithConfig', { priority: 0, flag: 'ACL_STREAM_FAST_LAUNCH' });
    await run('aclrtSetStreamFailureMode', { stream: configured, mode: 'ACL_STOP_ON_FAILURE' });
    expect(await run('aclrtStreamQuery', { stream: configured })).toEqual({ status: 0 });
    const { event: start } = await run('aclrtCreateEvent');
    const { event: end } = await run('aclrtCreateEventWithFlag', { flag: 'ACL_EVENT_SYNC|ACL_EVENT_TIME_LINE' });
    const { event: ex } = await run('aclrtCreateEventExWithFlag', { flag: 'ACL_EVENT_SYNC' });
    await run('aclrtRecordEvent', { event: start, stream: configured });
    await run('aclrtRecordEvent', { event: end, stream: configured });
    await run('aclrtStreamWaitEvent', { stream: '0x0', event: end });
    await run('aclrtSynchronizeEvent', { event: end });
    await run('aclrtSynchronizeEventWithTimeout', { event: end, timeout: 1000 });
    expect(await run('aclrtQueryEventStatus', { event: end })).toEqual({ status: 1 });
    expect(await run('aclrtQueryEventStatus', { event: ex })).toEqual({ status: 1 });
    const { ms } = await run('aclrtEventElapsedTime', { startEvent: start, endEvent: end });
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(await run('aclrtEventGetTimestamp', { event: end })).toEqual({ timestamp: expect.any(Number) });
    await run('aclrtResetEvent', { event: end, stream: configured });
    await run('aclrtDestroyEvent', { event: ex });
    await run('aclrtSynchronizeDeviceWithTimeout', { timeout: -1 });
    await run('aclrtDestroyStreamForce', { stream: configured });
    await run('aclrtSetCurrentContext', { context: primary });
    // CX-2: the created context takes its events (start, end) and its default stream with it.
    await run('aclrtDestroyContext', { context });
    await run('aclrtMemset', { devPtr, maxCount: 4096, value: 0, count: 4096 });
    // The further memory calls: aclrtMemsetAsync (CP-8), 2D copies (CP-9), cache calls (CP-10), the address range (DM-16).
    await run('aclrtMemsetAsync', { devPtr, maxCount: 4096, value: 1, count: 4096, stream });
    await run('aclrtMemcpy2d', {
      dst: devPtr,
      dpitch: 1024,
      src: hostPtr,
      spitch: 512,
      width: 256,
      height: 16,
      kind: 'ACL_MEMCPY_HOST_TO_DEVICE',
    });
    await run('aclrtMemcpy2dAsync', {
      dst: hostPtr,
      dpitch: 256,
      src: devPtr,
      spitch: 1024,
      width: 256,
      height: 16,
      kind: 'ACL_MEMCPY_DEVICE_TO_HOST',
      stream,
    });
    // Batched copies (CP-11), stream value tasks (CP-12), the memory-type check (DM-17) and per-component usage (DM-18).
    const H2D = { dstLoc: { type: 'ACL_MEM_LOCATION_TYPE_DEVICE', id: 0 }, srcLoc: { type: 'ACL_MEM_LOCATION_TYPE_HOST', id: 0 } };
    const D2H = { dstLoc: { type: 'ACL_MEM_LOCATION_TYPE_HOST', id: 0 }, srcLoc: { type: 'ACL_MEM_LOCATION_TYPE_DEVICE', id: 0 } };
    const batch = { dsts: [devPtr, small], destMaxs: [4096, 4096], srcs: [hostPtr, hostPtr], sizes: [4096, 1024], numBatches: 2 };
    expect(await run('aclrtMemcpyBatch', { ...batch, attrs: [H2D], attrsIndexes: [0], numAttrs: 1 })).toEqual({ failIndex: -1 });
    const wrong = await driver.call('aclrtMemcpyBatch', { ...batch, attrs: [H2D, D2H], attrsIndexes: [0, 1], numAttrs: 2 });
    expect(wrong).toMatchObject({ type: 'result', ret: 107000, out: { failIndex: 1 } });
    expect(
      await run('aclrtMemcpyBatchAsync', {
        dsts: [hostPtr],
        destMaxs: [4096],
        srcs: [devPtr],
        sizes: [4096],
        numBatches: 1,
        attrs: [D2H],
        attrsIndexes: [0],
        numAttrs: 1,
        stream,
      }),
    ).toEqual({ failIndex: -1 });
    await run('aclrtValueWrite', { devAddr: devPtr, value: 7, flag: 0, stream });
    await run('aclrtValueWait', { devAddr: devPtr, value: 7, flag: 'ACL_STREAM_WAIT_VALUE_EQ', stream });
    expect(await run('aclrtCheckMemType', { addrList: [devPtr, small], size: 2, memType: 'ACL_RT_MEM_TYPE_DEV', reserve: 0 })).toEqual({
      checkResult: 1,
    });
    // DM-18: the simulator models a driver without per-component usage.
    called.add('aclrtGetMemUsageInfo');
    expect(await driver.call('aclrtGetMemUsageInfo', { deviceId: 0, inputNum: 4 })).toMatchObject({
      type: 'result',
      ret: 207000,
      message: expect.stringContaining('DM-18'),
    });
    await run('aclrtSynchronizeStream', { stream });
    await run('aclrtMemFlush', { devPtr, size: 4096 });
    await run('aclrtMemInvalidate', { devPtr, size: 4096 });
    const inside = `0x${(BigInt(devPtr as string) + 4096n).toString(16)}`;
    // DM-3: 3 MiB plus the 32 bytes of padding.
    expect(await run('aclrtMemGetAddressRange', { ptr: inside })).toEqual({ pbase: devPtr, psize: 3 * 1024 * 1024 + 32 });
    expect((await run('aclrtGetMemInfo', { attr: 'ACL_HBM_MEM_HUGE' })).total).toBe(64 * 1024 ** 3);
    const { devPtr: registered } = await run('aclrtHostRegister', { ptr: vaHost, size: 8192, type: 'ACL_HOST_REGISTER_MAPPED' });
    expect(registered).toBe(vaHost);
    await run('aclrtHostRegisterV2', { ptr: pageable, size: 1024 * 1024, flag: 'ACL_HOST_REG_PINNED|ACL_HOST_REG_MAPPED' });
    const { pDevice } = await run('aclrtHostGetDevicePointer', { pHost: pageable, flag: 0 });
    expect(pDevice).not.toBe(pageable);
    expect(await run('aclrtPointerGetAttributes', { ptr: devPtr })).toEqual({
      attributes: { location: { id: 0, type: 1 }, pageSize: 2 * 1024 * 1024 },
    });
    expect(await run('aclrtMemGetAllocationGranularity', { prop: PROP, option: 'ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM' })).toEqual({
      granularity: 2 * 1024 * 1024,
    });
    const { handle } = await run('aclrtMallocPhysical', { size: 2 * 1024 * 1024, prop: PROP, flags: 0 });
    const { virPtr } = await run('aclrtReserveMemAddress', { size: 2 * 1024 * 1024, alignment: 0, expectPtr: null, flags: 0 });
    await run('aclrtMapMem', { virPtr, size: 2 * 1024 * 1024, offset: 0, handle, flags: 0 });
    await run('aclrtMemSetAccess', {
      virPtr,
      size: 2 * 1024 * 1024,
      desc: [{ flags: 'ACL_RT_MEM_ACCESS_FLAGS_READWRITE', location: { type: 1, id: 0 } }],
      count: 1,
    });
    expect(await run('aclrtMemGetAccess', { virPtr, location: { type: 1, id: 0 } })).toEqual({ flag: 3 });
    // VM-12: two references to the mapped handle; each needs one more aclrtFreePhysical below.
    expect(await run('aclrtMemRetainAllocationHandle', { virPtr })).toEqual({ handle });
    expect(await run('aclrtMemRetainAllocationHandle', { virPtr })).toEqual({ handle });
    expect(await run('aclrtMemGetAllocationPropertiesFromHandle', { handle })).toEqual({
      prop: { handleType: 0, allocationType: 0, memAttr: 4, location: { id: 0, type: 1 }, reserve: 0 },
    });
    expect(await run('aclrtMemGetAddressRange', { ptr: virPtr })).toEqual({ pbase: virPtr, psize: 2 * 1024 * 1024 });
    const { shareableHandle } = await run('aclrtMemExportToShareableHandle', { handle, handleType: 0, flags: 0 });
    const second = await driver.call('aclrtGetDevice', {}, { process: 1 });
    expect(second.type === 'result' && second.ret).toBe(107002);
    await run('aclrtSetDevice', { deviceId: 0 }, { process: 1 });
    const [otherPid] = [...harness.backend.state().processes.keys()].slice(-1);
    await run('aclrtMemSetPidToShareableHandle', { shareableHandle, pid: [otherPid], pidNum: 1 });
    const { handle: imported } = await run('aclrtMemImportFromShareableHandle', { shareableHandle, deviceId: 0 }, { process: 1 });
    expect(imported).toMatch(/^0x/);
    // IP-1 … IP-4: a key for devPtr's first MiB, allowed to the second process, imported there; the importer closes first.
    const { key } = await run('aclrtIpcMemGetExportKey', {
      devPtr,
      size: 1024 * 1024,
      len: 65,
      flags: 'ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT',
    });
    expect(key).toHaveLength(64);
    await run('aclrtIpcMemSetImportPid', { key, pid: [otherPid], num: 1 });
    const { devPtr: reached } = await run('aclrtIpcMemImportByKey', { key, flags: 0 }, { process: 1 });
    expect(reached).toMatch(/^0x/);
    expect([...harness.backend.state().ipcImports.values()]).toMatchObject([{ key, addr: Number.parseInt(String(reached), 16) }]);
    await run('aclrtIpcMemClose', { key }, { process: 1 });
    await run('aclrtIpcMemClose', { key });
    expect(harness.backend.state().ipcKeys.size + harness.backend.state().ipcImports.size).toBe(0);
    expect(await run('aclrtDeviceCanAccessPeer', { deviceId: 0, peerDeviceId: 1 })).toEqual({ canAccessPeer: 1 });
    await run('aclrtDeviceEnablePeerAccess', { peerDeviceId: 1, flags: 0 });
    await run('aclrtDeviceDisablePeerAccess', { peerDeviceId: 1 });
    await run('aclrtDeviceEnablePeerAccess', { peerDeviceId: 1, flags: 0 });
    await run('aclrtUnmapMem', { virPtr });
    await run('aclrtReleaseMemAddress', { virPtr });
    // The two references first (the handle stays), then the handle itself.
    for (let n = 0; n < 3; n += 1) await run('aclrtFreePhysical', { handle });
    await run('aclrtHostUnregister', { ptr: pageable });
    await run('aclrtHostUnregister', { ptr: vaHost });
    await run('free', { ptr: pageable });
    await run('aclrtFreeHost', { hostPtr });
    await run('aclrtFreeHost', { hostPtr: vaHost });
    for (const ptr of [devPtr, small, cached, cfg]) await run('aclrtFree', { devPtr: ptr });
    await run('aclrtDestroyStream', { stream });
    const failed = await driver.call('aclrtFree', { devPtr });
    expect(failed.type === 'result' && failed.ret).toBe(100000);
    expect(await run('aclGetRecentErrMsg')).toEqual({ errMsg: expect.stringContaining('DM-13') });
    await run('aclrtResetDevice', { deviceId: 0 }, { process: 1 });
    await run('aclrtResetDeviceForce', { deviceId: 0 });
    await run('aclrtResetDevice', { deviceId: 0 }).catch(() => undefined);
    called.add('aclrtResetDevice');
    await run('aclFinalize');
    expect([...ACL_FUNCTION_NAMES].filter((fn) => !called.has(fn))).toEqual([]);
    expect(stateDifference(driver.replica, harness.backend.state())).toBeUndefined();
  });
});

describe('precise errors, and nothing changes state', () => {
  it.each([
    [{ type: 'cal', id: 1 }, 'bad-message', 'type'],
    [{ type: 'call', id: 1, fn: 'aclrtMallocc', args: {} }, 'unknown-function', 'fn'],
    [{ type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: 4096 } }, 'invalid-argument', 'args.policy'],
    [{ type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: '4096', policy: 0 } }, 'invalid-argument', 'args.size'],
    [{ type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: -1, policy: 0 } }, 'invalid-argument', 'args.size'],
    [{ type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: 1.5, policy: 0 } }, 'invalid-argument', 'args.size'],
    [{ type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: 2 ** 53, policy: 0 } }, 'invalid-argument', 'args.size'],
    [{ type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: 64, policy: 'ACL_MEM_MALLOC_HUGE' } }, 'invalid-argument', 'args.policy'],
    [{ type: 'call', id: 1, fn: 'aclrtMalloc', args: { size: 64, policy: 0, devPtr: '0x0' } }, 'invalid-argument', 'args.devPtr'],
    [{ type: 'call', id: 1, fn: 'aclrtFree', args: { devPtr: '0xZZ' } }, 'invalid-argument', 'args.devPtr'],
    [{ type: 'call', id: 1, fn: 'aclrtFree', args: { devPtr: 1234 } }, 'invalid-argument', 'args.devPtr'],
    [{ type: 'call', id: 1, fn: 'aclrtFree', args: { devPtr: '0x20000000000000' } }, 'invalid-argument', 'args.devPtr'],
    [
      { type: 'call', id: 1, fn: 'aclrtMallocPhysical', args: { size: 2097152, prop: { ...PROP, memAttr: 'HBM' }, flags: 0 } },
      'invalid-argument',
      'args.prop.memAttr',
    ],
    [
      { type: 'call', id: 1, fn: 'aclrtMallocPhysical', args: { size: 2097152, prop: { ...PROP, colour: 1 }, flags: 0 } },
      'invalid-argument',
      'args.prop.colour',
    ],
    [{ type: 'call', id: -1, fn: 'aclInit', args: {} }, 'bad-message', 'id'],
    [{ type: 'reset', devices: 99 }, 'bad-message', 'devices'],
  ])('%j → %s naming %s', async (message, code, field) => {
    const before = harness.backend.state().seq;
    const print = fingerprint(harness.backend.state());
    const reply = driver.next((m) => m.type === 'error');
    driver.send(message);
    const error = await reply;
    expect(error).toMatchObject({ type: 'error', code, field });
    if (error.type === 'error') expect(error.message).toMatch(/received|not|missing|no such|out-parameter|only|2\^53/);
    expect(harness.backend.state().seq).toBe(before);
    expect(fingerprint(harness.backend.state()) === print).toBe(true);
  });

  it('a value the C runtime refuses comes back as a result with its ACL code', async () => {
    const reply = await driver.call('aclrtMalloc', { size: 0, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    expect(reply).toMatchObject({
      type: 'result',
      ret: 100000,
      retName: 'ACL_ERROR_INVALID_PARAM',
      message: expect.stringContaining('DM-2'),
    });
  });

  it('the result names the events it caused, and they reach the replica', async () => {
    const reply = await driver.call('aclrtMalloc', { size: 1024 * 1024, policy: 0 });
    if (reply.type !== 'result') throw new Error('expected a result');
    const caused = driver.events.filter((e) => reply.events.includes(e.seq)).map((e) => e.kind);
    expect(caused).toEqual(['call', 'alloc']);
    const allocation = [...driver.replica.allocations.values()][0];
    expect(allocation).toMatchObject({ padded: 1048608, pageClass: 'huge', pages: 1 });
  });
});

it('two devices and the default profile are what the welcome says', async () => {
  const viewer = await TestClient.connect(harness.port, TOKEN);
  const welcome = await viewer.hello('viewer');
  expect(welcome.devices).toHaveLength(2);
  expect(welcome.devices[0]).toMatchObject({
    id: 0,
    profile: ASCEND_910B2.name,
    socName: 'Ascend910B2',
    capabilities: ['giantPages', 'p2p', 'vmm', 'vaFlag'],
  });
  expect(welcome.functions).toContain('aclrtMapMem');
  const device = viewer.replica.devices[0];
  if (device === undefined) throw new Error('the replica has no device');
  expect(devicePools(device).huge.total).toBe(64 * 1024 ** 3);
  viewer.close();
});

describe('snapshots come as rows unless the client asks for them packed in columns', () => {
  const snapshotText = (client: TestClient): Record<string, unknown> => {
    const text = client.texts.find((t) => t.startsWith('{"type":"snapshot"'));
    if (text === undefined) throw new Error('no snapshot was sent');
    return JSON.parse(text);
  };

  it('hello.snapshots "packed" gets the same state in columns; no preference or "rows" gets rows', async () => {
    for (let i = 0; i < 40; i += 1) await driver.ok('aclrtMalloc', { size: 4096 * (i + 1), policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
    const clients = await Promise.all([0, 1, 2].map(() => TestClient.connect(harness.port, TOKEN)));
    const [packed, rows, unsaid] = clients as [TestClient, TestClient, TestClient];
    await packed.hello('viewer', undefined, 'packed');
    await rows.hello('viewer', undefined, 'rows');
    await unsaid.hello('viewer');

    const packedText = snapshotText(packed);
    expect(packedText).toHaveProperty('packed.allocations.rows', 40);
    expect(packedText).not.toHaveProperty('snapshot');
    for (const client of [rows, unsaid]) {
      expect(snapshotText(client)).toHaveProperty('snapshot.allocations');
      expect(snapshotText(client)).not.toHaveProperty('packed');
    }
    // All three replicas hold the very state the driver built.
    for (const client of clients) expect(fingerprint(client.replica)).toBe(fingerprint(driver.replica));
    for (const client of clients) client.close();
  });

  it('an unknown snapshot form is refused, naming the field and the forms allowed', async () => {
    const viewer = await TestClient.connect(harness.port, TOKEN);
    viewer.send({ type: 'hello', protocol: 1, role: 'viewer', snapshots: 'columns' });
    const reply = await viewer.next();
    expect(reply).toMatchObject({ type: 'error', field: 'snapshots', message: expect.stringMatching(/rows.*packed/) });
    viewer.close();
  });
});
