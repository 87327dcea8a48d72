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
import { alignUp, GiB, MiB } from '../units/bytes.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, type OpResult, ok, type SimContext } from './context.ts';
import { deviceOfAddress, EXPECT_PTR_MAX, EXPECT_PTR_MIN } from './layout.ts';

const A = aclrtMemAttr.byName;
const LOCATION = aclrtMemLocationType.byName;
/** VM-2: the allocation granularity, "only 2 MB" (CANN 8.0 docs); 1 GiB for HUGE1G (inferred). */
const GRANULARITY = 2 * MiB;

function vmmSupported(device: DeviceState): OpResult<never> | undefined {
  if (device.profile.features.vmm) return undefined;
  return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, `${device.profile.name} has no virtual memory management (VM-10)`);
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
  if (prop === null) return invalid('prop is NULL (VM-3)');
  if (prop.handleType !== 0) return invalid(`prop.handleType must be ACL_MEM_HANDLE_TYPE_NONE (0), not ${prop.handleType} (VM-3)`);
  if (prop.allocationType !== 0)
    return invalid(`prop.allocationType must be ACL_MEM_ALLOCATION_TYPE_PINNED (0), not ${prop.allocationType} (VM-3)`);
  if (prop.reserve !== 0) return invalid(`prop.reserve must be 0, not ${prop.reserve} (VM-3)`);
  const { type, id } = prop.location;
  if (type === LOCATION.ACL_MEM_LOCATION_TYPE_HOST || type === LOCATION.ACL_MEM_LOCATION_TYPE_HOST_NUMA) {
    return fail(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      'host-located physical memory is accepted by the runtime but not modeled by the PageLens simulator',
    );
  }
  if (type !== LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE) {
    return invalid(`prop.location.type must be ACL_MEM_LOCATION_TYPE_DEVICE (1), not ${type} (VM-3)`);
  }
  const device = context.state.devices[id];
  if (device === undefined) return invalid(`prop.location.id ${id} is not a device of this host (VM-3)`);
  const unsupported = vmmSupported(device);
  if (unsupported !== undefined) return unsupported;
  const pageClass = pageClassOfAttr(prop.memAttr);
  if (pageClass === undefined) {
    const name = aclrtMemAttr.nameOf(prop.memAttr) ?? String(prop.memAttr);
    return invalid(
      `prop.memAttr ${name} is not accepted for device memory; use ACL_HBM_MEM_HUGE, ACL_HBM_MEM_NORMAL, ACL_HBM_MEM_HUGE1G or ACL_MEM_* (VM-3)`,
    );
  }
  if (pageClass === 'giant' && !device.profile.features.giantPages) {
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, `${device.profile.name} has no 1 GiB pages (DM-7)`);
  }
  return { device, pageClass, granularity: pageClass === 'giant' ? GiB : GRANULARITY };
}

function isPropCheck(value: PropCheck | OpResult<never>): value is PropCheck {
  return 'pageClass' in value;
}

export const aclrtMemGetAllocationGranularity: Op<'aclrtMemGetAllocationGranularity'> = (context, { prop, option }) => {
  const checked = checkProp(context, prop);
  if (!isPropCheck(checked)) return checked;
  if (option !== 0 && option !== 1)
    return invalid(`option must be ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM (0) or _RECOMMENDED (1), not ${option}`);
  return ok({ granularity: checked.granularity });
};

