import { aclrtMemAttr, aclrtMemLocationType } from '../acl/enums.ts';
import {
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
  ACL_ERROR_RT_INVALID_DEVICEID,
  ACL_ERROR_RT_PARAM_INVALID,
} from '../acl/errors.ts';
import type { PoolFigures } from '../model/events.ts';
import { type DevicePools, devicePools } from '../model/pools.ts';
import type { DeviceState } from '../model/state.ts';
import { text } from '../texts/table.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, fail, invalid, isResult, type Op, ok, type SimContext } from './context.ts';
import { currentContextOf } from './ops-context.ts';
import { hostBufferAt } from './ops-host.ts';

const A = aclrtMemAttr.byName;
const LOCATION = aclrtMemLocationType.byName;
const NONE: PoolFigures = { free: 0, total: 0 };

/**
 * DM-15: which pool an aclrtMemAttr reads on this device. HBM devices answer 0/0 for DDR
 * attributes; DDR devices (310P) read HBM attributes as DDR. Undefined means "not supported".
 */
function poolFor(device: DeviceState, pools: DevicePools, attr: number): PoolFigures | undefined {
  const ddr = device.profile.memoryType === 'DDR';
  switch (attr) {
    case A.ACL_DDR_MEM:
      return ddr ? pools.all : NONE;
    case A.ACL_HBM_MEM:
      return pools.all;
    case A.ACL_DDR_MEM_HUGE:
    case A.ACL_DDR_MEM_P2P_HUGE:
      return ddr ? pools.huge : NONE;
    case A.ACL_DDR_MEM_NORMAL:
    case A.ACL_DDR_MEM_P2P_NORMAL:
      return ddr ? pools.normal : NONE;
    case A.ACL_HBM_MEM_HUGE:
    case A.ACL_HBM_MEM_P2P_HUGE:
    case A.ACL_MEM_HUGE:
    case A.ACL_MEM_P2P_HUGE:
      return pools.huge;
    case A.ACL_HBM_MEM_NORMAL:
    case A.ACL_HBM_MEM_P2P_NORMAL:
    case A.ACL_MEM_NORMAL:
    case A.ACL_MEM_P2P_NORMAL:
      return pools.normal;
    case A.ACL_HBM_MEM_HUGE1G:
    case A.ACL_HBM_MEM_P2P_HUGE1G:
    case A.ACL_MEM_HUGE1G:
    case A.ACL_MEM_P2P_HUGE1G:
      return device.profile.features.giantPages ? pools.giant : undefined;
    default:
      return NONE;
  }
}

export const aclrtGetMemInfo: Op<'aclrtGetMemInfo'> = (context, { attr }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (attr < 0 || attr > A.ACL_MEM_P2P_HUGE1G) return invalid(text('mem-attr-unknown', { attr }));
  const pool = poolFor(device, devicePools(device), attr);
  if (pool === undefined) return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('no-giant-pool', { profile: device.profile.name }));
  return ok({ free: pool.free, total: pool.total });
};

/** Where a pointer lives and its page size (DM-11); malloc memory is unknown to ACL (HM-7 for device pointers of registrations). */
export const aclrtPointerGetAttributes: Op<'aclrtPointerGetAttributes'> = (context, { ptr }) => {
  const at = address(ptr);
  if (at === 0) return invalid(text('null-arg', { name: 'ptr' }));
  for (const id of context.process.allocByAddr.values()) {
    const a = context.state.allocations.get(id);
    if (a !== undefined && at >= a.addr && at < a.addr + a.pages * a.pageSize) {
      return ok({ attributes: { location: { id: a.device, type: LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE }, pageSize: a.pageSize } });
    }
  }
  for (const m of context.state.mappings.values()) {
    if (m.pid !== context.pid || at < m.addr || at >= m.addr + m.size) continue;
    const handle = context.state.handles.get(m.handle);
    const memory = handle === undefined ? undefined : context.state.physical.get(handle.memory);
    return ok({ attributes: { location: { id: m.device, type: LOCATION.ACL_MEM_LOCATION_TYPE_DEVICE }, pageSize: memory?.pageSize ?? 0 } });
  }
  const buffer = hostBufferAt(context, at);
  const hostPage = context.state.devices[0]?.profile.host.pageSize ?? 4096;
  if (buffer !== undefined) {
    const known = buffer.memory === 'pinned' || buffer.registration !== undefined;
    const type = known ? LOCATION.ACL_MEM_LOCATION_TYPE_HOST : LOCATION.ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    return ok({ attributes: { location: { id: 0, type }, pageSize: hostPage } });
  }
  for (const b of context.state.hostBuffers.values()) {
    const r = b.registration;
    if (b.pid === context.pid && r?.mapped === true && !r.vaConsistent && at >= r.devPtr && at < r.devPtr + b.size) {
      return invalid(text('pointer-registered-device', { ptr }));
    }
  }
  return ok({ attributes: { location: { id: 0, type: LOCATION.ACL_MEM_LOCATION_TYPE_UNREGISTERED }, pageSize: 0 } });
};

/** The text of the most recent failure in this process; reading it clears it. */
export const aclGetRecentErrMsg: Op<'aclGetRecentErrMsg'> = (context) => {
  const message = context.space.lastError ?? null;
  context.space.lastError = undefined;
  return ok({ errMsg: message });
};

