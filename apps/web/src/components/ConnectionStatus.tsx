import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCodedText } from '../i18n/useCodedText.ts';
import type { Connection } from '../store/connection-slice.ts';

function secondsUntil(time: number, now: number): number {
  return Math.max(0, Math.ceil((time - now) / 1000));
}

/** A one-line badge for the header: where the link to the agent stands. */
export function ConnectionBadge({ connection }: { connection: Connection }) {
  const { t } = useTranslation();
  const label: Record<Connection['status'], string> = {
    'no-token': t('common.connection.noToken'),
    connecting: t('common.connection.connecting', { attempt: connection.status === 'connecting' ? connection.attempt : 1 }),
    connected: t('common.connection.connected'),
    unauthorized: t('common.connection.unauthorized'),
    unreachable: t('common.connection.unreachable'),
    'driver-busy': t('common.connection.driverBusy'),
    'waiting-teardown': t('common.connection.waitingTeardown'),
    incompatible: t('common.connection.incompatible'),
  };
  return (
    <output className={`badge connection connection-${connection.status}`} data-testid="connection" data-state={connection.status}>
      <span className="dot" aria-hidden="true" />
      {label[connection.status]}
      {connection.status === 'connected' && (
        <span className="badge-detail">
          {t('common.connection.connectedDetail', {
            backend: t(connection.backend === 'acl' ? 'common.backend.acl' : 'common.backend.sim'),
            protocol: connection.protocol,
            role: t(connection.role === 'driver' ? 'common.role.driver' : 'common.role.viewer'),
          })}
        </span>
      )}
    </output>
  );
}

/** A connection that cannot go on by itself: what happened (`common.connection.<problem>`), what to do, and the agent's words. */
function ConnectionError({ problem, detail }: { problem: 'noToken' | 'unauthorized' | 'incompatible'; detail?: string }) {
  const { t } = useTranslation();
  return (
    <section className="panel state-panel state-error" role="alert">
      <h2>{t(`common.connection.${problem}`)}</h2>
      <p>{t(`common.connection.${problem}Help`)}</p>
      {detail !== undefined && (
        <p className="muted">
          <code>{detail}</code>
        </p>
      )}
    </section>
  );
}

/** The full-page explanation shown whenever the app cannot show memory yet. Never a blank page. */
export function ConnectionPanel({
  connection,
  onRetry,
  onWatch,
}: {
  connection: Connection;
  onRetry: () => void;
  /** Opens this page as a viewer (offered while another client holds the driver session). */
  onWatch: () => void;
}) {
  const { t } = useTranslation();
  const say = useCodedText();
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (connection.status !== 'unreachable' && connection.status !== 'driver-busy') return undefined;
    const timer = window.setInterval(() => setNow(Date.now()), 250);
    return () => window.clearInterval(timer);
  }, [connection.status]);

  switch (connection.status) {
    case 'connected':
      return null;
    case 'connecting':
      return (
        <section className="panel state-panel" aria-live="polite">
          <h2>{t('common.connection.connecting', { attempt: connection.attempt })}</h2>
        </section>
      );
    case 'no-token':
      return <ConnectionError problem="noToken" />;
    case 'unauthorized':
      return <ConnectionError problem="unauthorized" detail={connection.reason} />;
    case 'unreachable':
      return (
        <section className="panel state-panel state-warn" aria-live="polite">
          <h2>{t('common.connection.unreachable')}</h2>
          <p>{t('common.connection.unreachableHelp', { seconds: secondsUntil(connection.retryAt, now), attempt: connection.attempt })}</p>
          <button type="button" onClick={onRetry}>
            {t('common.connection.retryNow')}
          </button>
        </section>
      );
    case 'driver-busy':
      return (
        <section className="panel state-panel state-warn" aria-live="polite" data-testid="driver-busy">
          <h2>{t('common.connection.driverBusy')}</h2>
          <p>{say(connection.messageCode, connection.message)}</p>
          <p>{t('common.connection.driverBusyHelp', { seconds: secondsUntil(connection.retryAt, now), attempt: connection.attempt })}</p>
          <div className="button-row">
            <button type="button" onClick={onWatch} data-testid="watch-as-viewer">
              {t('common.connection.watchAsViewer')}
            </button>
            <button type="button" onClick={onRetry}>
              {t('common.connection.retryNow')}
            </button>
          </div>
        </section>
      );
    case 'waiting-teardown':
      return (
        <section className="panel state-panel" aria-live="polite" data-testid="waiting-teardown">
          <h2>{t('common.connection.waitingTeardown')}</h2>
          <p>{say(connection.messageCode, connection.message)}</p>
          <p>{t('common.connection.waitingTeardownHelp')}</p>
          <div className="button-row">
            <button type="button" onClick={onWatch} data-testid="watch-as-viewer">
              {t('common.connection.watchAsViewer')}
            </button>
          </div>
        </section>
      );
    case 'incompatible':
      return <ConnectionError problem="incompatible" detail={say(connection.messageCode, connection.message)} />;
  }
}
