import { useTranslation } from 'react-i18next';
import { selectConnection } from '../../store/connection-slice.ts';
import { selectPresence, selectSession } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { ConnectionBadge } from '../ConnectionStatus.tsx';
import { ExportPerfettoButton } from '../import/ExportPerfettoButton.tsx';
import { OpenFileButton } from '../import/OpenFileButton.tsx';
import { LanguageSwitch } from '../LanguageSwitch.tsx';

/** Two or more values of one preference as pressed buttons; labels are `shell.prefs.<pref>` and `shell.prefs.<value>`. */
function Toggle<T extends string>({
  pref,
  value,
  values,
  onChange,
}: {
  pref: string;
  value: T;
  values: readonly T[];
  onChange: (value: T) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset className="toggle" aria-label={t(`shell.prefs.${pref}`)} data-testid={`${pref}-toggle`}>
      {values.map((option) => (
        <button key={option} type="button" aria-pressed={value === option} onClick={() => onChange(option)}>
          {t(`shell.prefs.${option}`)}
        </button>
      ))}
    </fieldset>
  );
}

export function Header() {
  const { t } = useTranslation();
  const connection = useAppStore(selectConnection);
  const session = useAppStore(selectSession);
  const presence = useAppStore(selectPresence);
  const device = useAppStore((state) => state.device);
  const setDevice = useAppStore((state) => state.setDevice);
  const units = useAppStore((state) => state.units);
  const addresses = useAppStore((state) => state.addresses);
  const theme = useAppStore((state) => state.theme);
  const setPrefs = useAppStore((state) => state.setPrefs);
  const setHelpOpen = useAppStore((state) => state.setHelpOpen);
  // An opened file replaced the agent's session: the link and its presence are not what the page shows.
  const imported = useAppStore((state) => state.imported !== undefined || state.agentFile !== undefined);
  return (
    <header className="app-header">
      <div className="brand">
        <strong>{t('common.app.name')}</strong>
        <span className="muted tagline">{t('common.app.tagline')}</span>
      </div>
      {session !== undefined && session.devices.length > 0 && (
        <label className="device-select">
          <span className="visually-hidden">{t('shell.device')}</span>
          <select
            value={device}
            onChange={(event) => setDevice(Number(event.target.value))}
            data-testid="device-select"
            aria-label={t('shell.device')}
          >
            {session.devices.map((d) => (
              <option key={d.id} value={d.id}>
                {t('shell.deviceOption', { id: d.id, profile: d.profile })}
              </option>
            ))}
          </select>
        </label>
      )}
      <OpenFileButton />
      <ExportPerfettoButton />
      {!imported && <ConnectionBadge connection={connection} />}
      {!imported && presence !== undefined && session !== undefined && (
        <span className="badge presence" data-testid="presence">
          {t('shell.presence.you', { role: t(session.role === 'driver' ? 'common.role.driver' : 'common.role.viewer') })}
          {' · '}
          {t('shell.presence.viewers', { count: presence.viewers })}
          {presence.driverWaiting && ` · ${t('shell.presence.driverWaiting')}`}
          {presence.driverEnding && ` · ${t('shell.presence.driverEnding')}`}
        </span>
      )}
      <Toggle pref="units" value={units} values={['binary', 'decimal']} onChange={(next) => setPrefs({ units: next })} />
      <Toggle pref="addresses" value={addresses} values={['hex', 'dec']} onChange={(next) => setPrefs({ addresses: next })} />
      <Toggle pref="theme" value={theme} values={['light', 'dark']} onChange={(next) => setPrefs({ theme: next })} />
      <LanguageSwitch />
      <button
        type="button"
        className="icon-button"
        onClick={() => setHelpOpen(true)}
        aria-label={t('shell.help.open')}
        title={t('shell.help.open')}
        data-testid="help-button"
      >
        ?
      </button>
    </header>
  );
}
