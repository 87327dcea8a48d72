import type { CodedText } from '@pagelens/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/**
 * A text from the agent in the UI's language: by its code (core's texts/table.ts) when this page
 * knows the code, else the English text it came with (an older or newer agent, or a text that
 * has no code yet).
 */
export function codedText(t: TFunction, coded: CodedText | undefined, english: string): string {
  if (coded === undefined) return english;
  return t(`texts.${coded.code}`, { ...coded.values, defaultValue: english });
}

/**
 * A text in parts (the host note): each part by its code, joined as the language joins clauses;
 * the whole English text when a part's code is unknown here (no half-translated sentence).
 */
export function codedParts(t: TFunction, parts: readonly CodedText[] | undefined, english: string): string {
  if (parts === undefined || parts.length === 0) return english;
  const unknown = '\u0000';
  const shown = parts.map((part) => t(`texts.${part.code}`, { ...part.values, defaultValue: unknown }));
  return shown.includes(unknown) ? english : shown.join(t('common.clauseSeparator'));
}

export function useCodedText(): (coded: CodedText | undefined, english: string) => string {
  const { t } = useTranslation();
  return (coded, english) => codedText(t, coded, english);
}
