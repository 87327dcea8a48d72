import { type AclFunctionName, formatBytes, type HostState } from '@pagelens/core';

/** Per-session limits. 0 means unlimited. */
export interface Limits {
  readonly deviceBytes: number;
  readonly pinnedHostBytes: number;
  readonly liveObjects: number;
  readonly callsPerSecond: number;
}

/** Defaults for the simulator: large enough for every lesson, small enough to stop a runaway script. */
export const DEFAULT_LIMITS: Limits = {
  deviceBytes: 0,
  pinnedHostBytes: 16 * 1024 ** 3,
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
  readonly liveObjects: number;
}

/** What the session's processes hold now. */
export function usageOf(state: HostState, pids: ReadonlySet<number>): Usage {
  let deviceBytes = 0;
  let pinnedHostBytes = 0;
  let liveObjects = 0;
  for (const a of state.allocations.values()) {
    if (!pids.has(a.pid)) continue;
    deviceBytes += a.pages * a.pageSize;
    liveObjects += 1;
  }
  for (const h of state.handles.values()) {
    if (!pids.has(h.pid)) continue;
    liveObjects += 1;
    const memory = h.importedFrom === undefined ? state.physical.get(h.memory) : undefined;
    if (memory !== undefined) deviceBytes += memory.pages * memory.pageSize;
  }
  for (const b of state.hostBuffers.values()) {
    if (!pids.has(b.pid)) continue;
    liveObjects += 1;
    if (b.memory === 'pinned' || b.registration?.pinned === true) pinnedHostBytes += b.size;
  }
  for (const map of [state.reservations, state.mappings]) {
    for (const item of map.values()) if (pids.has(item.pid)) liveObjects += 1;
  }
  // Default streams come with aclrtSetDevice; only streams the program created count.
  for (const stream of state.streams.values()) if (pids.has(stream.pid) && !stream.isDefault) liveObjects += 1;
  return { deviceBytes, pinnedHostBytes, liveObjects };
}

const CREATES = new Set<AclFunctionName>([
  'aclrtMalloc',
  'aclrtMallocAlign32',
  'aclrtMallocCached',
  'aclrtMallocWithCfg',
  'aclrtMallocHost',
  'aclrtMallocHostWithCfg',
  'malloc',
  'aclrtMallocPhysical',
  'aclrtReserveMemAddress',
  'aclrtMapMem',
  'aclrtCreateStream',
  'aclrtMemImportFromShareableHandle',
]);
const DEVICE = new Set<AclFunctionName>([
  'aclrtMalloc',
  'aclrtMallocAlign32',
  'aclrtMallocCached',
  'aclrtMallocWithCfg',
  'aclrtMallocPhysical',
]);
const PINNED = new Set<AclFunctionName>(['aclrtMallocHost', 'aclrtMallocHostWithCfg']);

/**
 * Refuses a call that would take the session past a limit, before it reaches the backend.
 * Returns the message for the client, or undefined when the call may go ahead.
 */
export function quotaProblem(
  fn: AclFunctionName,
  args: Readonly<Record<string, unknown>>,
  usage: Usage,
  limits: Limits,
): string | undefined {
  const size = typeof args.size === 'number' ? args.size : 0;
  if (limits.liveObjects > 0 && CREATES.has(fn) && usage.liveObjects >= limits.liveObjects) {
    return `this session already holds ${usage.liveObjects} live objects, the limit (--max-objects ${limits.liveObjects}); free some first`;
  }
  if (limits.deviceBytes > 0 && DEVICE.has(fn) && usage.deviceBytes + size > limits.deviceBytes) {
    return `${formatBytes(size)} more would take this session's device memory to ${formatBytes(usage.deviceBytes + size)}, past its limit of ${formatBytes(limits.deviceBytes)} (--max-device-bytes)`;
  }
  if (limits.pinnedHostBytes > 0 && PINNED.has(fn) && usage.pinnedHostBytes + size > limits.pinnedHostBytes) {
    return `${formatBytes(size)} more would take this session's pinned host memory to ${formatBytes(usage.pinnedHostBytes + size)}, past its limit of ${formatBytes(limits.pinnedHostBytes)} (--max-pinned-bytes)`;
  }
  return undefined;
}
