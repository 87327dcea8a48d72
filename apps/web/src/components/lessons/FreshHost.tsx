import type { ScenarioHost } from '@pagelens/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { framesObservable } from '../../model/acl/backend.ts';
import { useAgent } from '../../store/ClientContext.tsx';
import { selectIsDriver } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { ConfirmButtons } from '../common/ConfirmButtons.tsx';

/**
 * A fresh host before a lesson (driver only, confirmed first): nothing run before can skew its goals.
 * It is the host the lesson's first scenario declares (`Scenario.host`), through the same reset as
 * Actions ▸ Host ▸ Reset host.
 */
export function FreshHost({ host }: { readonly host: ScenarioHost }) {
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
              agent.reset(real ? {} : { profile: host.profile, devices: host.devices });
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
