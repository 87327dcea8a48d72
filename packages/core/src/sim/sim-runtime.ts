import { checkArgs } from '../acl/check-args.ts';
import { ACL_ERROR_INVALID_PARAM, errorName } from '../acl/errors.ts';
import type { AclFunctionName } from '../acl/functions.ts';
import type { AclArgs, AclResult, AclRuntime } from '../acl/runtime.ts';
import type { CallEvent, Reason } from '../model/events.ts';
import type { ProcessState } from '../model/state.ts';
import type { Mutable, Op, SimContext } from './context.ts';
import * as copy from './ops-copy.ts';
import * as device from './ops-device.ts';
import * as host from './ops-host.ts';
import * as info from './ops-info.ts';
import { free, malloc } from './ops-malloc.ts';
import * as share from './ops-share.ts';
import * as vmm from './ops-vmm.ts';
import type { SimHost } from './sim-host.ts';

/** Copies call arguments for the log, so a caller mutating its struct later cannot rewrite history. */
function snapshotArgs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snapshotArgs);
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = snapshotArgs(item);
    return copy;
  }
  return value;
}

function record(args: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const copy: Record<string, unknown> = {};
  for (const key in args) {
    // `args[key]` inside the for-in, not Reflect.get: V8 then reads the field by its enum-cache index.
    const item = args[key];
    // Numbers and strings are immutable: only structs and arrays need a deep copy.
    copy[key] = item !== null && typeof item === 'object' ? snapshotArgs(item) : item;
  }
  return copy;
}

/** A call event with the rarer fields (injected failures, failures with reasons), added one by one in their place. */
function rareCallEvent(
  seq: number,
  t: number,
  pid: number,
  fn: string,
  args: Readonly<Record<string, unknown>>,
  ret: number,
  durationNs: number,
  out: Readonly<Record<string, unknown>> | undefined,
  message: string | undefined,
  reasons: readonly Reason[] | undefined,
  injected: boolean,
): CallEvent {
  const event: Mutable<CallEvent> = { kind: 'call', seq, t, provenance: 'simulated', pid, fn, args, ret, durationNs };
  if (out !== undefined) event.out = record(out);
  if (message !== undefined) event.message = message;
  if (reasons !== undefined) event.reasons = reasons;
  if (injected) event.injected = true;
  return event;
}

/**
 * One simulated process: `AclRuntime` over a `SimHost`. Each call is checked against the
 * catalogue, run by its operation, and logged as a `call` event followed by the state changes it
 * made. A call that fails changes nothing.
 */
export class SimRuntime implements AclRuntime {
  readonly host: SimHost;
  readonly pid: number;
  readonly #context: SimContext;

  constructor(host: SimHost, name = 'app') {
    this.host = host;
    this.pid = host.addProcess(name);
    const process: ProcessState | undefined = host.state.processes.get(this.pid);
    const space = host.spaces.get(this.pid);
    if (process === undefined || space === undefined) throw new Error(`process ${this.pid} was not registered`);
    this.#context = { host, state: host.state, pid: this.pid, process, space, emit: (body) => host.emit(body) };
  }

  #call<F extends AclFunctionName>(fn: F, args: AclArgs<F>, op: Op<F>): Promise<AclResult<F>> {
    const host = this.host;
    const seq = host.beginCall();
    const before = host.state.time;
    const injected = host.takeFailure(fn);
    const check = injected === undefined ? checkArgs(fn, args) : { ok: true as const };
    const result =
      injected !== undefined
        ? { ret: injected.ret, message: injected.message ?? `${errorName(injected.ret)} injected on purpose (no state changed)` }
        : check.ok
          ? op(this.#context, args)
          : { ret: ACL_ERROR_INVALID_PARAM, message: check.message };
    const { ret, message, reasons, out } = result;
    const t = host.state.time;
    const recorded = record(args);
    const durationNs = t - before;
    // The common shapes are whole literals (fields in the order the log has always had): an optional
    // field added after a literal moves the object's fields out of line, which every call paid for.
    // A success's reasons travel with the state change they explain; a failure has only the call to carry them.
    const event: CallEvent =
      injected !== undefined || (reasons !== undefined && ret !== 0) || (out !== undefined && message !== undefined)
        ? rareCallEvent(
            seq,
            t,
            this.pid,
            fn,
            recorded,
            ret,
            durationNs,
            out,
            message,
            ret !== 0 ? reasons : undefined,
            injected !== undefined,
          )
        : out !== undefined
          ? { kind: 'call', seq, t, provenance: 'simulated', pid: this.pid, fn, args: recorded, ret, durationNs, out: record(out) }
          : message !== undefined
            ? { kind: 'call', seq, t, provenance: 'simulated', pid: this.pid, fn, args: recorded, ret, durationNs, message }
            : { kind: 'call', seq, t, provenance: 'simulated', pid: this.pid, fn, args: recorded, ret, durationNs };
    host.endCall(event);
    if (ret !== 0 && message !== undefined) this.#context.space.lastError = message;
    const answer: AclResult<F> = Object.assign({ ret }, out, message === undefined ? undefined : { message });
    return Promise.resolve(answer);
  }

