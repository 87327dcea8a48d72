import { aclrtMemMallocPolicy, MEM_POLICY_MASK } from '../acl/enums.ts';
import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_FEATURE_NOT_SUPPORT } from '../acl/errors.ts';
import type { DeviceProfile } from '../profiles/profile.ts';
import { GiB, MiB } from '../units/bytes.ts';
import type { Fallback, PageClass, Reason } from './events.ts';
import { reason } from './reasons.ts';
import type { DeviceAllocation } from './state.ts';

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
export function paddedSize(fn: MallocFn, size: number, basePolicy: number, padding: number, reasons?: Reason[]): number {
  const giant = basePolicy === P.ACL_MEM_MALLOC_HUGE1G_ONLY || basePolicy === P.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
  if (fn === 'aclrtMallocAlign32' || fn === 'aclrtMallocWithCfg' || giant || padding === 0) {
    const padded = Math.ceil(size / 32) * 32;
    reasons?.push(reason('align32', ['DM-3'], { size, padded, fn }));
    if (giant && fn !== 'aclrtMallocAlign32' && fn !== 'aclrtMallocWithCfg') reasons?.push(reason('giant-no-pad', ['DM-3', 'DM-7']));
    return padded;
  }
  const padded = Math.floor((size + 32 + padding - 1) / 32) * 32;
  reasons?.push(reason('pad', ['DM-3'], { size, pad: padding, padded }));
  return padded;
}

const NO_REASONS: readonly Reason[] = [];

function policyName(policy: number): string {
  return aclrtMemMallocPolicy.nameOf(policy) ?? String(policy);
}

function refuse(ret: number, message: string, reasons: readonly Reason[]): MallocRefusal {
  return { ok: false, ret, message, reasons };
}

/**
 * Decides what an aclrtMalloc-family call asks of the device (DM-2 … DM-10), before looking for
 * free pages: the rounded size, the page class, the fallback, or the refusal with its ACL code.
 */
