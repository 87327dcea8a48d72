import {
  ACL_ERROR_INVALID_PARAM,
  ACL_FUNCTIONS,
  type AclArgs,
  type AclFunctionName,
  checkArgs,
  type HostState,
  isAclFunctionName,
  normalizeArgs,
  parseHex,
  toHex,
} from '@pagelens/core';
import type { BackendProcess } from '../backends/backend.ts';
import { readCallLine } from './call-line.ts';
import { HOST_PAGE, HostMap } from './host-map.ts';
import { findLeaks, type Leak } from './leaks.ts';
import { encodeReply } from './reply.ts';
import type { CallSite, RunRecord } from './run-record.ts';

/*
 * One program's process as the agent sees it: every interposed call is translated (the program's
 * real host addresses into the simulator's host addresses and back), run by the simulator as that
 * process, recorded for the --check summary, and answered in the stubs' reply format.
 */

const TiB = 2 ** 40;
const INVALID = String(ACL_ERROR_INVALID_PARAM);
/** Device-side addresses the simulator hands out: registered-host device VA (12 TiB) up to the VM-5 window's end (24 TiB). */
const SIM_DEVICE_LO = 12 * TiB;
const SIM_DEVICE_HI = 24 * TiB;

/** The calls whose last reference releases what the process holds on the device (LT-2). */
const RESETS: ReadonlySet<AclFunctionName> = new Set(['aclrtResetDevice', 'aclrtResetDeviceForce']);

const isDeviceSide = (addr: number): boolean => addr >= SIM_DEVICE_LO && addr < SIM_DEVICE_HI;

type Extent = (args: Readonly<Record<string, unknown>>) => number;
const num = (args: Readonly<Record<string, unknown>>, name: string): number => {
  const value = args[name];
  return typeof value === 'number' ? value : 0;
};
const rows =
  (pitch: string): Extent =>
  (a) =>
    num(a, 'height') === 0 ? 0 : (num(a, 'height') - 1) * num(a, pitch) + num(a, 'width');

/**
 * How many bytes from a host pointer argument a call touches: what a pageable range made on first
 * sight must cover. A host pointer of a call not listed is translated when known and passed as is
 * otherwise (the simulator then answers as the runtime would for unknown memory).
 */
const HOST_EXTENT: Partial<Record<AclFunctionName, Readonly<Record<string, Extent>>>> = {
  aclrtMemcpy: { dst: (a) => num(a, 'destMax'), src: (a) => num(a, 'count') },
  aclrtMemcpyAsync: { dst: (a) => num(a, 'destMax'), src: (a) => num(a, 'count') },
  aclrtMemcpy2d: { dst: rows('dpitch'), src: rows('spitch') },
  aclrtMemcpy2dAsync: { dst: rows('dpitch'), src: rows('spitch') },
  aclrtHostRegister: { ptr: (a) => num(a, 'size') },
  aclrtHostRegisterV2: { ptr: (a) => num(a, 'size') },
};
/** The batch copies' pointer lists and the list that sizes each item. */
const LIST_EXTENT: Readonly<Record<string, string>> = { dsts: 'destMaxs', srcs: 'sizes' };

/** The kind of object a creating call makes, named by the call that releases it; MapMem has no releasing catalogue fact. */
function creationKey(fn: AclFunctionName, value: string): string | undefined {
  if (fn === 'aclrtMapMem') return `aclrtUnmapMem:${value}`;
  const release = ACL_FUNCTIONS[fn].releasedBy;
  return release === undefined ? undefined : `${release.fn}:${value}`;
}

export interface ProgramInfo {
  readonly pid: number;
  readonly argv: readonly string[];
}

export class ProgramBridge {
  readonly info: ProgramInfo;
  readonly process: BackendProcess;
  readonly record: RunRecord;
  readonly hostMap = new HostMap();
  readonly #state: () => HostState;
  /** Each host thread's current context (CX-1 is per thread; the simulator's process has one). */
  readonly #threadContext = new Map<number, number>();

  readonly #tagThread: ((thread: number | undefined) => void) | undefined;

  constructor(
    process: BackendProcess,
    info: ProgramInfo,
    state: () => HostState,
    record: RunRecord,
    tagThread?: (thread: number | undefined) => void,
  ) {
    this.#tagThread = tagThread;
    this.process = process;
    this.info = info;
    this.#state = state;
    this.record = record;
  }

