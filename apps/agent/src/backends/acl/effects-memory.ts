import {
  aclrtMemcpyKind,
  type CopyMode,
  type CopyPath,
  type HostMemoryKind,
  type MallocFn,
  MEM_POLICY_MASK,
  paddedSize,
  planMalloc,
  type Reason,
} from '@pagelens/core';
import { type EffectContext, hostBufferAt } from './effects-context.ts';
import { endKeysOf } from './effects-ipc.ts';
import { attribute } from './observe.ts';

/*
 * State changes of device memory, host memory and copies, recorded after the runtime succeeded.
 * Allocations carry no frame placement (`runs: []`): ACL never says which physical frames back a
 * pointer, and PageLens does not invent them (see README.md, "Observed and modeled").
 */

/** DM-2 … DM-12 as observed: the page class comes from the device when it says, from RULES.md otherwise. */
export function recordAlloc(context: EffectContext, fn: MallocFn, size: number, policy: number, addr: number): readonly Reason[] {
  const device = context.process.currentDevice;
  const profile = context.profileOf(device);
  const padded = paddedSize(fn, size, policy & MEM_POLICY_MASK, profile.padding);
  const plan = planMalloc(fn, size, policy, profile, false);
  if (!plan.ok) context.notes.push(`the runtime accepted what PageLens's rules would refuse (${plan.message}); recorded as observed`);
  const attribution = attribute({
    padded,
    expected: plan.ok ? plan.pageClass : 'normal',
    ...(plan.ok && plan.fallback !== undefined ? { expectedFallback: plan.fallback } : {}),
    ...context.observation,
    profile,
  });
  const { pageClass, pageSize, pages, fallback, evidence } = attribution;
  context.emit(
    {
      kind: 'alloc',
      pid: context.pid,
      device,
      id: context.host.newId(),
      fn,
      addr,
      size,
      padded,
      policy,
      p2p: plan.ok && plan.p2p,
      pageClass,
      pageSize,
      pages,
      runs: [],
      ...(fallback === undefined ? {} : { fallback }),
    },
    evidence === 'rules',
  );
  return attribution.reasons;
}

export function recordFree(context: EffectContext, addr: number): void {
  const id = context.process.allocByAddr.get(addr);
  if (id === undefined) {
    context.notes.push(`0x${addr.toString(16)} was not allocated through PageLens; nothing recorded`);
    return;
  }
  endKeysOf(context, id);
  context.emit({ kind: 'free', id });
}

export function recordHostAlloc(
  context: EffectContext,
  fn: string,
  addr: number,
  size: number,
  memory: HostMemoryKind,
  vaFlag: boolean,
): void {
  context.emit({ kind: 'hostAlloc', pid: context.pid, id: context.host.newId(), fn, addr, size, memory, vaFlag });
}

export function recordHostFree(context: EffectContext, addr: number): void {
  const id = context.process.hostByAddr.get(addr);
  const buffer = id === undefined ? undefined : context.state.hostBuffers.get(id);
  if (buffer === undefined) {
    context.notes.push(`0x${addr.toString(16)} was not allocated through PageLens; nothing recorded`);
    return;
  }
  if (buffer.registration !== undefined) {
    // Freeing registered memory: the runtime does not say what becomes of the registration (modeled: it goes).
    context.emit({ kind: 'hostUnregister', id: buffer.id }, true);
    context.notes.push(`0x${addr.toString(16)} was still registered; call aclrtHostUnregister before freeing it (HM-5)`);
  }
  context.emit({ kind: 'hostFree', id: buffer.id });
}

export interface Registration {
  readonly fn: string;
  readonly ptr: number;
  readonly size: number;
  readonly flags: number;
  readonly pinned: boolean;
  readonly mapped: boolean;
  /** The device address the runtime gave for `ptr`, when it gave one. */
  readonly devicePointer?: number;
}

