import {
  ACL_ERROR_API_NOT_SUPPORT,
  ACL_ERROR_INTERNAL_ERROR,
  ACL_ERROR_REPEAT_INITIALIZE,
  ACL_ERROR_RT_NO_PERMISSION,
  ACL_FUNCTIONS,
  ACL_HOST_REG,
  type AclArgs,
  type AclFunctionName,
  type AclOut,
  type AclResult,
  type CallEvent,
  type DeviceProfile,
  errorName,
  type Hex,
  isMallocFn,
  MiB,
  type Reason,
  type Text,
  text,
  withText,
} from '@pagelens/core';
import type { Declarations } from './declarations.ts';
import { readCurrentContext, readDefaultStream, readDevicePointer, readPointerPageSize, readPools } from './device-reads.ts';
import { recordEffects } from './effects.ts';
import { type EffectContext, emitter, type Observation } from './effects-context.ts';
import type { OutValue } from './marshal.ts';
import { type NativeOutcome, runNative } from './native-call.ts';
import type { NativeThread } from './native-thread.ts';
import type { ObservedHost } from './observed-host.ts';
import { tooWide, undoCall } from './pointer-policy.ts';
import { SerialLock } from './serial-lock.ts';

/** Copies, memsets and pinned allocations above this size may block for long: they go to the native thread (F1). */
export const BLOCKING_BYTES = MiB;

/** The longest `message` a call event may carry (protocol/event-schemas.ts). */
const MAX_EVENT_MESSAGE = 2000;

export interface RunnerConfig {
  readonly declarations: Declarations;
  /** Undefined when the library lacks aclrtGetCurrentContext/aclrtSetCurrentContext: every call then runs on the main thread. */
  readonly thread: NativeThread | undefined;
  readonly host: ObservedHost;
  readonly allowMutations: boolean;
  readonly hostPageSize: number;
  profileOf(device: number): DeviceProfile;
}

/** An answer with no out-fields: C leaves them untouched on failure. */
function failed<F extends AclFunctionName>(ret: number, message: string): AclResult<F> {
  const none: Partial<AclOut<F>> = {};
  return { ...none, ret, message };
}

/** A refusal of the agent's own, worded by core's table (the runtime's own texts are not PageLens's to code). */
function refused<F extends AclFunctionName>(ret: number, why: Text): AclResult<F> {
  const none: Partial<AclOut<F>> = {};
  return { ...none, ret, ...withText(why) };
}

/**
 * The out-fields of `fn` as typed values. readOuts (marshal.ts) builds them from the catalogue, the
 * table AclOut<F> is derived from; TypeScript cannot follow that link, so this is the one place it
 * is asserted.
 */
function catalogueOuts<F extends AclFunctionName>(_fn: F, out: Readonly<Record<string, OutValue>>): Partial<AclOut<F>> {
  return out as Partial<AclOut<F>>;
}

function snapshot(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snapshot);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, snapshot(v)]));
  return value;
}

function numberOf(args: Readonly<Record<string, unknown>>, name: string): number {
  const value = args[name];
  return typeof value === 'number' ? value : 0;
}

function hexOf(value: OutValue | unknown): Hex | undefined {
  return typeof value === 'string' && value.startsWith('0x') ? `0x${value.slice(2)}` : undefined;
}

/**
 * Runs session calls against the real runtime, one at a time (the sampler shares the lock), and
 * turns each into observed events: the call itself, the state change it made, and the device's
 * pools after it. Policy refusals (read-only, missing symbol) never reach the runtime and emit nothing.
 */
export class CallRunner {
  readonly lock = new SerialLock();
  /** The session's aclrtContext per device, as its calls made them on the main thread. */
  readonly contexts = new Map<number, string>();
  /** The session's current aclrtContext on the main thread (a device's default one or a created one, CX-1), for the native thread. */
  current: string | undefined;
  /** Whether ACL is initialised in this process (the backend's aclInit, until a session's aclFinalize). */
  initialized = true;
  readonly #config: RunnerConfig;
  /** The runtime's text for the session's latest failure: reading it clears it, and the agent reads it first. */
  #lastError: string | undefined;

  constructor(config: RunnerConfig) {
    this.#config = config;
  }

