import { ASCEND_310P3, ASCEND_910B2, aclrtMemMallocPolicy } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { actions } from '../../i18n/messages/actions.ts';
import { composePolicy, hintOptions, MALLOC_FNS, policyOptions } from './policies.ts';

describe('policy dropdown', () => {
  it('offers the eight base policies with their C values', () => {
    const options = policyOptions(ASCEND_910B2);
    expect(options.map((option) => option.value)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    for (const option of options) expect(aclrtMemMallocPolicy.valueOf(option.name)).toBe(option.value);
  });

  it('every policy has a one-line explanation in both languages that cites its rules (DM-4 … DM-8)', () => {
    for (const option of policyOptions(ASCEND_910B2)) {
      for (const language of ['en', 'zh'] as const) {
        const text = actions[language].policy.explain[option.key];
        expect(text.length).toBeGreaterThan(10);
        expect(text).not.toContain('\n');
        for (const rule of option.rules) expect(text).toContain(rule);
      }
    }
  });

  it('explains what HUGE_FIRST does with sizes up to 1 MiB after padding (DM-4)', () => {
    expect(actions.en.policy.explain.HUGE_FIRST).toMatch(/1 MiB/);
    expect(actions.en.policy.explain.HUGE_ONLY).toMatch(/207001/);
  });

  it('marks 1 GiB and P2P policies the profile lacks (DM-7, DM-8)', () => {
    const on310 = policyOptions(ASCEND_310P3);
    expect(on310.find((o) => o.key === 'HUGE1G_ONLY')?.unsupported).toBe('giant');
    expect(on310.find((o) => o.key === 'HUGE_FIRST_P2P')?.unsupported).toBe('p2p');
    expect(on310.find((o) => o.key === 'HUGE_FIRST')?.unsupported).toBeUndefined();
    expect(policyOptions(ASCEND_910B2).some((o) => o.unsupported !== undefined)).toBe(false);
  });

  it('offers bandwidth hint bits only for aclrtMallocWithCfg and ORs them in only there (DM-9)', () => {
    for (const fn of MALLOC_FNS) expect(hintOptions(fn).length > 0).toBe(fn === 'aclrtMallocWithCfg');
    expect(composePolicy('aclrtMallocWithCfg', 1, [0x1000, 0x100])).toBe(0x1101);
    expect(composePolicy('aclrtMalloc', 1, [0x1000])).toBe(1);
  });
});
