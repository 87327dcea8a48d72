import { describe, expect, it } from 'vitest';
import { RESOURCES } from './catalog.ts';
import { callKey, MEMO_LIMIT } from './memo-t.ts';
import { createI18n, type Language } from './setup.ts';

/** Every key of a catalogue that names a text (not a group of them). */
function leafKeys(node: unknown, prefix = ''): string[] {
  if (typeof node !== 'object' || node === null) return [prefix];
  return Object.entries(node).flatMap(([name, child]) => leafKeys(child, prefix === '' ? name : `${prefix}.${name}`));
}

/** Values most texts use, in two versions, so a memo that ignored a value would repeat the first text. */
const VALUES = [
  { count: 1, device: 0, size: '4 KiB', total: '2 GiB', seq: '12', last: '40', name: 'ptr', pid: 7, code: 'side-device' },
  { count: 5, device: 1, size: '2 MiB', total: '64 GiB', seq: '13', last: '41', name: 'dst', pid: 9, code: 'null-arg' },
];

describe('remembered translations', () => {
  it.each<Language>(['en', 'zh'])('%s: every text, with two sets of values each, reads as i18next alone writes it', (language) => {
    const memo = createI18n(language);
    const plain = createI18n(language, { memoize: false });
    const keys = leafKeys(RESOURCES[language].translation).map((key) => key.replace(/_(one|other|zero)$/, ''));
    expect(keys.length).toBeGreaterThan(500);
    for (const round of [0, 1]) {
      for (const key of keys) {
        for (const values of VALUES) expect(memo.t(key, values), `${key} (round ${round})`).toBe(plain.t(key, values));
      }
    }
  });

  it('follows a change of language, and the fixed t of each', async () => {
    const i18n = createI18n('en');
    const en = i18n.getFixedT('en');
    const zh = i18n.getFixedT('zh');
    expect(en('timeTravel.live')).toBe('Live');
    expect(zh('timeTravel.live')).not.toBe('Live');
    await i18n.changeLanguage('zh');
    expect(i18n.t('timeTravel.live')).toBe(zh('timeTravel.live'));
    await i18n.changeLanguage('en');
    expect(i18n.t('timeTravel.live')).toBe('Live');
  });

  it('keeps to i18next a fixed t asked for another language or namespace in its options', () => {
    const en = createI18n('en').getFixedT('en');
    const zh = createI18n('zh', { memoize: false }).t;
    expect(en('timeTravel.live')).toBe('Live');
    expect(en('timeTravel.live', { lng: 'zh' })).toBe(zh('timeTravel.live'));
    expect(en('timeTravel.live')).toBe('Live');
  });

  it('useTranslation’s fixed t reads as i18next’s own, for every text', () => {
    for (const language of ['en', 'zh'] as const) {
      const memo = createI18n(language).getFixedT(language, 'translation');
      const plain = createI18n(language, { memoize: false }).getFixedT(language, 'translation');
      for (const key of leafKeys(RESOURCES[language].translation).map((item) => item.replace(/_(one|other|zero)$/, '')))
        for (const values of VALUES) expect(memo(key, values), key).toBe(plain(key, values));
    }
  });

  it('forgets when a bundle changes', () => {
    const i18n = createI18n('en');
    expect(i18n.t('timeTravel.live')).toBe('Live');
    i18n.addResource('en', 'translation', 'timeTravel.live', 'Now');
    expect(i18n.t('timeTravel.live')).toBe('Now');
  });

  it('keys calls by everything that can change the text', () => {
    expect(callKey('en', 'a.b', { count: 1 }, 0)).not.toBe(callKey('en', 'a.b', { count: 2 }, 0));
    expect(callKey('en', 'a.b', { count: 1 }, 0)).not.toBe(callKey('zh', 'a.b', { count: 1 }, 0));
    expect(callKey('en', 'a.b', { n: 1 }, 0)).not.toBe(callKey('en', 'a.b', { n: '1' }, 0));
    expect(callKey('en', 'a.b', { n: 0 }, 0)).not.toBe(callKey('en', 'a.b', { n: -0 }, 0));
    expect(callKey('en', 'a.b', { n: 'x\u0000m\u0000y' }, 0)).not.toBe(callKey('en', 'a.b', { n: 'x', m: 'y' }, 0));
    expect(callKey('en', 'a', { b: 'c' }, 0)).not.toBe(callKey('en', 'a\u0000b', { c: undefined }, 0));
  });

  it('leaves to i18next what it cannot key exactly', () => {
    expect(callKey('en', 'a', { when: new Date(0) }, 0)).toBeUndefined();
    expect(callKey('en', 'a', { list: [1, 2] }, 0)).toBeUndefined();
    expect(callKey('en', 'a', 'a default', 0)).toBeUndefined();
    expect(callKey('en', 'a', { count: 1 }, 1)).toBeUndefined();
    expect(callKey('en', () => 'a', undefined, 0)).toBeUndefined();
    const i18n = createI18n('en');
    const values = { device: 0, nested: { device: 3 } };
    expect(i18n.t('pageMap.noDevice', values)).toBe(createI18n('en', { memoize: false }).t('pageMap.noDevice', values));
  });

  it('stays bounded', () => {
    const i18n = createI18n('en');
    for (let count = 0; count < MEMO_LIMIT * 2 + 5; count += 1) i18n.t('overview.objects.allocations', { count });
    expect(i18n.t('overview.objects.allocations', { count: 3 })).toBe(
      createI18n('en', { memoize: false }).t('overview.objects.allocations', { count: 3 }),
    );
  });
});