export const aclrtMallocPhysical: Op<'aclrtMallocPhysical'> = (context, { size, prop, flags }) => {
  // LT-2: allocating memory needs a current device, even though prop names the device to allocate on.
  const current = currentDevice(context);
  if (isResult(current)) return current;
  if (flags !== 0) return invalid(`flags must be 0, not ${flags} (VM-4)`);
  const checked = checkProp(context, prop);
  if (!isPropCheck(checked)) return checked;
  const { device, pageClass, granularity } = checked;
  if (size === 0 || size % granularity !== 0) {
    return invalid(
      `size ${size} must be a non-zero multiple of the granularity ${granularity} (VM-2); round it up with aclrtMemGetAllocationGranularity`,
    );
  }
  const pageSize = pageBytes(pageClass, device.profile);
  const pages = size / pageSize;
  const runs = findPages(device.frames, pageClass, pages);
  if (runs === undefined) {
    return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, `device ${device.id} has no room for ${pages} ${pageClass} pages`, [
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
  if (target === undefined)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, `handle ${handle} is not a live physical memory handle of this process`);
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
  if (size === 0) return invalid('size must be greater than 0');
  if (alignment !== 0) return invalid(`alignment is reserved and must be 0, not ${alignment} (VM-5)`);
  if (flags !== 0 && flags !== 1) return invalid(`flags must be 0 (1, "huge", is still accepted), not ${flags} (VM-5)`);
  const vaAlign = size >= GiB ? GiB : GRANULARITY;
  const length = alignUp(size, GRANULARITY);
  const wanted = address(expectPtr);
  let addr: number | undefined;
  let window = device.id;
  if (wanted !== 0) {
    if (wanted < EXPECT_PTR_MIN || wanted + size > EXPECT_PTR_MAX)
      return invalid(`expectPtr ${expectPtr} must lie in the 16–24 TiB window (VM-5)`);
    if (wanted % vaAlign !== 0) return invalid(`expectPtr ${expectPtr} must be aligned to ${vaAlign === GiB ? '1 GiB' : '2 MiB'} (VM-5)`);
    window = deviceOfAddress(wanted, context.state.devices.length);
    const allocator = context.space.deviceVa[window];
    if (allocator === undefined || !allocator.takeAt(wanted, length)) return invalid(`the range at expectPtr ${expectPtr} is not free`);
    addr = wanted;
  } else {
    addr = context.space.deviceVa[window]?.take(length, vaAlign);
    if (addr === undefined)
      return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, `no free ${length}-byte range left in device ${window}'s address window`);
  }
  context.emit({ kind: 'reserve', pid: context.pid, device: window, id: context.host.newId(), addr, size, flags });
  return ok({ virPtr: toHex(addr) });
};

export const aclrtReleaseMemAddress: Op<'aclrtReleaseMemAddress'> = (context, { virPtr }) => {
  const id = context.process.reservationByAddr.get(address(virPtr));
  const reservation = id === undefined ? undefined : context.state.reservations.get(id);
  if (reservation === undefined) return invalid(`virPtr ${virPtr} is not the start of a reservation of this process`);
  for (const mapping of context.state.mappings.values()) {
    if (mapping.reservation === reservation.id) {
      return invalid(`the reservation is still mapped at ${toHex(mapping.addr)}: call aclrtUnmapMem first (VM-8)`);
    }
  }
  context.space.deviceVa[reservation.device]?.release(reservation.addr, alignUp(reservation.size, GRANULARITY));
  context.emit({ kind: 'release', id: reservation.id });
  return done();
};

