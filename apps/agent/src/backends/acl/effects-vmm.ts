import { aclrtMemAttr, type PageClass, type Reason } from '@pagelens/core';
import { type EffectContext, handleOf, mappingAt } from './effects-context.ts';
import { dropHandle, unmapRecorded } from './effects-device.ts';
import { attribute } from './observe.ts';

/* State changes of the VMM and sharing calls (VM-1 … VM-9), recorded after the runtime succeeded. */

const A = aclrtMemAttr.byName;

/** The page class a memAttr asks aclrtMallocPhysical for (acl-api.md §7). */
export function pageClassOfAttr(memAttr: number): PageClass {
  switch (memAttr) {
    case A.ACL_HBM_MEM_HUGE:
    case A.ACL_MEM_HUGE:
    case A.ACL_MEM_P2P_HUGE:
    case A.ACL_DDR_MEM_HUGE:
    case A.ACL_DDR_MEM_P2P_HUGE:
      return 'huge';
    case A.ACL_HBM_MEM_HUGE1G:
    case A.ACL_MEM_HUGE1G:
    case A.ACL_MEM_P2P_HUGE1G:
      return 'giant';
    default:
      return 'normal';
  }
}

export interface PhysicalRequest {
  readonly size: number;
  readonly memAttr: number;
  readonly device: number;
  readonly handle: number;
}

export function recordPhysAlloc(context: EffectContext, request: PhysicalRequest): readonly Reason[] {
  const profile = context.profileOf(request.device);
  // Pools are read on the calling thread's current device: they say nothing about another device's allocation.
  const observed = request.device === context.process.currentDevice ? context.observation : {};
  const attribution = attribute({ padded: request.size, expected: pageClassOfAttr(request.memAttr), ...observed, profile });
  context.emit(
    {
      kind: 'physAlloc',
      pid: context.pid,
      device: request.device,
      id: context.host.newId(),
      handle: request.handle,
      size: request.size,
      memAttr: request.memAttr,
      pageClass: attribution.pageClass,
      pageSize: attribution.pageSize,
      pages: Math.ceil(request.size / attribution.pageSize),
      runs: [],
    },
    attribution.evidence === 'rules',
  );
  return attribution.reasons;
}

/**
 * VM-8: freeing a mapped handle defers the release to its last unmap. VM-12: while references taken
 * with aclrtMemRetainAllocationHandle remain, the call gives one back and frees nothing (as the
 * replica's reduce and the simulator decide: `retains > 0` first).
 */
export function recordFreePhysical(context: EffectContext, handleValue: number): void {
  const handle = handleOf(context, handleValue);
  if (handle === undefined) {
    context.notes.push(`handle 0x${handleValue.toString(16)} was not allocated through PageLens; nothing recorded`);
    return;
  }
  if (handle.retains > 0) context.emit({ kind: 'physRetain', id: handle.id, retains: handle.retains - 1 });
  else if (handle.mappings > 0) context.emit({ kind: 'physFree', id: handle.id, deferred: true });
  else dropHandle(context, handle.id, false);
}

/** VM-12: aclrtMemRetainAllocationHandle answered the handle mapped at the address and took a reference to it. */
export function recordRetain(context: EffectContext, handleValue: number): void {
  const handle = handleOf(context, handleValue);
  if (handle === undefined) {
    context.notes.push(`handle 0x${handleValue.toString(16)} was not allocated through PageLens; nothing recorded`);
    return;
  }
  context.emit({ kind: 'physRetain', id: handle.id, retains: handle.retains + 1 });
}

export function recordReserve(context: EffectContext, addr: number, size: number, flags: number): void {
  const device = context.process.currentDevice;
  context.emit({ kind: 'reserve', pid: context.pid, device, id: context.host.newId(), addr, size, flags });
}

export function recordRelease(context: EffectContext, addr: number): void {
  const id = context.process.reservationByAddr.get(addr);
  if (id === undefined) context.notes.push(`0x${addr.toString(16)} was not reserved through PageLens; nothing recorded`);
  else context.emit({ kind: 'release', id });
}

export function recordMap(context: EffectContext, addr: number, size: number, handleValue: number): void {
  const handle = handleOf(context, handleValue);
  let reservation: number | undefined;
  for (const id of context.process.reservationByAddr.values()) {
    const r = context.state.reservations.get(id);
    if (r !== undefined && r.addr <= addr && addr + size <= r.addr + r.size) reservation = r.id;
  }
  if (handle === undefined || reservation === undefined) {
    context.notes.push('the handle or the reservation was not made through PageLens; nothing recorded');
    return;
  }
  context.emit({
    kind: 'map',
    pid: context.pid,
    id: context.host.newId(),
    reservation,
    handle: handle.id,
    addr,
    size,
    device: handle.device,
  });
}

export function recordUnmap(context: EffectContext, addr: number): void {
  const mapping = mappingAt(context, addr);
  if (mapping === undefined) context.notes.push(`0x${addr.toString(16)} was not mapped through PageLens; nothing recorded`);
  else unmapRecorded(context, mapping.id, false);
}

export interface AccessGrantInput {
  readonly device: number;
  readonly flags: number;
}

export function recordSetAccess(context: EffectContext, addr: number, grants: readonly AccessGrantInput[]): void {
  const mapping = mappingAt(context, addr);
  if (mapping !== undefined) context.emit({ kind: 'setAccess', id: mapping.id, access: grants });
}

export function recordExport(context: EffectContext, handleValue: number, flags: number, shareable: number): void {
  const handle = handleOf(context, handleValue);
  if (handle === undefined || context.state.shares.has(shareable)) return;
  for (const share of context.state.shares.values()) if (share.handle === handle.id) return;
  context.emit({ kind: 'export', id: handle.id, shareable, flags });
}

export function recordSharePids(context: EffectContext, shareable: number, pids: readonly number[]): void {
  const share = context.state.shares.get(shareable);
  if (share !== undefined) context.emit({ kind: 'sharePids', shareable, pids: [...share.pids, ...pids] });
}

/** VM-9: memory exported by another OS process is outside PageLens's records unless this agent exported it. */
export function recordImport(context: EffectContext, shareable: number, deviceId: number, handleValue: number): void {
  const share = context.state.shares.get(shareable);
  if (share === undefined) {
    context.notes.push('the memory was exported by a process PageLens does not observe; the handle is recorded nowhere');
    return;
  }
  context.emit({
    kind: 'import',
    pid: context.pid,
    id: context.host.newId(),
    source: share.handle,
    handle: handleValue,
    shareable,
    device: deviceId,
  });
}
