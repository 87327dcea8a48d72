import { aclrtMemAccessFlags, aclrtMemAttr, aclrtMemLocationType } from '../acl/enums.ts';
import {
  ACL_ERROR_INVALID_PARAM,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INVALID_HANDLE,
  ACL_ERROR_RT_MEMORY_ALLOCATION,
} from '../acl/errors.ts';
import type { aclrtPhysicalMemProp } from '../acl/structs.ts';
import type { PageClass } from '../model/events.ts';
import { pageBytes } from '../model/malloc-policy.ts';
import { findPages } from '../model/placement.ts';
import { reason } from '../model/reasons.ts';
import type { DeviceState, Mapping, PhysicalHandle, Reservation } from '../model/state.ts';
import { text } from '../texts/table.ts';
import { alignUp, GiB, MiB } from '../units/bytes.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, type OpResult, ok, type SimContext } from './context.ts';
import { deviceOfAddress, EXPECT_PTR_MAX, EXPECT_PTR_MIN } from './layout.ts';

const A = aclrtMemAttr.byName;
const LOCATION = aclrtMemLocationType.byName;
/** VM-2: the allocation granularity, "only 2 MB" (CANN 8.0 docs); 1 GiB for HUGE1G (inferred). */
/** The refusal for too few free pages, by page class (VM-4). */
const NO_ROOM_TEXTS = { normal: 'vmm-no-room-normal', huge: 'vmm-no-room-huge', giant: 'vmm-no-room-giant' } as const;

const GRANULARITY = 2 * MiB;

function vmmSupported(device: DeviceState): OpResult<never> | undefined {
  if (device.profile.features.vmm) return undefined;
  return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('vmm-unsupported', { profile: device.profile.name }));
}

/** The page class of a device memAttr accepted by aclrtMallocPhysical (acl-api.md §7). */
export function pageClassOfAttr(memAttr: number): PageClass | undefined {
  switch (memAttr) {
    case A.ACL_HBM_MEM_HUGE:
    case A.ACL_MEM_HUGE:
    case A.ACL_MEM_P2P_HUGE:
      return 'huge';
    case A.ACL_HBM_MEM_NORMAL:
    case A.ACL_MEM_NORMAL:
    case A.ACL_MEM_P2P_NORMAL:
      return 'normal';
    case A.ACL_HBM_MEM_HUGE1G:
    case A.ACL_MEM_HUGE1G:
    case A.ACL_MEM_P2P_HUGE1G:
      return 'giant';
    default:
      return undefined;
  }
}

interface PropCheck {
  readonly device: DeviceState;
  readonly pageClass: PageClass;
  readonly granularity: number;
}

/** VM-3: handleType NONE, allocationType PINNED, a device memAttr, location DEVICE with a real id, reserve 0. */
function checkProp(context: SimContext, prop: aclrtPhysicalMemProp | null): PropCheck | OpResult<never> {
  if (prop === null) return invalid(text('null-arg-rule', { name: 'prop', rule: 'VM-3' }));
  if (prop.handleType !== 0) return invalid(text('prop-handle-type', { value: prop.handleType }));
  if (prop.allocationType !== 0) return invalid(text('prop-allocation-type', { value: prop.allocationType }));
  if (prop.reserve !== 0) return invalid(text('must-be-zero-rule', { name: 'prop.reserve', value: prop.reserve, rule: 'VM-3' }));
  const { type, id } = prop.location;
  if (type === LOCATION.ACL_MEM_LOCATION_TYPE_HOST || type === LOCATION.ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('prop-host-location'));
  }
  if (type !== LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE) {
    return invalid(text('prop-location-type', { value: type }));
  }
  const device = context.state.devices[id];
  if (device === undefined) return invalid(text('prop-location-id', { id }));
  const unsupported = vmmSupported(device);
  if (unsupported !== undefined) return unsupported;
  const pageClass = pageClassOfAttr(prop.memAttr);
  if (pageClass === undefined) {
    const name = aclrtMemAttr.nameOf(prop.memAttr) ?? String(prop.memAttr);
    return invalid(text('prop-mem-attr', { name }));
  }
  if (pageClass === 'giant' && !device.profile.features.giantPages) {
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('no-giant-pages', { profile: device.profile.name }));
  }
  return { device, pageClass, granularity: pageClass === 'giant' ? GiB : GRANULARITY };
}

