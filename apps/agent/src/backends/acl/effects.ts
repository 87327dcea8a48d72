import {
  ACL_HOST_REG,
  type AclArgs,
  type AclFunctionName,
  type AclOut,
  aclrtMallocAttrType,
  type aclrtMallocConfig,
  type aclrtMemAccessDesc,
  type MallocFn,
  type Reason,
} from '@pagelens/core';
import { address, type EffectContext } from './effects-context.ts';
import {
  recordCreateContext,
  recordCreateStream,
  recordDestroyContext,
  recordDestroyStream,
  recordFinalize,
  recordInit,
  recordPeerAccess,
  recordPeerAccessOff,
  recordResetDevice,
  recordSetCurrentContext,
  recordSetDevice,
  recordStreamMode,
  recordSync,
} from './effects-device.ts';
import {
  DEFAULT_EVENT_FLAGS,
  recordCreateEvent,
  recordDestroyEvent,
  recordEventSync,
  recordRecordEvent,
  recordResetEvent,
  recordStreamWaitEvent,
  recordValueWait,
  recordValueWrite,
} from './effects-event.ts';
import { recordIpcClose, recordIpcExport, recordIpcImport, recordIpcPids } from './effects-ipc.ts';
import {
  recordAlloc,
  recordBatchCopies,
  recordCopy,
  recordFree,
  recordHostAlloc,
  recordHostFree,
  recordMemset,
  recordRegister,
  recordUnregister,
} from './effects-memory.ts';
import {
  recordExport,
  recordFreePhysical,
  recordImport,
  recordMap,
  recordPhysAlloc,
  recordRelease,
  recordReserve,
  recordRetain,
  recordSetAccess,
  recordSharePids,
  recordUnmap,
} from './effects-vmm.ts';

const NONE: readonly Reason[] = [];
const REG = ACL_HOST_REG.byName;

/** HM-6: VA_FLAG among the first numAttrs attributes of an aclrtMallocConfig. */
function vaFlagOf(cfg: aclrtMallocConfig | null): boolean {
  if (cfg === null) return false;
  return cfg.attrs
    .slice(0, cfg.numAttrs)
    .some((item) => item.attr === aclrtMallocAttrType.byName.ACL_RT_MEM_ATTR_VA_FLAG && item.value.vaFlag === 1);
}

interface Copy2dArgs {
  readonly dst: string;
  readonly dpitch: number;
  readonly src: string;
  readonly spitch: number;
  readonly width: number;
  readonly height: number;
  readonly kind: number;
  readonly stream?: string;
}

/** CP-9: a 2D copy is recorded as one copy of width × height bytes, each side spanning its rows and their pitch. */
function copy2d(fn: 'aclrtMemcpy2d' | 'aclrtMemcpy2dAsync') {
  return (context: EffectContext, args: Copy2dArgs): readonly Reason[] => {
    const { width, height } = args;
    const [to, from] = [at(context, args.dst, 'dst'), at(context, args.src, 'src')];
    if (to === undefined || from === undefined || width === 0 || height === 0) return NONE;
    const streamHandle = args.stream === undefined ? undefined : at(context, args.stream, 'stream');
    recordCopy(context, {
      fn,
      dst: to,
      src: from,
      count: width * height,
      kind: args.kind >>> 0,
      spans: { dst: (height - 1) * args.dpitch + width, src: (height - 1) * args.spitch + width },
      ...(streamHandle === undefined ? {} : { streamHandle }),
    });
    return NONE;
  };
}

interface BatchArgs {
  readonly dsts: readonly string[];
  readonly srcs: readonly string[];
  readonly sizes: readonly number[];
  readonly numBatches: number;
  readonly stream?: string;
}