/**
 * DM-16: the start and size of the allocation that holds `ptr`: device memory from the aclrtMalloc
 * family (its size after the runtime's rounding, DM-3; inferred), pinned host memory from ACL, or
 * the mapped VMM block. Needs no current context.
 */
export const aclrtMemGetAddressRange: Op<'aclrtMemGetAddressRange'> = (context, { ptr }) => {
  const at = address(ptr);
  if (at === 0) return invalid(text('null-arg-rule', { name: 'ptr', rule: 'DM-16' }));
  for (const a of context.state.allocations.values()) {
    if (a.pid === context.pid && at >= a.addr && at < a.addr + a.padded) return ok({ pbase: toHex(a.addr), psize: a.padded });
  }
  for (const m of context.state.mappings.values()) {
    if (m.pid === context.pid && at >= m.addr && at < m.addr + m.size) return ok({ pbase: toHex(m.addr), psize: m.size });
  }
  const buffer = hostBufferAt(context, at);
  if (buffer !== undefined && buffer.memory === 'pinned') return ok({ pbase: toHex(buffer.addr), psize: buffer.size });
  return invalid(text('range-not-found', { ptr }));
};

/** The memType bits the open runtime accepts: DEV 0x2, DVPP 0x8 and its reserved-VA bit 0x20 (DM-17). */
const MEM_TYPE_DEV = 0x2;
const MEM_TYPE_DVPP = 0x8;
const RUNTIME_MEM_TYPE_RSVD = 0x20;
const HEADER_MEM_TYPE_RSVD = 0x10;
const MEM_TYPE_BITS = MEM_TYPE_DEV | MEM_TYPE_DVPP | RUNTIME_MEM_TYPE_RSVD;

/** DM-17: which kinds of device memory an address is, as the driver of `device` sees it (no DVPP memory is modeled). */
function memTypesAt(context: SimContext, at: number, device: number): number {
  let types = 0;
  for (const id of context.process.allocByAddr.values()) {
    const a = context.state.allocations.get(id);
    if (a !== undefined && a.device === device && at >= a.addr && at < a.addr + a.padded) types |= MEM_TYPE_DEV;
  }
  for (const id of context.process.reservationByAddr.values()) {
    const r = context.state.reservations.get(id);
    if (r !== undefined && r.device === device && at >= r.addr && at < r.addr + r.size) types |= RUNTIME_MEM_TYPE_RSVD;
  }
  return types;
}

/**
 * DM-17: 1 when every address is memory of one of the kinds in `memType`, else 0. The acl layer
 * refuses NULL lists (100000); the runtime refuses reserve ≠ 0, size 0 and unknown bits (107000)
 * and needs a current context (107002), whose device's driver does the check.
 */
export const aclrtCheckMemType: Op<'aclrtCheckMemType'> = (context, { addrList, size, memType, reserve }) => {
  if (addrList.length === 0) return invalid(text('null-arg-rule', { name: 'addrList', rule: 'DM-17' }));
  if (reserve !== 0) return fail(ACL_ERROR_RT_PARAM_INVALID, text('must-be-zero-rule', { name: 'reserve', value: reserve, rule: 'DM-17' }));
  if (size === 0) return fail(ACL_ERROR_RT_PARAM_INVALID, text('mem-type-size-zero'));
  if ((memType & ~MEM_TYPE_BITS) !== 0) {
    const code = (memType & HEADER_MEM_TYPE_RSVD) !== 0 ? 'mem-type-bits-rsvd' : 'mem-type-bits';
    return fail(ACL_ERROR_RT_PARAM_INVALID, text(code, { memType: `0x${memType.toString(16)}` }));
  }
  if (size > addrList.length) return invalid(text('mem-type-size-over', { size, given: addrList.length }));
  const owner = currentContextOf(context);
  if (owner === undefined) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('no-current-context-set', { rule: 'DM-17' }));
  const matches = addrList.slice(0, size).every((hex) => (memTypesAt(context, address(hex), owner.device) & memType) !== 0);
  return ok({ checkResult: matches ? 1 : 0 });
};

/**
 * DM-18: the driver's per-component usage (halGetMemUsageInfo). Its component names and what
 * counts toward each are not documented, so the simulator models a driver without it and answers
 * 207000, as the runtime does when the driver lacks the call; the acl backend reports the real one.
 */
export const aclrtGetMemUsageInfo: Op<'aclrtGetMemUsageInfo'> = (context, { deviceId, inputNum }) => {
  if (inputNum === 0) return fail(ACL_ERROR_RT_PARAM_INVALID, text('usage-input-zero'));
  if (deviceId < 0 || deviceId >= context.state.devices.length)
    return fail(ACL_ERROR_RT_INVALID_DEVICEID, text('usage-device-missing', { device: deviceId, devices: context.state.devices.length }));
  if (currentContextOf(context) === undefined) return fail(ACL_ERROR_RT_CONTEXT_NULL, text('no-current-context-set', { rule: 'DM-18' }));
  return {
    ...fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('usage-not-modeled')),
    out: { memUsageInfo: [], outputNum: 0 },
  };
};
