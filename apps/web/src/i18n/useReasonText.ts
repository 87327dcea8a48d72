import type { Reason } from '@pagelens/core';
import { useTranslation } from 'react-i18next';

/** Renders decision reasons in the current language; `withRules` appends "(DM-3, DM-4)". */
export function useReasonText(): (reason: Reason, withRules?: boolean) => string {
  const { t } = useTranslation();
  return (reason, withRules = false) => {
    const text = t(`reasons.${reason.code}`, { ...reason.values, defaultValue: reason.code });
    return withRules && reason.rules.length > 0 ? `${text} (${reason.rules.join(', ')})` : text;
  };
}
