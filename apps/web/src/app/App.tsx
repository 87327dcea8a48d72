import { useTranslation } from 'react-i18next';
import { ConnectionBadge, ConnectionPanel } from '../components/ConnectionStatus.tsx';
import { HostSummary } from '../components/HostSummary.tsx';
import { LanguageSwitch } from '../components/LanguageSwitch.tsx';
import { selectConnection } from '../store/connection-slice.ts';
import { useAppStore } from '../store/useAppStore.ts';

export function App({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  const connection = useAppStore(selectConnection);
  return (
    <div className="app">
      <header className="app-header">
        <div className="brand">
          <strong>{t('app.name')}</strong>
          <span className="muted">{t('app.tagline')}</span>
        </div>
        <ConnectionBadge connection={connection} />
        <LanguageSwitch />
      </header>
      <main className="app-main">
        <ConnectionPanel connection={connection} onRetry={onRetry} />
        {connection.status === 'connected' && <HostSummary connection={connection} />}
      </main>
    </div>
  );
}