  /** Whether a session may call `fn` here: its symbol exists and mutations are allowed. */
  callable(fn: AclFunctionName): boolean {
    const present = fn === 'malloc' || this.#config.declarations.functions.has(fn);
    return present && (this.#config.allowMutations || !ACL_FUNCTIONS[fn].mutates);
  }

  call<F extends AclFunctionName>(pid: number, fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
    if (ACL_FUNCTIONS[fn].mutates && !this.#config.allowMutations) {
      return Promise.resolve(refused<F>(ACL_ERROR_RT_NO_PERMISSION, text('acl-read-only', { fn })));
    }
    if (fn !== 'malloc' && !this.#config.declarations.functions.has(fn)) {
      return Promise.resolve(refused<F>(ACL_ERROR_API_NOT_SUPPORT, text('acl-missing-symbol', { fn })));
    }
    return this.lock.run(() => this.#run(pid, fn, args));
  }

  /** The native thread, with the context it must make current, when this call may block (F1). */
  #offLoop(fn: AclFunctionName, args: Readonly<Record<string, unknown>>, device: number): string | undefined {
    const spec = ACL_FUNCTIONS[fn];
    if (!spec.mayBlock || this.#config.thread === undefined) return undefined;
    if (fn === 'aclrtMemcpy' || fn === 'aclrtMemcpyAsync' || fn === 'aclrtMemset') {
      if (numberOf(args, 'count') <= BLOCKING_BYTES) return undefined;
    }
    if ((fn === 'aclrtMallocHost' || fn === 'aclrtMallocHostWithCfg') && numberOf(args, 'size') <= BLOCKING_BYTES) return undefined;
    // A reset runs in the device's default context; anything else in the session's current context (CX-3: a
    // stream of a created context is usable only there).
    if (fn === 'aclrtResetDevice' || fn === 'aclrtResetDeviceForce') return this.contexts.get(numberOf(args, 'deviceId'));
    // Without a context of the session's to give the thread, the call runs where the session's calls run.
    return this.current ?? this.contexts.get(device);
  }

  async #execute(fn: AclFunctionName, args: Readonly<Record<string, unknown>>, device: number): Promise<NativeOutcome> {
    const { declarations, thread, hostPageSize } = this.#config;
    if (fn === 'malloc') return this.#malloc(numberOf(args, 'size'), hostPageSize);
    const context = this.#offLoop(fn, args, device);
    if (context !== undefined && thread !== undefined) return thread.call(context, { fn, args });
    return runNative(declarations, fn, args);
  }

  /** Pageable memory: glibc malloc below one host page, posix_memalign(page) from one page up, so it can be registered (HM-5). */
  #malloc(size: number, page: number): NativeOutcome {
    const { declarations } = this.#config;
    if (size < page) return runNative(declarations, 'malloc', { size });
    const aligned = runNative(declarations, 'posix_memalign', { alignment: page, size });
    const ptr = aligned.ret === 0 ? aligned.out.memptr : '0x0';
    return { fn: 'malloc', ret: 0, out: { ptr: ptr ?? '0x0' }, durationNs: aligned.durationNs };
  }

