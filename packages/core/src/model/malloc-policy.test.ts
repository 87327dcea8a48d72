import { describe, expect, it } from 'vitest';
import { ACL_ERROR_INVALID_PARAM, ACL_ERROR_RT_FEATURE_NOT_SUPPORT } from '../acl/errors.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../profiles/builtin.ts';
import { MiB } from '../units/bytes.ts';
import { BASE_POLICIES, basePolicy, isMallocFn, MALLOC_FNS, type MallocFn, planMalloc } from './malloc-policy.ts';

describe('the base-policy table (DM-3 … DM-10)', () => {
  it('holds the eight base policies of acl-api.md §3, in value order, each keyed by its short name', () => {
    expect(BASE_POLICIES.map((policy) => [policy.value, policy.name, policy.key])).toEqual([
      [0, 'ACL_MEM_MALLOC_HUGE_FIRST', 'HUGE_FIRST'],
      [1, 'ACL_MEM_MALLOC_HUGE_ONLY', 'HUGE_ONLY'],
      [2, 'ACL_MEM_MALLOC_NORMAL_ONLY', 'NORMAL_ONLY'],
      [3, 'ACL_MEM_MALLOC_HUGE_FIRST_P2P', 'HUGE_FIRST_P2P'],
      [4, 'ACL_MEM_MALLOC_HUGE_ONLY_P2P', 'HUGE_ONLY_P2P'],
      [5, 'ACL_MEM_MALLOC_NORMAL_ONLY_P2P', 'NORMAL_ONLY_P2P'],
      [6, 'ACL_MEM_MALLOC_HUGE1G_ONLY', 'HUGE1G_ONLY'],
      [7, 'ACL_MEM_MALLOC_HUGE1G_ONLY_P2P', 'HUGE1G_ONLY_P2P'],
    ]);
    expect(basePolicy(8)).toBeUndefined();
  });

  it.each(BASE_POLICIES.map((policy) => [policy.key, policy] as const))(
    '%s: planMalloc refuses on 310P exactly what the table says it needs (DM-7, DM-8)',
    (_key, policy) => {
      const plan = planMalloc('aclrtMallocWithCfg', 4 * MiB, policy.value, ASCEND_310P3);
      const needs = policy.pages === 'giant' || policy.p2p;
      expect(plan.ok ? 0 : plan.ret).toBe(needs ? ACL_ERROR_RT_FEATURE_NOT_SUPPORT : 0);
      const cited = plan.reasons.flatMap((reason) => reason.rules);
      if (!needs) for (const rule of policy.rules) expect(cited).toContain(rule);
    },
  );

  it.each(BASE_POLICIES.map((policy) => [policy.key, policy] as const))(
    '%s: aclrtMallocCached accepts it only when the table says so (DM-3)',
    (_key, policy) => {
      const plan = planMalloc('aclrtMallocCached', 4 * MiB, policy.value, ASCEND_910B2);
      expect(plan.ok ? 0 : plan.ret).toBe(policy.cached ? 0 : ACL_ERROR_INVALID_PARAM);
    },
  );

  it('page classes follow the table: huge logic, normal only, 1 GiB pages (DM-4 … DM-7)', () => {
    const classOf = (value: number) => {
      const plan = planMalloc('aclrtMallocWithCfg', 4 * MiB, value, ASCEND_910B2);
      return plan.ok ? plan.pageClass : undefined;
    };
    const expected = { hugeFirst: 'huge', hugeOnly: 'huge', normalOnly: 'normal', giant: 'giant' } as const;
    for (const policy of BASE_POLICIES) expect(classOf(policy.value), policy.key).toBe(expected[policy.pages]);
  });
});

describe('the aclrtMalloc family (the catalogue functions that take an aclrtMemMallocPolicy)', () => {
  it('is the four allocators, in catalogue order, in the type and at run time', () => {
    // Compiles only while MallocFn is exactly these four: a missing key or an extra one is a type error.
    const family: Record<MallocFn, number> = { aclrtMalloc: 0, aclrtMallocAlign32: 1, aclrtMallocCached: 2, aclrtMallocWithCfg: 3 };
    expect(MALLOC_FNS).toEqual(Object.keys(family));
    expect(isMallocFn('aclrtMallocHost')).toBe(false);
    expect(isMallocFn('aclrtMallocCached')).toBe(true);
  });
});
