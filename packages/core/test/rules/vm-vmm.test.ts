import { describe, expect, it } from 'vitest';
import { aclrtMemAccessFlags, aclrtMemAttr, aclrtMemcpyKind, aclrtMemLocationType } from '../../src/acl/enums.ts';
import {
  ACL_ERROR_INVALID_PARAM,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INVALID_HANDLE,
  ACL_ERROR_RT_NO_PERMISSION,
} from '../../src/acl/errors.ts';
import { invokeCall } from '../../src/acl/invoke.ts';
import type { aclrtPhysicalMemProp } from '../../src/acl/structs.ts';
import type { PhysFreeEvent } from '../../src/model/events.ts';
import { devicePools } from '../../src/model/pools.ts';
import { fingerprint } from '../../src/model/snapshot.ts';
import { planTeardown } from '../../src/model/teardown-plan.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { DEVICE_VA_BASE, deviceOfAddress } from '../../src/sim/layout.ts';
import type { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { type Hex, toHex } from '../../src/units/hex.ts';
import { addressOf, effectKinds, need, otherProcess, session } from './harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
const TiB = 1024 * GiB;
const ATTR = aclrtMemAttr.byName;
const LOCATION = aclrtMemLocationType.byName;
const READWRITE = aclrtMemAccessFlags.byName.ACL_RT_MEM_ACCESS_FLAGS_READWRITE;

function prop(memAttr: number = ATTR.ACL_HBM_MEM_HUGE, device = 0): aclrtPhysicalMemProp {
  return { handleType: 0, allocationType: 0, memAttr, location: { type: LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE, id: device }, reserve: 0 };
}

async function physical(rt: SimRuntime, size: number, memAttr: number = ATTR.ACL_HBM_MEM_HUGE, device = 0): Promise<Hex> {
  const result = await rt.aclrtMallocPhysical({ size, prop: prop(memAttr, device), flags: 0 });
  expect(result.ret, result.message).toBe(0);
  return need(result.handle, 'handle');
}

async function reserve(rt: SimRuntime, size: number): Promise<Hex> {
  const result = await rt.aclrtReserveMemAddress({ size, alignment: 0, expectPtr: '0x0', flags: 0 });
  expect(result.ret, result.message).toBe(0);
  return need(result.virPtr, 'virPtr');
}

const at = (base: Hex, offset: number): Hex => toHex(addressOf(base) + offset);

describe('VM: virtual memory management', () => {
  it('VM-1: a large reservation costs no physical memory; mapping handles backs it on demand', async () => {
    const { host, rt, device } = await session();
    const before = devicePools(device).all.free;
    const virPtr = await reserve(rt, GiB);
    expect(devicePools(device).all.free).toBe(before);
    for (let slot = 0; slot < 3; slot += 1) {
      const handle = await physical(rt, 2 * MiB);
      expect((await rt.aclrtMapMem({ virPtr: at(virPtr, slot * 2 * MiB), size: 2 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
      expect(before - devicePools(device).all.free).toBe((slot + 1) * 2 * MiB);
    }
    expect(host.state.mappings.size).toBe(3);
    expect(device.frames.hugeFrames).toBe(3);
  });

  const GRANULARITY: [string, number, number][] = [
    ['ACL_HBM_MEM_HUGE', ATTR.ACL_HBM_MEM_HUGE, 2 * MiB],
    ['ACL_HBM_MEM_NORMAL', ATTR.ACL_HBM_MEM_NORMAL, 2 * MiB],
    ['ACL_HBM_MEM_HUGE1G', ATTR.ACL_HBM_MEM_HUGE1G, GiB],
    ['ACL_MEM_NORMAL', ATTR.ACL_MEM_NORMAL, 2 * MiB],
    ['ACL_MEM_HUGE', ATTR.ACL_MEM_HUGE, 2 * MiB],
    ['ACL_MEM_HUGE1G', ATTR.ACL_MEM_HUGE1G, GiB],
    ['ACL_MEM_P2P_NORMAL', ATTR.ACL_MEM_P2P_NORMAL, 2 * MiB],
    ['ACL_MEM_P2P_HUGE', ATTR.ACL_MEM_P2P_HUGE, 2 * MiB],
    ['ACL_MEM_P2P_HUGE1G', ATTR.ACL_MEM_P2P_HUGE1G, GiB],
  ];
  for (const [name, memAttr, granularity] of GRANULARITY) {
    it(`VM-2: granularity of ${name} is ${granularity === GiB ? '1 GiB' : '2 MiB'} (MINIMUM and RECOMMENDED)`, async () => {
      const { rt } = await session();
      for (const option of [0, 1]) {
        expect(await rt.aclrtMemGetAllocationGranularity({ prop: prop(memAttr), option })).toEqual({ ret: 0, granularity });
      }
    });
  }

  it('VM-2: granularity option 2 is not an aclrtMemGranularityOptions value → 100000', async () => {
    const { rt } = await session();
    expect((await rt.aclrtMemGetAllocationGranularity({ prop: prop(), option: 2 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it('VM-2: aclrtMallocPhysical sizes must be non-zero multiples of the granularity', async () => {
    const { host, rt } = await session();
    const rows: [number, number, number][] = [
      [0, ATTR.ACL_HBM_MEM_HUGE, ACL_ERROR_INVALID_PARAM],
      [4 * KiB, ATTR.ACL_HBM_MEM_NORMAL, ACL_ERROR_INVALID_PARAM],
      [2 * MiB + 4 * KiB, ATTR.ACL_HBM_MEM_HUGE, ACL_ERROR_INVALID_PARAM],
      [3 * MiB, ATTR.ACL_HBM_MEM_HUGE, ACL_ERROR_INVALID_PARAM],
      [2 * MiB, ATTR.ACL_HBM_MEM_HUGE1G, ACL_ERROR_INVALID_PARAM],
      [GiB + 2 * MiB, ATTR.ACL_HBM_MEM_HUGE1G, ACL_ERROR_INVALID_PARAM],
      [2 * MiB, ATTR.ACL_HBM_MEM_NORMAL, 0],
      [6 * MiB, ATTR.ACL_HBM_MEM_HUGE, 0],
      [2 * GiB, ATTR.ACL_HBM_MEM_HUGE1G, 0],
    ];
    for (const [size, memAttr, ret] of rows) {
      expect((await rt.aclrtMallocPhysical({ size, prop: prop(memAttr), flags: 0 })).ret, `${size} B of ${memAttr}`).toBe(ret);
    }
    expect([...host.state.physical.values()].map((m) => [m.pageClass, m.pages])).toEqual([
      ['normal', 512],
      ['huge', 3],
      ['giant', 2],
    ]);
  });

  const BAD_PROPS: [string, aclrtPhysicalMemProp][] = [
    ['handleType POSIX (2)', { ...prop(), handleType: 2 }],
    ['allocationType 1', { ...prop(), allocationType: 1 }],
    ['reserve 1', { ...prop(), reserve: 1 }],
    ['location.type UNREGISTERED (2)', { ...prop(), location: { type: LOCATION.ACL_MEM_LOCATION_TYPE_UNREGISTERED, id: 0 } }],
    ['location.type MANAGED (3)', { ...prop(), location: { type: 3, id: 0 } }],
    ['location.id 1 on a one-device host', prop(ATTR.ACL_HBM_MEM_HUGE, 1)],
    ['memAttr ACL_DDR_MEM (0)', prop(ATTR.ACL_DDR_MEM)],
    ['memAttr ACL_HBM_MEM (1)', prop(ATTR.ACL_HBM_MEM)],
    ['memAttr ACL_DDR_MEM_HUGE (2) for a device', prop(ATTR.ACL_DDR_MEM_HUGE)],
    ['memAttr ACL_DDR_MEM_NORMAL (3) for a device', prop(ATTR.ACL_DDR_MEM_NORMAL)],
    ['memAttr ACL_DDR_MEM_P2P_HUGE (6) for a device', prop(ATTR.ACL_DDR_MEM_P2P_HUGE)],
    ['memAttr ACL_DDR_MEM_P2P_NORMAL (7) for a device', prop(ATTR.ACL_DDR_MEM_P2P_NORMAL)],
    ['memAttr ACL_HBM_MEM_P2P_HUGE (8)', prop(ATTR.ACL_HBM_MEM_P2P_HUGE)],
    ['memAttr ACL_HBM_MEM_P2P_NORMAL (9)', prop(ATTR.ACL_HBM_MEM_P2P_NORMAL)],
    ['memAttr ACL_HBM_MEM_P2P_HUGE1G (11)', prop(ATTR.ACL_HBM_MEM_P2P_HUGE1G)],
  ];
  for (const [what, bad] of BAD_PROPS) {
    it(`VM-3: ${what} → 100000 from aclrtMallocPhysical and aclrtMemGetAllocationGranularity`, async () => {
      const { host, rt } = await session();
      expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: bad, flags: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
      expect((await rt.aclrtMemGetAllocationGranularity({ prop: bad, option: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
      expect(host.state.physical.size).toBe(0);
    });
  }

  it('VM-3: a HOST location is refused and allocates nothing (modeled: the runtime takes DDR memory there, the simulator does not)', async () => {
    const { host, rt, device } = await session();
    const before = devicePools(device);
    for (const type of [LOCATION.ACL_MEM_LOCATION_TYPE_HOST, LOCATION.ACL_MEM_LOCATION_TYPE_HOST_NUMA]) {
      const hostProp = { ...prop(ATTR.ACL_DDR_MEM_HUGE), location: { type, id: 0 } };
      expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: hostProp, flags: 0 })).ret).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    }
    expect(host.state.physical.size).toBe(0);
    expect(devicePools(device)).toEqual(before);
  });

  it('VM-3: a NULL prop → 100000; a well-formed prop is accepted', async () => {
    const { rt } = await session();
    expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: null, flags: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: prop(), flags: 0 })).ret).toBe(0);
  });

  it('VM-4: flags must be 0; the handle is an opaque value, not a device address', async () => {
    const { host, rt, device } = await session();
    expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: prop(), flags: 1 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    const before = devicePools(device).all.free;
    const handle = await physical(rt, 4 * MiB);
    expect(before - devicePools(device).all.free).toBe(4 * MiB);
    expect(deviceOfAddress(addressOf(handle), host.deviceCount)).toBe(-1);
    expect((await rt.aclrtFree({ devPtr: handle })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    const attributes = await rt.aclrtPointerGetAttributes({ ptr: handle });
    expect(attributes.attributes?.location.type).toBe(LOCATION.ACL_MEM_LOCATION_TYPE_UNREGISTERED);
    const hostPtr = need((await rt.aclrtMallocHost({ size: 4096 })).hostPtr, 'hostPtr');
    const copy = await rt.aclrtMemcpy({
      dst: handle,
      destMax: 4096,
      src: hostPtr,
      count: 4096,
      kind: aclrtMemcpyKind.byName.ACL_MEMCPY_HOST_TO_DEVICE,
    });
    expect(copy.ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it('VM-5: alignment must be 0 and flags 0 or 1; reservations are 2 MiB-aligned, and 1 GiB-aligned from 1 GiB up', async () => {
    const { rt } = await session();
    expect((await rt.aclrtReserveMemAddress({ size: 2 * MiB, alignment: 2 * MiB, expectPtr: '0x0', flags: 0 })).ret).toBe(
      ACL_ERROR_INVALID_PARAM,
    );
    expect((await rt.aclrtReserveMemAddress({ size: 2 * MiB, alignment: 0, expectPtr: '0x0', flags: 2 })).ret).toBe(
      ACL_ERROR_INVALID_PARAM,
    );
    expect((await rt.aclrtReserveMemAddress({ size: 0, alignment: 0, expectPtr: '0x0', flags: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    const first = await rt.aclrtReserveMemAddress({ size: 2 * MiB, alignment: 0, expectPtr: '0x0', flags: 1 });
    expect(first.ret).toBe(0);
    expect(addressOf(first.virPtr) % (2 * MiB)).toBe(0);
    const big = addressOf(await reserve(rt, GiB));
    expect(big % GiB).toBe(0);
    expect(big).not.toBe(DEVICE_VA_BASE);
  });

  it('VM-5: a non-null expectPtr must lie in the 16–24 TiB window and be aligned', async () => {
    const { host, rt } = await session();
    const wanted = 16 * TiB + 64 * GiB;
    const placed = await rt.aclrtReserveMemAddress({ size: 4 * MiB, alignment: 0, expectPtr: toHex(wanted), flags: 0 });
    expect(placed).toEqual({ ret: 0, virPtr: toHex(wanted) });
    for (const [expectPtr, size] of [
      [8 * TiB, 4 * MiB],
      [15 * TiB, 4 * MiB],
      [24 * TiB, 4 * MiB],
      [24 * TiB - 2 * MiB, 4 * MiB],
      [16 * TiB + 4 * KiB, 4 * MiB],
      [wanted + 2 * MiB, 4 * MiB],
    ] as const) {
      expect((await rt.aclrtReserveMemAddress({ size, alignment: 0, expectPtr: toHex(expectPtr), flags: 0 })).ret, toHex(expectPtr)).toBe(
        ACL_ERROR_INVALID_PARAM,
      );
    }
    expect(host.state.reservations.size).toBe(1);
  });

  it('VM-6: size must equal the handle’s size, offset and flags must be 0', async () => {
    const { host, rt } = await session();
    const virPtr = await reserve(rt, 8 * MiB);
    const handle = await physical(rt, 4 * MiB);
    const rows: [number, number, number][] = [
      [2 * MiB, 0, 0],
      [8 * MiB, 0, 0],
      [4 * MiB, 2 * MiB, 0],
      [4 * MiB, 0, 1],
    ];
    for (const [size, offset, flags] of rows) {
      expect((await rt.aclrtMapMem({ virPtr, size, offset, handle, flags })).ret, `${size}/${offset}/${flags}`).toBe(
        ACL_ERROR_INVALID_PARAM,
      );
    }
    expect(host.state.mappings.size).toBe(0);
    expect((await rt.aclrtMapMem({ virPtr, size: 4 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
  });

  it('VM-6: the range must lie inside one reservation and must not overlap a mapping', async () => {
    const { host, rt } = await session();
    const first = await reserve(rt, 8 * MiB);
    const second = await reserve(rt, 8 * MiB);
    expect(addressOf(second)).toBe(addressOf(first) + 8 * MiB);
    const a = await physical(rt, 4 * MiB);
    const b = await physical(rt, 4 * MiB);
    const map = (virPtr: Hex, handle: Hex) => rt.aclrtMapMem({ virPtr, size: 4 * MiB, offset: 0, handle, flags: 0 });
    // Past the end of the first reservation, straddling both, or in no reservation at all.
    expect((await map(at(first, 6 * MiB), a)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await map(at(first, 64 * MiB), a)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await map(at(first, 2 * MiB), a)).ret).toBe(0);
    // Overlaps [first + 2 MiB, first + 6 MiB) from either side.
    expect((await map(first, b)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await map(at(first, 4 * MiB), b)).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await map(second, b)).ret).toBe(0);
    expect([...host.state.mappings.values()].map((m) => m.addr - addressOf(first))).toEqual([2 * MiB, 8 * MiB]);
  });

  it('VM-6: one reservation must not mix handles from two devices', async () => {
    const { host, rt } = await session([ASCEND_910B2, ASCEND_910B2]);
    const virPtr = await reserve(rt, 8 * MiB);
    const local = await physical(rt, 2 * MiB, ATTR.ACL_HBM_MEM_HUGE, 0);
    const remote = await physical(rt, 2 * MiB, ATTR.ACL_HBM_MEM_HUGE, 1);
    expect(host.state.devices[1]?.frames.hugeFrames).toBe(1);
    expect((await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle: local, flags: 0 })).ret).toBe(0);
    const mixed = await rt.aclrtMapMem({ virPtr: at(virPtr, 2 * MiB), size: 2 * MiB, offset: 0, handle: remote, flags: 0 });
    expect(mixed.ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(mixed.message).toContain('device 1');
    // In a reservation of its own, the device-1 handle maps fine.
    const own = await reserve(rt, 2 * MiB);
    expect((await rt.aclrtMapMem({ virPtr: own, size: 2 * MiB, offset: 0, handle: remote, flags: 0 })).ret).toBe(0);
  });

  it('VM-7: mapping alone makes the range read-write on its own device; aclrtMemSetAccess takes exactly the mapped range and READWRITE', async () => {
    const { host, rt } = await session([ASCEND_910B2, ASCEND_910B2]);
    const virPtr = await reserve(rt, 4 * MiB);
    const handle = await physical(rt, 2 * MiB);
    expect((await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
    const device = (id: number) => ({ type: LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE, id });
    expect(await rt.aclrtMemGetAccess({ virPtr, location: device(0) })).toEqual({ ret: 0, flag: READWRITE });
    expect(await rt.aclrtMemGetAccess({ virPtr, location: device(1) })).toEqual({ ret: 0, flag: 0 });
    const grant = (flags: number, id = 1) => ({ flags, location: device(id) });
    const refused: [Hex, number, ReturnType<typeof grant>[], number][] = [
      [at(virPtr, 0), 4 * MiB, [grant(READWRITE)], 1],
      [at(virPtr, 4096), 2 * MiB, [grant(READWRITE)], 1],
      [virPtr, 2 * MiB, [grant(aclrtMemAccessFlags.byName.ACL_RT_MEM_ACCESS_FLAGS_READ)], 1],
      [virPtr, 2 * MiB, [{ flags: READWRITE, location: { type: LOCATION.ACL_MEM_LOCATION_TYPE_HOST, id: 0 } }], 1],
      [virPtr, 2 * MiB, [grant(READWRITE)], 0],
      [virPtr, 2 * MiB, [grant(READWRITE)], 2],
    ];
    for (const [ptr, size, desc, count] of refused) {
      expect((await rt.aclrtMemSetAccess({ virPtr: ptr, size, desc, count })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    }
    expect((await rt.aclrtMemSetAccess({ virPtr, size: 2 * MiB, desc: [grant(READWRITE, 0), grant(READWRITE, 1)], count: 2 })).ret).toBe(0);
    expect(await rt.aclrtMemGetAccess({ virPtr, location: device(1) })).toEqual({ ret: 0, flag: READWRITE });
    expect([...host.state.mappings.values()][0]?.access).toEqual([
      { device: 0, flags: READWRITE },
      { device: 1, flags: READWRITE },
    ]);
  });

  it('VM-8: teardown in order: unmap → release → free physical returns every frame', async () => {
    const { host, rt, device, events } = await session();
    const baseline = devicePools(device);
    const virPtr = await reserve(rt, 4 * MiB);
    const handle = await physical(rt, 4 * MiB);
    expect((await rt.aclrtMapMem({ virPtr, size: 4 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
    let mark = events.length;
    expect((await rt.aclrtUnmapMem({ virPtr })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['unmap']);
    mark = events.length;
    expect((await rt.aclrtReleaseMemAddress({ virPtr })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['release']);
    expect(device.frames.hugeFrames).toBe(2);
    mark = events.length;
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['physFree', 'physRelease']);
    expect(devicePools(device)).toEqual(baseline);
    expect([host.state.handles.size, host.state.physical.size, host.state.reservations.size, host.state.mappings.size]).toEqual([
      0, 0, 0, 0,
    ]);
  });

  it('VM-8: aclrtReleaseMemAddress fails while any part of the reservation is mapped', async () => {
    const { host, rt } = await session();
    const virPtr = await reserve(rt, 8 * MiB);
    const handle = await physical(rt, 2 * MiB);
    expect((await rt.aclrtMapMem({ virPtr: at(virPtr, 6 * MiB), size: 2 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
    expect((await rt.aclrtReleaseMemAddress({ virPtr })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(host.state.reservations.size).toBe(1);
    expect((await rt.aclrtUnmapMem({ virPtr: at(virPtr, 6 * MiB) })).ret).toBe(0);
    expect((await rt.aclrtReleaseMemAddress({ virPtr })).ret).toBe(0);
  });

  it('VM-8: aclrtFreePhysical on a mapped handle is deferred: the frames stay until the unmap', async () => {
    const { host, rt, device, events } = await session();
    const baseline = devicePools(device);
    const virPtr = await reserve(rt, 4 * MiB);
    const handle = await physical(rt, 4 * MiB);
    expect((await rt.aclrtMapMem({ virPtr, size: 4 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
    let mark = events.length;
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    const deferred = events.slice(mark).filter((e): e is PhysFreeEvent => e.kind === 'physFree');
    expect(deferred.map((e) => e.deferred)).toEqual([true]);
    expect(effectKinds(events, mark)).toEqual(['physFree']);
    expect(device.frames.hugeFrames).toBe(2);
    expect(host.state.physical.size).toBe(1);
    // The handle is gone for the program.
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(ACL_ERROR_RT_INVALID_HANDLE);
    expect((await rt.aclrtMapMem({ virPtr: at(virPtr, 0), size: 4 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(
      ACL_ERROR_RT_INVALID_HANDLE,
    );
    mark = events.length;
    expect((await rt.aclrtUnmapMem({ virPtr })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['unmap', 'physFree', 'physRelease']);
    expect(device.frames.hugeFrames).toBe(0);
    expect((await rt.aclrtReleaseMemAddress({ virPtr })).ret).toBe(0);
    expect(devicePools(device)).toEqual(baseline);
  });

  it('VM-9: export in one process, import in another of the same host: both map the same frames', async () => {
    const { host, rt, device } = await session();
    const other = await otherProcess(host);
    const handle = await physical(rt, 4 * MiB);
    const exported = await rt.aclrtMemExportToShareableHandle({ handle, handleType: 0, flags: 1 });
    expect(exported.ret).toBe(0);
    const shareableHandle = need(exported.shareableHandle, 'shareable');
    // One handle, one shareable handle.
    expect((await rt.aclrtMemExportToShareableHandle({ handle, handleType: 0, flags: 1 })).shareableHandle).toBe(shareableHandle);
    const used = devicePools(device).all.free;
    const imported = await other.aclrtMemImportFromShareableHandle({ shareableHandle, deviceId: 0 });
    expect(imported.ret).toBe(0);
    const otherHandle = need(imported.handle, 'imported handle');
    expect(otherHandle).not.toBe(handle);
    const virPtr = await reserve(other, 4 * MiB);
    expect((await other.aclrtMapMem({ virPtr, size: 4 * MiB, offset: 0, handle: otherHandle, flags: 0 })).ret).toBe(0);
    expect(devicePools(device).all.free).toBe(used);
    expect([host.state.handles.size, host.state.physical.size]).toEqual([2, 1]);
    // The exporter frees its handle: the memory stays while the importer holds it.
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect(host.state.physical.size).toBe(1);
    expect(device.frames.hugeFrames).toBe(2);
    expect((await other.aclrtUnmapMem({ virPtr })).ret).toBe(0);
    expect((await other.aclrtFreePhysical({ handle: otherHandle })).ret).toBe(0);
    expect([host.state.physical.size, device.frames.hugeFrames]).toEqual([0, 0]);
  });

  it("VM-11: a shareable handle ends with its exporter's handle: a later import fails, earlier imports keep the memory", async () => {
    const { host, rt } = await session();
    const early = await otherProcess(host, 'early');
    const late = await otherProcess(host, 'late');
    const handle = await physical(rt, 2 * MiB);
    const shareableHandle = need((await rt.aclrtMemExportToShareableHandle({ handle, handleType: 0, flags: 1 })).shareableHandle, 'share');
    const kept = need((await early.aclrtMemImportFromShareableHandle({ shareableHandle, deviceId: 0 })).handle, 'early import');
    expect(host.state.shares.size).toBe(1);
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect(host.state.shares.size).toBe(0);
    const refused = await late.aclrtMemImportFromShareableHandle({ shareableHandle, deviceId: 0 });
    expect(refused).toMatchObject({ ret: ACL_ERROR_INVALID_PARAM, message: expect.stringContaining('VM-11') });
    // The early importer's handle still holds the memory until it frees it (VM-8).
    expect(host.state.physical.size).toBe(1);
    expect((await early.aclrtFreePhysical({ handle: kept })).ret).toBe(0);
    expect(host.state.physical.size).toBe(0);
  });

  it('VM-9: the exporting process cannot import its own handle, and an imported handle cannot be re-exported', async () => {
    const { host, rt } = await session();
    const other = await otherProcess(host);
    const handle = await physical(rt, 2 * MiB);
    const shareableHandle = need((await rt.aclrtMemExportToShareableHandle({ handle, handleType: 0, flags: 1 })).shareableHandle, 'share');
    expect((await rt.aclrtMemImportFromShareableHandle({ shareableHandle, deviceId: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    const imported = need((await other.aclrtMemImportFromShareableHandle({ shareableHandle, deviceId: 0 })).handle, 'handle');
    expect((await other.aclrtMemExportToShareableHandle({ handle: imported, handleType: 0, flags: 1 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemExportToShareableHandle({ handle, handleType: 2, flags: 1 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemExportToShareableHandle({ handle, handleType: 0, flags: 2 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it('VM-9: the default export flag turns on a PID allow-list; flag 0x1 turns it off', async () => {
    const { host, rt } = await session();
    const b = await otherProcess(host, 'b');
    const c = await otherProcess(host, 'c');
    const guarded = need(
      (await rt.aclrtMemExportToShareableHandle({ handle: await physical(rt, 2 * MiB), handleType: 0, flags: 0 })).shareableHandle,
      'guarded',
    );
    expect((await b.aclrtMemImportFromShareableHandle({ shareableHandle: guarded, deviceId: 0 })).ret).toBe(ACL_ERROR_RT_NO_PERMISSION);
    // Only the exporter sets the list.
    expect((await b.aclrtMemSetPidToShareableHandle({ shareableHandle: guarded, pid: [b.pid], pidNum: 1 })).ret).toBe(
      ACL_ERROR_INVALID_PARAM,
    );
    expect((await rt.aclrtMemSetPidToShareableHandle({ shareableHandle: guarded, pid: [b.pid], pidNum: 1 })).ret).toBe(0);
    expect((await b.aclrtMemImportFromShareableHandle({ shareableHandle: guarded, deviceId: 0 })).ret).toBe(0);
    expect((await c.aclrtMemImportFromShareableHandle({ shareableHandle: guarded, deviceId: 0 })).ret).toBe(ACL_ERROR_RT_NO_PERMISSION);
    const open = need(
      (await rt.aclrtMemExportToShareableHandle({ handle: await physical(rt, 2 * MiB), handleType: 0, flags: 1 })).shareableHandle,
      'open',
    );
    expect((await c.aclrtMemImportFromShareableHandle({ shareableHandle: open, deviceId: 0 })).ret).toBe(0);
  });

  it('VM-10: Ascend310P3 has no VMM: granularity, physical allocation and reservation → 207000, and nothing changes', async () => {
    const { host, rt } = await session([ASCEND_310P3]);
    const before = fingerprint(host.state);
    expect((await rt.aclrtMemGetAllocationGranularity({ prop: prop(), option: 0 })).ret).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: prop(), flags: 0 })).ret).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    expect((await rt.aclrtMallocPhysical({ size: 2 * MiB, prop: prop(ATTR.ACL_HBM_MEM_NORMAL), flags: 0 })).ret).toBe(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    );
    expect((await rt.aclrtReserveMemAddress({ size: 2 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 })).ret).toBe(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    );
    expect(fingerprint(host.state).replace(/"seq":\d+/, '')).toBe(before.replace(/"seq":\d+/, ''));
  });
});

describe('VM-12: retained handles and their properties', () => {
  it('VM-12: each aclrtMemRetainAllocationHandle takes a reference that one aclrtFreePhysical gives back; only the last frees', async () => {
    const { host, rt, device, events } = await session();
    const baseline = devicePools(device);
    const handle = await physical(rt, 2 * MiB);
    const virPtr = await reserve(rt, 2 * MiB);
    expect((await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
    expect(await rt.aclrtMemRetainAllocationHandle({ virPtr })).toEqual({ ret: 0, handle });
    expect(await rt.aclrtMemRetainAllocationHandle({ virPtr })).toEqual({ ret: 0, handle });
    expect((await rt.aclrtMemRetainAllocationHandle({ virPtr: at(virPtr, 4096) })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    const mark = events.length;
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect(effectKinds(events, mark)).toEqual(['physRetain', 'physRetain']);
    expect([...host.state.handles.values()].map((h) => [h.retains, h.freed])).toEqual([[0, false]]);
    // The last free, while mapped, is deferred to the unmap (VM-8); the retain is then refused.
    expect((await rt.aclrtFreePhysical({ handle })).ret).toBe(0);
    expect((await rt.aclrtMemRetainAllocationHandle({ virPtr })).ret).toBe(ACL_ERROR_RT_INVALID_HANDLE);
    expect((await rt.aclrtUnmapMem({ virPtr })).ret).toBe(0);
    expect((await rt.aclrtReleaseMemAddress({ virPtr })).ret).toBe(0);
    expect(devicePools(device)).toEqual(baseline);
  });

  it('VM-12: the teardown plan gives back every reference before the handle', async () => {
    const { host, rt, device } = await session();
    const baseline = devicePools(device);
    const handle = await physical(rt, 2 * MiB);
    const virPtr = await reserve(rt, 2 * MiB);
    expect((await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 })).ret).toBe(0);
    for (let n = 0; n < 3; n += 1) expect((await rt.aclrtMemRetainAllocationHandle({ virPtr })).ret).toBe(0);
    const plan = planTeardown(host.state, rt.pid);
    expect(plan.filter((call) => call.fn === 'aclrtFreePhysical')).toHaveLength(4);
    for (const call of plan) expect((await invokeCall(rt, call)).ret, call.fn).toBe(0);
    expect(devicePools(device)).toEqual(baseline);
    expect(host.state.handles.size).toBe(0);
  });

  it.each([
    ['ACL_HBM_MEM_HUGE', ATTR.ACL_HBM_MEM_HUGE, ATTR.ACL_HBM_MEM_HUGE, 2 * MiB],
    ['ACL_MEM_HUGE', ATTR.ACL_MEM_HUGE, ATTR.ACL_HBM_MEM_HUGE, 2 * MiB],
    ['ACL_HBM_MEM_NORMAL', ATTR.ACL_HBM_MEM_NORMAL, ATTR.ACL_HBM_MEM_NORMAL, 2 * MiB],
    ['ACL_MEM_HUGE1G', ATTR.ACL_MEM_HUGE1G, ATTR.ACL_HBM_MEM_HUGE1G, GiB],
  ])('VM-12: a handle of %s reads back as its page kind', async (_name, memAttr, reported, size) => {
    const { rt } = await session();
    const handle = await physical(rt, size, memAttr);
    expect(await rt.aclrtMemGetAllocationPropertiesFromHandle({ handle })).toEqual({
      ret: 0,
      prop: {
        handleType: 0,
        allocationType: 0,
        memAttr: reported,
        location: { id: 0, type: LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE },
        reserve: 0,
      },
    });
    expect((await rt.aclrtMemGetAllocationPropertiesFromHandle({ handle: '0x1234' })).ret).toBe(ACL_ERROR_RT_INVALID_HANDLE);
  });
});