  /** Answers one message line from the interposer (rejects, never throws, when the agent fails). */
  handle(line: string): Promise<string> {
    // Not an async function: its answer is #call's own promise, not one more wrapped around it.
    try {
      return this.#handle(line);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  #handle(line: string): Promise<string> {
    const message = readCallLine(line);
    if (message === undefined) return Promise.resolve(INVALID);
    const { fn, args } = message;
    const site: CallSite = {
      index: this.record.nextIndex(),
      fn,
      thread: message.thread,
      site: message.site === undefined ? 0 : hexNumber(message.site),
    };
    if (args.notModeled !== undefined || !isAclFunctionName(fn) || !ACL_FUNCTIONS[fn].acl) {
      this.record.notModeled(site);
      return Promise.resolve('207000');
    }
    return this.#call(fn, args, site);
  }

  async #call(fn: AclFunctionName, raw: Record<string, unknown>, site: CallSite): Promise<string> {
    let real = 0;
    // Only the calls that carry them pay for removing the interposer's own keys.
    if ('__nullOut' in raw || '__real' in raw) {
      const nullOut = raw.__nullOut;
      real = typeof raw.__real === 'string' ? hexNumber(raw.__real) : 0;
      delete raw.__nullOut;
      delete raw.__real;
      if (typeof nullOut === 'string') {
        this.record.call(site, ACL_ERROR_INVALID_PARAM, `${nullOut} is NULL (the acl layer refuses a NULL out-parameter)`);
        return INVALID;
      }
    }
    const switching = this.#enterThread(site.thread);
    if (switching !== undefined) await switching;
    // The program's own arguments stay as sent; the simulator's are a translated copy when any differ.
    const programArgs: Readonly<Record<string, unknown>> = raw;
    const translated = this.#toSim(fn, raw);
    const simArgs = translated instanceof Promise ? await translated : translated;
    const normalized = normalizeArgs(fn, simArgs);
    const checked = normalized.ok ? checkArgs(fn, normalized.value) : normalized;
    if (!normalized.ok || !checked.ok) {
      const message = 'message' in checked ? checked.message : 'unreadable arguments';
      this.record.call(site, ACL_ERROR_INVALID_PARAM, `PageLens could not read the arguments: ${message}`);
      return INVALID;
    }
    // checkArgs has proven the shape AclArgs<F> describes. The simulator runs the call before
    // `call` returns, so the thread is named on exactly this call's event.
    const held = RESETS.has(fn) ? findLeaks(this.#state(), this.process.pid, this.hostMap, this.record) : undefined;
    this.#tagThread?.(site.thread);
    const running = this.process.runtime.call(fn, normalized.value as AclArgs<typeof fn>);
    this.#tagThread?.(undefined);
    const result: Readonly<Record<string, unknown>> = await running;
    const ret = typeof result.ret === 'number' ? result.ret : ACL_ERROR_INVALID_PARAM;
    const out: Record<string, unknown> = {};
    for (const param of ACL_FUNCTIONS[fn].params) {
      if (param.dir !== 'out' || result[param.name] === undefined) continue;
      out[param.name] = param.value.t === 'ptr' ? this.#toReal(result[param.name]) : result[param.name];
    }
    if (ret === 0) this.#afterSuccess(fn, programArgs, out, real);
    this.#leaveThread(site.thread);
    this.record.call(site, ret, typeof result.message === 'string' ? this.#realAddresses(result.message) : undefined);
    if (ret === 0) this.#rememberCreation(fn, programArgs, out, site);
    if (ret === 0 && held !== undefined) this.#releasedAtReset(held, site);
    return encodeReply(fn, ret, out);
  }

  /**
   * Makes the thread's own current context the process's again before its call (CX-1 per thread);
   * undefined (no promise to wait on) when it already is, which is nearly always.
   */
  #enterThread(thread: number): Promise<unknown> | undefined {
    const wanted = this.#threadContext.get(thread);
    const state = this.#state();
    const current = state.processes.get(this.process.pid)?.currentContext;
    if (wanted === undefined || wanted === current) return undefined;
    const context = state.contexts.get(wanted);
    if (context === undefined) return undefined;
    return this.process.runtime.call('aclrtSetCurrentContext', { context: toHex(context.handle) });
  }

  #leaveThread(thread: number): void {
    const current = this.#state().processes.get(this.process.pid)?.currentContext;
    if (current !== undefined && current >= 0) this.#threadContext.set(thread, current);
  }

