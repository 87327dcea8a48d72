import { formatInteger, PAGE_CLASSES, type TlbResult } from '@pagelens/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { DARK, LIGHT } from '../../model/colors.ts';
import { share } from '../../model/tlb/share.ts';
import { simBars } from '../../model/tlb/sim-run.ts';
import { selectTheme } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { FiguresHead } from '../common/FiguresHead.tsx';

const WIDTH = 600;
const LABEL = 96;
const ROW = 30;
const SPEED_MIN_ACCESSES = 100_000;

/** Hits, misses and walks per page class, as a stacked bar per class and as a table. */
export function SimResultView({ result, ms, stale }: { readonly result: TlbResult; readonly ms: number; readonly stale: boolean }) {
  const { t } = useTranslation();
  const palette = useAppStore(selectTheme) === 'dark' ? DARK : LIGHT;
  const bars = simBars(result);
  const distinct = PAGE_CLASSES.reduce((sum, pageClass) => sum + result.byClass[pageClass].distinctPages, 0);
  const rate = ms > 0 ? (result.accesses / ms) * 1000 : 0;
  const span = WIDTH - LABEL - 8;
  const box = useRef<HTMLDivElement>(null);
  // A new result scrolls into view: at 1280 × 720 it sits below the form.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs for each new result object
  useEffect(() => {
    box.current?.scrollIntoView?.({ block: 'nearest' });
  }, [result]);
  return (
    <div className={stale ? 'tlb-result stale' : 'tlb-result'} ref={box} data-testid="tlb-sim-result">
      <h4 className="tlb-subtitle">{t('tlb.sim.result.heading')}</h4>
      {stale && (
        <p className="tlb-stale" data-testid="tlb-sim-stale">
          {t('tlb.sim.result.stale')}
        </p>
      )}
      <p className="tlb-result-summary" data-testid="tlb-sim-summary">
        {t('tlb.sim.result.summary', {
          accesses: formatInteger(result.accesses),
          hits: formatInteger(result.hits),
          misses: formatInteger(result.misses),
          walks: formatInteger(result.walks),
          rate: share(result.hitRate),
        })}
      </p>
      <svg
        className="tlb-chart"
        viewBox={`0 0 ${WIDTH} ${bars.length * ROW + 4}`}
        role="img"
        aria-label={t('tlb.sim.result.chartLabel')}
        data-testid="tlb-sim-chart"
      >
        {bars.map((bar, index) => {
          const y = index * ROW + 4;
          const hitWidth = span * bar.hitShare;
          return (
            <g key={bar.pageClass}>
              <text x={0} y={y + 11} dy="0.35em" className="tlb-chart-name">
                {t(`tlb.classes.${bar.pageClass}`)}
              </text>
              <rect x={LABEL} y={y} width={hitWidth} height={22} fill={palette[bar.pageClass]} className="tlb-bar" />
              <rect x={LABEL + hitWidth} y={y} width={span * bar.missShare} height={22} className="tlb-bar tlb-bar-miss" />
              <text x={LABEL + 4} y={y + 11} dy="0.35em" className="tlb-chart-value on-bar">
                {t('tlb.sim.result.hits', { count: formatInteger(bar.hits) })}
              </text>
              <text x={LABEL + span - 4} y={y + 11} dy="0.35em" textAnchor="end" className="tlb-chart-value on-bar">
                {t('tlb.sim.result.misses', { count: formatInteger(bar.misses) })}
              </text>
            </g>
          );
        })}
      </svg>
      <div className="tlb-wide">
        <table className="data" data-testid="tlb-sim-table">
          <FiguresHead
            prefix="tlb.sim.result.cols"
            first="pageClass"
            figures={['accesses', 'hits', 'misses', 'walks', 'hitRate', 'distinct', 'evictions']}
          />
          <tbody>
            {PAGE_CLASSES.filter((pageClass) => result.byClass[pageClass].accesses > 0).map((pageClass) => {
              const c = result.byClass[pageClass];
              return (
                <tr key={pageClass} data-testid={`tlb-sim-row-${pageClass}`}>
                  <td>
                    <span className={`tlb-swatch tlb-swatch-${pageClass}`} aria-hidden="true" />
                    {t(`tlb.classes.${pageClass}`)}
                  </td>
                  <td className="num">{formatInteger(c.accesses)}</td>
                  <td className="num" data-testid={`tlb-sim-hits-${pageClass}`}>
                    {formatInteger(c.hits)}
                  </td>
                  <td className="num" data-testid={`tlb-sim-misses-${pageClass}`}>
                    {formatInteger(c.misses)}
                  </td>
                  <td className="num">{formatInteger(c.walks)}</td>
                  <td className="num">{share(c.accesses === 0 ? 1 : c.hits / c.accesses)}</td>
                  <td className="num" data-testid={`tlb-sim-distinct-${pageClass}`}>
                    {formatInteger(c.distinctPages)}
                  </td>
                  <td className="num">{formatInteger(c.evictions)}</td>
                </tr>
              );
            })}
          </tbody>
          {bars.length > 1 && (
            <tfoot>
              <tr>
                <th>{t('tlb.sim.result.total')}</th>
                <td className="num">{formatInteger(result.accesses)}</td>
                <td className="num">{formatInteger(result.hits)}</td>
                <td className="num">{formatInteger(result.misses)}</td>
                <td className="num">{formatInteger(result.walks)}</td>
                <td className="num">{share(result.hitRate)}</td>
                <td className="num">{formatInteger(distinct)}</td>
                <td />
              </tr>
            </tfoot>
          )}
        </table>
      </div>
      <p className="tlb-note muted">
        {t('tlb.sim.result.coldNote', { pages: formatInteger(distinct) })}
        {/* A rate over a few accesses measures the timer, not the simulator. */}
        {result.accesses >= SPEED_MIN_ACCESSES &&
          ` ${t('tlb.sim.result.speed', { ms: ms.toFixed(1), rate: formatInteger(Math.round(rate)) })}`}
      </p>
    </div>
  );
}
