import { BUILTIN_PROFILES } from '@pagelens/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { framesObservable } from '../../model/acl/backend.ts';
import { useAgent } from '../../store/ClientContext.tsx';
import { useAppStore } from '../../store/useAppStore.ts';

const MAX_DEVICES = 8;

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
  const count = Math.min(MAX_DEVICES, Math.max(1, Math.floor(Number(devices)) || 1));
  return (
    <details className="act-reset">
      <summary>{t('actions.host.reset.title')}</summary>
      <p className="act-note">{t(real ? 'actions.host.reset.observedHelp' : 'actions.host.reset.help')}</p>
      {!driver && <p className="act-note act-warn">{t('actions.host.reset.driverOnly')}</p>}
      {!real && (
        <div className="act-inline">
          <div className="act-field">
            <label htmlFor="act-reset-profile">{t('actions.host.reset.profile')}</label>
            <select id="act-reset-profile" value={profile} onChange={(event) => setProfile(event.target.value)} disabled={!driver}>
              {BUILTIN_PROFILES.map((item) => (
                <option key={item.name} value={item.name}>
                  {item.name}
                </option>
              ))}
            </select>
          </div>
          <div className="act-field">
            <label htmlFor="act-reset-devices">{t('actions.host.reset.devices')}</label>
            <input
              id="act-reset-devices"
              type="number"
              min={1}
              max={MAX_DEVICES}
              value={devices}
              onChange={(event) => setDevices(event.target.value)}
              disabled={!driver}
              className="act-narrow"
            />
          </div>
        </div>
      )}
      {confirming ? (
        <div className="act-confirm" role="alertdialog" aria-labelledby="act-reset-question">
          <p id="act-reset-question">
            {real ? t('actions.host.reset.observedConfirm') : t('actions.host.reset.confirm', { profile, devices: count })}
          </p>
          <div className="act-buttons-row">
            <button
              type="button"
              className="act-danger"
              onClick={() => {
                agent.reset(real ? {} : { profile, devices: count });
                setConfirming(false);
              }}
              data-testid="reset-confirm"
            >
              {t('actions.host.reset.yes')}
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              {t('actions.host.reset.cancel')}
            </button>
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