/** CP-11: one copy event per copy of the batch (the runtime checked them all before any moved). */
function batch(fn: 'aclrtMemcpyBatch' | 'aclrtMemcpyBatchAsync') {
  return (context: EffectContext, args: BatchArgs): readonly Reason[] => {
    const copies = [];
    for (let i = 0; i < args.numBatches; i += 1) {
      const [dst, src] = [at(context, args.dsts[i], `dsts[${i}]`), at(context, args.srcs[i], `srcs[${i}]`)];
      if (dst !== undefined && src !== undefined) copies.push({ dst, src, count: args.sizes[i] ?? 0 });
    }
    const streamHandle = args.stream === undefined ? undefined : at(context, args.stream, 'stream');
    recordBatchCopies(context, fn, copies, streamHandle);
    return NONE;
  };
}

function grantsOf(desc: readonly aclrtMemAccessDesc[], count: number): { device: number; flags: number }[] {
  return desc.slice(0, count).map((item) => ({ device: item.location.id, flags: item.flags >>> 0 }));
}

/**
 * What a successful call of `F` changed, recorded from its (validated) arguments and the runtime's
 * out-values. Enum and flag values are read as the C side received them (`>>> 0`: marshal.ts passes
 * negatives as 32-bit patterns).
 */
type Effect<F extends AclFunctionName> = (
  context: EffectContext,
  args: AclArgs<F>,
  out: Partial<AclOut<F>>,
) => readonly Reason[] | undefined;

const at = (context: EffectContext, value: string | undefined, what: string): number | undefined => address(context, value, what);

/** Records one change with the address `value` reads as; nothing when it reads as none (`address` notes why). */
function whenAt(context: EffectContext, value: string | undefined, what: string, record: (addr: number) => void): undefined {
  const addr = at(context, value, what);
  if (addr !== undefined) record(addr);
  return undefined;
}

function deviceMalloc(fn: MallocFn) {
  return (context: EffectContext, args: { readonly size: number; readonly policy: number }, out: { readonly devPtr?: string }) => {
    const addr = at(context, out.devPtr, 'devPtr');
    return addr === undefined ? NONE : recordAlloc(context, fn, args.size, args.policy >>> 0, addr);
  };
}

function register(
  fn: 'aclrtHostRegister' | 'aclrtHostRegisterV2',
  context: EffectContext,
  ptrHex: string,
  size: number,
  flags: number,
  devPtr: string | undefined,
) {
  const ptr = at(context, ptrHex, 'ptr');
  if (ptr === undefined) return;
  const v2 = fn === 'aclrtHostRegisterV2';
  const devicePointer = at(context, devPtr, 'device pointer');
  recordRegister(context, {
    fn,
    ptr,
    size,
    flags,
    pinned: !v2 || (flags & REG.ACL_HOST_REG_PINNED) !== 0,
    mapped: !v2 || (flags & REG.ACL_HOST_REG_MAPPED) !== 0,
    ...(devicePointer === undefined ? {} : { devicePointer }),
  });
}

/**
 * The state change of every function that makes one. A function missing here is a query
 * (GetDevice, GetMemInfo, PointerGetAttributes, …) and changes no state.
 */
