import type { HostState } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { useFormat, useTimeline } from '../../store/hooks.ts';
import { selectImported } from '../../store/import-slice.ts';
import { selectSession } from '../../store/session-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { CopyFactsList, factsForCopy } from './CopyFactsList.tsx';
import { CopyLegend } from './CopyLegend.tsx';
import { CopyPlot } from './CopyPlot.tsx';
import type { CopyData } from './useCopyData.ts';

function SelectedCopy({ data, state }: { data: CopyData; state: HostState }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const timeline = useTimeline();
  const copy = data.selected === undefined ? undefined : data.copies[data.selected];
  if (data.selected === undefined || copy === undefined) {
    return <p className="muted hc-details-none">{t('hostCopies.details.none')}</p>;
  }
  return (
    <section className="hc-details selected-item" aria-live="polite" data-testid="copy-details" data-copy={copy.id}>
      <h3 className="section-title">{t('hostCopies.details.title', { id: copy.id, fn: copy.fn })}</h3>
      <CopyFactsList facts={factsForCopy(state, timeline, data.selected, prefs)} />
    </section>
  );
}

/** Copies per stream and on the host thread, on a zoomable time axis, with legend and the selected copy's numbers. */
export function CopyTimelinePanel({ data, state }: { data: CopyData; state: HostState }) {
  const { t } = useTranslation();
  const session = useAppStore(selectSession);
  const observed = session?.host.provenance === 'observed';
  // A recording holds allocations and frees, never a copy: no clock to name, nothing to run.
  const recording = useAppStore(selectImported) !== undefined;
  const empty = data.copies.length === 0 && data.layout.busy.length === 0 && data.layout.marks.length === 0;
  return (
    <section className="panel hc-timeline" aria-labelledby="hc-timeline-title" data-testid="copy-timeline">
      <header className="hc-head">
        <h2 id="hc-timeline-title" className="section-title">
          {t('hostCopies.timeline.title')}
        </h2>
        {!recording && (
          <span
            className={`provenance provenance-${observed ? 'observed' : 'simulated'}`}
            title={t(observed ? 'hostCopies.timeline.timeHintObserved' : 'hostCopies.timeline.timeHint')}
            data-testid="copy-time-kind"
          >
            {t(observed ? 'hostCopies.timeline.time.observed' : 'hostCopies.timeline.time.simulated')}
          </span>
        )}
      </header>
      {empty ? (
        <p className="muted hc-empty" data-testid="copy-timeline-empty">
          {t(recording ? 'hostCopies.timeline.emptyRecording' : 'hostCopies.timeline.empty')}
        </p>
      ) : (
        <>
          <CopyLegend paths={data.paths} marks={data.layout.marks.length > 0} />
          <CopyPlot data={data} state={state} />
          {!observed && <p className="muted hc-modeled hatch">{t('hostCopies.timeline.modeled')}</p>}
          <SelectedCopy data={data} state={state} />
        </>
      )}
    </section>
  );
}
