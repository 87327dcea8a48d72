import { useTranslation } from 'react-i18next';
import { selectConnection } from '../../store/connection-slice.ts';
import { selectPresence, selectSession } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { ConnectionBadge } from '../ConnectionStatus.tsx';
import { LanguageSwitch } from '../LanguageSwitch.tsx';

function Toggle<T extends string>({
  label,
  value,
  options,
  onChange,
  testId,
}: {
  label: string;
  value: T;
  options: readonly { value: T; text: string }[];
  onChange: (value: T) => void;
  testId: string;
}) {
  return (
    <fieldset className="toggle" aria-label={label} data-testid={testId}>
      {options.map((option) => (
        <button key={option.value} type="button" aria-pressed={value === option.value} onClick={() => onChange(option.value)}>
          {option.text}
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
      <ConnectionBadge connection={connection} />
      {presence !== undefined && session !== undefined && (
        <span className="badge presence" data-testid="presence">
          {t('shell.presence.you', { role: t(session.role === 'driver' ? 'common.role.driver' : 'common.role.viewer') })}
          {' · '}
          {t('shell.presence.viewers', { count: presence.viewers })}
          {presence.driverWaiting && ` · ${t('shell.presence.driverWaiting')}`}
        </span>
      )}
      <Toggle
        label={t('shell.prefs.units')}
        value={units}
        options={[
          { value: 'binary', text: t('shell.prefs.binary') },
          { value: 'decimal', text: t('shell.prefs.decimal') },
        ]}
        onChange={(value) => setPrefs({ units: value })}
        testId="units-toggle"
      />
      <Toggle
        label={t('shell.prefs.addresses')}
        value={addresses}
        options={[
          { value: 'hex', text: t('shell.prefs.hex') },
          { value: 'dec', text: t('shell.prefs.dec') },
        ]}
        onChange={(value) => setPrefs({ addresses: value })}
        testId="addresses-toggle"
      />
      <Toggle
        label={t('shell.prefs.theme')}
        value={theme}
        options={[
          { value: 'light', text: t('shell.prefs.light') },
          { value: 'dark', text: t('shell.prefs.dark') },
        ]}
        onChange={(value) => setPrefs({ theme: value })}
        testId="theme-toggle"
      />
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
