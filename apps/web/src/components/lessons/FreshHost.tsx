import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { framesObservable } from '../../model/acl/backend.ts';
import { useAgent } from '../../store/ClientContext.tsx';
import { selectIsDriver } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { ConfirmButtons } from '../common/ConfirmButtons.tsx';

/**
 * The host every lesson's scenario runs on: one Atlas A2 device, which has the 1 GiB pages and the
 * VMM calls the lessons use (DM-7, VM-10). It goes through the same host reset as Actions ▸ Host ▸
 * Reset host. Once scenarios declare their host, this should become the declared host of the
 * lesson's `startsFrom` scenario.
 */
export const LESSON_HOST = { profile: 'Ascend910B2', devices: 1 } as const;

/** A fresh host before a lesson (driver only, confirmed first): nothing run before can skew its goals. */
export function FreshHost() {
  const { t } = useTranslation();
  const agent = useAgent();
  const driver = useAppStore(selectIsDriver);
  const real = useAppStore((state) => !framesObservable(state.session?.host));
  const [confirming, setConfirming] = useState(false);
  if (confirming) {
    return (
      <div className="act-confirm lesson-confirm" role="alertdialog" aria-labelledby="lesson-fresh-question">
        <p id="lesson-fresh-question">{t('lessons.freshConfirm')}</p>
        <div className="act-buttons-row">
          <ConfirmButtons
            confirm={t('lessons.freshYes')}
            cancel={t('lessons.freshNo')}
            dangerClass="act-danger"
            testId="lesson-fresh-confirm"
            onConfirm={() => {
              // A real runtime's devices are the hardware's: its reset only tears the sessions down.
              agent.reset(real ? {} : LESSON_HOST);
              setConfirming(false);
            }}
            onCancel={() => setConfirming(false)}
          />
        </div>
      </div>
    );
  }
  return (
    <button
      type="button"
      disabled={!driver}
      title={driver ? undefined : t('lessons.freshDriverOnly')}
      onClick={() => setConfirming(true)}
      data-testid="lesson-fresh-host"
    >
      {t('lessons.freshHost')}
    </button>
  );
}
