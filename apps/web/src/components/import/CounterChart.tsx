import { scaleLinear } from 'd3-scale';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { type CounterSeries, linePath } from './profiler-csv-model.ts';

const MiB = 1024 * 1024;
const WIDTH = 720;
const HEIGHT = 220;
const PAD = { left: 64, right: 12, top: 10, bottom: 24 };
/** Series colours, cycled; the line style (solid, dashed, dotted) tells reserved, allocated and active apart. */
export const SERIES_COLOURS = ['var(--accent)', 'var(--ok)', 'var(--warn)', 'var(--error)', 'var(--fg)', 'var(--muted)'];

/**
 * Reserved (solid), allocated (dashed) and active (dotted) bytes of every series on one axis: time
 * in µs (the profiler's rows), or trace entries (a summarised snapshot trace, trace-summary.ts).
 */
export function CounterChart({ series, axis = 'us' }: { series: readonly CounterSeries[]; axis?: 'us' | 'entries' }) {
  const { t } = useTranslation();
  const format = useFormat();
  const { x, y, t0 } = useMemo(() => {
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    let top = 0;
    for (const s of series) {
      low = Math.min(low, s.t[0] ?? low);
      high = Math.max(high, s.t[s.t.length - 1] ?? high);
      top = Math.max(top, s.peakReserved, s.peakAllocated);
    }
    if (!Number.isFinite(low)) low = high = 0;
    return {
      t0: low,
      x: scaleLinear()
        .domain([0, Math.max(1, high - low)])
        .range([PAD.left, WIDTH - PAD.right]),
      // In MiB, so the ticks fall on round MiB (the profiler's own unit) rather than on round byte counts.
      y: scaleLinear()
        .domain([0, Math.max(1, top / MiB)])
        .nice()
        .range([HEIGHT - PAD.bottom, PAD.top]),
    };
  }, [series]);
  const styles = [
    { field: 'reserved', dash: undefined },
    { field: 'allocated', dash: '6 3' },
    { field: 'active', dash: '1 3' },
  ] as const;
  return (
    <figure className="profiler-chart">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={t('fileImport.profiler.chartLabel')} data-testid="profiler-chart">
        {y.ticks(4).map((tick) => (
          <g key={tick}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} stroke="var(--border)" />
            <text x={PAD.left - 4} y={y(tick) + 4} textAnchor="end" fontSize="10" fill="var(--muted)">
              {bytes(tick * MiB, format)}
            </text>
          </g>
        ))}
        {x.ticks(5).map((tick) => (
          <text key={tick} x={x(tick)} y={HEIGHT - 6} textAnchor="middle" fontSize="10" fill="var(--muted)">
            {axis === 'us' ? `+${tick.toLocaleString('en-US')} µs` : tick.toLocaleString('en-US')}
          </text>
        ))}
        {series.map((s, index) =>
          styles.map(({ field, dash }) => (
            <path
              key={`${s.key}-${field}`}
              d={linePath(
                s.t.map((time) => x(time - t0)),
                s[field].map((value) => (Number.isNaN(value) ? value : y(value / MiB))),
              )}
              fill="none"
              stroke={SERIES_COLOURS[index % SERIES_COLOURS.length]}
              strokeWidth={1.5}
              strokeDasharray={dash}
              data-series={s.key}
              data-field={field}
            />
          )),
        )}
      </svg>
      <figcaption className="muted">
        — {t('fileImport.profiler.reserved')} · - - {t('fileImport.profiler.allocated')} · ··· {t('fileImport.profiler.active')}
      </figcaption>
    </figure>
  );
}
