import {
  ACL_HOST_REG,
  type AclArgs,
  type AclFunctionName,
  type DeviceProfile,
  type HostBuffer,
  type HostState,
  type MallocFn,
  pageBytes,
  parseHex,
  planMalloc,
  type Text,
  text,
} from '@pagelens/core';

/** Per-session limits. 0 means unlimited. */
export interface Limits {
  readonly deviceBytes: number;
  readonly pinnedHostBytes: number;
  /** Pageable host memory (malloc): real memory of the agent on the acl backend. */
  readonly pageableHostBytes: number;
  readonly liveObjects: number;
  readonly callsPerSecond: number;
}

/** Defaults for the simulator: large enough for every lesson, small enough to stop a runaway script. */
export const DEFAULT_LIMITS: Limits = {
  deviceBytes: 0,
  pinnedHostBytes: 16 * 1024 ** 3,
  pageableHostBytes: 16 * 1024 ** 3,
  liveObjects: 200_000,
  callsPerSecond: 20_000,
};

/** A token bucket: up to `perSecond` calls per second, with a burst of one second's worth. */
export class RateLimiter {
  readonly #perSecond: number;
  readonly #now: () => number;
  #tokens: number;
  #last: number;

  constructor(perSecond: number, now: () => number) {
    this.#perSecond = perSecond;
    this.#now = now;
    this.#tokens = perSecond;
    this.#last = now();
  }

