import { useTranslation } from 'react-i18next';
import type { Unavailable } from '../../model/acl/backend.ts';

/**
 * Why a form's function cannot be called here, before anyone tries: a read-only agent refuses
 * every call that changes state (S-9), a library without the symbol has none to call. Viewers
 * have their own note at the top of the panel.
 */
export function UnavailableNote({ fn, why, testId }: { fn: string; why: Unavailable | undefined; testId?: string }) {
  const { t } = useTranslation();
  if (why === undefined || why === 'viewer') return null;
  return (
    <p className="act-note act-warn" role="note" data-testid={testId} data-why={why}>
      {why === 'read-only' ? t('actions.unavailable.readOnly', { fn }) : t('actions.call.unavailable', { fn })}
    </p>
  );
}
