import { describe, expect, it } from 'vitest';
import { ACL_HOST_REG, aclrtMemAttr, aclrtMemcpyKind } from '../../src/acl/enums.ts';
import {
  ACL_ERROR_REPEAT_FINALIZE,
  ACL_ERROR_REPEAT_INITIALIZE,
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_INVALID_DEVICEID,
} from '../../src/acl/errors.ts';
import { invokeCall } from '../../src/acl/invoke.ts';
import { devicePools } from '../../src/model/pools.ts';
import { fingerprint } from '../../src/model/snapshot.ts';
import { planTeardown } from '../../src/model/teardown-plan.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { effectKinds, need, otherProcess, POLICY, session } from './harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const ATTR = aclrtMemAttr.byName;
const PROP = { handleType: 0, allocationType: 0, memAttr: ATTR.ACL_HBM_MEM_HUGE, location: { type: 1, id: 0 }, reserve: 0 };

/** A process that called aclInit but never aclrtSetDevice. */
async function initialisedOnly() {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const rt = new SimRuntime(host);
  expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
  return { host, rt };
}

/** A process holding one of everything on device 0. */
async function busyProcess() {
  const s = await session();
  const { rt } = s;
  const virPtr = need((await rt.aclrtReserveMemAddress({ size: 4 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 })).virPtr, 'virPtr');
  const mapped = need((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: PROP, flags: 0 })).handle, 'mapped');
  expect((await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle: mapped, flags: 0 })).ret).toBe(0);
  expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: PROP, flags: 0 })).ret).toBe(0);
  expect((await rt.aclrtMalloc({ size: 3 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).ret).toBe(0);
  expect((await rt.aclrtMalloc({ size: 100, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).ret).toBe(0);
  expect((await rt.aclrtCreateStream({})).ret).toBe(0);
  const hostPtr = need((await rt.aclrtMallocHost({ size: 8 * KiB })).hostPtr, 'hostPtr');
  const ptr = need((await rt.malloc({ size: 8 * KiB })).ptr, 'ptr');
  expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: ACL_HOST_REG.byName.ACL_HOST_REG_PINNED })).ret).toBe(0);
  return { ...s, hostPtr, ptr };
}