function isPropCheck(value: PropCheck | OpResult<never>): value is PropCheck {
  return 'pageClass' in value;
}

export const aclrtMemGetAllocationGranularity: Op<'aclrtMemGetAllocationGranularity'> = (context, { prop, option }) => {
  const checked = checkProp(context, prop);
  if (!isPropCheck(checked)) return checked;
  if (option !== 0 && option !== 1) return invalid(text('granularity-option', { option }));
  return ok({ granularity: checked.granularity });
};

export const aclrtMallocPhysical: Op<'aclrtMallocPhysical'> = (context, { size, prop, flags }) => {
  // LT-2: allocating memory needs a current device, even though prop names the device to allocate on.
  const current = currentDevice(context);
  if (isResult(current)) return current;
  if (flags !== 0) return invalid(text('must-be-zero-rule', { name: 'flags', value: flags, rule: 'VM-4' }));
  const checked = checkProp(context, prop);
  if (!isPropCheck(checked)) return checked;
  const { device, pageClass, granularity } = checked;
  if (size === 0 || size % granularity !== 0) {
    return invalid(text('vmm-size-granularity', { size, granularity }));
  }
  const pageSize = pageBytes(pageClass, device.profile);
  const pages = size / pageSize;
  const runs = findPages(device.frames, pageClass, pages);
  if (runs === undefined) {
    return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, text(NO_ROOM_TEXTS[pageClass], { device: device.id, pages }), [
      reason('exhausted', ['VM-4'], { pageClass, needed: pages, available: pageClass === 'huge' ? device.frames.free.count : 0 }),
    ]);
  }
  const id = context.host.newId();
  const handle = context.host.newOpaque();
  const memAttr = prop?.memAttr ?? 0;
  context.emit({
    kind: 'physAlloc',
    pid: context.pid,
    device: device.id,
    id,
    handle,
    size,
    memAttr,
    pageClass,
    pageSize,
    pages,
    runs,
  });
  return ok({ handle: toHex(handle) });
};

/** Drops a handle that has no mappings left, and releases its memory when no handle refers to it any more (VM-8). */
function dropHandle(context: SimContext, handle: PhysicalHandle): void {
  context.emit({ kind: 'physFree', id: handle.id, deferred: false });
  for (const other of context.state.handles.values()) if (other.memory === handle.memory) return;
  context.emit({ kind: 'physRelease', id: handle.memory });
}

/** aclrtFreePhysical on a mapped handle is deferred: the memory goes at the last unmap (VM-8). */
export function freeHandle(context: SimContext, handle: PhysicalHandle): void {
  if (handle.mappings > 0) context.emit({ kind: 'physFree', id: handle.id, deferred: true });
  else dropHandle(context, handle);
}

export function unmap(context: SimContext, mapping: Mapping): void {
  context.emit({ kind: 'unmap', id: mapping.id });
  const handle = context.state.handles.get(mapping.handle);
  if (handle?.freed && handle.mappings === 0) dropHandle(context, handle);
}

function liveHandle(context: SimContext, hex: string): PhysicalHandle | undefined {
  const id = context.process.handleByValue.get(address(hex));
  return id === undefined ? undefined : context.state.handles.get(id);
}

export const aclrtFreePhysical: Op<'aclrtFreePhysical'> = (context, { handle }) => {
  const target = liveHandle(context, handle);
  if (target === undefined) return fail(ACL_ERROR_RT_INVALID_HANDLE, text('handle-not-live', { handle }));
  // A reference taken with aclrtMemRetainAllocationHandle is given back first (VM-12).
  if (target.retains > 0) context.emit({ kind: 'physRetain', id: target.id, retains: target.retains - 1 });
  else freeHandle(context, target);
  return done();
};

