import {
  type DeviceState,
  errorName,
  freeGiantBlocks,
  freeNormalPages,
  type MallocFn,
  type PageClass,
  pageBytes,
  planMalloc,
  type Reason,
} from '@pagelens/core';
import { observedFreePages } from '../acl/pools.ts';

export interface PoolCheck {
  /**
   * Free pages of the class now: from the page map on the simulator (modeled placement), from the
   * last aclrtGetMemInfo reading on a real runtime (observed); undefined before its first reading.
   */
  readonly free: number | undefined;
  /** Pages that `count` allocations need. */
  readonly needed: number;
  readonly source: 'modeled' | 'observed';
}

export type MallocPreview =
  | {
      readonly ok: true;
      readonly padded: number;
      readonly pageClass: PageClass;
      /** HUGE_FIRST falls back to this class when the huge pool is short (DM-4). */
      readonly fallback?: PageClass;
      readonly pageSize: number;
      /** Pages of one allocation. */
      readonly pages: number;
      /** Bytes one allocation occupies: whole pages (DM-11). */
      readonly occupied: number;
      /** occupied − requested, per allocation. */
      readonly waste: number;
      readonly count: number;
      readonly pool: PoolCheck;
      /** The huge pool cannot serve all of them and the fallback pool can: HUGE_FIRST would fall back (estimate, DM-4). */
      readonly willFallBack: boolean;
      /** HUGE_FIRST's fallback class, with its own pages for `count` allocations, when the first pool is short. */
      readonly fallbackPool?: PoolCheck & { readonly pageClass: PageClass };
      /** Neither the pool nor a fallback can serve them: expect ACL_ERROR_RT_MEMORY_ALLOCATION (estimate, DM-5, DM-6). */
      readonly willFail: boolean;
      readonly reasons: readonly Reason[];
    }
  | {
      readonly ok: false;
      readonly ret: number;
      readonly retName: string;
      readonly message: string;
      readonly reasons: readonly Reason[];
    };

function freePages(device: DeviceState, pageClass: PageClass): number {
  switch (pageClass) {
    case 'normal':
      return freeNormalPages(device.frames);
    case 'huge':
      return device.frames.free.count;
    case 'giant':
      return device.profile.features.giantPages ? freeGiantBlocks(device.frames) : 0;
  }
}

/**
 * What `count` calls of `fn(size, policy)` will do on `device` before they are made: the rounding,
 * the page class, the pages and the waste (DM-3 … DM-11), from the same `planMalloc` the simulator
 * uses. Whether the pools suffice is an estimate: from the live page map when the backend places
 * frames (`framesKnown`, the simulator), else from the runtime's last pool reading (DM-15).
 */
export function previewMalloc(
  fn: MallocFn,
  size: number,
  policy: number,
  device: DeviceState,
  count = 1,
  framesKnown = true,
): MallocPreview {
  const plan = planMalloc(fn, size, policy, device.profile);
  if (!plan.ok) return { ok: false, ret: plan.ret, retName: errorName(plan.ret), message: plan.message, reasons: plan.reasons };
  const pageSize = pageBytes(plan.pageClass, device.profile);
  const pages = Math.ceil(plan.padded / pageSize);
  const occupied = pages * pageSize;
  const free = framesKnown ? freePages(device, plan.pageClass) : observedFreePages(device, plan.pageClass);
  const needed = pages * count;
  const short = free !== undefined && needed > free;
  const fallbackPool = short && plan.fallback !== undefined ? poolFor(device, plan.fallback, plan.padded, count, framesKnown) : undefined;
  const fallbackServes = fallbackPool !== undefined && fallbackPool.free !== undefined && fallbackPool.needed <= fallbackPool.free;
  const base = {
    ok: true as const,
    padded: plan.padded,
    pageClass: plan.pageClass,
    pageSize,
    pages,
    occupied,
    waste: occupied - size,
    count,
    pool: { free, needed, source: framesKnown ? ('modeled' as const) : ('observed' as const) },
    willFallBack: fallbackServes,
    // A short pool with no fallback, or a fallback that is short too: 1 TiB HUGE_FIRST fails, it does not fall back.
    willFail: short && (fallbackPool === undefined || (fallbackPool.free !== undefined && !fallbackServes)),
    reasons: plan.reasons,
    ...(fallbackPool === undefined ? {} : { fallbackPool }),
  };
  return plan.fallback === undefined ? base : { ...base, fallback: plan.fallback };
}

/** The pages `count` allocations of `padded` bytes take in `pageClass`, against that class's free pages. */
function poolFor(
  device: DeviceState,
  pageClass: PageClass,
  padded: number,
  count: number,
  framesKnown: boolean,
): PoolCheck & { readonly pageClass: PageClass } {
  const pageSize = pageBytes(pageClass, device.profile);
  return {
    pageClass,
    free: framesKnown ? freePages(device, pageClass) : observedFreePages(device, pageClass),
    needed: Math.ceil(padded / pageSize) * count,
    source: framesKnown ? 'modeled' : 'observed',
  };
}
