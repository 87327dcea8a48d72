import { BUILTIN_PROFILE_NAMES } from '@pagelens/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImportedFacts, ModelOptions } from '../../model/import/import-protocol.ts';
import { useFileActions } from '../../store/ImportContext.tsx';
import { selectImporting } from '../../store/import-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { RecordingAnalysis } from './RecordingAnalysis.tsx';

/**
 * How the file's pages are modeled, to change: the device profile and torch_npu's page_size:1g
 * (PYTORCH_NPU_ALLOC_CONF). A change reads the file again (FileImporter.remodel): the same job's
 * what-if on other pages, in every view.
 */
function ModelChoice({ facts }: { facts: ImportedFacts }) {
  const { t } = useTranslation();
  const files = useFileActions();
  // While a file is read, the controls wait (a change would start over what is being read) and show what was asked.
  const reading = useAppStore(selectImporting) !== undefined;
  const [wanted, setWanted] = useState<Required<ModelOptions>>();
  const shown = reading && wanted !== undefined ? wanted : { profile: facts.profile, pageSize1g: facts.pageSize1g };
  const change = (next: Required<ModelOptions>): void => {
    setWanted(next);
    files.remodel(next);
  };
  const profiles = BUILTIN_PROFILE_NAMES.includes(facts.profile) ? BUILTIN_PROFILE_NAMES : [facts.profile, ...BUILTIN_PROFILE_NAMES];
  return (
    <fieldset className="import-model" data-testid="import-model" disabled={reading}>
      <legend className="section-title">{t('fileImport.model.title')}</legend>
      <label>
        {t('fileImport.model.profile')}{' '}
        <select
          value={shown.profile}
          data-testid="import-model-profile"
          onChange={(event) => change({ profile: event.target.value, pageSize1g: shown.pageSize1g })}
        >
          {profiles.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={shown.pageSize1g}
          data-testid="import-model-1g"
          onChange={(event) => change({ profile: shown.profile, pageSize1g: event.target.checked })}
        />{' '}
        {t('fileImport.model.pageSize1g')}
      </label>
      <p className="muted">{t('fileImport.model.note')}</p>
    </fieldset>
  );
}

/** The snapshot's allocator_settings as recorded, or that the file has none. */
function AllocatorSettings({ settings }: { settings: ImportedFacts['allocatorSettings'] }) {
  const { t } = useTranslation();
  return (
    <section data-testid="import-settings" aria-labelledby="import-settings-title">
      <h3 id="import-settings-title" className="section-title">
        {t('fileImport.settings.title')}
      </h3>
      {settings === undefined || settings.length === 0 ? (
        <p className="muted">{t('fileImport.settings.none')}</p>
      ) : (
        <dl className="facts">
          {settings.map(([key, value]) => (
            <div className="fact" key={key}>
              <dt className="mono">{key}</dt>
              <dd className="mono">{value === '' ? t('fileImport.settings.empty') : value}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

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
          {(facts.halHandles ?? 0) > 0 && (
            <>
              <dt>{t('fileImport.facts.halHandles')}</dt>
              <dd data-testid="import-hal-handles">
                {t('fileImport.facts.halHandlesValue', {
                  count: facts.halHandles,
                  formatted: (facts.halHandles ?? 0).toLocaleString('en-US'),
                })}
              </dd>
            </>
          )}
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
        {facts.format !== 'msmemscope' && <AllocatorSettings settings={facts.allocatorSettings} />}
        {facts.segments > 0 && <ModelChoice facts={facts} />}
        <p className="muted" role="note">
          {t('fileImport.facts.readOnly')}
        </p>
      </section>
      <RecordingAnalysis />
    </>
  );
}