  async #run<F extends AclFunctionName>(pid: number, fn: F, args: AclArgs<F>): Promise<AclResult<F>> {
    const { host, declarations } = this.#config;
    const process = host.state.processes.get(pid);
    if (process === undefined) throw new Error(`process ${pid} is not open on the acl backend`);
    const seq = host.beginCall();
    try {
      const device = process.currentDevice;
      const observePools = ACL_FUNCTIONS[fn].changesPools && device >= 0;
      const before = observePools ? readPools(declarations) : undefined;
      const t0 = host.now();
      const outcome = await this.#execute(fn, args, device);
      const t1 = host.now();
      if (outcome.refused !== undefined || outcome.fn !== fn) {
        host.abandonCall(seq);
        const why =
          outcome.refused ??
          `could not make the session's context current on the native thread: ${outcome.errMsg ?? errorName(outcome.ret)}`;
        return failed<F>(outcome.ret, why);
      }
      const notes: string[] = [];
      let out: Readonly<Record<string, OutValue>> = outcome.out;
      let ret = outcome.ret;
      let reasons: readonly Reason[] = [];
      if (ret !== 0) {
        this.#lastError = outcome.errMsg;
        notes.push(outcome.errMsg ?? `${errorName(ret)}; the runtime gave no message (aclGetRecentErrMsg returned NULL)`);
        if (fn === 'aclInit' && ret === ACL_ERROR_REPEAT_INITIALIZE) {
          notes.push('the agent called aclInit when it started, to list the devices; a repeat answers 100002 and is harmless (LT-1)');
        }
      } else if (outcome.unrepresentable !== undefined) {
        ret = ACL_ERROR_INTERNAL_ERROR;
        notes.push(`the call succeeded but PageLens cannot represent its answer: ${outcome.unrepresentable}`);
      } else if (tooWide(fn, out) !== undefined) {
        ret = ACL_ERROR_INTERNAL_ERROR;
        notes.push(this.#refuseWide(fn, args, out));
      } else {
        if (fn === 'aclGetRecentErrMsg') out = this.#errMsg(out, notes);
        // The C call itself, placed on the backend's clock: on the native thread it began after a thread hop.
        const start = outcome.startedNs === undefined ? t0 : Math.min(t1, Math.max(t0, host.fromMonotonic(outcome.startedNs)));
        const native = { start, durationNs: Math.min(outcome.durationNs, t1 - start) };
        reasons = this.#record(pid, fn, args, out, notes, { t0, t1, native, before, device });
      }
      const message = notes.length === 0 ? undefined : notes.join('; ');
      const event: CallEvent = {
        kind: 'call',
        seq,
        t: t1,
        provenance: 'observed',
        pid,
        fn,
        args: Object.fromEntries(Object.entries(args).map(([k, v]) => [k, snapshot(v)])),
        // The runtime's own answer: a call PageLens refused afterwards still succeeded on the device.
        ret: outcome.ret,
        durationNs: outcome.durationNs,
        ...(Object.keys(out).length === 0 ? {} : { out: { ...out } }),
        // Events cap messages at 2000 characters (the wire schema); the result below keeps the whole text.
        ...(message === undefined
          ? {}
          : { message: message.length > MAX_EVENT_MESSAGE ? `${message.slice(0, MAX_EVENT_MESSAGE - 1)}…` : message }),
        ...(reasons.length === 0 ? {} : { reasons }),
      };
      host.endCall(event);
      const answer: Partial<AclOut<F>> = ret === outcome.ret ? { ...catalogueOuts(fn, out) } : {};
      return { ...answer, ret, ...(message === undefined ? {} : { message }) };
    } catch (error) {
      host.abandonCall(seq);
      throw error;
    }
  }

