import { aclrtMallocAttrType } from '../acl/enums.ts';
import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_MEMORY_ALLOCATION } from '../acl/errors.ts';
import type { aclrtMallocConfig } from '../acl/structs.ts';
import type { AllocEvent, Fallback } from '../model/events.ts';
import { fallbackReason, type MallocFn, pageBytes, planMalloc } from '../model/malloc-policy.ts';
import { findPages } from '../model/placement.ts';
import { devicePools } from '../model/pools.ts';
import { reason } from '../model/reasons.ts';
import { text } from '../texts/table.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, done, fail, invalid, isResult, type OpResult, ok, type SimContext } from './context.ts';

const ATTR = aclrtMallocAttrType.byName;

/** The refusal for too few free pages, by page class (DM-5 … DM-7). */
const EXHAUSTED_TEXTS = { normal: 'pages-exhausted-normal', huge: 'pages-exhausted-huge', giant: 'pages-exhausted-giant' } as const;

/** Checks an aclrtMallocConfig: DEVICE_ID must name the current device; returns VA_FLAG's value. */
export function readMallocConfig(cfg: aclrtMallocConfig | null, device: number): { vaFlag: boolean } | OpResult<never> {
  if (cfg === null) return { vaFlag: false };
  if (cfg.numAttrs > cfg.attrs.length) return invalid(text('cfg-num-attrs', { numAttrs: cfg.numAttrs, given: cfg.attrs.length }));
  let vaFlag = false;
  for (const [index, attribute] of cfg.attrs.slice(0, cfg.numAttrs).entries()) {
    switch (attribute.attr) {
      case ATTR.ACL_RT_MEM_ATTR_MODULE_ID:
        break;
      case ATTR.ACL_RT_MEM_ATTR_DEVICE_ID:
        if (attribute.value.deviceId !== device)
          return invalid(text('cfg-device-id', { index, deviceId: String(attribute.value.deviceId), device }));
        break;
      case ATTR.ACL_RT_MEM_ATTR_VA_FLAG:
        if (attribute.value.vaFlag !== 0 && attribute.value.vaFlag !== 1) return invalid(text('cfg-va-flag', { index }));
        vaFlag = attribute.value.vaFlag === 1;
        break;
      case ATTR.ACL_RT_MEM_ATTR_RSV:
        break;
      default:
        return invalid(text('cfg-attr-unknown', { index, attr: attribute.attr }));
    }
  }
  return { vaFlag };
}

/** DM-2 … DM-12: the aclrtMalloc family on the current device. */
export function malloc(context: SimContext, fn: MallocFn, size: number, policy: number, cfg: aclrtMallocConfig | null) {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (fn === 'aclrtMallocWithCfg') {
    const config = readMallocConfig(cfg, device.id);
    if ('ret' in config) return config;
  }
  // The hot path stores facts; reasons are derived only when a call fails (or later, by allocationReasons).
  const plan = planMalloc(fn, size, policy, device.profile, false);
  if (!plan.ok) {
    const explained = planMalloc(fn, size, policy, device.profile);
    return fail(plan.ret, plan.messageCode, explained.reasons);
  }
  // Placement in locals rather than a record per attempt: this runs for every aclrtMalloc.
  let pageClass = plan.pageClass;
  let pageSize = pageBytes(pageClass, device.profile);
  let pages = Math.ceil(plan.padded / pageSize);
  let runs = findPages(device.frames, pageClass, pages);
  let fallback: Fallback | undefined;
  if (runs === undefined && plan.fallback !== undefined) {
    fallback = { from: pageClass, needed: pages, free: device.frames.free.count };
    pageClass = plan.fallback;
    pageSize = pageBytes(pageClass, device.profile);
    pages = Math.ceil(plan.padded / pageSize);
    runs = findPages(device.frames, pageClass, pages);
  }
  if (runs === undefined) {
    const pools = devicePools(device);
    const available =
      pageClass === 'normal' ? pools.normal.free / pageSize : pageClass === 'huge' ? device.frames.free.count : pools.giant.free / pageSize;
    const rule = pageClass === 'huge' ? 'DM-5' : pageClass === 'giant' ? 'DM-7' : 'DM-6';
    const why = [...planMalloc(fn, size, policy, device.profile).reasons];
    if (fallback !== undefined) why.push(fallbackReason(fallback));
    why.push(reason('exhausted', [rule], { pageClass, needed: pages, available }));
    if (pools.all.free >= pages * pageSize) why.push(reason('fragmented', [rule], { freeBytes: pools.all.free, pageClass }));
    return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, text(EXHAUSTED_TEXTS[pageClass], { device: device.id, pages, available }), why);
  }
  // DM-12: huge pages are 2 MiB-aligned in VA, giant pages 1 GiB-aligned; normal pages page-aligned (64-byte aligned at least).
  const addr = context.space.deviceVa[device.id]?.take(pages * pageSize, pageSize);
  if (addr === undefined)
    return fail(ACL_ERROR_RT_MEMORY_ALLOCATION, text('va-window-full', { device: device.id, bytes: pages * pageSize }));
  // The stamp fields (seq, t, provenance, call) are in the literal, in their place at the end, for
  // emit to fill in: added afterwards they would move out of line. Two literals, as `fallback` (when
  // present) comes before them.
  const id = context.host.newId();
  const padded = plan.padded;
  const p2p = plan.p2p;
  const event: AllocEvent =
    fallback === undefined
      ? {
          kind: 'alloc',
          pid: context.pid,
          device: device.id,
          id,
          fn,
          addr,
          size,
          padded,
          policy,
          p2p,
          pageClass,
          pageSize,
          pages,
          runs,
          seq: 0,
          t: 0,
          provenance: 'simulated',
          call: 0,
        }
      : {
          kind: 'alloc',
          pid: context.pid,
          device: device.id,
          id,
          fn,
          addr,
          size,
          padded,
          policy,
          p2p,
          pageClass,
          pageSize,
          pages,
          runs,
          fallback,
          seq: 0,
          t: 0,
          provenance: 'simulated',
          call: 0,
        };
  context.emit(event);
  return ok({ devPtr: toHex(addr) });
}

/** DM-13: freeing NULL, an address that does not start a live allocation, or twice, is an error. */
export function free(context: SimContext, devPtr: string) {
  const at = address(devPtr);
  if (at === 0) return fail(ACL_ERROR_INVALID_PARAM, text('free-null'));
  const id = context.process.allocByAddr.get(at);
  const allocation = id === undefined ? undefined : context.state.allocations.get(id);
  if (allocation === undefined) {
    return fail(ACL_ERROR_INVALID_PARAM, text('free-not-live', { devPtr }));
  }
  context.space.deviceVa[allocation.device]?.release(allocation.addr, allocation.pages * allocation.pageSize);
  // Its IPC keys end with it (IP-4); importers' addresses then reach freed memory.
  if (context.state.ipcKeys.size > 0) {
    for (const key of [...context.state.ipcKeys.values()])
      if (key.allocation === allocation.id) context.emit({ kind: 'ipcClose', pid: context.pid, key: key.key });
  }
  // Stamp fields in the literal for emit to fill in (see malloc).
  context.emit({ kind: 'free', id: allocation.id, seq: 0, t: 0, provenance: 'simulated', call: 0 });
  return done();
}