/** HM-5, HM-6: a registration; the event's devPtr is the device address of the buffer's first byte. */
export function recordRegister(context: EffectContext, registration: Registration): void {
  const buffer = hostBufferAt(context, registration.ptr, Math.max(1, registration.size));
  if (buffer === undefined) {
    context.notes.push(`0x${registration.ptr.toString(16)} is not inside host memory allocated through PageLens; nothing recorded`);
    return;
  }
  const offset = registration.ptr - buffer.addr;
  const devPtr = registration.mapped && registration.devicePointer !== undefined ? registration.devicePointer - offset : 0;
  context.emit({
    kind: 'hostRegister',
    id: buffer.id,
    fn: registration.fn,
    device: context.process.currentDevice,
    flags: registration.flags,
    pinned: registration.pinned || buffer.memory === 'pinned',
    mapped: registration.mapped,
    devPtr,
    vaConsistent: registration.mapped && devPtr === buffer.addr,
  });
}

export function recordUnregister(context: EffectContext, ptr: number): void {
  const buffer = hostBufferAt(context, ptr);
  if (buffer?.registration === undefined) context.notes.push(`0x${ptr.toString(16)} was not registered through PageLens; nothing recorded`);
  else context.emit({ kind: 'hostUnregister', id: buffer.id });
}

type Side = { readonly side: 'device'; readonly device: number } | { readonly side: 'host'; readonly pinned: boolean };

/** aclrtMemcpyKind values a batch's copies are recorded with. */
const COPY_KIND = {
  hostToDevice: aclrtMemcpyKind.byName.ACL_MEMCPY_HOST_TO_DEVICE,
  deviceToHost: aclrtMemcpyKind.byName.ACL_MEMCPY_DEVICE_TO_HOST,
};

/** Where [at, at + count) lies by PageLens's records; memory it does not know is taken as pageable host memory. */
function sideOf(context: EffectContext, at: number, count: number): Side {
  for (const id of context.process.allocByAddr.values()) {
    const a = context.state.allocations.get(id);
    if (a !== undefined && at >= a.addr && at + count <= a.addr + a.pages * a.pageSize) return { side: 'device', device: a.device };
  }
  for (const m of context.state.mappings.values()) {
    if (m.pid === context.pid && at >= m.addr && at + count <= m.addr + m.size) return { side: 'device', device: m.device };
  }
  const buffer = hostBufferAt(context, at, count);
  return { side: 'host', pinned: buffer !== undefined && (buffer.memory === 'pinned' || buffer.registration?.pinned === true) };
}

/** The device whose memory holds [at, at + count) by PageLens's records, or undefined for host or unknown memory. */
export function deviceHolding(context: EffectContext, at: number, count: number): number | undefined {
  const side = sideOf(context, at, count);
  return side.side === 'device' ? side.device : undefined;
}

export interface CopyRecordInput {
  readonly fn: 'aclrtMemcpy' | 'aclrtMemcpyAsync' | 'aclrtMemcpy2d' | 'aclrtMemcpy2dAsync' | 'aclrtMemcpyBatch' | 'aclrtMemcpyBatchAsync';
  readonly dst: number;
  readonly src: number;
  /** Bytes moved (a 2D copy: width × height). */
  readonly count: number;
  readonly kind: number;
  readonly streamHandle?: number;
  /** Bytes each side's range spans when it is not `count`: a 2D copy's rows with their pitch, (height − 1) × pitch + width (CP-9). */
  readonly spans?: { readonly dst: number; readonly src: number };
  /** Bytes the whole C call moved when it made more copies than this one (a batch, CP-11): the measured rate is the call's. */
  readonly callBytes?: number;
}