describe('LT: device and process lifetime', () => {
  it('LT-1: aclInit once per process: a repeat answers 100002 and changes nothing', async () => {
    const host = new SimHost();
    const rt = new SimRuntime(host);
    expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
    const before = fingerprint(host.state).replace(/"seq":\d+/, '');
    expect((await rt.aclInit({ configPath: '/etc/acl.json' })).ret).toBe(ACL_ERROR_REPEAT_INITIALIZE);
    expect(fingerprint(host.state).replace(/"seq":\d+/, '')).toBe(before);
    expect(host.state.processes.get(rt.pid)?.initialized).toBe(true);
    // Harmless: the process carries on.
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtMalloc({ size: 64, policy: 0 })).ret).toBe(0);
  });

  it('LT-1: aclInit is per process; aclFinalize ends it, and a second aclFinalize is refused', async () => {
    const { host, rt } = await session();
    const other = new SimRuntime(host, 'other');
    expect((await other.aclInit({ configPath: null })).ret).toBe(0);
    expect((await rt.aclFinalize({})).ret).toBe(0);
    expect(host.state.processes.get(rt.pid)?.initialized).toBe(false);
    expect(host.state.processes.get(other.pid)?.initialized).toBe(true);
    expect((await rt.aclFinalize({})).ret).toBe(ACL_ERROR_REPEAT_FINALIZE);
  });

  it('LT-2: memory calls before aclrtSetDevice fail with 107002 and change nothing', async () => {
    const { host, rt } = await initialisedOnly();
    const pageable = need((await rt.malloc({ size: 8 * KiB })).ptr, 'ptr');
    const before = fingerprint(host.state).replace(/"seq":\d+/, '');
    const calls: [string, Promise<{ ret: number }>][] = [
      ['aclrtMalloc', rt.aclrtMalloc({ size: 64, policy: 0 })],
      ['aclrtMallocAlign32', rt.aclrtMallocAlign32({ size: 64, policy: 0 })],
      ['aclrtMallocWithCfg', rt.aclrtMallocWithCfg({ size: 64, policy: 0, cfg: null })],
      ['aclrtMallocHost', rt.aclrtMallocHost({ size: 64 })],
      ['aclrtMallocHostWithCfg', rt.aclrtMallocHostWithCfg({ size: 64, cfg: null })],
      ['aclrtGetMemInfo', rt.aclrtGetMemInfo({ attr: ATTR.ACL_HBM_MEM })],
      ['aclrtCreateStream', rt.aclrtCreateStream({})],
      ['aclrtReserveMemAddress', rt.aclrtReserveMemAddress({ size: 2 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 })],
      ['aclrtMallocPhysical', rt.aclrtMallocPhysical({ size: 2 * MiB, prop: PROP, flags: 0 })],
      ['aclrtHostRegisterV2', rt.aclrtHostRegisterV2({ ptr: pageable, size: 8 * KiB, flag: 0x10000002 })],
      [
        'aclrtMemcpy',
        rt.aclrtMemcpy({ dst: pageable, destMax: 64, src: pageable, count: 64, kind: aclrtMemcpyKind.byName.ACL_MEMCPY_HOST_TO_HOST }),
      ],
      ['aclrtGetDevice', rt.aclrtGetDevice({})],
    ];
    for (const [fn, pending] of calls) expect((await pending).ret, fn).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    expect(fingerprint(host.state).replace(/"seq":\d+/, '')).toBe(before);
    // Importing a shared handle creates a memory handle too.
    const exporter = await otherProcess(host, 'exporter');
    const handle = need((await exporter.aclrtMallocPhysical({ size: 2 * MiB, prop: PROP, flags: 0 })).handle, 'handle');
    const shared = need((await exporter.aclrtMemExportToShareableHandle({ handle, handleType: 0, flags: 1 })).shareableHandle, 'shared');
    expect((await rt.aclrtMemImportFromShareableHandle({ shareableHandle: shared, deviceId: 0 })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    expect([...host.state.handles.values()].filter((h) => h.pid === rt.pid)).toEqual([]);
    expect((await exporter.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect((await rt.free({ ptr: pageable })).ret).toBe(0);
  });

  it('LT-2: aclrtSetDevice creates the default stream once and counts references; aclrtGetDevice reports it', async () => {
    const { host, rt } = await initialisedOnly();
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    const process = need(host.state.processes.get(rt.pid), 'process');
    expect(process.deviceRefs.get(0)).toBe(3);
    expect([...host.state.streams.values()].map((s) => [s.device, s.isDefault, s.handle])).toEqual([[0, true, 0]]);
    expect(await rt.aclrtGetDevice({})).toEqual({ ret: 0, deviceId: 0 });
    expect((await rt.aclrtSetDevice({ deviceId: 1 })).ret).toBe(ACL_ERROR_RT_INVALID_DEVICEID);
    expect((await rt.aclrtSetDevice({ deviceId: -1 })).ret).toBe(ACL_ERROR_RT_INVALID_DEVICEID);
  });

  it('LT-2: aclrtResetDevice decrements; memory survives until the last reference goes', async () => {
    const { host, rt, device } = await busyProcess();
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    const held = devicePools(device);
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect(host.state.processes.get(rt.pid)?.deviceRefs.get(0)).toBe(1);
    expect(devicePools(device)).toEqual(held);
    expect(host.state.allocations.size).toBe(2);
    expect((await rt.aclrtMalloc({ size: 64, policy: 0 })).ret).toBe(0);
  });

  it('LT-2: the last aclrtResetDevice releases everything the process holds on the device, in teardown order', async () => {
    const { host, rt, device, events } = await busyProcess();
    const other = await otherProcess(host);
    const theirs = need((await other.aclrtMalloc({ size: 4 * MiB, policy: 0 })).devPtr, 'theirs');
    const baseline = devicePools(device);
    const mark = events.length;
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual([
      'unmap',
      'release',
      'physFree',
      'physRelease',
      'physFree',
      'physRelease',
      'free',
      'free',
      'hostUnregister',
      'streamDestroy',
      'streamDestroy',
      // The device's default context goes with the last reference (CX-2).
      'contextDestroy',
      'deviceReset',
    ]);
    const mine = <T extends { pid: number }>(map: Map<number, T>) => [...map.values()].filter((item) => item.pid === rt.pid).length;
    expect([mine(host.state.allocations), mine(host.state.handles), mine(host.state.reservations), mine(host.state.mappings)]).toEqual([
      0, 0, 0, 0,
    ]);
    expect(mine(host.state.streams)).toBe(0);
    // The other process keeps its memory; the device is back to "only theirs".
    expect(host.state.allocations.size).toBe(1);
    expect(devicePools(device).huge.free).toBe(baseline.huge.free + 2 * MiB * 2 + 2 * 2 * MiB + 2 * MiB);
    expect((await other.aclrtFree({ devPtr: theirs })).ret).toBe(0);
    expect(devicePools(device).all.free).toBe(64 * 1024 * MiB);
    // No device is current any more.
    expect((await rt.aclrtMalloc({ size: 64, policy: 0 })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
  });

  it('LT-2: aclrtResetDeviceForce releases at once, whatever the count', async () => {
    const { host, rt, device } = await busyProcess();
    const empty = await session();
    for (let i = 0; i < 3; i += 1) expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    expect(host.state.processes.get(rt.pid)?.deviceRefs.get(0)).toBe(4);
    expect((await rt.aclrtResetDeviceForce({ deviceId: 0 })).ret).toBe(0);
    expect(host.state.processes.get(rt.pid)?.deviceRefs.has(0)).toBe(false);
    expect(devicePools(device)).toEqual(devicePools(empty.device));
  });

  it('LT-3: the seed sample’s teardown order (free device and host memory → destroy streams → reset → finalize) leaves nothing', async () => {
    const { host, rt, device } = await session();
    const baseline = devicePools(device);
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const hostPtr = need((await rt.aclrtMallocHost({ size: 64 })).hostPtr, 'hostPtr');
    const devPtr = need((await rt.aclrtMalloc({ size: 64, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'devPtr');
    const steps: [string, Promise<{ ret: number }>][] = [];
    steps.push(['aclrtFree', rt.aclrtFree({ devPtr })]);
    steps.push(['aclrtFreeHost', rt.aclrtFreeHost({ hostPtr })]);
    steps.push(['aclrtDestroyStream', rt.aclrtDestroyStream({ stream })]);
    steps.push(['aclrtResetDevice', rt.aclrtResetDevice({ deviceId: 0 })]);
    steps.push(['aclFinalize', rt.aclFinalize({})]);
    for (const [fn, pending] of steps) expect((await pending).ret, fn).toBe(0);
    expect(devicePools(device)).toEqual(baseline);
    expect([host.state.allocations.size, host.state.hostBuffers.size, host.state.streams.size]).toEqual([0, 0, 0]);
    expect(host.state.processes.get(rt.pid)?.initialized).toBe(false);
  });

  it('LT-3: the teardown plan follows that order for a busy process, and running it leaves nothing', async () => {
    const { host, rt, device } = await busyProcess();
    const empty = await session();
    const plan = planTeardown(host.state, rt.pid);
    // Each call's stage in RULES.md's order (VM-8, LT-3); host buffers are unregistered, then freed, one by one.
    const STAGE: Record<string, number> = {
      aclrtUnmapMem: 0,
      aclrtReleaseMemAddress: 1,
      aclrtFreePhysical: 2,
      aclrtFree: 3,
      aclrtHostUnregister: 4,
      aclrtFreeHost: 4,
      free: 4,
      aclrtDestroyStream: 5,
      aclrtResetDeviceForce: 6,
      aclFinalize: 7,
    };
    const stages = plan.map((call) => STAGE[call.fn] ?? -1);
    expect(stages).toEqual([0, 1, 2, 2, 3, 3, 4, 4, 4, 5, 6, 7]);
    const hostCalls = plan.filter((call) => (STAGE[call.fn] ?? -1) === 4).map((call) => call.fn);
    expect(hostCalls).toEqual(['aclrtFreeHost', 'aclrtHostUnregister', 'free']);
    for (const call of plan) {
      const { ret, message } = await invokeCall(rt, call);
      expect(ret, `${call.fn}: ${message ?? ''}`).toBe(0);
    }
    expect(devicePools(device)).toEqual(devicePools(empty.device));
    expect(planTeardown(host.state, rt.pid)).toEqual([]);
  });

  it('LT-3: device memory a process never freed is reclaimed when its device context goes (modeled exit)', async () => {
    const { host, rt, device } = await session();
    const baseline = devicePools(device);
    for (const policy of [POLICY.ACL_MEM_MALLOC_HUGE_FIRST, POLICY.ACL_MEM_MALLOC_NORMAL_ONLY, POLICY.ACL_MEM_MALLOC_HUGE1G_ONLY]) {
      expect((await rt.aclrtMalloc({ size: 3 * MiB, policy })).ret).toBe(0);
    }
    expect(devicePools(device).all.free).toBeLessThan(baseline.all.free);
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect(devicePools(device)).toEqual(baseline);
    expect(host.state.allocations.size).toBe(0);
  });
});

describe('LT-2: the last reset drops host registrations with the device', () => {
  it('LT-2: a registration made on a device is gone after its last aclrtResetDevice, and the memory can be registered again', async () => {
    const { rt } = await session();
    const { ptr } = await rt.malloc({ size: 64 * 1024 });
    if (ptr === undefined) throw new Error('malloc failed');
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 64 * 1024, flag: 0x10000002 })).ret).toBe(0);
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).ret).toBe(507911);
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 64 * 1024, flag: 0x10000002 })).ret).toBe(0);
  });
});

