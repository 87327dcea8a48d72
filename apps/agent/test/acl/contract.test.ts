import { ACL_FUNCTION_NAMES, GiB, MiB } from '@pagelens/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stateDifference } from '../support/same-state.ts';
import { TestClient } from '../support/ws-client.ts';
import { freshDouble, readLog } from './support/acl-double.ts';
import { type AclHarness, startAclHarness, TOKEN } from './support/acl-harness.ts';

// Each backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/*
 * The every-function session of protocol.test.ts, through the real agent and protocol, on the acl
 * backend loading the C test double. Where the double's answer differs from the simulator's, the
 * test expects what a real runtime in one process does (aclInit repeats, import in the exporting
 * process fails). Everything here is observed-from-double, not hardware behaviour.
 */

let harness: AclHarness;
let driver: TestClient;
let log: string;

beforeEach(async () => {
  const double = freshDouble();
  log = double.log;
  process.env.ACL_DOUBLE_LOG = log;
  harness = await startAclHarness({ lib: double.lib });
  driver = await TestClient.connect(harness.port, TOKEN);
  await driver.hello('driver');
});

afterEach(async () => {
  driver.close();
  await harness.close();
  delete process.env.ACL_DOUBLE_LOG;
});

const PROP = {
  handleType: 'ACL_MEM_HANDLE_TYPE_NONE',
  allocationType: 'ACL_MEM_ALLOCATION_TYPE_PINNED',
  memAttr: 'ACL_HBM_MEM_HUGE',
  location: { type: 'ACL_MEM_LOCATION_TYPE_DEVICE', id: 0 },
  reserve: 0,
};