export const aclrtMapMem: Op<'aclrtMapMem'> = (context, { virPtr, size, offset, handle, flags }) => {
  if (offset !== 0) return invalid(`offset must be 0, not ${offset} (VM-6)`);
  if (flags !== 0) return invalid(`flags must be 0, not ${flags} (VM-6)`);
  const target = liveHandle(context, handle);
  if (target === undefined)
    return fail(ACL_ERROR_RT_INVALID_HANDLE, `handle ${handle} is not a live physical memory handle of this process`);
  const memory = context.state.physical.get(target.memory);
  if (memory === undefined) return fail(ACL_ERROR_RT_INVALID_HANDLE, `handle ${handle} has no memory`);
  if (size !== memory.size) return invalid(`size ${size} must equal the handle's size ${memory.size} (VM-6)`);
  const start = address(virPtr);
  const end = start + size;
  let reservation: Reservation | undefined;
  for (const id of context.process.reservationByAddr.values()) {
    const candidate = context.state.reservations.get(id);
    if (candidate !== undefined && candidate.addr <= start && end <= candidate.addr + candidate.size) reservation = candidate;
  }
  if (reservation === undefined) return invalid(`[${virPtr}, +${size}) does not lie inside one reservation of this process (VM-6)`);
  for (const mapping of context.state.mappings.values()) {
    if (mapping.reservation !== reservation.id) continue;
    if (mapping.addr < end && start < mapping.addr + mapping.size) {
      return invalid(`[${virPtr}, +${size}) overlaps the mapping at ${toHex(mapping.addr)} (VM-6)`);
    }
    if (mapping.device !== target.device) {
      return invalid(`the reservation already maps memory of device ${mapping.device}; it cannot also map device ${target.device} (VM-6)`);
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
  if (mapping === undefined) return invalid(`virPtr ${virPtr} is not the start of a mapping of this process`);
  unmap(context, mapping);
  return done();
};

export const aclrtMemSetAccess: Op<'aclrtMemSetAccess'> = (context, { virPtr, size, desc, count }) => {
  const id = context.process.mappingByAddr.get(address(virPtr));
  const mapping = id === undefined ? undefined : context.state.mappings.get(id);
  if (mapping === undefined || mapping.size !== size) {
    return invalid(`virPtr ${virPtr} and size ${size} must be exactly a range given to aclrtMapMem (VM-7)`);
  }
  if (count === 0 || count > desc.length) return invalid(`count ${count} must be between 1 and the ${desc.length} descriptors given`);
  const grants = [];
  for (const [index, item] of desc.slice(0, count).entries()) {
    if (item.flags !== aclrtMemAccessFlags.byName.ACL_RT_MEM_ACCESS_FLAGS_READWRITE) {
      return invalid(`desc[${index}].flags must be ACL_RT_MEM_ACCESS_FLAGS_READWRITE (0x3), the only documented value (VM-7)`);
    }
    if (item.location.type !== LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE || context.state.devices[item.location.id] === undefined) {
      return invalid(`desc[${index}].location must be a device of this host (type ACL_MEM_LOCATION_TYPE_DEVICE)`);
    }
    if ((item.rsv ?? []).some((byte) => byte !== 0)) return invalid(`desc[${index}].rsv must be all zero`);
    grants.push({ device: item.location.id, flags: item.flags });
  }
  context.emit({ kind: 'setAccess', id: mapping.id, access: grants });
  return done();
};

export const aclrtMemGetAccess: Op<'aclrtMemGetAccess'> = (context, { virPtr, location }) => {
  if (location === null) return invalid('location is NULL');
  const at = address(virPtr);
  for (const mapping of context.state.mappings.values()) {
    if (mapping.pid !== context.pid || at < mapping.addr || at >= mapping.addr + mapping.size) continue;
    const grant = mapping.access.find((item) => item.device === location.id);
    // Mapping alone makes the range usable on its own device (VM-7, modeled).
    const own = location.type === LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE && location.id === mapping.device;
    return ok({ flag: grant?.flags ?? (own ? aclrtMemAccessFlags.byName.ACL_RT_MEM_ACCESS_FLAGS_READWRITE : 0) });
  }
  return fail(ACL_ERROR_INVALID_PARAM, `virPtr ${virPtr} is not inside a mapping of this process`);
};

/**
 * VM-12: the handle mapped at `virPtr` (the exact address given to aclrtMapMem). Each call takes a
 * reference, which one more aclrtFreePhysical gives back. A handle already freed while mapped
 * (VM-8) is not handed out again here (modeled).
 */
export const aclrtMemRetainAllocationHandle: Op<'aclrtMemRetainAllocationHandle'> = (context, { virPtr }) => {
  const id = context.process.mappingByAddr.get(address(virPtr));
  const mapping = id === undefined ? undefined : context.state.mappings.get(id);
  if (mapping === undefined) return invalid(`virPtr ${virPtr} is not the start of a mapping of this process (VM-12)`);
  const handle = context.state.handles.get(mapping.handle);
  if (handle === undefined || handle.freed) {
    return fail(ACL_ERROR_RT_INVALID_HANDLE, `the handle mapped at ${virPtr} was already freed; it waits for the unmap (VM-8, VM-12)`);
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
    return fail(ACL_ERROR_RT_INVALID_HANDLE, `handle ${handle} is not a live physical memory handle of this process`);
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
