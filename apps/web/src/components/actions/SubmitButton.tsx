import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** An action form's submit button: it says "Calling…" while the call is out and cannot be pressed twice. */
export function SubmitButton({
  busy,
  disabled,
  testId,
  children,
}: {
  busy: boolean;
  disabled: boolean;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <button type="submit" className="act-primary" disabled={disabled || busy} data-testid={testId}>
      {busy ? t('actions.calling') : children}
    </button>
  );
}