export const aclrtReserveMemAddress: Op<'aclrtReserveMemAddress'> = (context, { size, alignment, expectPtr, flags }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  const unsupported = vmmSupported(device);
  if (unsupported !== undefined) return unsupported;
  if (size === 0) return invalid(text('size-zero-arg'));
  if (alignment !== 0) return invalid(text('reserved-zero-rule', { name: 'alignment', value: alignment, rule: 'VM-5' }));
  if (flags !== 0 && flags !== 1) return invalid(text('reserve-flags', { flags }));
  const vaAlign = size >= GiB ? GiB : GRANULARITY;
  const length = alignUp(size, GRANULARITY);
  const wanted = address(expectPtr);
  let addr: number | undefined;
  let window = device.id;
  if (wanted !== 0) {
    if (wanted < EXPECT_PTR_MIN || wanted + size > EXPECT_PTR_MAX) return invalid(text('expect-ptr-window', { expectPtr }));
    if (wanted % vaAlign !== 0) return invalid(text('expect-ptr-align', { expectPtr, align: vaAlign === GiB ? '1 GiB' : '2 MiB' }));
    window = deviceOfAddress(wanted, context.state.devices.length);
    const allocator = context.space.deviceVa[window];
    if (allocator === undefined || !allocator.takeAt(wanted, length)) return invalid(text('expect-ptr-taken', { expectPtr }));
    addr = wanted;
  } else {
    addr = context.space.deviceVa[window]?.take(length, vaAlign);
    if (addr === undefined) return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, text('reserve-window-full', { bytes: length, device: window }));
  }
  context.emit({ kind: 'reserve', pid: context.pid, device: window, id: context.host.newId(), addr, size, flags });
  return ok({ virPtr: toHex(addr) });
};

export const aclrtReleaseMemAddress: Op<'aclrtReleaseMemAddress'> = (context, { virPtr }) => {
  const id = context.process.reservationByAddr.get(address(virPtr));
  const reservation = id === undefined ? undefined : context.state.reservations.get(id);
  if (reservation === undefined) return invalid(text('reservation-not-live', { virPtr }));
  for (const mapping of context.state.mappings.values()) {
    if (mapping.reservation === reservation.id) {
      return invalid(text('reservation-mapped', { addr: toHex(mapping.addr) }));
    }
  }
  context.space.deviceVa[reservation.device]?.release(reservation.addr, alignUp(reservation.size, GRANULARITY));
  context.emit({ kind: 'release', id: reservation.id });
  return done();
};

export const aclrtMapMem: Op<'aclrtMapMem'> = (context, { virPtr, size, offset, handle, flags }) => {
  if (offset !== 0) return invalid(text('must-be-zero-rule', { name: 'offset', value: offset, rule: 'VM-6' }));
  if (flags !== 0) return invalid(text('must-be-zero-rule', { name: 'flags', value: flags, rule: 'VM-6' }));
  const target = liveHandle(context, handle);
  if (target === undefined) return fail(ACL_ERROR_RT_INVALID_HANDLE, text('handle-not-live', { handle }));
  const memory = context.state.physical.get(target.memory);
  if (memory === undefined) return fail(ACL_ERROR_RT_INVALID_HANDLE, text('handle-no-memory', { handle }));
  if (size !== memory.size) return invalid(text('map-size', { size, handleSize: memory.size }));
  const start = address(virPtr);
  const end = start + size;
  let reservation: Reservation | undefined;
  for (const id of context.process.reservationByAddr.values()) {
    const candidate = context.state.reservations.get(id);
    if (candidate !== undefined && candidate.addr <= start && end <= candidate.addr + candidate.size) reservation = candidate;
  }
  if (reservation === undefined) return invalid(text('map-outside', { virPtr, size }));
  for (const mapping of context.state.mappings.values()) {
    if (mapping.reservation !== reservation.id) continue;
    if (mapping.addr < end && start < mapping.addr + mapping.size) {
      return invalid(text('map-overlap', { virPtr, size, addr: toHex(mapping.addr) }));
    }
    if (mapping.device !== target.device) {
      return invalid(text('map-other-device', { mapped: mapping.device, device: target.device }));
    }
  }
  context.emit({
    kind: 'map',
    pid: context.pid,
    id: context.host.newId(),
    reservation: reservation.id,
    handle: target.id,
    addr: start,
    size,
    device: target.device,
  });
  return done();
};

export const aclrtUnmapMem: Op<'aclrtUnmapMem'> = (context, { virPtr }) => {
  const id = context.process.mappingByAddr.get(address(virPtr));
  const mapping = id === undefined ? undefined : context.state.mappings.get(id);
  if (mapping === undefined) return invalid(text('mapping-not-live', { virPtr }));
  unmap(context, mapping);
  return done();
};