const EFFECTS: { readonly [F in AclFunctionName]?: Effect<F> } = {
  aclInit: (context) => void recordInit(context),
  aclFinalize: (context) => void recordFinalize(context),
  aclrtSetDevice: (context, { deviceId }) => void recordSetDevice(context, deviceId),
  aclrtResetDevice: (context, { deviceId }) => void recordResetDevice(context, deviceId, false),
  aclrtResetDeviceForce: (context, { deviceId }) => void recordResetDevice(context, deviceId, true),
  aclrtCreateContext: (context, { deviceId }, out) =>
    whenAt(context, out.context, 'context', (handle) => recordCreateContext(context, handle, deviceId)),
  aclrtDestroyContext: (context, args) => whenAt(context, args.context, 'context', (handle) => recordDestroyContext(context, handle)),
  aclrtSetCurrentContext: (context, args) => whenAt(context, args.context, 'context', (handle) => recordSetCurrentContext(context, handle)),
  aclrtCreateStream: (context, _args, out) => whenAt(context, out.stream, 'stream', (handle) => recordCreateStream(context, handle)),
  // Priority is documented as having no effect, and the flags change nothing PageLens shows (runtime-api.md §4).
  aclrtCreateStreamWithConfig: (context, _args, out) =>
    whenAt(context, out.stream, 'stream', (handle) => recordCreateStream(context, handle)),
  aclrtDestroyStream: (context, { stream }) => whenAt(context, stream, 'stream', (handle) => recordDestroyStream(context, handle, true)),
  aclrtDestroyStreamForce: (context, { stream }) =>
    whenAt(context, stream, 'stream', (handle) => recordDestroyStream(context, handle, false)),
  aclrtSetStreamFailureMode: (context, { stream, mode }) =>
    whenAt(context, stream, 'stream', (handle) => recordStreamMode(context, handle, mode)),
  aclrtSynchronizeStream: (context, { stream }) => void recordSync(context, at(context, stream, 'stream') ?? 0),
  aclrtSynchronizeStreamWithTimeout: (context, { stream }) => void recordSync(context, at(context, stream, 'stream') ?? 0),
  aclrtSynchronizeDevice: (context) => void recordSync(context, undefined),
  aclrtSynchronizeDeviceWithTimeout: (context) => void recordSync(context, undefined),
  aclrtCreateEvent: (context, _args, out) =>
    whenAt(context, out.event, 'event', (handle) => recordCreateEvent(context, handle, DEFAULT_EVENT_FLAGS, false)),
  aclrtCreateEventWithFlag: (context, { flag }, out) =>
    whenAt(context, out.event, 'event', (handle) => recordCreateEvent(context, handle, flag, false)),
  aclrtCreateEventExWithFlag: (context, { flag }, out) =>
    whenAt(context, out.event, 'event', (handle) => recordCreateEvent(context, handle, flag, true)),
  aclrtRecordEvent: (context, { event, stream }) => {
    const [target, on] = [at(context, event, 'event'), at(context, stream, 'stream')];
    if (target !== undefined && on !== undefined) recordRecordEvent(context, target, on);
    return NONE;
  },
  aclrtStreamWaitEvent: (context, { stream, event }) => {
    const [on, target] = [at(context, stream, 'stream'), at(context, event, 'event')];
    if (target !== undefined && on !== undefined) recordStreamWaitEvent(context, on, target);
    return NONE;
  },
  aclrtSynchronizeEvent: (context) => void recordEventSync(context),
  aclrtSynchronizeEventWithTimeout: (context) => void recordEventSync(context),
  aclrtResetEvent: (context, { event }) => whenAt(context, event, 'event', (handle) => recordResetEvent(context, handle)),
  aclrtDestroyEvent: (context, { event }) => whenAt(context, event, 'event', (handle) => recordDestroyEvent(context, handle)),
  aclrtMalloc: deviceMalloc('aclrtMalloc'),
  aclrtMallocAlign32: deviceMalloc('aclrtMallocAlign32'),
  aclrtMallocCached: deviceMalloc('aclrtMallocCached'),
  aclrtMallocWithCfg: deviceMalloc('aclrtMallocWithCfg'),
  aclrtFree: (context, { devPtr }) => whenAt(context, devPtr, 'devPtr', (addr) => recordFree(context, addr)),
  aclrtMallocHost: (context, { size }, out) =>
    whenAt(context, out.hostPtr, 'pointer', (addr) => recordHostAlloc(context, 'aclrtMallocHost', addr, size, 'pinned', false)),
  aclrtMallocHostWithCfg: (context, { size, cfg }, out) =>
    whenAt(context, out.ptr, 'pointer', (addr) => recordHostAlloc(context, 'aclrtMallocHostWithCfg', addr, size, 'pinned', vaFlagOf(cfg))),
  malloc: (context, { size }, out) => {
    const addr = at(context, out.ptr, 'ptr');
    // malloc answers NULL when it cannot allocate: no buffer.
    if (addr !== undefined && addr !== 0) recordHostAlloc(context, 'malloc', addr, size, 'pageable', false);
    return NONE;
  },
  aclrtFreeHost: (context, { hostPtr }) => {
    const addr = at(context, hostPtr, 'pointer');
    if (addr !== undefined && addr !== 0) recordHostFree(context, addr);
    return NONE;
  },
  free: (context, { ptr }) => {
    const addr = at(context, ptr, 'pointer');
    if (addr !== undefined && addr !== 0) recordHostFree(context, addr);
    return NONE;
  },
  aclrtMemcpy: (context, { dst, src, count, kind }) => {
    const [to, from] = [at(context, dst, 'dst'), at(context, src, 'src')];
    if (to !== undefined && from !== undefined) recordCopy(context, { fn: 'aclrtMemcpy', dst: to, src: from, count, kind: kind >>> 0 });
    return NONE;
  },
  aclrtMemcpyAsync: (context, { dst, src, count, kind, stream }) => {
    const [to, from, streamHandle] = [at(context, dst, 'dst'), at(context, src, 'src'), at(context, stream, 'stream')];
    if (to === undefined || from === undefined) return NONE;
    recordCopy(context, {
      fn: 'aclrtMemcpyAsync',
      dst: to,
      src: from,
      count,
      kind: kind >>> 0,
      ...(streamHandle === undefined ? {} : { streamHandle }),
    });
    return NONE;
  },
  aclrtMemset: (context, { devPtr, count, value }) =>
    whenAt(context, devPtr, 'devPtr', (addr) => recordMemset(context, addr, count, value)),
  // CP-8: recorded like aclrtMemset (the memset event has no stream; the double and the runtime take it in order).
  aclrtMemsetAsync: (context, { devPtr, count, value }) =>
    whenAt(context, devPtr, 'devPtr', (addr) => recordMemset(context, addr, count, value)),
  aclrtMemcpy2d: copy2d('aclrtMemcpy2d'),
  aclrtMemcpy2dAsync: copy2d('aclrtMemcpy2dAsync'),
  aclrtMemcpyBatch: batch('aclrtMemcpyBatch'),
  aclrtMemcpyBatchAsync: batch('aclrtMemcpyBatchAsync'),
  aclrtValueWrite: (context, { devAddr, value, stream }) => {
    const [addr, on] = [at(context, devAddr, 'devAddr'), at(context, stream, 'stream')];
    if (addr !== undefined && on !== undefined) recordValueWrite(context, addr, value, on);
    return NONE;
  },
  aclrtValueWait: (context, { devAddr, value, flag, stream }) => {
    const [addr, on] = [at(context, devAddr, 'devAddr'), at(context, stream, 'stream')];
    if (addr !== undefined && on !== undefined) recordValueWait(context, addr, value, flag >>> 0, on);
    return NONE;
  },
  // aclrtMemFlush and aclrtMemInvalidate change nothing PageLens shows (CP-10), and aclrtCheckMemType and
  // aclrtGetMemUsageInfo are queries (DM-17, DM-18): not listed.
  aclrtHostRegister: (context, { ptr, size, type }, out) => void register('aclrtHostRegister', context, ptr, size, type >>> 0, out.devPtr),
  aclrtHostRegisterV2: (context, { ptr, size, flag }) =>
    void register('aclrtHostRegisterV2', context, ptr, size, flag >>> 0, context.observation.devicePointer),
  aclrtHostUnregister: (context, { ptr }) => whenAt(context, ptr, 'ptr', (addr) => recordUnregister(context, addr)),
  aclrtMallocPhysical: (context, { size, prop }, out) => {
    const handle = at(context, out.handle, 'handle');
    if (handle === undefined || prop === null) return NONE;
    return recordPhysAlloc(context, { size, memAttr: prop.memAttr >>> 0, device: prop.location.id, handle });
  },
  aclrtMemRetainAllocationHandle: (context, _args, out) => whenAt(context, out.handle, 'handle', (value) => recordRetain(context, value)),
  aclrtFreePhysical: (context, { handle }) => whenAt(context, handle, 'handle', (value) => recordFreePhysical(context, value)),
  aclrtReserveMemAddress: (context, { size, flags }, out) =>
    whenAt(context, out.virPtr, 'virPtr', (addr) => recordReserve(context, addr, size, flags)),
  aclrtReleaseMemAddress: (context, { virPtr }) => whenAt(context, virPtr, 'virPtr', (addr) => recordRelease(context, addr)),
  aclrtUnmapMem: (context, { virPtr }) => whenAt(context, virPtr, 'virPtr', (addr) => recordUnmap(context, addr)),
  aclrtMapMem: (context, { virPtr, size, handle }) => {
    const [addr, value] = [at(context, virPtr, 'virPtr'), at(context, handle, 'handle')];
    if (addr !== undefined && value !== undefined) recordMap(context, addr, size, value);
    return NONE;
  },
  aclrtMemSetAccess: (context, { virPtr, desc, count }) =>
    whenAt(context, virPtr, 'virPtr', (addr) => recordSetAccess(context, addr, grantsOf(desc, count))),
  aclrtMemExportToShareableHandle: (context, { handle, flags }, out) => {
    const [value, shareable] = [at(context, handle, 'handle'), at(context, out.shareableHandle, 'shareableHandle')];
    if (value !== undefined && shareable !== undefined) recordExport(context, value, flags, shareable);
    return NONE;
  },
  aclrtMemImportFromShareableHandle: (context, { shareableHandle, deviceId }, out) => {
    const [shareable, handle] = [at(context, shareableHandle, 'shareableHandle'), at(context, out.handle, 'handle')];
    if (shareable !== undefined && handle !== undefined) recordImport(context, shareable, deviceId, handle);
    return NONE;
  },
  aclrtMemSetPidToShareableHandle: (context, { shareableHandle, pid, pidNum }) =>
    whenAt(context, shareableHandle, 'shareableHandle', (shareable) => recordSharePids(context, shareable, pid.slice(0, pidNum))),
  aclrtIpcMemGetExportKey: (context, { devPtr, size, flags }, out) => {
    const addr = at(context, devPtr, 'devPtr');
    if (addr !== undefined && out.key !== undefined) recordIpcExport(context, addr, size, flags, out.key);
    return NONE;
  },
  aclrtIpcMemSetImportPid: (context, { key, pid, num }) => {
    if (key !== null) recordIpcPids(context, key, pid.slice(0, num));
    return NONE;
  },
  aclrtIpcMemImportByKey: (context, { key }, out) => {
    const addr = at(context, out.devPtr, 'devPtr');
    if (key !== null && addr !== undefined) recordIpcImport(context, key, addr);
    return NONE;
  },
  aclrtIpcMemClose: (context, { key }) => {
    if (key !== null) recordIpcClose(context, key);
    return NONE;
  },
  aclrtDeviceEnablePeerAccess: (context, { peerDeviceId }) => void recordPeerAccess(context, peerDeviceId),
  aclrtDeviceDisablePeerAccess: (context, { peerDeviceId }) => void recordPeerAccessOff(context, peerDeviceId),
};

/**
 * Records the state change of a call the runtime answered with ACL_SUCCESS, and returns the
 * reasons that explain it (which pool served an allocation). Queries change nothing.
 */
export function recordEffects<F extends AclFunctionName>(
  context: EffectContext,
  fn: F,
  args: AclArgs<F>,
  out: Partial<AclOut<F>>,
): readonly Reason[] {
  const effect: Effect<F> | undefined = EFFECTS[fn];
  return effect?.(context, args, out) ?? NONE;
}
