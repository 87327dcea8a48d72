import { formatBytes, formatInteger } from '@pagelens/core';
import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { RESOURCES } from './catalog.ts';
import { memoizeTranslations } from './memo-t.ts';

export const LANGUAGES = ['en', 'zh'] as const;
export type Language = (typeof LANGUAGES)[number];
const STORAGE_KEY = 'pagelens.language';

function isLanguage(value: string | null): value is Language {
  return value !== null && (LANGUAGES as readonly string[]).includes(value);
}

/** The remembered choice, else the browser's preference, else English. */
export function initialLanguage(storage: Pick<Storage, 'getItem'>, navigatorLanguage: string): Language {
  const saved = storage.getItem(STORAGE_KEY);
  if (isLanguage(saved)) return saved;
  return navigatorLanguage.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function rememberLanguage(storage: Pick<Storage, 'setItem'>, language: Language): void {
  storage.setItem(STORAGE_KEY, language);
}

/** `memoize: false` gives i18next's own `t`, for tests that compare the two. */
export function createI18n(language: Language, options: { memoize?: boolean } = {}): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: 'en',
    resources: RESOURCES,
    interpolation: { escapeValue: false },
    initImmediate: false,
  });
  // The formatters the core reason templates use: {{padded, int}}, {{pageSize, size}}.
  instance.services.formatter?.add('int', (value: unknown) => (typeof value === 'number' ? formatInteger(value) : String(value)));
  instance.services.formatter?.add('size', (value: unknown) => (typeof value === 'number' ? formatBytes(value) : String(value)));
  // A coded text that wraps another, {{problem, text}}: the inner code's text, filled from the same values.
  instance.services.formatter?.add('text', (value: unknown, _lng: string | undefined, options: Record<string, unknown>) => {
    const { defaultValue: _outer, ...values } = options;
    return instance.t(`texts.${String(value)}`, { ...values, defaultValue: String(value) });
  });
  if (options.memoize !== false) memoizeTranslations(instance);
  return instance;
}
