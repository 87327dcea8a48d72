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

export function useCodedText(): (coded: CodedText | undefined, english: string) => string {
  const { t } = useTranslation();
  return (coded, english) => codedText(t, coded, english);
}