export const aclrtMemSetAccess: Op<'aclrtMemSetAccess'> = (context, { virPtr, size, desc, count }) => {
  const id = context.process.mappingByAddr.get(address(virPtr));
  const mapping = id === undefined ? undefined : context.state.mappings.get(id);
  if (mapping === undefined || mapping.size !== size) {
    return invalid(text('access-range', { virPtr, size }));
  }
  if (count === 0 || count > desc.length) return invalid(text('access-count', { n: count, given: desc.length }));
  const grants = [];
  for (const [index, item] of desc.slice(0, count).entries()) {
    if (item.flags !== aclrtMemAccessFlags.byName.ACL_RT_MEM_ACCESS_FLAGS_READWRITE) {
      return invalid(text('access-flags', { index }));
    }
    if (item.location.type !== LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE || context.state.devices[item.location.id] === undefined) {
      return invalid(text('access-location', { index }));
    }
    if ((item.rsv ?? []).some((byte) => byte !== 0)) return invalid(text('access-rsv', { index }));
    grants.push({ device: item.location.id, flags: item.flags });
  }
  context.emit({ kind: 'setAccess', id: mapping.id, access: grants });
  return done();
};

export const aclrtMemGetAccess: Op<'aclrtMemGetAccess'> = (context, { virPtr, location }) => {
  if (location === null) return invalid(text('null-arg', { name: 'location' }));
  const at = address(virPtr);
  for (const mapping of context.state.mappings.values()) {
    if (mapping.pid !== context.pid || at < mapping.addr || at >= mapping.addr + mapping.size) continue;
    const grant = mapping.access.find((item) => item.device === location.id);
    // Mapping alone makes the range usable on its own device (VM-7, modeled).
    const own = location.type === LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE && location.id === mapping.device;
    return ok({ flag: grant?.flags ?? (own ? aclrtMemAccessFlags.byName.ACL_RT_MEM_ACCESS_FLAGS_READWRITE : 0) });
  }
  return fail(ACL_ERROR_INVALID_PARAM, text('mapping-not-inside', { virPtr }));
};

/**
 * VM-12: the handle mapped at `virPtr` (the exact address given to aclrtMapMem). Each call takes a
 * reference, which one more aclrtFreePhysical gives back. A handle already freed while mapped
 * (VM-8) is not handed out again here (modeled).
 */
export const aclrtMemRetainAllocationHandle: Op<'aclrtMemRetainAllocationHandle'> = (context, { virPtr }) => {
  const id = context.process.mappingByAddr.get(address(virPtr));
  const mapping = id === undefined ? undefined : context.state.mappings.get(id);
  if (mapping === undefined) return invalid(text('mapping-not-live-rule', { virPtr }));
  const handle = context.state.handles.get(mapping.handle);
  if (handle === undefined || handle.freed) {
    return fail(ACL_ERROR_RT_INVALID_HANDLE, text('mapping-handle-freed', { virPtr }));
  }
  context.emit({ kind: 'physRetain', id: handle.id, retains: handle.retains + 1 });
  return ok({ handle: toHex(handle.handle) });
};

const PAGE_ATTR: Readonly<Record<PageClass, number>> = {
  huge: aclrtMemAttr.byName.ACL_HBM_MEM_HUGE,
  normal: aclrtMemAttr.byName.ACL_HBM_MEM_NORMAL,
  giant: aclrtMemAttr.byName.ACL_HBM_MEM_HUGE1G,
};

/**
 * VM-12: the properties of a handle's memory as the runtime reports them: handle type NONE,
 * allocation type PINNED, the device, and a memAttr read back from the page kind (HBM_HUGE,
 * HBM_NORMAL or HBM_HUGE1G, whatever name it was allocated with).
 */
export const aclrtMemGetAllocationPropertiesFromHandle: Op<'aclrtMemGetAllocationPropertiesFromHandle'> = (context, { handle }) => {
  const target = liveHandle(context, handle);
  const memory = target === undefined ? undefined : context.state.physical.get(target.memory);
  if (target === undefined || memory === undefined) {
    return fail(ACL_ERROR_RT_INVALID_HANDLE, text('handle-not-live', { handle }));
  }
  return ok({
    prop: {
      handleType: 0,
      allocationType: 0,
      memAttr: PAGE_ATTR[memory.pageClass],
      location: { id: memory.device, type: aclrtMemLocationType.byName.ACL_MEM_LOCATION_TYPE_DEVICE },
      reserve: 0,
    },
  });
};
