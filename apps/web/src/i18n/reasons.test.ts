import { fillTemplate, REASON_TEMPLATES_EN } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { REASON_TEMPLATES_ZH } from './reasons.ts';
import { createI18n } from './setup.ts';

const placeholders = (template: string): string[] => [...template.matchAll(/\{\{\s*(\w+)/g)].map((m) => m[1] ?? '').sort();

describe('decision reasons in both languages', () => {
  it.each(Object.keys(REASON_TEMPLATES_EN))('%s uses the same placeholders in Chinese', (code) => {
    const en = REASON_TEMPLATES_EN[code as keyof typeof REASON_TEMPLATES_EN];
    const zh = REASON_TEMPLATES_ZH[code as keyof typeof REASON_TEMPLATES_ZH];
    expect(placeholders(zh)).toEqual(placeholders(en));
  });

  it('i18next renders the core templates exactly as core does, formatters included', () => {
    const i18n = createI18n('en');
    const values = { padded: 1048608 };
    expect(i18n.t('reasons.huge-first-large', values)).toBe(fillTemplate(REASON_TEMPLATES_EN['huge-first-large'], values));
    expect(i18n.t('reasons.huge-first-large', values)).toBe('1,048,608 B > 1 MiB → HUGE_FIRST takes 2 MiB huge pages');
    const zh = createI18n('zh');
    expect(zh.t('reasons.occupies', { pages: 2, pageSize: 2097152, occupied: 4194304, waste: 1048576 })).toBe(
      '2 × 2 MiB 页 = 占用 4 MiB；1,048,576 B 未使用',
    );
  });
});
