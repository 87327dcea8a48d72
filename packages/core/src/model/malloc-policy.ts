import { shortName } from '../acl/enum-table.ts';
import { aclrtMemMallocPolicy, MEM_POLICY_MASK } from '../acl/enums.ts';
import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_FEATURE_NOT_SUPPORT } from '../acl/errors.ts';
import { ACL_FUNCTION_NAMES, ACL_FUNCTIONS, type AclFunctionName } from '../acl/functions.ts';
import type { DeviceProfile } from '../profiles/profile.ts';
import { describeText, type Text, text } from '../texts/table.ts';
import { GiB, MiB } from '../units/bytes.ts';
import type { Fallback, PageClass, Reason } from './events.ts';
import { reason } from './reasons.ts';
import type { DeviceAllocation } from './state.ts';

type PolicyParam = { readonly value: { readonly t: 'enum'; readonly enum: 'aclrtMemMallocPolicy' } };

/**
 * The aclrtMalloc family: the catalogue functions that take an aclrtMemMallocPolicy, so a new one
 * joins by its signature alone ('aclrtMalloc' | 'aclrtMallocAlign32' | 'aclrtMallocCached' | 'aclrtMallocWithCfg').
 */
export type MallocFn = {
  [F in AclFunctionName]: [Extract<(typeof ACL_FUNCTIONS)[F]['params'][number], PolicyParam>] extends [never] ? never : F;
}[AclFunctionName];

function takesPolicy(fn: AclFunctionName): fn is MallocFn {
  return ACL_FUNCTIONS[fn].params.some((param) => param.value.t === 'enum' && param.value.enum === 'aclrtMemMallocPolicy');
}

/** In catalogue order: the order a newcomer meets them. */
export const MALLOC_FNS: readonly MallocFn[] = ACL_FUNCTION_NAMES.filter(takesPolicy);

export function isMallocFn(name: string): name is MallocFn {
  return MALLOC_FNS.some((fn) => fn === name);
}

const P = aclrtMemMallocPolicy.byName;

/** What a base policy asks for: the page logic that decides its pages (DM-4 … DM-7). */
export type PolicyPages = 'hugeFirst' | 'hugeOnly' | 'normalOnly' | 'giant';

interface BasePolicyFacts {
  readonly pages: PolicyPages;
  /** Marked for device-to-device copies, so only on products with P2P memory (DM-8). */
  readonly p2p: boolean;
  /** Among the four aclrtMallocCached accepts (DM-3). */
  readonly cached: boolean;
  /** The RULES.md IDs that decide its pages, in the order its explanation cites them. */
  readonly rules: readonly string[];
}

/**
 * The base policies, the low byte of aclrtMemMallocPolicy (MEM_POLICY_MASK), with the facts the
 * rules give them: the one table planMalloc decides from and the UI lists and explains.
 */
const BASE_POLICY_FACTS = {
  ACL_MEM_MALLOC_HUGE_FIRST: { pages: 'hugeFirst', p2p: false, cached: true, rules: ['DM-4'] },
  ACL_MEM_MALLOC_HUGE_ONLY: { pages: 'hugeOnly', p2p: false, cached: true, rules: ['DM-5'] },
  ACL_MEM_MALLOC_NORMAL_ONLY: { pages: 'normalOnly', p2p: false, cached: true, rules: ['DM-6'] },
  ACL_MEM_MALLOC_HUGE_FIRST_P2P: { pages: 'hugeFirst', p2p: true, cached: false, rules: ['DM-8', 'DM-4'] },
  ACL_MEM_MALLOC_HUGE_ONLY_P2P: { pages: 'hugeOnly', p2p: true, cached: false, rules: ['DM-8', 'DM-5'] },
  ACL_MEM_MALLOC_NORMAL_ONLY_P2P: { pages: 'normalOnly', p2p: true, cached: false, rules: ['DM-8', 'DM-6'] },
  ACL_MEM_MALLOC_HUGE1G_ONLY: { pages: 'giant', p2p: false, cached: true, rules: ['DM-7'] },
  ACL_MEM_MALLOC_HUGE1G_ONLY_P2P: { pages: 'giant', p2p: true, cached: false, rules: ['DM-7', 'DM-8'] },
} as const satisfies Partial<Record<keyof typeof P, BasePolicyFacts>>;

export type BasePolicyName = keyof typeof BASE_POLICY_FACTS;
/** A base policy without its ACL_MEM_MALLOC_ prefix, "HUGE_FIRST": the UI's label and message key. */
export type BasePolicyKey = BasePolicyName extends infer N ? (N extends `ACL_MEM_MALLOC_${infer K}` ? K : never) : never;

export interface BasePolicy extends BasePolicyFacts {
  readonly name: BasePolicyName;
  readonly key: BasePolicyKey;
  readonly value: number;
}

function isBasePolicyKey(key: string): key is BasePolicyKey {
  return Object.hasOwn(BASE_POLICY_FACTS, `${aclrtMemMallocPolicy.prefix}${key}`);
}

function isBasePolicyName(name: string): name is BasePolicyName {
  return Object.hasOwn(BASE_POLICY_FACTS, name);
}

/** Every base policy in value order (0 … 7). */
export const BASE_POLICIES: readonly BasePolicy[] = Object.entries(BASE_POLICY_FACTS)
  .map(([name, facts]) => {
    const key = shortName(aclrtMemMallocPolicy, name);
    if (!isBasePolicyName(name) || !isBasePolicyKey(key)) throw new Error(`${name} is not an ACL_MEM_MALLOC_ policy`);
    return { name, key, value: P[name], ...facts };
  })
  .sort((a, b) => a.value - b.value);