  take(): boolean {
    if (this.#perSecond === 0) return true;
    const now = this.#now();
    this.#tokens = Math.min(this.#perSecond, this.#tokens + ((now - this.#last) / 1000) * this.#perSecond);
    this.#last = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }
}

export interface Usage {
  readonly deviceBytes: number;
  readonly pinnedHostBytes: number;
  readonly pageableHostBytes: number;
  readonly liveObjects: number;
}

/** What the session's processes hold now. */
export function usageOf(state: HostState, pids: ReadonlySet<number>): Usage {
  let deviceBytes = 0;
  let pinnedHostBytes = 0;
  let pageableHostBytes = 0;
  let liveObjects = 0;
  for (const a of state.allocations.values()) {
    if (!pids.has(a.pid)) continue;
    deviceBytes += a.pages * a.pageSize;
    liveObjects += 1;
  }
  for (const h of state.handles.values()) {
    if (!pids.has(h.pid)) continue;
    // Each reference aclrtMemRetainAllocationHandle took counts too: it costs one more aclrtFreePhysical (VM-12).
    liveObjects += 1 + h.retains;
    const memory = h.importedFrom === undefined ? state.physical.get(h.memory) : undefined;
    if (memory !== undefined) deviceBytes += memory.pages * memory.pageSize;
  }
  for (const b of state.hostBuffers.values()) {
    if (!pids.has(b.pid)) continue;
    liveObjects += 1;
    if (b.memory === 'pinned' || b.registration?.pinned === true) pinnedHostBytes += b.size;
    if (b.memory === 'pageable') pageableHostBytes += b.size;
  }
  for (const map of [state.reservations, state.mappings]) {
    for (const item of map.values()) if (pids.has(item.pid)) liveObjects += 1;
  }
  // Default streams come with aclrtSetDevice; only streams the program created count.
  for (const stream of state.streams.values()) if (pids.has(stream.pid) && !stream.isDefault) liveObjects += 1;
  // Likewise the device's default context; created contexts count (their own default stream comes with them), and every event.
  for (const context of state.contexts.values()) if (pids.has(context.pid) && !context.isDefault) liveObjects += 1;
  for (const event of state.aclEvents.values()) if (pids.has(event.pid)) liveObjects += 1;
  // IP-1, IP-3: each key a process exported and each import it made is live until aclrtIpcMemClose
  // (one call each in the teardown plan); an import takes no pages of its own, so no bytes.
  for (const key of state.ipcKeys.values()) if (pids.has(key.pid)) liveObjects += 1;
  for (const item of state.ipcImports.values()) if (pids.has(item.pid)) liveObjects += 1;
  return { deviceBytes, pinnedHostBytes, pageableHostBytes, liveObjects };
}

/** What one call would add to a session's holdings if it succeeds. */
export interface Demand {
  readonly deviceBytes: number;
  readonly pinnedHostBytes: number;
  readonly pageableHostBytes: number;
  /**
   * Live objects it creates (allocations, buffers, handles, reservations, mappings, streams, contexts,
   * events, IPC keys and imports), and references to a handle (aclrtMemRetainAllocationHandle).
   */
  readonly objects: number;
}

const NOTHING: Demand = { deviceBytes: 0, pinnedHostBytes: 0, pageableHostBytes: 0, objects: 0 };
const demand = (part: Partial<Demand>): Demand => ({ ...NOTHING, ...part });

/** Where a demand is judged: the host as it is when the call's turn comes, and the calling process. */
export interface DemandContext {
  readonly state: HostState;
  readonly pid: number;
}

type DemandOf<F extends AclFunctionName> = (args: AclArgs<F>, context: DemandContext) => Demand;

/** The profile of the process's current device, or of device 0 before the first aclrtSetDevice. */
function currentProfile({ state, pid }: DemandContext): DeviceProfile | undefined {
  const device = state.processes.get(pid)?.currentDevice ?? -1;
  return (state.devices[device] ?? state.devices[0])?.profile;
}

/**
 * DM-3, DM-4, DM-7, DM-11: the bytes an aclrtMalloc-family call takes are whole pages of the page
 * kind its policy chooses first (a HUGE_FIRST fallback to normal pages takes no more), so a burst of
 * 1-byte HUGE_ONLY allocations is charged 2 MiB each, as the device is.
 */
function mallocDemand(fn: MallocFn) {
  return (args: { readonly size: number; readonly policy: number }, context: DemandContext): Demand => {
    const profile = currentProfile(context);
    if (profile === undefined) return demand({ objects: 1 });
    const plan = planMalloc(fn, args.size, args.policy, profile, false);
    if (!plan.ok) return NOTHING;
    const page = pageBytes(plan.pageClass, profile);
    return demand({ deviceBytes: Math.ceil(plan.padded / page) * page, objects: 1 });
  };
}

/** The host buffer of the session's process that holds `ptr`, if any. */
function hostBufferHolding(context: DemandContext, ptr: string): HostBuffer | undefined {
  const parsed = parseHex(ptr);
  if (!parsed.ok) return undefined;
  const at = parsed.value;
  for (const buffer of context.state.hostBuffers.values()) {
    if (buffer.pid === context.pid && at >= buffer.addr && at < buffer.addr + buffer.size) return buffer;
  }
  return undefined;
}

/** HM-5: registering pageable memory pins it (the model pins the whole buffer, and so does this charge). */
function registrationDemand(context: DemandContext, ptr: string, pins: boolean): Demand {
  if (!pins) return NOTHING;
  const buffer = hostBufferHolding(context, ptr);
  return buffer === undefined || buffer.memory === 'pinned' ? NOTHING : demand({ pinnedHostBytes: buffer.size });
}

/**
 * Every function that can make a session hold more, and what it would add. A function missing here
 * adds nothing a quota counts (frees, copies, queries; an export is one per handle, so handles bound
 * shares). test/limits.test.ts holds each entry to what the call really takes, in bursts.
 */
const DEMANDS: { readonly [F in AclFunctionName]?: DemandOf<F> } = {
  aclrtMalloc: mallocDemand('aclrtMalloc'),
  aclrtMallocAlign32: mallocDemand('aclrtMallocAlign32'),
  aclrtMallocCached: mallocDemand('aclrtMallocCached'),
  aclrtMallocWithCfg: mallocDemand('aclrtMallocWithCfg'),
  aclrtMallocPhysical: ({ size }) => demand({ deviceBytes: size, objects: 1 }),
  aclrtMallocHost: ({ size }) => demand({ pinnedHostBytes: size, objects: 1 }),
  aclrtMallocHostWithCfg: ({ size }) => demand({ pinnedHostBytes: size, objects: 1 }),
  malloc: ({ size }) => demand({ pageableHostBytes: size, objects: 1 }),
  aclrtHostRegister: ({ ptr }, context) => registrationDemand(context, ptr, true),
  aclrtHostRegisterV2: ({ ptr, flag }, context) => registrationDemand(context, ptr, (flag & ACL_HOST_REG.byName.ACL_HOST_REG_PINNED) !== 0),
  aclrtReserveMemAddress: () => demand({ objects: 1 }),
  aclrtMapMem: () => demand({ objects: 1 }),
  aclrtCreateStream: () => demand({ objects: 1 }),
  aclrtCreateStreamWithConfig: () => demand({ objects: 1 }),
  aclrtCreateContext: () => demand({ objects: 1 }),
  aclrtCreateEvent: () => demand({ objects: 1 }),
  aclrtCreateEventWithFlag: () => demand({ objects: 1 }),
  aclrtCreateEventExWithFlag: () => demand({ objects: 1 }),
  aclrtMemImportFromShareableHandle: () => demand({ objects: 1 }),
  // IP-1: unlike a VMM export (one share per handle), every aclrtIpcMemGetExportKey makes a new key
  // that lives until aclrtIpcMemClose, so keys count as objects: the object limit bounds them and the
  // close calls of the teardown plan. IP-3: an import is an address of the importer, no pages: one object.
  aclrtIpcMemGetExportKey: () => demand({ objects: 1 }),
  aclrtIpcMemImportByKey: () => demand({ objects: 1 }),
  // VM-12: a retain creates no object and takes no memory, but the reference it holds must be given back
  // with one more aclrtFreePhysical (the teardown plan makes one call per reference): counted as an object,
  // so the object limit also bounds a session's references and the calls its teardown makes.
  aclrtMemRetainAllocationHandle: () => demand({ objects: 1 }),
};

export function demandOf<F extends AclFunctionName>(fn: F, args: AclArgs<F>, context: DemandContext): Demand {
  const of: DemandOf<F> | undefined = DEMANDS[fn];
  return of === undefined ? NOTHING : of(args, context);
}

type QuotaText = 'quota-device-bytes' | 'quota-pinned-bytes' | 'quota-pageable-bytes';

function overBytes(code: QuotaText, more: number, held: number, limit: number): Text | undefined {
  if (limit === 0 || more === 0 || held + more <= limit) return undefined;
  return text(code, { more, total: held + more, limit });
}

/**
 * Refuses a call that would take the session past a limit. Judged when the call's turn comes, on
 * what the session holds then (calls of a session run one at a time), so a burst of calls sent
 * without waiting cannot slip past a quota that each would pass alone.
 * Returns the message for the client, or undefined when the call may go ahead.
 */
export function quotaProblem(wanted: Demand, usage: Usage, limits: Limits): Text | undefined {
  if (limits.liveObjects > 0 && wanted.objects > 0 && usage.liveObjects + wanted.objects > limits.liveObjects) {
    return text('quota-objects', { held: usage.liveObjects, limit: limits.liveObjects });
  }
  return (
    overBytes('quota-device-bytes', wanted.deviceBytes, usage.deviceBytes, limits.deviceBytes) ??
    overBytes('quota-pinned-bytes', wanted.pinnedHostBytes, usage.pinnedHostBytes, limits.pinnedHostBytes) ??
    overBytes('quota-pageable-bytes', wanted.pageableHostBytes, usage.pageableHostBytes, limits.pageableHostBytes)
  );
}
