import { formatInteger } from '@pagelens/core';
import { useTranslation } from 'react-i18next';
import { DARK, LIGHT } from '../../model/colors.ts';
import { bytes } from '../../model/format.ts';
import { LIVE_KEY, shortPolicyName, type WhatIfTotals } from '../../model/tlb/what-if.ts';
import { type ValueBar, whatIfChart } from '../../model/tlb/what-if-chart.ts';
import { useFormat } from '../../store/hooks.ts';
import { selectTheme } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

const WIDTH = 600;

/** Bars per policy: PTEs (symlog, split by page class) and waste (linear), each value labelled. */
export function WhatIfChart({ rows }: { readonly rows: readonly WhatIfTotals[] }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const palette = useAppStore(selectTheme) === 'dark' ? DARK : LIGHT;
  const chart = whatIfChart(rows, { width: WIDTH, formatCount: formatInteger, formatBytes: (value) => bytes(value, prefs) });
  const half = (chart.rowHeight - chart.barHeight) / 2;
  const label = (bar: ValueBar, y: number, testId: string) => (
    <text
      x={bar.labelX}
      y={y + half + chart.barHeight / 2}
      dy="0.35em"
      textAnchor={bar.inside ? 'end' : 'start'}
      className={bar.inside ? 'tlb-chart-value inside' : 'tlb-chart-value'}
      data-testid={testId}
    >
      {bar.text}
    </text>
  );
  /** The zero line of a panel (PTEs or waste) across one row. */
  const base = (x: number, y: number) => <line x1={x} x2={x} y1={y + 2} y2={y + chart.rowHeight - 2} className="tlb-chart-base" />;
  return (
    <svg
      className="tlb-chart"
      viewBox={`0 0 ${chart.width} ${chart.height}`}
      role="img"
      aria-label={t('tlb.whatIf.chartLabel')}
      data-testid="tlb-whatif-chart"
    >
      <text x={chart.panels.ptes.x} y={12} className="tlb-chart-axis">
        {t('tlb.whatIf.ptesAxis')}
      </text>
      <text x={chart.panels.waste.x} y={12} className="tlb-chart-axis">
        {t('tlb.whatIf.wasteAxis')}
      </text>
      {chart.rows.map((row, index) => {
        const live = row.key === LIVE_KEY;
        const barY = row.y + half;
        return (
          <g key={row.key} data-testid={`tlb-whatif-row-${live ? 'live' : shortPolicyName(row.key)}`}>
            {index === 1 && rows[0]?.key === LIVE_KEY && <line x1={0} x2={chart.width} y1={row.y} y2={row.y} className="tlb-chart-rule" />}
            <text
              x={0}
              y={row.y + (row.refused > 0 ? chart.rowHeight / 2 - 5 : chart.rowHeight / 2)}
              dy="0.35em"
              className={live ? 'tlb-chart-name live' : 'tlb-chart-name'}
            >
              {live ? t('tlb.whatIf.live') : shortPolicyName(row.key)}
              <title>{live ? t('tlb.whatIf.liveTip') : row.key}</title>
            </text>
            {row.refused > 0 && (
              <text x={0} y={row.y + chart.rowHeight / 2 + 8} dy="0.35em" className="tlb-chart-refused">
                {t('tlb.whatIf.refused', { count: row.refused })}
              </text>
            )}
            {base(chart.panels.ptes.x, row.y)}
            {row.ptes.segments.map((segment) => (
              <rect
                key={segment.pageClass}
                x={segment.x}
                y={barY}
                width={Math.max(segment.width, 0)}
                height={chart.barHeight}
                fill={palette[segment.pageClass]}
                className={live ? 'tlb-bar live' : 'tlb-bar'}
              />
            ))}
            {label(row.ptes, row.y, `tlb-whatif-ptes-${live ? 'live' : shortPolicyName(row.key)}`)}
            {base(chart.panels.waste.x, row.y)}
            <rect
              x={row.waste.x}
              y={barY}
              width={row.waste.width}
              height={chart.barHeight}
              className={live ? 'tlb-bar tlb-bar-waste live' : 'tlb-bar tlb-bar-waste'}
            />
            {label(row.waste, row.y, `tlb-whatif-waste-${live ? 'live' : shortPolicyName(row.key)}`)}
          </g>
        );
      })}
    </svg>
  );
}
