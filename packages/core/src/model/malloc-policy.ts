import { aclrtMemMallocPolicy, MEM_POLICY_MASK } from '../acl/enums.ts';
import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_FEATURE_NOT_SUPPORT } from '../acl/errors.ts';
import type { DeviceProfile } from '../profiles/profile.ts';
import { GiB, MiB } from '../units/bytes.ts';
import type { PageClass, Reason } from './events.ts';
import { reason } from './reasons.ts';

export type MallocFn = 'aclrtMalloc' | 'aclrtMallocAlign32' | 'aclrtMallocCached' | 'aclrtMallocWithCfg';

const P = aclrtMemMallocPolicy.byName;
/** The size at or below which HUGE_FIRST uses normal pages (runtime HUGE_PAGE_MEM_CRITICAL_VALUE). */
export const HUGE_FIRST_THRESHOLD = MiB;
const HUGE_PAGE = 2 * MiB;
const HINT_BITS = P.ACL_MEM_TYPE_LOW_BAND_WIDTH | P.ACL_MEM_TYPE_HIGH_BAND_WIDTH | P.ACL_MEM_ACCESS_USER_SPACE_READONLY;

export interface MallocPlan {
  readonly ok: true;
  readonly padded: number;
  readonly pageClass: PageClass;
  /** Where HUGE_FIRST goes when the huge pool cannot serve it (DM-4). */
  readonly fallback?: PageClass;
  readonly p2p: boolean;
  readonly reasons: readonly Reason[];
}

export interface MallocRefusal {
  readonly ok: false;
  readonly ret: number;
  readonly message: string;
  readonly reasons: readonly Reason[];
}

/** DM-3: the runtime's rounding, before any page is chosen. */
export function paddedSize(fn: MallocFn, size: number, basePolicy: number, padding: number): { padded: number; reasons: Reason[] } {
  const giant = basePolicy === P.ACL_MEM_MALLOC_HUGE1G_ONLY || basePolicy === P.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
  if (fn === 'aclrtMallocAlign32' || fn === 'aclrtMallocWithCfg' || giant || padding === 0) {
    const padded = Math.ceil(size / 32) * 32;
    const reasons = [reason('align32', ['DM-3'], { size, padded, fn })];
    if (giant && fn !== 'aclrtMallocAlign32' && fn !== 'aclrtMallocWithCfg') reasons.push(reason('giant-no-pad', ['DM-3', 'DM-7']));
    return { padded, reasons };
  }
  const padded = Math.floor((size + 32 + padding - 1) / 32) * 32;
  return { padded, reasons: [reason('pad', ['DM-3'], { size, pad: padding, padded })] };
}

function policyName(policy: number): string {
  return aclrtMemMallocPolicy.nameOf(policy) ?? String(policy);
}

/**
 * Decides what an aclrtMalloc-family call asks of the device (DM-2 … DM-10), before looking for
 * free pages: the rounded size, the page class, the fallback, or the refusal with its ACL code.
 */
