import {
  type AllocatorModel,
  countMatching,
  explainPeak,
  type FrameGroup,
  groupByTopFrame,
  leaksBetween,
  reservedSteps,
  stackMatcher,
} from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAfterPaint } from '../../hooks/useAfterPaint.ts';
import { bytes } from '../../model/format.ts';
import type { Timeline } from '../../model/timeline.ts';
import { useFormat, useTimeline } from '../../store/hooks.ts';
import { selectImported } from '../../store/import-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { useBlockFrames } from './useBlockFrames.ts';

/** Groups shown per list; the rest are summed in one line. */
const SHOWN = 8;

function Groups({ groups, total, testId }: { groups: readonly FrameGroup[]; total: number; testId: string }) {
  const { t } = useTranslation();
  const format = useFormat();
  if (groups.length === 0) return <p className="muted">{t('fileImport.analysis.noGroups')}</p>;
  const rest = groups.slice(SHOWN);
  const figures = (group: { bytes: number; blocks: number }) => (
    <span className="mono muted">
      {bytes(group.bytes, format)}
      {total > 0 && ` · ${((group.bytes / total) * 100).toFixed(1)}%`}
      {' · '}
      {t('fileImport.analysis.blockCount', { count: group.blocks })}
    </span>
  );
  return (
    <>
      <p className="muted frame-groups-caption">{t('fileImport.analysis.frame')}</p>
      <ol className="frame-groups" data-testid={testId} aria-label={t('fileImport.analysis.frame')}>
        {groups.slice(0, SHOWN).map((group) => (
          <li key={group.frame} data-testid="frame-group">
            <span className="mono frame">{group.frame}</span>
            {figures(group)}
          </li>
        ))}
        {rest.length > 0 && (
          <li>
            <span className="muted">{t('fileImport.analysis.others', { count: rest.length })}</span>
            {figures({ bytes: rest.reduce((sum, g) => sum + g.bytes, 0), blocks: rest.reduce((sum, g) => sum + g.blocks, 0) })}
          </li>
        )}
      </ol>
    </>
  );
}

/** The allocator model the peak's expandable_segments bound is worked out on: the device's profile, and page_size:1g as the file is modeled. */
function modelOf(timeline: Timeline, device: number, pageSize1g: boolean): AllocatorModel | undefined {
  const profile = timeline.live.devices[device]?.profile;
  return profile === undefined ? undefined : { profile, pageSize1g };
}

/**
 * Beside an imported file's facts: the stack filter, the peak explained (what was allocated then by
 * top frame, and the fragmentation), and leaks between the time bar's marks A and B. The figures are
 * the file's own (formats/block-analysis.ts); only the selected device.
 */
