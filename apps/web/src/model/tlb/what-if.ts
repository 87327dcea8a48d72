import {
  aclrtMemMallocPolicy,
  type DeviceProfile,
  type HostState,
  isMallocFn,
  MALLOC_FNS,
  type MallocFn,
  PAGE_CLASSES,
  type PageClass,
  policyWhatIf,
  shortName,
  WHAT_IF_POLICIES,
  type WhatIfOutcome,
  type WhatIfRequest,
} from '@pagelens/core';

function mallocFn(fn: string): MallocFn | undefined {
  return isMallocFn(fn) ? fn : undefined;
}

/** One allocation as a what-if request; undefined for anything not made by an aclrtMalloc-family call. */
export function requestOf(allocation: { readonly fn: string; readonly size: number }): WhatIfRequest | undefined {
  const fn = mallocFn(allocation.fn);
  return fn === undefined ? undefined : { fn, size: allocation.size };
}

/** A what-if row's identity: a policy's ACL name, or "live" for the allocations as they are. */
export type WhatIfKey = string;
export const LIVE_KEY: WhatIfKey = 'live';

export interface WhatIfTotals extends Omit<WhatIfOutcome, 'policy' | 'policyName'> {
  readonly key: WhatIfKey;
  readonly policy: number | undefined;
}

export interface WhatIfInput {
  /** The live aclrtMalloc-family allocations of the device as (fn, size). */
  readonly requests: readonly WhatIfRequest[];
  /** The same allocations as they are now (their actual pages, including HUGE_FIRST fallbacks). */
  readonly live: WhatIfTotals;
}

/** Physical memory (aclrtMallocPhysical) has no malloc policy, so only allocations take part. */
export function whatIfInput(state: HostState, device: number): WhatIfInput {
  const requests: WhatIfRequest[] = [];
  const pages: Record<PageClass, number> = { normal: 0, huge: 0, giant: 0 };
  let occupied = 0;
  let requested = 0;
  for (const allocation of state.allocations.values()) {
    const fn = mallocFn(allocation.fn);
    if (allocation.device !== device || fn === undefined) continue;
    requests.push({ fn, size: allocation.size });
    pages[allocation.pageClass] += allocation.pages;
    occupied += allocation.pages * allocation.pageSize;
    requested += allocation.size;
  }
  const ptes = pages.normal + pages.huge + pages.giant;
  return {
    requests,
    live: { key: LIVE_KEY, policy: undefined, pages, occupied, requested, waste: occupied - requested, ptes, refused: 0 },
  };
}

/**
 * policyWhatIf for many requests, one (fn, size) at a time: live sessions repeat the same few
 * sizes, so 100,000 allocations cost a few hundred distinct plans, and the per-request outcomes
 * are kept between renders. The sums are exactly policyWhatIf's (a unit test holds them equal).
 */
export class WhatIfCache {
  /** Per profile and policy list, outcomes by request key (size × 4 + index of fn). */
  readonly #outcomes = new Map<string, Map<number, readonly WhatIfOutcome[]>>();
  readonly #limit: number;
  #size = 0;

  constructor(limit = 200_000) {
    this.#limit = limit;
  }

  totals(requests: readonly WhatIfRequest[], profile: DeviceProfile, policies: readonly number[] = WHAT_IF_POLICIES): WhatIfTotals[] {
    // An empty what-if costs nothing and names the policies the same way policyWhatIf does.
    const names = policyWhatIf([], profile, policies).map((outcome) => outcome.policyName);
    const sums = policies.map(
      (policy): Mutable => ({ policy, pages: { normal: 0, huge: 0, giant: 0 }, occupied: 0, requested: 0, refused: 0 }),
    );
    // Sessions repeat a few sizes: count each (fn, size) once. Sizes stay below 2^51, so the key is exact.
    const counts = new Map<number, { request: WhatIfRequest; count: number }>();
    for (const request of requests) {
      const key = request.size * 4 + MALLOC_FNS.indexOf(request.fn);
      const entry = counts.get(key);
      if (entry === undefined) counts.set(key, { request, count: 1 });
      else entry.count += 1;
    }
    const cache = this.#table(`${profile.name}|${policies.join(',')}`);
    for (const [key, { request, count }] of counts) {
      let outcomes = cache.get(key);
      if (outcomes === undefined) {
        outcomes = policyWhatIf([request], profile, policies);
        cache.set(key, outcomes);
        this.#size += 1;
      }
      outcomes.forEach((outcome, i) => {
        const sum = sums[i];
        if (sum === undefined) return;
        for (const pageClass of PAGE_CLASSES) sum.pages[pageClass] += outcome.pages[pageClass] * count;
        sum.occupied += outcome.occupied * count;
        sum.requested += outcome.requested * count;
        sum.refused += outcome.refused * count;
      });
    }
    return sums.map((sum, i) => ({
      key: names[i] ?? String(sum.policy),
      policy: sum.policy,
      pages: sum.pages,
      occupied: sum.occupied,
      requested: sum.requested,
      waste: sum.occupied - sum.requested,
      ptes: sum.pages.normal + sum.pages.huge + sum.pages.giant,
      refused: sum.refused,
    }));
  }

  #table(prefix: string): Map<number, readonly WhatIfOutcome[]> {
    if (this.#size >= this.#limit) {
      this.#outcomes.clear();
      this.#size = 0;
    }
    let table = this.#outcomes.get(prefix);
    if (table === undefined) {
      table = new Map();
      this.#outcomes.set(prefix, table);
    }
    return table;
  }
}

interface Mutable {
  policy: number;
  pages: Record<PageClass, number>;
  occupied: number;
  requested: number;
  refused: number;
}

/** "ACL_MEM_MALLOC_HUGE_FIRST" → "HUGE_FIRST": the chart's row labels (the full name is in the table). */
export function shortPolicyName(name: string): string {
  return shortName(aclrtMemMallocPolicy, name);
}