const BASE_BY_VALUE: ReadonlyMap<number, BasePolicy> = new Map(BASE_POLICIES.map((policy) => [policy.value, policy]));

/** The base policy with this value (after MEM_POLICY_MASK), or undefined for a value none has (DM-10). */
export function basePolicy(value: number): BasePolicy | undefined {
  return BASE_BY_VALUE.get(value);
}

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
  /** The message as a code of texts/table.ts, for the UI's language. */
  readonly messageCode: Text;
  readonly reasons: readonly Reason[];
}

/** DM-3: the runtime's rounding, before any page is chosen. */
export function paddedSize(fn: MallocFn, size: number, base: number, padding: number, reasons?: Reason[]): number {
  const giant = basePolicy(base)?.pages === 'giant';
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

function refuse(ret: number, why: Text, reasons: readonly Reason[]): MallocRefusal {
  return { ok: false, ret, message: describeText(why), messageCode: why, reasons };
}

/**
 * Decides what an aclrtMalloc-family call asks of the device (DM-2 … DM-10), before looking for
 * free pages: the rounded size, the page class, the fallback, or the refusal with its ACL code.
 */
export function planMalloc(fn: MallocFn, size: number, policy: number, profile: DeviceProfile, explain = true): MallocPlan | MallocRefusal {
  if (size === 0) {
    return refuse(ACL_ERROR_INVALID_PARAM, text('malloc-size-zero'), [reason('size-zero', ['DM-2'])]);
  }
  const hints = policy & HINT_BITS;
  const base = policy & MEM_POLICY_MASK;
  // Reasons are built only when asked for: the simulator's hot path stores facts, and explanations are derived on demand.
  const reasons: Reason[] | undefined = explain ? [] : undefined;
  if (hints !== 0 || policy > (MEM_POLICY_MASK | HINT_BITS)) {
    if (fn !== 'aclrtMallocWithCfg') {
      return refuse(ACL_ERROR_INVALID_PARAM, text('malloc-flags-need-withcfg', { policy }), [
        reason('flags-need-withcfg', ['DM-9'], { policy }),
      ]);
    }
    reasons?.push(reason('bandwidth-hint', ['DM-9'], { bits: `0x${hints.toString(16)}` }));
  }
  const facts = basePolicy(base);
  const isGiant = facts?.pages === 'giant';
  const p2p = facts?.p2p === true;
  if (fn === 'aclrtMallocCached' && facts?.cached !== true) {
    return refuse(ACL_ERROR_INVALID_PARAM, text('malloc-cached-policy', { policy: policyName(base) }), [reason('cached-policy', ['DM-3'])]);
  }
  if (isGiant && !profile.features.giantPages) {
    return refuse(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('no-giant-pages', { profile: profile.name }), [
      reason('giant-unsupported', ['DM-7'], { profile: profile.name }),
    ]);
  }
  if (p2p && !profile.features.p2p) {
    return refuse(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, text('no-p2p-memory', { profile: profile.name }), [
      reason('p2p-unsupported', ['DM-8'], { profile: profile.name }),
    ]);
  }
  const hint = reasons?.pop();
  const padded = paddedSize(fn, size, base, profile.padding, reasons);
  if (hint !== undefined) reasons?.push(hint);
  if (p2p) reasons?.push(reason('p2p-marked', ['DM-8']));
  const choice = choosePages(fn, base, facts, size, padded, reasons);
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
function choosePages(
  fn: MallocFn,
  base: number,
  facts: BasePolicy | undefined,
  size: number,
  padded: number,
  reasons: Reason[] | undefined,
): PageChoice {
  if (facts === undefined) {
    // DM-10: an out-of-range policy behaves as the default.
    reasons?.push(reason('unknown-policy', ['DM-10'], { policy: base }));
    return size >= HUGE_PAGE ? HUGE_OR_NORMAL : NORMAL;
  }
  switch (facts.pages) {
    case 'hugeFirst':
    case 'hugeOnly':
      // HUGE_FIRST_P2P and HUGE_ONLY_P2P follow the huge-page logic only through aclrtMallocWithCfg (DM-8).
      if (facts.p2p && fn !== 'aclrtMallocWithCfg') {
        reasons?.push(reason('p2p-generic', ['DM-8'], { fn, policyName: facts.name }));
        return NORMAL;
      }
      return facts.pages === 'hugeOnly' ? hugeOnly(reasons) : hugeFirst(padded, reasons);
    case 'normalOnly':
      reasons?.push(reason('normal-only', ['DM-6']));
      return NORMAL;
    case 'giant':
      reasons?.push(reason('giant', ['DM-7']));
      return GIANT;
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
  const plan = planMalloc(isMallocFn(allocation.fn) ? allocation.fn : 'aclrtMalloc', allocation.size, allocation.policy, profile);
  const reasons = [...plan.reasons];
  if (allocation.fallback !== undefined) reasons.push(fallbackReason(allocation.fallback));
  const occupied = allocation.pages * allocation.pageSize;
  reasons.push(
    reason('occupies', ['DM-11'], { pages: allocation.pages, pageSize: allocation.pageSize, occupied, waste: occupied - allocation.size }),
  );
  return reasons;
}
