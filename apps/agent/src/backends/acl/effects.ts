import { ACL_HOST_REG, type AclFunctionName, aclrtMallocAttrType, type Reason } from '@pagelens/core';
import { address, type EffectContext, numberArg } from './effects-context.ts';
import {
  recordCreateStream,
  recordDestroyStream,
  recordFinalize,
  recordInit,
  recordPeerAccess,
  recordResetDevice,
  recordSetDevice,
  recordSync,
} from './effects-device.ts';
import {
  recordAlloc,
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
  recordSetAccess,
  recordSharePids,
  recordUnmap,
} from './effects-vmm.ts';
import type { OutValue } from './marshal.ts';

const NONE: readonly Reason[] = [];
const REG = ACL_HOST_REG.byName;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** HM-6: VA_FLAG among the first numAttrs attributes of an aclrtMallocConfig. */
function vaFlagOf(cfg: unknown): boolean {
  if (!isRecord(cfg) || !Array.isArray(cfg.attrs)) return false;
  const count = typeof cfg.numAttrs === 'number' ? cfg.numAttrs : cfg.attrs.length;
  return cfg.attrs
    .slice(0, count)
    .some(
      (item) =>
        isRecord(item) &&
        item.attr === aclrtMallocAttrType.byName.ACL_RT_MEM_ATTR_VA_FLAG &&
        isRecord(item.value) &&
        item.value.vaFlag === 1,
    );
}

function grantsOf(desc: unknown, count: number): { device: number; flags: number }[] {
  if (!Array.isArray(desc)) return [];
  return desc
    .slice(0, count)
    .flatMap((item) =>
      isRecord(item) && isRecord(item.location) && typeof item.location.id === 'number' && typeof item.flags === 'number'
        ? [{ device: item.location.id, flags: item.flags >>> 0 }]
        : [],
    );
}

/**
 * Records the state change of a call the runtime answered with ACL_SUCCESS, and returns the
 * reasons that explain it (which pool served an allocation). Queries change nothing.
 */
