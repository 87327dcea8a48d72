import { BUILTIN_PROFILES, SIMULATED_DEVICES } from '@pagelens/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { framesObservable } from '../../model/acl/backend.ts';
import { useAgent } from '../../store/ClientContext.tsx';
import { useAppStore } from '../../store/useAppStore.ts';
import { ConfirmButtons } from '../common/ConfirmButtons.tsx';
import { NameOptions } from '../common/NameOptions.tsx';
import { CountInput } from './CountInput.tsx';
import { Field } from './Field.tsx';

/** The agent's range (the CLI's --devices and the Reset message take the same). */
const MAX_DEVICES = SIMULATED_DEVICES.max;

/** A fresh host with a chosen profile and device count; driver only, confirmed first. */
export function ResetHost() {
  const { t } = useTranslation();
  const agent = useAgent();
  const session = useAppStore((state) => state.session);
  const [profile, setProfile] = useState(session?.devices[0]?.profile ?? BUILTIN_PROFILES[0]?.name ?? '');
  const [devices, setDevices] = useState(String(session?.devices.length ?? 1));
  const [confirming, setConfirming] = useState(false);
  const driver = session?.role === 'driver';
  // A real runtime's devices are the hardware's: a reset only tears the sessions down.
  const real = !framesObservable(session?.host);
  const count = Math.min(MAX_DEVICES, Math.max(SIMULATED_DEVICES.min, Math.floor(Number(devices)) || 1));
  return (
    <details className="act-reset">
      <summary>{t('actions.host.reset.title')}</summary>
      <p className="act-note">{t(real ? 'actions.host.reset.observedHelp' : 'actions.host.reset.help')}</p>
      {!driver && <p className="act-note act-warn">{t('actions.host.reset.driverOnly')}</p>}
      {!real && (
        <div className="act-inline">
          <Field id="act-reset-profile" label={t('actions.host.reset.profile')}>
            <select id="act-reset-profile" value={profile} onChange={(event) => setProfile(event.target.value)} disabled={!driver}>
              <NameOptions names={BUILTIN_PROFILES.map((item) => item.name)} />
            </select>
          </Field>
          <Field id="act-reset-devices" label={t('actions.host.reset.devices')}>
            <CountInput
              id="act-reset-devices"
              max={MAX_DEVICES}
              value={devices}
              onText={setDevices}
              disabled={!driver}
              className="act-narrow"
            />
          </Field>
        </div>
      )}
      {confirming ? (
        <div className="act-confirm" role="alertdialog" aria-labelledby="act-reset-question">
          <p id="act-reset-question">
            {real ? t('actions.host.reset.observedConfirm') : t('actions.host.reset.confirm', { profile, devices: count })}
          </p>
          <div className="act-buttons-row">
            <ConfirmButtons
              confirm={t('actions.host.reset.yes')}
              cancel={t('actions.host.reset.cancel')}
              dangerClass="act-danger"
              testId="reset-confirm"
              onConfirm={() => {
                agent.reset(real ? {} : { profile, devices: count });
                setConfirming(false);
              }}
              onCancel={() => setConfirming(false)}
            />
          </div>
        </div>
      ) : (
        <button type="button" disabled={!driver} onClick={() => setConfirming(true)} data-testid="reset-host">
          {t('actions.host.reset.submit')}
        </button>
      )}
    </details>
  );
}
