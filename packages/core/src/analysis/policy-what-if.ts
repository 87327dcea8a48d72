import { aclrtMemMallocPolicy } from '../acl/enums.ts';
import type { PageClass } from '../model/events.ts';
import { type MallocFn, pageBytes, planMalloc } from '../model/malloc-policy.ts';
import type { DeviceProfile } from '../profiles/profile.ts';

export interface WhatIfRequest {
  readonly fn: MallocFn;
  readonly size: number;
}

export interface WhatIfOutcome {
  readonly policy: number;
  readonly policyName: string;
  /** Pages taken per class if every request were served (HUGE_FIRST's fallback is not assumed). */
  readonly pages: Readonly<Record<PageClass, number>>;
  readonly occupied: number;
  readonly requested: number;
  readonly waste: number;
  /** Leaf page-table entries: one per page (PT-1). */
  readonly ptes: number;
  /** Requests the policy refuses outright on this profile (e.g. 1 GiB pages on 310P), with the ACL code. */
  readonly refused: number;
}

const P = aclrtMemMallocPolicy.byName;
/** The policies a what-if compares by default: the page choices a user actually makes (DM-14). */
export const WHAT_IF_POLICIES: readonly number[] = [
  P.ACL_MEM_MALLOC_HUGE_FIRST,
  P.ACL_MEM_MALLOC_HUGE_ONLY,
  P.ACL_MEM_MALLOC_NORMAL_ONLY,
  P.ACL_MEM_MALLOC_HUGE1G_ONLY,
];

/**
 * The same allocations under another policy: pages, waste and PTEs (DM-3 … DM-11, PT-1). Pure
 * arithmetic over the rules; it assumes the pools could serve every request, so it shows what a
 * policy costs, not whether a full device could satisfy it.
 */
export function policyWhatIf(
  requests: readonly WhatIfRequest[],
  profile: DeviceProfile,
  policies: readonly number[] = WHAT_IF_POLICIES,
): WhatIfOutcome[] {
  return policies.map((policy) => {
    const pages: Record<PageClass, number> = { normal: 0, huge: 0, giant: 0 };
    let occupied = 0;
    let requested = 0;
    let refused = 0;
    for (const request of requests) {
      const plan = planMalloc(request.fn, request.size, policy, profile);
      if (!plan.ok) {
        refused += 1;
        continue;
      }
      const size = pageBytes(plan.pageClass, profile);
      const count = Math.ceil(plan.padded / size);
      pages[plan.pageClass] += count;
      occupied += count * size;
      requested += request.size;
    }
    return {
      policy,
      policyName: aclrtMemMallocPolicy.nameOf(policy) ?? String(policy),
      pages,
      occupied,
      requested,
      waste: occupied - requested,
      ptes: pages.normal + pages.huge + pages.giant,
      refused,
    };
  });
}