export function planMalloc(fn: MallocFn, size: number, policy: number, profile: DeviceProfile): MallocPlan | MallocRefusal {
  const refuse = (ret: number, message: string, reasons: readonly Reason[]): MallocRefusal => ({ ok: false, ret, message, reasons });
  if (size === 0) {
    return refuse(ACL_ERROR_INVALID_PARAM, 'size must be greater than 0 (DM-2)', [reason('size-zero', ['DM-2'])]);
  }
  const hints = policy & HINT_BITS;
  const base = policy & MEM_POLICY_MASK;
  const reasons: Reason[] = [];
  if (hints !== 0 || policy > (MEM_POLICY_MASK | HINT_BITS)) {
    if (fn !== 'aclrtMallocWithCfg') {
      return refuse(ACL_ERROR_INVALID_PARAM, `policy ${policy} combines bits that only aclrtMallocWithCfg accepts (DM-9)`, [
        reason('flags-need-withcfg', ['DM-9'], { policy }),
      ]);
    }
    reasons.push(reason('bandwidth-hint', ['DM-9'], { bits: `0x${hints.toString(16)}` }));
  }
  const isGiant = base === P.ACL_MEM_MALLOC_HUGE1G_ONLY || base === P.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
  const p2p =
    base === P.ACL_MEM_MALLOC_HUGE_FIRST_P2P ||
    base === P.ACL_MEM_MALLOC_HUGE_ONLY_P2P ||
    base === P.ACL_MEM_MALLOC_NORMAL_ONLY_P2P ||
    base === P.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
  if (
    fn === 'aclrtMallocCached' &&
    base !== P.ACL_MEM_MALLOC_HUGE_FIRST &&
    base !== P.ACL_MEM_MALLOC_HUGE_ONLY &&
    base !== P.ACL_MEM_MALLOC_NORMAL_ONLY &&
    base !== P.ACL_MEM_MALLOC_HUGE1G_ONLY
  ) {
    return refuse(ACL_ERROR_INVALID_PARAM, `aclrtMallocCached does not accept ${policyName(base)}`, [reason('cached-policy', ['DM-3'])]);
  }
  if (isGiant && !profile.features.giantPages) {
    return refuse(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, `${profile.name} has no 1 GiB pages (DM-7)`, [
      reason('giant-unsupported', ['DM-7'], { profile: profile.name }),
    ]);
  }
  if (p2p && !profile.features.p2p) {
    return refuse(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, `${profile.name} has no P2P memory (DM-8)`, [
      reason('p2p-unsupported', ['DM-8'], { profile: profile.name }),
    ]);
  }
  const rounding = paddedSize(fn, size, base, profile.padding);
  reasons.unshift(...rounding.reasons);
  const { padded } = rounding;
  if (p2p) reasons.push(reason('p2p-marked', ['DM-8']));
  const plan = (pageClass: PageClass, fallback?: PageClass): MallocPlan =>
    fallback === undefined ? { ok: true, padded, pageClass, p2p, reasons } : { ok: true, padded, pageClass, fallback, p2p, reasons };

  const viaCfg = fn === 'aclrtMallocWithCfg';
  switch (base) {
    case P.ACL_MEM_MALLOC_HUGE_FIRST_P2P:
    case P.ACL_MEM_MALLOC_HUGE_ONLY_P2P:
      if (!viaCfg) {
        reasons.push(reason('p2p-generic', ['DM-8'], { fn, policyName: policyName(base) }));
        return plan('normal');
      }
      return base === P.ACL_MEM_MALLOC_HUGE_ONLY_P2P ? hugeOnly() : hugeFirst();
    case P.ACL_MEM_MALLOC_HUGE_FIRST:
      return hugeFirst();
    case P.ACL_MEM_MALLOC_HUGE_ONLY:
      return hugeOnly();
    case P.ACL_MEM_MALLOC_NORMAL_ONLY:
    case P.ACL_MEM_MALLOC_NORMAL_ONLY_P2P:
      reasons.push(reason('normal-only', ['DM-6']));
      return plan('normal');
    case P.ACL_MEM_MALLOC_HUGE1G_ONLY:
    case P.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
      reasons.push(reason('giant', ['DM-7']));
      return plan('giant');
    default:
      // DM-10: an out-of-range policy behaves as the default.
      reasons.push(reason('unknown-policy', ['DM-10'], { policy }));
      return size >= HUGE_PAGE ? plan('huge', 'normal') : plan('normal');
  }

  function hugeFirst(): MallocPlan {
    if (padded <= HUGE_FIRST_THRESHOLD) {
      reasons.push(reason('huge-first-small', ['DM-4'], { padded }));
      return plan('normal');
    }
    reasons.push(reason('huge-first-large', ['DM-4'], { padded }));
    return plan('huge', 'normal');
  }

  function hugeOnly(): MallocPlan {
    reasons.push(reason('huge-only', ['DM-5']));
    return plan('huge');
  }
}

/** Bytes of one page of a class on this profile. */
export function pageBytes(pageClass: PageClass, profile: DeviceProfile): number {
  switch (pageClass) {
    case 'normal':
      return profile.normalPageSize;
    case 'huge':
      return HUGE_PAGE;
    case 'giant':
      return GiB;
  }
}