  /**
   * The arguments with the program's host pointers replaced by the simulator's: `args` itself when
   * none is, a copy otherwise. Synchronous unless a pointer is new pageable memory, which takes a
   * modeled malloc first.
   */
  #toSim(
    fn: AclFunctionName,
    args: Readonly<Record<string, unknown>>,
  ): Readonly<Record<string, unknown>> | Promise<Readonly<Record<string, unknown>>> {
    const spec = ACL_FUNCTIONS[fn];
    let unknown = false;
    const replaced: [string, string][] = [];
    for (const param of spec.params) {
      if (param.dir !== 'in') continue;
      const value = args[param.name];
      if (param.value.t === 'ptr' && typeof value === 'string') {
        const addr = hexNumber(value);
        if (addr === 0 || isDeviceSide(addr)) continue;
        const extent = HOST_EXTENT[fn]?.[param.name]?.(args);
        const known = this.hostMap.toSim(addr, extent ?? 1);
        if (known !== undefined) replaced.push([param.name, toHex(known)]);
        else if (extent !== undefined && extent > 0) unknown = true;
      } else if (param.value.t === 'list' && param.value.item === 'ptr') {
        unknown = true;
      }
    }
    if (unknown) return this.#toSimSlow(fn, { ...args });
    if (replaced.length === 0) return args;
    const copy = { ...args };
    for (const [name, value] of replaced) copy[name] = value;
    return copy;
  }

  async #toSimSlow(fn: AclFunctionName, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const extents = HOST_EXTENT[fn];
    for (const param of ACL_FUNCTIONS[fn].params) {
      if (param.dir !== 'in') continue;
      const value = args[param.name];
      if (param.value.t === 'ptr' && typeof value === 'string') {
        const extent = extents?.[param.name];
        args[param.name] = await this.#hostToSim(value, extent === undefined ? undefined : extent(args));
      } else if (param.value.t === 'list' && param.value.item === 'ptr' && Array.isArray(value)) {
        const sizes = args[LIST_EXTENT[param.name] ?? ''];
        const items: unknown[] = [];
        for (const [index, item] of value.entries()) {
          const size = Array.isArray(sizes) && typeof sizes[index] === 'number' ? sizes[index] : undefined;
          items.push(typeof item === 'string' ? await this.#hostToSim(item, size) : item);
        }
        args[param.name] = items;
      }
    }
    return args;
  }

  async #hostToSim(text: string, extent: number | undefined): Promise<string> {
    const addr = hexNumber(text);
    if (addr === 0 || isDeviceSide(addr)) return text;
    const known = this.hostMap.toSim(addr, extent ?? 1);
    if (known !== undefined) return toHex(known);
    if (extent === undefined || extent <= 0) return text;
    // Pageable memory of the program, first seen: the simulator's malloc models it, page offset kept.
    const page = addr - (addr % HOST_PAGE);
    const size = Math.max(HOST_PAGE, addr - page + extent);
    const made = await this.process.runtime.call('malloc', { size });
    const sim = typeof made.ptr === 'string' ? hexNumber(made.ptr) : 0;
    if (sim === 0) return text;
    this.hostMap.add({ real: page, sim, size, kind: 'pageable' });
    return toHex(sim + (addr - page));
  }

  /** A simulator message as the program sees it: host addresses are its own, not the simulator's. */
  #realAddresses(message: string): string {
    return message.replace(/0x[0-9a-f]+/gi, (hex) => {
      const real = this.hostMap.toReal(hexNumber(hex));
      return real === undefined ? hex : toHex(real);
    });
  }

  #toReal(value: unknown): unknown {
    if (typeof value !== 'string') return value;
    const real = this.hostMap.toReal(hexNumber(value));
    return real === undefined ? value : toHex(real);
  }

  #afterSuccess(fn: AclFunctionName, args: Readonly<Record<string, unknown>>, out: Record<string, unknown>, real: number): void {
    if ((fn === 'aclrtMallocHost' || fn === 'aclrtMallocHostWithCfg') && real !== 0) {
      const name = fn === 'aclrtMallocHost' ? 'hostPtr' : 'ptr';
      const sim = hexNumber(String(out[name]));
      this.hostMap.add({ real, sim, size: Math.max(1, num(args, 'size')), kind: 'pinned' });
      out[name] = toHex(real);
    } else if (fn === 'aclrtFreeHost' && typeof args.hostPtr === 'string') {
      this.hostMap.remove(hexNumber(args.hostPtr), 'pinned');
    }
  }

  /** What the last reset of a device released (LT-2) that the program had not released itself. */
  #releasedAtReset(held: readonly Leak[], site: CallSite): void {
    const after = new Set(
      findLeaks(this.#state(), this.process.pid, this.hostMap, this.record).map((leak) => `${leak.kind}:${leak.value}`),
    );
    for (const leak of held) if (!after.has(`${leak.kind}:${leak.value}`)) this.record.releasedAtReset.push({ ...leak, releasedBy: site });
  }

  #rememberCreation(
    fn: AclFunctionName,
    args: Readonly<Record<string, unknown>>,
    out: Readonly<Record<string, unknown>>,
    site: CallSite,
  ): void {
    const release = ACL_FUNCTIONS[fn].releasedBy;
    const from = fn === 'aclrtMapMem' ? 'virPtr' : release === undefined ? undefined : Object.values(release.args)[0];
    if (from === undefined) return;
    const value = out[from] ?? args[from];
    if (typeof value !== 'string') return;
    const key = creationKey(fn, value);
    if (key !== undefined) this.record.created(key, site);
  }
}

export function hexNumber(text: string): number {
  const parsed = parseHex(text);
  return parsed.ok ? parsed.value : 0;
}
