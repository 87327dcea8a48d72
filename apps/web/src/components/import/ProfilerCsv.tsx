import type { MemoryRecord, OperatorMemory } from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { useFileActions } from '../../store/ImportContext.tsx';
import { useAppStore } from '../../store/useAppStore.ts';
import { CounterChart, SERIES_COLOURS } from './CounterChart.tsx';
import { counterSeries, largestOperators } from './profiler-csv-model.ts';

/** Operators listed at most: a profile can hold a million rows, and a table that long helps nobody. */
const OPERATOR_ROWS = 200;

/** A torch_npu profiler CSV as it is: counters over time (memory_record) or operators by size (operator_memory). */
export function ProfilerCsv() {
  const { t } = useTranslation();
  const csv = useAppStore((state) => state.profilerCsv);
  const close = useAppStore((state) => state.setProfilerCsv);
  if (csv === undefined) return null;
  const record = csv.table.kind === 'memory_record';
  return (
    <section className="panel profiler-csv" data-testid="profiler-csv" data-kind={csv.table.kind} aria-labelledby="profiler-csv-title">
      <h2 id="profiler-csv-title">
        {t(record ? 'fileImport.profiler.recordTitle' : 'fileImport.profiler.operatorTitle', { name: csv.name })}
      </h2>
      <p className="provenance-banner provenance-observed" role="note" data-testid="profiler-csv-note">
        {t(record ? 'fileImport.profiler.recordNote' : 'fileImport.profiler.operatorNote')}
      </p>
      {csv.table.kind === 'memory_record' ? <RecordView record={csv.table} /> : <OperatorView file={csv.table} />}
      <button type="button" onClick={() => close(undefined)} data-testid="profiler-csv-close">
        {t('fileImport.profiler.close')}
      </button>
    </section>
  );
}

function deviceName(t: (key: string) => string, device: number | undefined): string {
  return device === undefined ? t('fileImport.profiler.noDevice') : `NPU ${device}`;
}

function RecordView({ record }: { record: MemoryRecord }) {
  const { t } = useTranslation();
  const format = useFormat();
  const files = useFileActions();
  const exporting = useAppStore((state) => state.exporting !== undefined);
  const series = useMemo(() => counterSeries(record), [record]);
  return (
    <>
      <CounterChart series={series} />
      <table className="profiler-table" data-testid="profiler-counters">
        <thead>
          <tr>
            <th scope="col">{t('fileImport.profiler.device')}</th>
            <th scope="col">{t('fileImport.profiler.component')}</th>
            <th scope="col">{t('fileImport.profiler.samples')}</th>
            <th scope="col">{t('fileImport.profiler.peakReserved')}</th>
            <th scope="col">{t('fileImport.profiler.peakAllocated')}</th>
            <th scope="col">{t('fileImport.profiler.last')}</th>
          </tr>
        </thead>
        <tbody>
          {series.map((s, index) => (
            <tr key={s.key} data-testid="profiler-series">
              <td>
                <span className="series-swatch" style={{ background: SERIES_COLOURS[index % SERIES_COLOURS.length] }} aria-hidden="true" />
                {deviceName(t, s.device)}
              </td>
              <td>{s.component}</td>
              <td className="mono">{s.t.length.toLocaleString('en-US')}</td>
              <td className="mono" data-testid="profiler-peak-reserved">
                {bytes(s.peakReserved, format)}
              </td>
              <td className="mono">{bytes(s.peakAllocated, format)}</td>
              <td className="mono">
                {bytes(s.allocated[s.allocated.length - 1] ?? 0, format)} / {bytes(s.reserved[s.reserved.length - 1] ?? 0, format)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <button
        type="button"
        onClick={files.exportProfilerCsv}
        disabled={exporting}
        title={t('fileImport.profiler.exportTitle')}
        data-testid="profiler-csv-export"
      >
        {t('fileImport.profiler.export')}
      </button>
    </>
  );
}

function OperatorView({ file }: { file: OperatorMemory }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { rows, total } = useMemo(() => largestOperators(file, OPERATOR_ROWS), [file]);
  return (
    <>
      <p className="muted" data-testid="profiler-operators-count">
        {t('fileImport.profiler.shown', { shown: rows.length.toLocaleString('en-US'), count: total.toLocaleString('en-US') })}
      </p>
      <div className="profiler-scroll">
        <table className="profiler-table" data-testid="profiler-operators">
          <thead>
            <tr>
              <th scope="col">{t('fileImport.profiler.name')}</th>
              <th scope="col">{t('fileImport.profiler.device')}</th>
              <th scope="col">{t('fileImport.profiler.size')}</th>
              <th scope="col">{t('fileImport.profiler.allocatedAt')}</th>
              <th scope="col">{t('fileImport.profiler.releasedAt')}</th>
              <th scope="col">{t('fileImport.profiler.duration')}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.line} data-testid="profiler-operator">
                <td className="mono">{row.name}</td>
                <td>{deviceName(t, row.device)}</td>
                <td className="mono">{bytes(row.sizeKB * 1024, format)}</td>
                <td className="mono">{row.allocationTimeUs.toLocaleString('en-US')}</td>
                <td className="mono">
                  {row.releaseTimeUs === undefined ? t('fileImport.profiler.notReleased') : row.releaseTimeUs.toLocaleString('en-US')}
                </td>
                <td className="mono">
                  {row.releaseTimeUs === undefined ? '—' : (row.releaseTimeUs - row.allocationTimeUs).toLocaleString('en-US')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