describe("LT-4: peer access lives with the device's contexts", () => {
  it('LT-4: peer access ends when the last process holding the device resets it, not before', async () => {
    const host = new SimHost({ devices: [ASCEND_910B2, ASCEND_910B2] });
    const a = new SimRuntime(host, 'a');
    const b = new SimRuntime(host, 'b');
    for (const rt of [a, b]) {
      expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
      expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    }
    expect((await a.aclrtDeviceEnablePeerAccess({ peerDeviceId: 1, flags: 0 })).ret).toBe(0);
    const peers = () => [...(host.state.devices[0]?.peers ?? [])];
    expect(peers()).toEqual([1]);
    // b still holds device 0: its context keeps the peer access.
    expect((await a.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect(peers()).toEqual([1]);
    expect((await b.aclrtResetDeviceForce({ deviceId: 0 })).ret).toBe(0);
    expect(peers()).toEqual([]);
  });
});

describe('LT-5: the aclrt* calls do not check aclInit; aclFinalize counts no references', () => {
  it('LT-5: aclrtSetDevice and memory calls before aclInit run as usual, as the open runtime does', async () => {
    const rt = new SimRuntime(new SimHost());
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclrtMalloc({ size: 4096, policy: 0 })).ret).toBe(0);
    expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
  });

  it('LT-5: the first aclFinalize without aclInit answers 0, a second 100037; one aclFinalize ends any number of aclInit', async () => {
    const rt = new SimRuntime(new SimHost());
    expect((await rt.aclFinalize({})).ret).toBe(0);
    expect((await rt.aclFinalize({})).ret).toBe(ACL_ERROR_REPEAT_FINALIZE);
    expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
    expect((await rt.aclInit({ configPath: null })).ret).toBe(ACL_ERROR_REPEAT_INITIALIZE);
    expect((await rt.aclFinalize({})).ret).toBe(0);
    expect((await rt.aclFinalize({})).ret).toBe(ACL_ERROR_REPEAT_FINALIZE);
  });

  it('LT-5: aclFinalize resets no device: after aclFinalize and aclInit the device set before is still current', async () => {
    const { host, rt } = await session();
    const devPtr = need((await rt.aclrtMalloc({ size: 4096, policy: 0 })).devPtr, 'devPtr');
    expect((await rt.aclFinalize({})).ret).toBe(0);
    expect((await rt.aclrtMalloc({ size: 4096, policy: 0 })).ret).toBe(0);
    expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
    expect(host.state.processes.get(rt.pid)?.currentDevice).toBe(0);
    expect((await rt.aclrtFree({ devPtr })).ret).toBe(0);
    expect(host.state.allocations.size).toBe(1);
  });
});