export function planMalloc(fn: MallocFn, size: number, policy: number, profile: DeviceProfile, explain = true): MallocPlan | MallocRefusal {
  if (size === 0) {
    return refuse(ACL_ERROR_INVALID_PARAM, 'size must be greater than 0 (DM-2)', [reason('size-zero', ['DM-2'])]);
  }
  const hints = policy & HINT_BITS;
  const base = policy & MEM_POLICY_MASK;
  // Reasons are built only when asked for: the simulator's hot path stores facts, and explanations are derived on demand.
  const reasons: Reason[] | undefined = explain ? [] : undefined;
  if (hints !== 0 || policy > (MEM_POLICY_MASK | HINT_BITS)) {
    if (fn !== 'aclrtMallocWithCfg') {
      return refuse(ACL_ERROR_INVALID_PARAM, `policy ${policy} combines bits that only aclrtMallocWithCfg accepts (DM-9)`, [
        reason('flags-need-withcfg', ['DM-9'], { policy }),
      ]);
    }
    reasons?.push(reason('bandwidth-hint', ['DM-9'], { bits: `0x${hints.toString(16)}` }));
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
  const hint = reasons?.pop();
  const padded = paddedSize(fn, size, base, profile.padding, reasons);
  if (hint !== undefined) reasons?.push(hint);
  if (p2p) reasons?.push(reason('p2p-marked', ['DM-8']));
  const choice = choosePages(fn, base, size, padded, reasons);
  const why = reasons ?? NO_REASONS;
  return choice.fallback === undefined
    ? { ok: true, padded, pageClass: choice.pageClass, p2p, reasons: why }
    : { ok: true, padded, pageClass: choice.pageClass, fallback: choice.fallback, p2p, reasons: why };
}

interface PageChoice {
  readonly pageClass: PageClass;
  readonly fallback?: PageClass;
}

const NORMAL: PageChoice = { pageClass: 'normal' };
const HUGE: PageChoice = { pageClass: 'huge' };
const HUGE_OR_NORMAL: PageChoice = { pageClass: 'huge', fallback: 'normal' };
const GIANT: PageChoice = { pageClass: 'giant' };

/** DM-4 … DM-10: the page class a (valid) policy asks for, with the reason appended. */
function choosePages(fn: MallocFn, base: number, size: number, padded: number, reasons: Reason[] | undefined): PageChoice {
  switch (base) {
    case P.ACL_MEM_MALLOC_HUGE_FIRST_P2P:
    case P.ACL_MEM_MALLOC_HUGE_ONLY_P2P:
      // HUGE_FIRST_P2P and HUGE_ONLY_P2P follow the huge-page logic only through aclrtMallocWithCfg (DM-8).
      if (fn !== 'aclrtMallocWithCfg') {
        reasons?.push(reason('p2p-generic', ['DM-8'], { fn, policyName: policyName(base) }));
        return NORMAL;
      }
      return base === P.ACL_MEM_MALLOC_HUGE_ONLY_P2P ? hugeOnly(reasons) : hugeFirst(padded, reasons);
    case P.ACL_MEM_MALLOC_HUGE_FIRST:
      return hugeFirst(padded, reasons);
    case P.ACL_MEM_MALLOC_HUGE_ONLY:
      return hugeOnly(reasons);
    case P.ACL_MEM_MALLOC_NORMAL_ONLY:
    case P.ACL_MEM_MALLOC_NORMAL_ONLY_P2P:
      reasons?.push(reason('normal-only', ['DM-6']));
      return NORMAL;
    case P.ACL_MEM_MALLOC_HUGE1G_ONLY:
    case P.ACL_MEM_MALLOC_HUGE1G_ONLY_P2P:
      reasons?.push(reason('giant', ['DM-7']));
      return GIANT;
    default:
      // DM-10: an out-of-range policy behaves as the default.
      reasons?.push(reason('unknown-policy', ['DM-10'], { policy: base }));
      return size >= HUGE_PAGE ? HUGE_OR_NORMAL : NORMAL;
  }
}

function hugeFirst(padded: number, reasons: Reason[] | undefined): PageChoice {
  if (padded <= HUGE_FIRST_THRESHOLD) {
    reasons?.push(reason('huge-first-small', ['DM-4'], { padded }));
    return NORMAL;
  }
  reasons?.push(reason('huge-first-large', ['DM-4'], { padded }));
  return HUGE_OR_NORMAL;
}

function hugeOnly(reasons: Reason[] | undefined): PageChoice {
  reasons?.push(reason('huge-only', ['DM-5']));
  return HUGE;
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

export function fallbackReason(fallback: Fallback): Reason {
  return reason('huge-first-fallback', ['DM-4'], { freeHuge: fallback.free, needed: fallback.needed });
}

/**
 * The whole decision behind a live allocation, rebuilt from its facts: the rounding, the policy's
 * page choice, any fallback, and what it occupies (DM-3 … DM-11). Events carry only the facts.
 */
export function allocationReasons(allocation: DeviceAllocation, profile: DeviceProfile): Reason[] {
  const plan = planMalloc(
    allocation.fn === 'aclrtMalloc' ||
      allocation.fn === 'aclrtMallocAlign32' ||
      allocation.fn === 'aclrtMallocCached' ||
      allocation.fn === 'aclrtMallocWithCfg'
      ? allocation.fn
      : 'aclrtMalloc',
    allocation.size,
    allocation.policy,
    profile,
  );
  const reasons = [...plan.reasons];
  if (allocation.fallback !== undefined) reasons.push(fallbackReason(allocation.fallback));
  const occupied = allocation.pages * allocation.pageSize;
  reasons.push(
    reason('occupies', ['DM-11'], { pages: allocation.pages, pageSize: allocation.pageSize, occupied, waste: occupied - allocation.size }),
  );
  return reasons;
}