export function RecordingAnalysis() {
  const { t } = useTranslation();
  const format = useFormat();
  const timeline = useTimeline();
  const index = useAppStore((state) => state.importedBlocks);
  const device = useAppStore((state) => state.device);
  const compare = useAppStore((state) => state.compare);
  const filter = useAppStore((state) => state.stackFilter);
  const setFilter = useAppStore((state) => state.setStackFilter);
  const setCursor = useAppStore((state) => state.setCursor);
  const framesOf = useBlockFrames();
  // The peak of a large file takes a few hundred ms to work out: after the page map's first paint.
  const imported = useAppStore(selectImported);
  const pageSize1g = imported?.pageSize1g ?? false;
  const worked = useAfterPaint(useMemo(() => ({ timeline, index }), [timeline, index]));
  const pending = worked === undefined || worked.index !== index || worked.timeline !== timeline;
  const peak = useMemo(
    () =>
      worked?.timeline === undefined || worked.index === undefined
        ? undefined
        : explainPeak(
            worked.index,
            device,
            reservedSteps(worked.timeline.events, device),
            framesOf,
            modelOf(worked.timeline, device, pageSize1g),
          ),
    [worked, device, framesOf, pageSize1g],
  );
  const matches = useMemo(() => stackMatcher(filter, framesOf), [filter, framesOf]);
  const counts = useMemo(
    () =>
      worked?.index === undefined
        ? { matching: 0, total: 0 }
        : { matching: countMatching(worked.index, device, matches), total: worked.index.rows(device).length },
    [worked, device, matches],
  );
  const peakGroups = useMemo(
    () =>
      peak === undefined
        ? []
        : groupByTopFrame(matches === undefined ? peak.blocks : peak.blocks.filter((block) => matches(block.stack)), framesOf),
    [peak, matches, framesOf],
  );
  const leaks = useMemo(
    () =>
      compare === undefined || worked?.index === undefined
        ? undefined
        : leaksBetween(worked.index, device, compare.from, compare.to, framesOf, matches),
    [worked, device, compare, framesOf, matches],
  );
  if (index === undefined) return null;
  return (
    <section className="panel recording-analysis" data-testid="recording-analysis" aria-labelledby="recording-analysis-title">
      <h2 id="recording-analysis-title" className="section-title">
        {t('fileImport.analysis.title', { device })}
      </h2>
      <label className="stack-filter">
        <span>{t('fileImport.analysis.filter')}</span>
        <input
          type="search"
          value={filter}
          placeholder={t('fileImport.analysis.filterPlaceholder')}
          onChange={(event) => setFilter(event.target.value)}
          data-testid="stack-filter"
        />
      </label>
      {filter.trim() !== '' && (
        <p className="muted" data-testid="stack-filter-count">
          {t('fileImport.analysis.matching', { count: counts.matching, total: counts.total })}
        </p>
      )}

      <h3 className="section-title">{t('fileImport.analysis.peakTitle')}</h3>
      {peak === undefined ? (
        <p className="muted" data-testid={pending ? 'peak-pending' : undefined}>
          {t(pending ? 'fileImport.analysis.working' : 'fileImport.analysis.noBlocks')}
        </p>
      ) : (
        <div data-testid="peak">
          <p>
            {t('fileImport.analysis.peak', {
              seq: peak.seq.toLocaleString('en-US'),
              allocated: bytes(peak.allocated, format),
              reserved: bytes(peak.reserved, format),
            })}
          </p>
          <p data-testid="peak-fragmentation">
            {t('fileImport.analysis.fragmentation', {
              bytes: bytes(peak.fragmentation, format),
              share: (peak.fragmentationShare * 100).toFixed(1),
              pending: bytes(peak.pendingFree, format),
            })}
          </p>
          {peak.expandable !== undefined && (
            <p data-testid="peak-expandable">
              {imported?.expandableDevices?.includes(device) === true
                ? t('fileImport.analysis.expandableAlready')
                : t('fileImport.analysis.expandable', {
                    bound: bytes(peak.expandable.bytes, format),
                    saving: bytes(peak.expandable.saving, format),
                    handle: bytes(peak.expandable.largeHandle, format),
                  })}
            </p>
          )}
          <button type="button" onClick={() => setCursor(peak.seq)} data-testid="go-to-peak">
            {t('fileImport.analysis.goToPeak')}
          </button>
          <Groups groups={peakGroups} total={peak.allocated} testId="peak-groups" />
        </div>
      )}

      <h3 className="section-title">{t('fileImport.analysis.leaksTitle')}</h3>
      {leaks === undefined ? (
        <p className="muted">{t('fileImport.analysis.leaksHint')}</p>
      ) : (
        <div data-testid="leaks">
          <p>
            {t('fileImport.analysis.leaks', {
              count: leaks.blocks.length,
              bytes: bytes(leaks.bytes, format),
              from: leaks.from.toLocaleString('en-US'),
              to: leaks.to.toLocaleString('en-US'),
            })}
          </p>
          <Groups groups={leaks.groups} total={leaks.bytes} testId="leak-groups" />
        </div>
      )}
    </section>
  );
}