/** CP-1 … CP-4, CP-9, HM-1, HM-3: the copy with its measured duration; the path is PageLens's reading of the buffers. */
export function recordCopy(context: EffectContext, input: CopyRecordInput): void {
  if (input.count === 0) return;
  const dst = sideOf(context, input.dst, input.spans?.dst ?? input.count);
  const src = sideOf(context, input.src, input.spans?.src ?? input.count);
  const deviceSide = src.side === 'device' ? src : dst.side === 'device' ? dst : undefined;
  const hostSide = [src, dst].find((side) => side.side === 'host');
  let path: CopyPath = 'host';
  if (src.side === 'device' && dst.side === 'device') path = src.device === dst.device ? 'device' : 'peer';
  else if (deviceSide !== undefined && hostSide?.side === 'host') path = hostSide.pinned && input.kind !== 5 ? 'pinned' : 'pageable-staged';
  const pageable = [src, dst].some((side) => side.side === 'host' && !side.pinned);
  const sync = input.fn === 'aclrtMemcpy' || input.fn === 'aclrtMemcpy2d' || input.fn === 'aclrtMemcpyBatch';
  const mode: CopyMode = sync ? 'sync' : pageable ? 'async-blocking' : 'async';
  // The time inside the C call: the session's wait (t0 … t1) also holds the thread hop of a large copy.
  const durationNs = Math.max(1, context.native.durationNs);
  const bytesPerSec = ((input.callBytes ?? input.count) / durationNs) * 1e9;
  const reason: Reason =
    mode === 'async'
      ? { code: 'copy-async-observed', rules: ['CP-4', 'HM-3'], values: { durationNs } }
      : { code: 'copy-observed', rules: ['CP-3'], values: { durationNs, rate: (bytesPerSec / 1e9).toFixed(2) } };
  const streamId =
    input.streamHandle === undefined
      ? undefined
      : input.streamHandle === 0
        ? context.process.defaultStreams.get(context.process.currentDevice)
        : context.process.streamByHandle.get(input.streamHandle);
  context.emit({
    kind: 'copy',
    pid: context.pid,
    id: context.host.newId(),
    fn: input.fn,
    memcpyKind: input.kind,
    dst: input.dst,
    src: input.src,
    bytes: input.count,
    device: deviceSide?.side === 'device' ? deviceSide.device : Math.max(0, context.process.currentDevice),
    ...(streamId === undefined ? {} : { stream: streamId }),
    mode,
    path,
    // Issued when the C call began: the session's wait before it (a thread hop) is PageLens's, not the runtime's.
    submit: context.native.start,
    start: context.native.start,
    // For a truly asynchronous copy this is when the call returned; the copy's end shows at the next synchronize.
    end: context.native.start + durationNs,
    bytesPerSec,
    // Staging chunks are not observable through ACL.
    stages: 0,
    reasons: [reason],
  });
}

export interface BatchCopy {
  readonly dst: number;
  readonly src: number;
  readonly count: number;
}

/**
 * CP-11: a batch as one copy event per copy that moves bytes, like the 1D copies. The runtime
 * times only the whole call, and runs a batch's copies in no particular order, so each copy is
 * shown over the call's measured time at the call's rate; its kind is host → device or device →
 * host by PageLens's reading of its sides (a batch moves only those two ways).
 */
export function recordBatchCopies(
  context: EffectContext,
  fn: 'aclrtMemcpyBatch' | 'aclrtMemcpyBatchAsync',
  copies: readonly BatchCopy[],
  streamHandle: number | undefined,
): void {
  const moving = copies.filter((item) => item.count > 0);
  if (moving.length === 0) return;
  const callBytes = moving.reduce((sum, item) => sum + item.count, 0);
  for (const item of moving) {
    const kind = sideOf(context, item.src, item.count).side === 'device' ? COPY_KIND.deviceToHost : COPY_KIND.hostToDevice;
    recordCopy(context, { fn, ...item, kind, callBytes, ...(streamHandle === undefined ? {} : { streamHandle }) });
  }
  if (moving.length > 1)
    context.notes.push(
      `the ${moving.length} copies of the batch were timed together: each is shown over the call's ${Math.max(1, context.native.durationNs)} ns at the batch's rate (CP-11)`,
    );
}

export function recordMemset(context: EffectContext, addr: number, count: number, value: number): void {
  if (count === 0) return;
  const side = sideOf(context, addr, count);
  const device = side.side === 'device' ? side.device : Math.max(0, context.process.currentDevice);
  context.emit({ kind: 'memset', pid: context.pid, addr, count, value, device });
}