  readonly aclInit = (args: AclArgs<'aclInit'>) => this.#call('aclInit', args, device.aclInit);
  readonly aclFinalize = (args: AclArgs<'aclFinalize'>) => this.#call('aclFinalize', args, device.aclFinalize);
  readonly aclrtSetDevice = (args: AclArgs<'aclrtSetDevice'>) => this.#call('aclrtSetDevice', args, device.aclrtSetDevice);
  readonly aclrtResetDevice = (args: AclArgs<'aclrtResetDevice'>) => this.#call('aclrtResetDevice', args, device.aclrtResetDevice);
  readonly aclrtResetDeviceForce = (args: AclArgs<'aclrtResetDeviceForce'>) =>
    this.#call('aclrtResetDeviceForce', args, device.aclrtResetDeviceForce);
  readonly aclrtGetDevice = (args: AclArgs<'aclrtGetDevice'>) => this.#call('aclrtGetDevice', args, device.aclrtGetDevice);
  readonly aclrtGetDeviceCount = (args: AclArgs<'aclrtGetDeviceCount'>) =>
    this.#call('aclrtGetDeviceCount', args, device.aclrtGetDeviceCount);
  readonly aclrtGetSocName = (args: AclArgs<'aclrtGetSocName'>) => this.#call('aclrtGetSocName', args, device.aclrtGetSocName);
  readonly aclrtCreateStream = (args: AclArgs<'aclrtCreateStream'>) => this.#call('aclrtCreateStream', args, device.aclrtCreateStream);
  readonly aclrtDestroyStream = (args: AclArgs<'aclrtDestroyStream'>) => this.#call('aclrtDestroyStream', args, device.aclrtDestroyStream);
  readonly aclrtSynchronizeStream = (args: AclArgs<'aclrtSynchronizeStream'>) =>
    this.#call('aclrtSynchronizeStream', args, device.aclrtSynchronizeStream);
  readonly aclrtSynchronizeDevice = (args: AclArgs<'aclrtSynchronizeDevice'>) =>
    this.#call('aclrtSynchronizeDevice', args, device.aclrtSynchronizeDevice);
  readonly aclrtMalloc = (args: AclArgs<'aclrtMalloc'>) =>
    this.#call('aclrtMalloc', args, (c, a) => malloc(c, 'aclrtMalloc', a.size, a.policy, null));
  readonly aclrtMallocAlign32 = (args: AclArgs<'aclrtMallocAlign32'>) =>
    this.#call('aclrtMallocAlign32', args, (c, a) => malloc(c, 'aclrtMallocAlign32', a.size, a.policy, null));
  readonly aclrtMallocCached = (args: AclArgs<'aclrtMallocCached'>) =>
    this.#call('aclrtMallocCached', args, (c, a) => malloc(c, 'aclrtMallocCached', a.size, a.policy, null));
  readonly aclrtMallocWithCfg = (args: AclArgs<'aclrtMallocWithCfg'>) =>
    this.#call('aclrtMallocWithCfg', args, (c, a) => malloc(c, 'aclrtMallocWithCfg', a.size, a.policy, a.cfg));
  readonly aclrtFree = (args: AclArgs<'aclrtFree'>) => this.#call('aclrtFree', args, (c, a) => free(c, a.devPtr));
  readonly aclrtMallocHost = (args: AclArgs<'aclrtMallocHost'>) => this.#call('aclrtMallocHost', args, host.aclrtMallocHost);
  readonly aclrtMallocHostWithCfg = (args: AclArgs<'aclrtMallocHostWithCfg'>) =>
    this.#call('aclrtMallocHostWithCfg', args, host.aclrtMallocHostWithCfg);
  readonly aclrtFreeHost = (args: AclArgs<'aclrtFreeHost'>) => this.#call('aclrtFreeHost', args, host.aclrtFreeHost);
  readonly aclrtMemcpy = (args: AclArgs<'aclrtMemcpy'>) => this.#call('aclrtMemcpy', args, copy.aclrtMemcpy);
  readonly aclrtMemcpyAsync = (args: AclArgs<'aclrtMemcpyAsync'>) => this.#call('aclrtMemcpyAsync', args, copy.aclrtMemcpyAsync);
  readonly aclrtMemset = (args: AclArgs<'aclrtMemset'>) => this.#call('aclrtMemset', args, copy.aclrtMemset);
  readonly aclrtGetMemInfo = (args: AclArgs<'aclrtGetMemInfo'>) => this.#call('aclrtGetMemInfo', args, info.aclrtGetMemInfo);
  readonly aclrtHostRegister = (args: AclArgs<'aclrtHostRegister'>) => this.#call('aclrtHostRegister', args, host.aclrtHostRegister);
  readonly aclrtHostRegisterV2 = (args: AclArgs<'aclrtHostRegisterV2'>) =>
    this.#call('aclrtHostRegisterV2', args, host.aclrtHostRegisterV2);
  readonly aclrtHostUnregister = (args: AclArgs<'aclrtHostUnregister'>) =>
    this.#call('aclrtHostUnregister', args, host.aclrtHostUnregister);
  readonly aclrtHostGetDevicePointer = (args: AclArgs<'aclrtHostGetDevicePointer'>) =>
    this.#call('aclrtHostGetDevicePointer', args, host.aclrtHostGetDevicePointer);
  readonly aclrtPointerGetAttributes = (args: AclArgs<'aclrtPointerGetAttributes'>) =>
    this.#call('aclrtPointerGetAttributes', args, info.aclrtPointerGetAttributes);
  readonly aclrtMemGetAllocationGranularity = (args: AclArgs<'aclrtMemGetAllocationGranularity'>) =>
    this.#call('aclrtMemGetAllocationGranularity', args, vmm.aclrtMemGetAllocationGranularity);
  readonly aclrtMallocPhysical = (args: AclArgs<'aclrtMallocPhysical'>) => this.#call('aclrtMallocPhysical', args, vmm.aclrtMallocPhysical);
  readonly aclrtFreePhysical = (args: AclArgs<'aclrtFreePhysical'>) => this.#call('aclrtFreePhysical', args, vmm.aclrtFreePhysical);
  readonly aclrtReserveMemAddress = (args: AclArgs<'aclrtReserveMemAddress'>) =>
    this.#call('aclrtReserveMemAddress', args, vmm.aclrtReserveMemAddress);
  readonly aclrtReleaseMemAddress = (args: AclArgs<'aclrtReleaseMemAddress'>) =>
    this.#call('aclrtReleaseMemAddress', args, vmm.aclrtReleaseMemAddress);
  readonly aclrtMapMem = (args: AclArgs<'aclrtMapMem'>) => this.#call('aclrtMapMem', args, vmm.aclrtMapMem);
  readonly aclrtUnmapMem = (args: AclArgs<'aclrtUnmapMem'>) => this.#call('aclrtUnmapMem', args, vmm.aclrtUnmapMem);
  readonly aclrtMemSetAccess = (args: AclArgs<'aclrtMemSetAccess'>) => this.#call('aclrtMemSetAccess', args, vmm.aclrtMemSetAccess);
  readonly aclrtMemGetAccess = (args: AclArgs<'aclrtMemGetAccess'>) => this.#call('aclrtMemGetAccess', args, vmm.aclrtMemGetAccess);
  readonly aclrtMemExportToShareableHandle = (args: AclArgs<'aclrtMemExportToShareableHandle'>) =>
    this.#call('aclrtMemExportToShareableHandle', args, share.aclrtMemExportToShareableHandle);
  readonly aclrtMemImportFromShareableHandle = (args: AclArgs<'aclrtMemImportFromShareableHandle'>) =>
    this.#call('aclrtMemImportFromShareableHandle', args, share.aclrtMemImportFromShareableHandle);
  readonly aclrtMemSetPidToShareableHandle = (args: AclArgs<'aclrtMemSetPidToShareableHandle'>) =>
    this.#call('aclrtMemSetPidToShareableHandle', args, share.aclrtMemSetPidToShareableHandle);
  readonly aclrtDeviceCanAccessPeer = (args: AclArgs<'aclrtDeviceCanAccessPeer'>) =>
    this.#call('aclrtDeviceCanAccessPeer', args, share.aclrtDeviceCanAccessPeer);
  readonly aclrtDeviceEnablePeerAccess = (args: AclArgs<'aclrtDeviceEnablePeerAccess'>) =>
    this.#call('aclrtDeviceEnablePeerAccess', args, share.aclrtDeviceEnablePeerAccess);
  readonly aclGetRecentErrMsg = (args: AclArgs<'aclGetRecentErrMsg'>) => this.#call('aclGetRecentErrMsg', args, info.aclGetRecentErrMsg);
  readonly malloc = (args: AclArgs<'malloc'>) => this.#call('malloc', args, host.malloc);
  readonly free = (args: AclArgs<'free'>) => this.#call('free', args, host.free);
}
