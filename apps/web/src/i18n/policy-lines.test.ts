import { BASE_POLICIES } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { actions } from './messages/actions.ts';
import { tlb } from './messages/tlb.ts';
import { POLICY_LINES } from './policy-lines.ts';

describe('one line per base policy (DM-4 … DM-8)', () => {
  it.each(BASE_POLICIES.map((policy) => [policy.key, policy.rules] as const))(
    '%s ends with core’s rule IDs, %j, and cites no other',
    (key, rules) => {
      const en = POLICY_LINES.en[key];
      const zh = POLICY_LINES.zh[key];
      expect(en.endsWith(` (${rules.join(', ')}).`)).toBe(true);
      expect(zh.endsWith(`（${rules.join('、')}）。`)).toBe(true);
      for (const text of [en, zh]) expect([...text.matchAll(/DM-\d+/g)].map((match) => match[0])).toEqual(rules);
    },
  );

  it('the actions panel and the TLB view show the same lines', () => {
    for (const language of ['en', 'zh'] as const) {
      expect(actions[language].policy.explain).toBe(POLICY_LINES[language]);
      expect(tlb[language].whatIf.policies).toBe(POLICY_LINES[language]);
    }
  });
});
