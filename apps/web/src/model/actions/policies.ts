import { aclrtMemMallocPolicy, BASE_POLICIES, type BasePolicyKey, type DeviceProfile, type MallocFn } from '@pagelens/core';

/** The allocating functions the quick form offers: core's aclrtMalloc family, in catalogue order. */
export { isMallocFn, MALLOC_FNS } from '@pagelens/core';

const P = aclrtMemMallocPolicy.byName;

export type PolicyKey = BasePolicyKey;

export interface PolicyOption {
  /** The C identifier, e.g. ACL_MEM_MALLOC_HUGE_FIRST. */
  readonly name: string;
  /** Short key for the one-line explanation: `actions.policy.explain.<key>`. */
  readonly key: PolicyKey;
  readonly value: number;
  /** RULES.md IDs the explanation rests on. */
  readonly rules: readonly string[];
  /** Why this profile will refuse it with 207000, if it will (DM-7, DM-8). */
  readonly unsupported?: 'giant' | 'p2p';
}

/** Every base policy (core's table), marked where `profile` lacks the feature it needs. */
export function policyOptions(profile: DeviceProfile | undefined): PolicyOption[] {
  return BASE_POLICIES.map(({ name, key, value, rules, pages, p2p }) => {
    const unsupported =
      profile === undefined
        ? undefined
        : pages === 'giant' && !profile.features.giantPages
          ? 'giant'
          : p2p && !profile.features.p2p
            ? 'p2p'
            : undefined;
    return unsupported === undefined ? { name, key, value, rules } : { name, key, value, rules, unsupported };
  });
}

export type HintKey = 'LOW_BAND_WIDTH' | 'HIGH_BAND_WIDTH' | 'READONLY';

export interface HintOption {
  readonly name: string;
  readonly key: HintKey;
  readonly bit: number;
}

const HINTS: readonly HintOption[] = [
  { name: 'ACL_MEM_TYPE_LOW_BAND_WIDTH', key: 'LOW_BAND_WIDTH', bit: P.ACL_MEM_TYPE_LOW_BAND_WIDTH },
  { name: 'ACL_MEM_TYPE_HIGH_BAND_WIDTH', key: 'HIGH_BAND_WIDTH', bit: P.ACL_MEM_TYPE_HIGH_BAND_WIDTH },
  { name: 'ACL_MEM_ACCESS_USER_SPACE_READONLY', key: 'READONLY', bit: P.ACL_MEM_ACCESS_USER_SPACE_READONLY },
];

/** DM-9: the bandwidth and access bits may be OR-ed into the policy only through aclrtMallocWithCfg. */
export function hintOptions(fn: MallocFn): readonly HintOption[] {
  return fn === 'aclrtMallocWithCfg' ? HINTS : [];
}

/** The policy value sent: the base policy, plus the hint bits where `fn` accepts them (DM-9). */
export function composePolicy(fn: MallocFn, base: number, hints: readonly number[]): number {
  if (fn !== 'aclrtMallocWithCfg') return base;
  return hints.reduce((value, bit) => (value | bit) >>> 0, base);
}
