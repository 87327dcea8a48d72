import { useTranslation } from 'react-i18next';
import type { ImportedFacts } from '../../model/import/import-protocol.ts';
import { RecordingAnalysis } from './RecordingAnalysis.tsx';

/** In place of the actions panel for a recording: what the file is, and that nothing here calls a device. */
export function ImportFacts({ facts }: { facts: ImportedFacts }) {
  const { t } = useTranslation();
  return (
    <>
      <section className="panel import-facts" data-testid="import-facts" aria-labelledby="import-facts-title">
        <h2 id="import-facts-title" className="section-title">
          {t('fileImport.facts.title')}
        </h2>
        <dl className="facts">
          <dt>{t('fileImport.facts.entries')}</dt>
          <dd className="mono">{facts.traceEntries.toLocaleString('en-US')}</dd>
          <dt>{t('fileImport.facts.segments')}</dt>
          <dd className="mono" data-testid="import-segments">
            {facts.segments.toLocaleString('en-US')}
          </dd>
          <dt>{t('fileImport.facts.clock')}</dt>
          <dd>{t(facts.timeBasis === 'time_us' ? 'fileImport.facts.time_us' : 'fileImport.facts.entryOrder')}</dd>
          <dt>{t('fileImport.facts.evidence')}</dt>
          <dd>{facts.formatEvidence}</dd>
          {facts.pinnedHost !== undefined && (
            <>
              <dt>{t('fileImport.facts.pinnedHost')}</dt>
              <dd data-testid="import-pinned-host">
                {t('fileImport.facts.pinnedHostValue', {
                  entries: facts.pinnedHost.entries.toLocaleString('en-US'),
                  live: facts.pinnedHost.live.toLocaleString('en-US'),
                })}
              </dd>
            </>
          )}
          {facts.inconsistent > 0 && (
            <>
              <dt>{t('fileImport.facts.inconsistent')}</dt>
              <dd className="mono">{facts.inconsistent.toLocaleString('en-US')}</dd>
            </>
          )}
        </dl>
        {facts.unplaced !== undefined && facts.unplaced.length > 0 && (
          <>
            <h3 className="section-title">{t('fileImport.facts.unplacedTitle')}</h3>
            <ul className="unplaced" data-testid="import-unplaced">
              {facts.unplaced.map((item) => (
                <li key={item.reason} data-reason={item.reason}>
                  {t(`fileImport.facts.unplaced.${item.reason}`)}:{' '}
                  <span className="mono">
                    {t(facts.unplacedIn === 'row' ? 'fileImport.facts.unplacedRow' : 'fileImport.facts.unplacedLine', {
                      rows: item.count.toLocaleString('en-US'),
                      line: item.firstLine,
                    })}
                  </span>
                </li>
              ))}
            </ul>
          </>
        )}
        <p className="muted" role="note">
          {t('fileImport.facts.readOnly')}
        </p>
      </section>
      <RecordingAnalysis />
    </>
  );
}
