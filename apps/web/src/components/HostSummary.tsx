import { useTranslation } from 'react-i18next';
import type { Connection } from '../store/connection-slice.ts';

type Connected = Extract<Connection, { status: 'connected' }>;

/** What the agent said about itself in its welcome: where the data come from. */
export function HostSummary({ connection }: { connection: Connected }) {
  const { t } = useTranslation();
  const { host } = connection;
  return (
    <section className="panel host-summary" aria-label={t('host.title')}>
      <h2>{t('host.title')}</h2>
      <dl>
        <dt>{t('host.data')}</dt>
        <dd>
          <span className={`provenance provenance-${host.provenance}`}>{t(`provenance.${host.provenance}`)}</span>
          {host.note !== undefined && <span className="muted"> {host.note}</span>}
        </dd>
        <dt>{t('host.hostname')}</dt>
        <dd>{host.hostname}</dd>
        <dt>{t('host.kernel')}</dt>
        <dd>{host.kernelVersion}</dd>
        <dt>{t('host.pageSize')}</dt>
        <dd>{host.hostPageSize.toLocaleString()} B</dd>
      </dl>
    </section>
  );
}
