import { TRACE_ACTIONS, type TraceSummary } from '@pagelens/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { CounterChart, SERIES_COLOURS } from './CounterChart.tsx';
import { summarySeries } from './trace-summary-model.ts';

/**
 * A file whose trace was too large to keep: what the trace held, counted as it streamed past —
 * the highest allocated and reserved bytes over the entries, the peaks, and entries per action.
 */
export function TraceSummaryPanel({ summary }: { summary: TraceSummary }) {
  const { t } = useTranslation();
  const format = useFormat();
  const series = useMemo(() => summarySeries(summary), [summary]);
  const actions = TRACE_ACTIONS.filter((action) => summary.devices.some((device) => device.actions[action] > 0));
  return (
    <section className="panel trace-summary" data-testid="trace-summary" aria-labelledby="trace-summary-title">
      <h2 id="trace-summary-title">{t('fileImport.summary.title', { entries: summary.entries.toLocaleString('en-US') })}</h2>
      <p className="muted">{t('fileImport.summary.note')}</p>
      <CounterChart series={series} axis="entries" />
      <table className="profiler-table" data-testid="trace-summary-devices">
        <thead>
          <tr>
            <th scope="col">{t('fileImport.profiler.device')}</th>
            <th scope="col">{t('fileImport.summary.entries')}</th>
            <th scope="col">{t('fileImport.profiler.peakAllocated')}</th>
            <th scope="col">{t('fileImport.profiler.peakReserved')}</th>
            {actions.map((action) => (
              <th scope="col" key={action} className="mono">
                {action}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.devices.map((device, index) => (
            <tr key={device.device} data-testid="trace-summary-device">
              <td>
                <span className="series-swatch" style={{ background: SERIES_COLOURS[index % SERIES_COLOURS.length] }} aria-hidden="true" />
                {device.device}
              </td>
              <td className="mono">{device.entries.toLocaleString('en-US')}</td>
              <td className="mono" data-testid="trace-summary-peak-allocated">
                {bytes(device.peakAllocated.bytes, format)}{' '}
                <span className="muted">
                  {t('fileImport.summary.atEntry', { entry: device.peakAllocated.entry.toLocaleString('en-US') })}
                </span>
              </td>
              <td className="mono">
                {bytes(device.peakReserved.bytes, format)}{' '}
                <span className="muted">
                  {t('fileImport.summary.atEntry', { entry: device.peakReserved.entry.toLocaleString('en-US') })}
                </span>
              </td>
              {actions.map((action) => (
                <td key={action} className="mono">
                  {device.actions[action].toLocaleString('en-US')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