describe('the contract session on the acl backend + C double', () => {
  it('calls every catalogue function over the protocol; every event is observed (or modeled, never simulated)', async () => {
    const called = new Set<string>();
    const result = async (fn: string, args: Record<string, unknown> = {}) => {
      called.add(fn);
      const reply = await driver.call(fn, args);
      if (reply.type !== 'result') throw new Error(`${fn}: ${JSON.stringify(reply)}`);
      return reply;
    };
    const run = async (fn: string, args: Record<string, unknown> = {}) => {
      const reply = await result(fn, args);
      expect(reply.ret, `${fn}: ${reply.message ?? ''}`).toBe(0);
      return reply.out ?? {};
    };
    // The agent initialised ACL to list the devices: a session's aclInit is a harmless repeat (LT-1).
    expect(await result('aclInit', { configPath: null })).toMatchObject({ ret: 100002, message: expect.stringContaining('LT-1') });
    await run('aclrtSetDevice', { deviceId: 0 });
    expect(await run('aclrtGetDevice')).toEqual({ deviceId: 0 });
    expect(await run('aclrtGetDeviceCount')).toEqual({ count: 2 });
    expect(await run('aclrtGetRunMode')).toEqual({ runMode: 1 });
    expect(await run('aclrtGetSocName')).toEqual({ socName: 'Ascend910B2' });
    const { stream } = await run('aclrtCreateStream');
    const { devPtr } = await run('aclrtMalloc', { size: 3 * MiB, policy: 'ACL_MEM_MALLOC_HUGE_FIRST' });
    const { devPtr: small } = await run('aclrtMallocAlign32', { size: 4096, policy: 2 });
    const { devPtr: cached } = await run('aclrtMallocCached', { size: 4096, policy: 'ACL_MEM_MALLOC_NORMAL_ONLY' });
    const { devPtr: cfg } = await run('aclrtMallocWithCfg', {
      size: 4 * MiB,
      policy: 'ACL_MEM_MALLOC_HUGE_FIRST_P2P',
      cfg: { attrs: [{ attr: 'ACL_RT_MEM_ATTR_MODULE_ID', value: { moduleId: 33 } }] },
    });
    const { hostPtr } = await run('aclrtMallocHost', { size: 3 * MiB });
    const { ptr: vaHost } = await run('aclrtMallocHostWithCfg', {
      size: 8192,
      cfg: { attrs: [{ attr: 'ACL_RT_MEM_ATTR_VA_FLAG', value: { vaFlag: 1 } }], numAttrs: 1 },
    });
    const { ptr: pageable } = await run('malloc', { size: MiB });
    await run('aclrtMemcpy', { dst: devPtr, destMax: 3 * MiB, src: hostPtr, count: 3 * MiB, kind: 'ACL_MEMCPY_HOST_TO_DEVICE' });
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
    // A second run that says device → host for copy 1, which goes host → device: the runtime names copy 1 and copies nothing.
    expect(await result('aclrtMemcpyBatch', { ...batch, attrs: [H2D, D2H], attrsIndexes: [0, 1], numAttrs: 2 })).toMatchObject({
      ret: 107000,
      out: { failIndex: 1 },
    });
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
    expect(await run('aclrtCheckMemType', { addrList: [devPtr, hostPtr], size: 2, memType: 'ACL_RT_MEM_TYPE_DEV', reserve: 0 })).toEqual({
      checkResult: 0,
    });
    // The double's own components (its page pools of device 0 that hold memory), largest first: a real driver names its own.
    expect(await run('aclrtGetMemUsageInfo', { deviceId: 0, inputNum: 4 })).toEqual({
      memUsageInfo: [
        // 3 MiB and 4 MiB in 2 MiB pages; the two 4 KiB allocations in 12 KiB of normal pages (one padded past a page, DM-3).
        { name: 'acl double: huge pages', curMemSize: 8 * MiB, memPeakSize: 8 * MiB },
        { name: 'acl double: normal pages', curMemSize: 12288, memPeakSize: 12288 },
      ],
      outputNum: 2,
    });
    await run('aclrtSynchronizeStream', { stream });
    await run('aclrtMemFlush', { devPtr, size: 4096 });
    await run('aclrtMemInvalidate', { devPtr, size: 4096 });
    const inside = `0x${(BigInt(devPtr as string) + 4096n).toString(16)}`;
    // DM-3: 3 MiB plus the 32 bytes of padding.
    expect(await run('aclrtMemGetAddressRange', { ptr: inside })).toEqual({ pbase: devPtr, psize: 3 * MiB + 32 });
    // The double's huge pool is 48 GiB per device (its default; a hardware split is not public, §9).
    expect(await run('aclrtGetMemInfo', { attr: 'ACL_HBM_MEM_HUGE' })).toMatchObject({ total: 48 * GiB });
    const { devPtr: registered } = await run('aclrtHostRegister', { ptr: vaHost, size: 8192, type: 'ACL_HOST_REGISTER_MAPPED' });
    expect(registered).toBe(vaHost);
    await run('aclrtHostRegisterV2', { ptr: pageable, size: MiB, flag: 'ACL_HOST_REG_PINNED|ACL_HOST_REG_MAPPED' });
    const { pDevice } = await run('aclrtHostGetDevicePointer', { pHost: pageable, flag: 0 });
    expect(pDevice).not.toBe(pageable);
    expect(await run('aclrtPointerGetAttributes', { ptr: devPtr })).toEqual({
      attributes: { location: { id: 0, type: 1 }, pageSize: 2 * MiB },
    });
    expect(await run('aclrtMemGetAllocationGranularity', { prop: PROP, option: 'ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM' })).toEqual({
      granularity: 2 * MiB,
    });
    const { handle } = await run('aclrtMallocPhysical', { size: 2 * MiB, prop: PROP, flags: 0 });
    const { virPtr } = await run('aclrtReserveMemAddress', { size: 2 * MiB, alignment: 0, expectPtr: null, flags: 0 });
    await run('aclrtMapMem', { virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
    await run('aclrtMemSetAccess', {
      virPtr,
      size: 2 * MiB,
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
    expect(await run('aclrtMemGetAddressRange', { ptr: virPtr })).toEqual({ pbase: virPtr, psize: 2 * MiB });
    const { shareableHandle } = await run('aclrtMemExportToShareableHandle', { handle, handleType: 0, flags: 0 });
    const pid = [...harness.backend.state().processes.keys()].at(-1);
    await run('aclrtMemSetPidToShareableHandle', { shareableHandle, pid: [pid], pidNum: 1 });
    // On hardware the agent is the only process: a second one is refused, and importing into the exporter fails (VM-9).
    const other = await driver.call('aclrtMemImportFromShareableHandle', { shareableHandle, deviceId: 0 }, { process: 1 });
    expect(other).toMatchObject({ type: 'error', code: 'not-allowed' });
    expect(await result('aclrtMemImportFromShareableHandle', { shareableHandle, deviceId: 0 })).toMatchObject({ ret: 100000 });
    // IP-1 … IP-4: a key for devPtr, an allow-list; importing into the exporter fails (IP-3, one process, as VM-9).
    const { key } = await run('aclrtIpcMemGetExportKey', { devPtr, size: 4096, len: 65, flags: 0 });
    expect(key).toHaveLength(64);
    await run('aclrtIpcMemSetImportPid', { key, pid: [pid], num: 1 });
    expect(await result('aclrtIpcMemImportByKey', { key, flags: 0 })).toMatchObject({ ret: 100000 });
    expect([...harness.backend.state().ipcKeys.values()]).toMatchObject([{ key, size: 4096, pids: [pid] }]);
    await run('aclrtIpcMemClose', { key });
    // A second key is not closed: aclrtFree of its allocation ends it (IP-4, modeled).
    const { key: left } = await run('aclrtIpcMemGetExportKey', { devPtr: small, size: 64, len: 65, flags: 1 });
    expect(harness.backend.state().ipcKeys.has(String(left))).toBe(true);
    expect(await run('aclrtDeviceCanAccessPeer', { deviceId: 0, peerDeviceId: 1 })).toEqual({ canAccessPeer: 1 });
    await run('aclrtDeviceEnablePeerAccess', { peerDeviceId: 1, flags: 0 });
    await run('aclrtDeviceDisablePeerAccess', { peerDeviceId: 1 });
    expect([...(harness.backend.state().devices[0]?.peers ?? [])]).toEqual([]);
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
    expect(await result('aclrtFree', { devPtr })).toMatchObject({ ret: 100000, message: expect.stringContaining('not the start') });
    expect(await run('aclGetRecentErrMsg')).toEqual({ errMsg: expect.stringContaining('not the start') });
    await run('aclrtSetDevice', { deviceId: 0 });
    await run('aclrtResetDevice', { deviceId: 0 });
    await run('aclrtResetDeviceForce', { deviceId: 0 });
    await run('aclFinalize');
    expect([...ACL_FUNCTION_NAMES].filter((fn) => !called.has(fn))).toEqual([]);

    // Provenance: calls and their observed effects are "observed"; only what the runtime implies without
    // reporting is "modeled": the default context and stream that aclrtSetDevice creates (and the last
    // reset takes), the created context's own default stream, what aclrtDestroyContext takes with
    // it (its two events and that stream), and the IPC key aclrtFree ends (IP-4); nothing is "simulated".
    const events = driver.events;
    expect(events.filter((e) => e.provenance === 'simulated')).toEqual([]);
    expect(events.filter((e) => e.kind === 'call').every((e) => e.provenance === 'observed')).toBe(true);
    const allocs = events.filter((e) => e.kind === 'alloc');
    expect(allocs).toHaveLength(4);
    for (const alloc of allocs) expect(alloc).toMatchObject({ provenance: 'observed', runs: [] });
    expect(harness.backend.state().ipcKeys.size).toBe(0);
    expect(events.filter((e) => e.kind.startsWith('ipc')).map((e) => [e.kind, e.provenance])).toEqual([
      ['ipcExport', 'observed'],
      ['ipcPids', 'observed'],
      ['ipcClose', 'observed'],
      ['ipcExport', 'observed'],
      ['ipcClose', 'modeled'],
    ]);
    expect(events.filter((e) => e.provenance === 'modeled').map((e) => e.kind)).toEqual([
      'contextCreate',
      'streamCreate',
      'streamCreate',
      'eventDestroy',
      'eventDestroy',
      'streamDestroy',
      'ipcClose',
      'streamDestroy',
      'contextDestroy',
    ]);
    // The device's default context is recorded with the handle the runtime answered (aclrtGetCurrentContext).
    const created = events.find((e) => e.kind === 'contextCreate' && e.isDefault);
    expect(created?.kind === 'contextCreate' && `0x${created.handle.toString(16)}`).toBe(primary);
    expect(events.filter((e) => e.kind === 'poolSample').length).toBeGreaterThan(0);
    // VM-12: two retains, then the first two aclrtFreePhysical give the references back; the third frees the handle.
    expect(events.flatMap((e) => (e.kind === 'physRetain' ? [e.retains] : []))).toEqual([1, 2, 1, 0]);
    expect(events.filter((e) => e.kind === 'physFree')).toHaveLength(1);
    // CP-9: a 2D copy is one copy of width × height bytes; CP-8: the async memset is a memset.
    const copies = events.flatMap((e) => (e.kind === 'copy' && e.fn.startsWith('aclrtMemcpy2d') ? [[e.fn, e.bytes, e.mode]] : []));
    expect(copies).toEqual([
      ['aclrtMemcpy2d', 4096, 'sync'],
      ['aclrtMemcpy2dAsync', 4096, 'async'],
    ]);
    expect(events.filter((e) => e.kind === 'memset')).toHaveLength(2);
    // CP-11: a batch is one copy event per copy, with the call's measured time; the failing batch copied nothing.
    const batched = events.flatMap((e) =>
      e.kind === 'copy' && e.fn.startsWith('aclrtMemcpyBatch') ? [[e.fn, e.bytes, e.memcpyKind, e.mode]] : [],
    );
    expect(batched).toEqual([
      ['aclrtMemcpyBatch', 4096, 1, 'sync'],
      ['aclrtMemcpyBatch', 1024, 1, 'sync'],
      ['aclrtMemcpyBatchAsync', 4096, 2, 'async'],
    ]);
    // CP-12: the value tasks at the observed call time, the wait in force (the runtime holds the stream).
    const values = events.filter((e) => e.kind === 'valueWrite' || e.kind === 'valueWait');
    expect(values.map((e) => [e.kind, e.provenance])).toEqual([
      ['valueWrite', 'observed'],
      ['valueWait', 'observed'],
    ]);
    expect(values[1]).toMatchObject({ met: true, value: 7, flag: 1 });
    expect(stateDifference(driver.replica, harness.backend.state())).toBeUndefined();
    // Nothing is left on the double: the session freed everything and finalised.
    expect(readLog(log).at(-1)).toMatchObject({ fn: 'aclFinalize', ret: 0 });
  });

  it('a 3 MiB HUGE_FIRST allocation is recorded as the device reported it: huge pages, no frames', async () => {
    await driver.ok('aclrtSetDevice', { deviceId: 0 });
    const reply = await driver.call('aclrtMalloc', { size: 3 * MiB, policy: 0 });
    if (reply.type !== 'result') throw new Error('expected a result');
    const caused = driver.events.filter((e) => reply.events.includes(e.seq));
    expect(caused.map((e) => e.kind)).toEqual(['call', 'alloc', 'poolSample']);
    const allocation = [...driver.replica.allocations.values()][0];
    // DM-3: 3 MiB + 32 B padding, rounded to 32 B; 4 MiB left the huge pool: two 2 MiB pages.
    expect(allocation).toMatchObject({ padded: 3 * MiB + 32, pageClass: 'huge', pageSize: 2 * MiB, pages: 2, runs: [] });
    const call = caused[0];
    expect(call?.kind === 'call' && call.reasons).toEqual([
      {
        code: 'observed-pool',
        rules: ['DM-15'],
        values: { pageClass: 'huge', evidence: 'pointer-attributes', freeDrop: 4 * MiB, pointerPageSize: 2 * MiB },
      },
    ]);
  });

  it('the welcome says where the data come from: observed, from a test double, not hardware', async () => {
    const viewer = await TestClient.connect(harness.port, TOKEN);
    const welcome = await viewer.hello('viewer');
    expect(welcome.backend).toBe('acl');
    expect(welcome.host.provenance).toBe('observed');
    expect(welcome.host.note).toMatch(/^TEST DOUBLE, not hardware/);
    expect(welcome.host.note).toContain('physical frames are not observable');
    expect(welcome.devices).toHaveLength(2);
    expect(welcome.devices[0]).toMatchObject({ socName: 'Ascend910B2', profile: 'Ascend910B2' });
    expect(welcome.functions).toHaveLength(ACL_FUNCTION_NAMES.length);
    viewer.close();
  });
});
