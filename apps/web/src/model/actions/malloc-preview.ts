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

export interface PoolCheck {
  /** Free pages of the class this profile's page map shows right now. */
  readonly free: number;
  /** Pages that `count` allocations need. */
  readonly needed: number;
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
      /** The huge pool cannot serve all of them: HUGE_FIRST would fall back (estimate). */
      readonly willFallBack: boolean;
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
 * uses. Whether the pools suffice is an estimate from the live page map (placement is modeled).
 */
export function previewMalloc(fn: MallocFn, size: number, policy: number, device: DeviceState, count = 1): MallocPreview {
  const plan = planMalloc(fn, size, policy, device.profile);
  if (!plan.ok) return { ok: false, ret: plan.ret, retName: errorName(plan.ret), message: plan.message, reasons: plan.reasons };
  const pageSize = pageBytes(plan.pageClass, device.profile);
  const pages = Math.ceil(plan.padded / pageSize);
  const occupied = pages * pageSize;
  const free = freePages(device, plan.pageClass);
  const needed = pages * count;
  const base = {
    ok: true as const,
    padded: plan.padded,
    pageClass: plan.pageClass,
    pageSize,
    pages,
    occupied,
    waste: occupied - size,
    count,
    pool: { free, needed },
    willFallBack: plan.fallback !== undefined && needed > free,
    reasons: plan.reasons,
  };
  return plan.fallback === undefined ? base : { ...base, fallback: plan.fallback };
}