  /** aclGetRecentErrMsg: the agent already read the runtime's text right after the failure, so it answers that text. */
  #errMsg(out: Readonly<Record<string, OutValue>>, notes: string[]): Readonly<Record<string, OutValue>> {
    const saved = this.#lastError;
    this.#lastError = undefined;
    if (out.errMsg !== null || saved === undefined) return out;
    notes.push('the agent read this text from aclGetRecentErrMsg right after the failing call (reading it clears it in the runtime)');
    return { errMsg: saved };
  }

  #refuseWide(fn: AclFunctionName, args: Readonly<Record<string, unknown>>, out: Readonly<Record<string, OutValue>>): string {
    const wide = tooWide(fn, out) ?? '';
    const undo = undoCall(fn, args, out);
    const undone = undo === undefined ? undefined : runNative(this.#config.declarations, undo.fn, undo.args);
    const what = `${fn} answered ${wide}, 2^53 or more: PageLens records addresses as exact numbers below 2^53 and cannot record this one`;
    if (undo === undefined || undone === undefined) return `${what}; nothing to release`;
    return `${what}, so it released it again with ${undo.fn} (${errorName(undone.ret)})`;
  }

  #record<F extends AclFunctionName>(
    pid: number,
    fn: F,
    args: AclArgs<F>,
    out: Readonly<Record<string, OutValue>>,
    notes: string[],
    around: { t0: number; t1: number; native: EffectContext['native']; before: Observation['before']; device: number },
  ): readonly Reason[] {
    const { host, declarations } = this.#config;
    const process = host.state.processes.get(pid);
    if (process === undefined) return [];
    const observation: { -readonly [K in keyof Observation]: Observation[K] } = {};
    if (around.before !== undefined) {
      observation.before = around.before;
      const after = readPools(declarations);
      if (after !== undefined) observation.after = after;
    }
    const devPtr = hexOf(out.devPtr);
    if (isMallocFn(fn) && devPtr !== undefined && declarations.functions.has('aclrtPointerGetAttributes')) {
      const pageSize = readPointerPageSize(declarations, devPtr);
      if (pageSize !== undefined) observation.pointerPageSize = pageSize;
    }
    const ptr = hexOf(Reflect.get(args, 'ptr'));
    if (fn === 'aclrtHostRegisterV2' && ptr !== undefined && (numberOf(args, 'flag') & ACL_HOST_REG.byName.ACL_HOST_REG_MAPPED) !== 0) {
      const pointer = readDevicePointer(declarations, ptr);
      if (pointer !== undefined) observation.devicePointer = pointer;
    }
    if (fn === 'aclrtSetDevice') {
      const current = hexOf(readCurrentContext(declarations));
      if (current !== undefined) observation.currentContext = current;
    }
    if (fn === 'aclrtCreateContext' && declarations.functions.has('aclrtCtxGetCurrentDefaultStream')) {
      const stream = hexOf(readDefaultStream(declarations));
      if (stream !== undefined) observation.defaultStream = stream;
    }
    const context: EffectContext = {
      host,
      state: host.state,
      pid,
      process,
      notes,
      t0: around.t0,
      t1: around.t1,
      native: around.native,
      observation,
      profileOf: (device) => this.#config.profileOf(device),
      emit: emitter(host),
    };
    const reasons = recordEffects(context, fn, args, catalogueOuts(fn, out));
    this.#trackContexts(fn, args, process.deviceRefs, observation.currentContext);
    if (observation.after !== undefined) this.emitSample(around.device, observation.after);
    if (fn === 'aclrtSetDevice') this.#firstReading(numberOf(args, 'deviceId'));
    return reasons;
  }

  /**
   * A device the session has just opened and nobody has read yet: its pools now (the calling
   * thread's current device is that device), not at the sampler's next tick, so the views show
   * observed pools from the first call on and an allocation's "before" has something to compare to.
   */
  #firstReading(device: number): void {
    const { host, declarations } = this.#config;
    if (host.state.devices[device] === undefined || host.state.devices[device]?.lastSample !== undefined) return;
    const reading = readPools(declarations);
    if (reading !== undefined) this.emitSample(device, reading);
  }

  /** Keeps the session's contexts in step with its device references (they die with the last one, LT-2). */
  #trackContexts(
    fn: AclFunctionName,
    args: Readonly<Record<string, unknown>>,
    refs: ReadonlyMap<number, number>,
    observed: string | undefined,
  ): void {
    const device = numberOf(args, 'deviceId');
    if (fn === 'aclInit') this.initialized = true;
    if (fn === 'aclFinalize') {
      this.initialized = false;
      this.contexts.clear();
      this.current = undefined;
    }
    if (fn === 'aclrtSetDevice' && observed !== undefined) {
      this.contexts.set(device, observed);
      this.current = observed;
    }
    if ((fn === 'aclrtResetDevice' || fn === 'aclrtResetDeviceForce') && (refs.get(device) ?? 0) === 0) {
      this.contexts.delete(device);
      this.current = readCurrentContext(this.#config.declarations);
    }
    if (fn === 'aclrtCreateContext' || fn === 'aclrtSetCurrentContext' || fn === 'aclrtDestroyContext') {
      // The main thread's current context after the call (CX-1, CX-2: destroying the current one falls back).
      this.current = readCurrentContext(this.#config.declarations);
    }
  }

  /** A poolSample for `device`, with the bytes this agent's sessions hold there (the rest is other processes'). */
  emitSample(device: number, reading: NonNullable<Observation['after']>): void {
    const { state } = this.#config.host;
    let ownBytes = 0;
    for (const a of state.allocations.values()) if (a.device === device) ownBytes += a.pages * a.pageSize;
    for (const p of state.physical.values()) if (p.device === device) ownBytes += p.pages * p.pageSize;
    this.#config.host.emit({ kind: 'poolSample', device, pools: reading, ownBytes });
  }
}