export function recordEffects(
  context: EffectContext,
  fn: AclFunctionName,
  args: Readonly<Record<string, unknown>>,
  out: Readonly<Record<string, OutValue>>,
): readonly Reason[] {
  const n = (name: string): number => numberArg(args, name);
  // Enum and flag values as the C side received them (marshal.ts passes negatives as 32-bit patterns).
  const u = (name: string): number => numberArg(args, name) >>> 0;
  const at = (value: unknown, what: string): number | undefined => address(context, value, what);
  switch (fn) {
    case 'aclInit':
      recordInit(context);
      return NONE;
    case 'aclFinalize':
      recordFinalize(context);
      return NONE;
    case 'aclrtSetDevice':
      recordSetDevice(context, n('deviceId'));
      return NONE;
    case 'aclrtResetDevice':
    case 'aclrtResetDeviceForce':
      recordResetDevice(context, n('deviceId'), fn === 'aclrtResetDeviceForce');
      return NONE;
    case 'aclrtCreateStream': {
      const handle = at(out.stream, 'stream');
      if (handle !== undefined) recordCreateStream(context, handle);
      return NONE;
    }
    case 'aclrtDestroyStream': {
      const handle = at(args.stream, 'stream');
      if (handle !== undefined) recordDestroyStream(context, handle);
      return NONE;
    }
    case 'aclrtSynchronizeStream':
      recordSync(context, at(args.stream, 'stream') ?? 0);
      return NONE;
    case 'aclrtSynchronizeDevice':
      recordSync(context, undefined);
      return NONE;
    case 'aclrtMalloc':
    case 'aclrtMallocAlign32':
    case 'aclrtMallocCached':
    case 'aclrtMallocWithCfg': {
      const addr = at(out.devPtr, 'devPtr');
      return addr === undefined ? NONE : recordAlloc(context, fn, n('size'), u('policy'), addr);
    }
    case 'aclrtFree': {
      const addr = at(args.devPtr, 'devPtr');
      if (addr !== undefined) recordFree(context, addr);
      return NONE;
    }
    case 'aclrtMallocHost':
    case 'aclrtMallocHostWithCfg': {
      const addr = at(fn === 'aclrtMallocHost' ? out.hostPtr : out.ptr, 'pointer');
      if (addr !== undefined)
        recordHostAlloc(context, fn, addr, n('size'), 'pinned', fn === 'aclrtMallocHostWithCfg' && vaFlagOf(args.cfg));
      return NONE;
    }
    case 'malloc': {
      const addr = at(out.ptr, 'ptr');
      // malloc answers NULL when it cannot allocate: no buffer.
      if (addr !== undefined && addr !== 0) recordHostAlloc(context, fn, addr, n('size'), 'pageable', false);
      return NONE;
    }
    case 'aclrtFreeHost':
    case 'free': {
      const addr = at(fn === 'free' ? args.ptr : args.hostPtr, 'pointer');
      if (addr !== undefined && addr !== 0) recordHostFree(context, addr);
      return NONE;
    }
    case 'aclrtMemcpy':
    case 'aclrtMemcpyAsync': {
      const dst = at(args.dst, 'dst');
      const src = at(args.src, 'src');
      const stream = fn === 'aclrtMemcpyAsync' ? at(args.stream, 'stream') : undefined;
      if (dst === undefined || src === undefined) return NONE;
      recordCopy(context, { fn, dst, src, count: n('count'), kind: u('kind'), ...(stream === undefined ? {} : { streamHandle: stream }) });
      return NONE;
    }
    case 'aclrtMemset': {
      const addr = at(args.devPtr, 'devPtr');
      if (addr !== undefined) recordMemset(context, addr, n('count'), n('value'));
      return NONE;
    }
    case 'aclrtHostRegister':
    case 'aclrtHostRegisterV2': {
      const ptr = at(args.ptr, 'ptr');
      if (ptr === undefined) return NONE;
      const flags = fn === 'aclrtHostRegister' ? u('type') : u('flag');
      const v2 = fn === 'aclrtHostRegisterV2';
      const devicePointer = at(v2 ? context.observation.devicePointer : out.devPtr, 'device pointer');
      recordRegister(context, {
        fn,
        ptr,
        size: n('size'),
        flags,
        pinned: !v2 || (flags & REG.ACL_HOST_REG_PINNED) !== 0,
        mapped: !v2 || (flags & REG.ACL_HOST_REG_MAPPED) !== 0,
        ...(devicePointer === undefined ? {} : { devicePointer }),
      });
      return NONE;
    }
    case 'aclrtHostUnregister': {
      const ptr = at(args.ptr, 'ptr');
      if (ptr !== undefined) recordUnregister(context, ptr);
      return NONE;
    }
    case 'aclrtMallocPhysical': {
      const handle = at(out.handle, 'handle');
      const prop = args.prop;
      if (handle === undefined || !isRecord(prop) || !isRecord(prop.location)) return NONE;
      const memAttr = typeof prop.memAttr === 'number' ? prop.memAttr >>> 0 : 0;
      const device = typeof prop.location.id === 'number' ? prop.location.id : context.process.currentDevice;
      return recordPhysAlloc(context, { size: n('size'), memAttr, device, handle });
    }
    case 'aclrtFreePhysical': {
      const handle = at(args.handle, 'handle');
      if (handle !== undefined) recordFreePhysical(context, handle);
      return NONE;
    }
    case 'aclrtReserveMemAddress': {
      const addr = at(out.virPtr, 'virPtr');
      if (addr !== undefined) recordReserve(context, addr, n('size'), n('flags'));
      return NONE;
    }
    case 'aclrtReleaseMemAddress':
    case 'aclrtUnmapMem': {
      const addr = at(args.virPtr, 'virPtr');
      if (addr !== undefined) (fn === 'aclrtUnmapMem' ? recordUnmap : recordRelease)(context, addr);
      return NONE;
    }
    case 'aclrtMapMem': {
      const addr = at(args.virPtr, 'virPtr');
      const handle = at(args.handle, 'handle');
      if (addr !== undefined && handle !== undefined) recordMap(context, addr, n('size'), handle);
      return NONE;
    }
    case 'aclrtMemSetAccess': {
      const addr = at(args.virPtr, 'virPtr');
      if (addr !== undefined) recordSetAccess(context, addr, grantsOf(args.desc, n('count')));
      return NONE;
    }
    case 'aclrtMemExportToShareableHandle': {
      const handle = at(args.handle, 'handle');
      const shareable = at(out.shareableHandle, 'shareableHandle');
      if (handle !== undefined && shareable !== undefined) recordExport(context, handle, n('flags'), shareable);
      return NONE;
    }
    case 'aclrtMemImportFromShareableHandle': {
      const shareable = at(args.shareableHandle, 'shareableHandle');
      const handle = at(out.handle, 'handle');
      if (shareable !== undefined && handle !== undefined) recordImport(context, shareable, n('deviceId'), handle);
      return NONE;
    }
    case 'aclrtMemSetPidToShareableHandle': {
      const shareable = at(args.shareableHandle, 'shareableHandle');
      const pids = Array.isArray(args.pid) ? args.pid.slice(0, n('pidNum')).filter((p): p is number => typeof p === 'number') : [];
      if (shareable !== undefined) recordSharePids(context, shareable, pids);
      return NONE;
    }
    case 'aclrtDeviceEnablePeerAccess':
      recordPeerAccess(context, n('peerDeviceId'));
      return NONE;
    default:
      // Queries (GetDevice, GetMemInfo, PointerGetAttributes, …) change no state.
      return NONE;
  }
}
