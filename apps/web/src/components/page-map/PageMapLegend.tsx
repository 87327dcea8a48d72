import { FRAME_BYTES, FRAMES_PER_GIANT, formatBytes, formatInteger } from '@pagelens/core';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { bytes, type FormatPrefs } from '../../model/format.ts';
import { type ColorScheme, cssColor, FILL_LEVELS } from '../../model/page-map/colors.ts';
import type { MapCounts } from '../../model/page-map/counts.ts';

function Swatch({ colour, className }: { colour: number; className?: string }) {
  return <span className={`swatch ${className ?? ''}`} style={{ background: cssColor(colour) }} aria-hidden="true" />;
}

function Ramp({ colours }: { colours: Uint32Array }) {
  const stops = Array.from({ length: FILL_LEVELS }, (_, i) => colours[i + 1] ?? 0);
  return (
    <span className="ramp" aria-hidden="true">
      {stops.map((colour, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a fixed ramp of fill levels.
        <span key={i} style={{ background: cssColor(colour) }} />
      ))}
    </span>
  );
}

const SAMPLE_OWNERS = [3, 7, 11, 18, 24];

export interface PageMapLegendProps {
  readonly scheme: ColorScheme;
  readonly counts: MapCounts;
  readonly normalPageSize: number;
  readonly prefs: FormatPrefs;
}

/** What each colour means in the current mode, and the device's frame counts. */
export const PageMapLegend = memo(function PageMapLegend({ scheme, counts, normalPageSize, prefs }: PageMapLegendProps) {
  const { t } = useTranslation();
  const { kinds } = scheme;
  // Page sizes are powers of two: always named in binary units (4 KiB, 64 KiB).
  const pageSize = formatBytes(normalPageSize, 'binary');
  const frames = (count: number): string => t('pageMap.legend.frames', { count, formatted: formatInteger(count) });
  const rows: [string, string, string, string | undefined][] = [
    ['total', t('pageMap.legend.counts.total'), formatInteger(counts.total), bytes(counts.total * FRAME_BYTES, prefs)],
    ['free', t('pageMap.legend.counts.free'), formatInteger(counts.free), frames(counts.free)],
    ['huge', t('pageMap.legend.counts.huge'), formatInteger(counts.huge), frames(counts.huge)],
    [
      'giant',
      t('pageMap.legend.counts.giant'),
      formatInteger(counts.giant),
      // A giant page is 512 frames (DM-11): the count is of frames, as in the other rows; the title says how many pages.
      t('pageMap.legend.giantPages', {
        count: counts.giant / FRAMES_PER_GIANT,
        pages: formatInteger(counts.giant / FRAMES_PER_GIANT),
        formatted: formatInteger(counts.giant),
      }),
    ],
    ['split', t('pageMap.legend.counts.split'), formatInteger(counts.split), frames(counts.split)],
    [
      'pages',
      t('pageMap.legend.counts.pages'),
      `${formatInteger(counts.normalPagesUsed)} / ${formatInteger(counts.normalPagesFree)}`,
      undefined,
    ],
    [
      'largest-run',
      t('pageMap.legend.counts.largestRun'),
      formatInteger(counts.largestFreeRun),
      t('pageMap.legend.runDetail', {
        count: formatInteger(counts.largestFreeRun),
        size: bytes(counts.largestFreeRun * FRAME_BYTES, prefs),
      }),
    ],
  ];
  return (
    <aside className="page-map-legend" aria-label={t('pageMap.legend.title')} data-testid="page-map-legend">
      <h3 className="section-title">{t('pageMap.legend.title')}</h3>
      <ul>
        {scheme.by === 'owner' ? (
          <>
            <li>
              <span className="swatches">
                {SAMPLE_OWNERS.map((id) => (
                  <Swatch key={id} colour={scheme.owners.get(id)} />
                ))}
              </span>
              {t('pageMap.legend.owners')}
            </li>
            <li>
              <Ramp colours={kinds.shared} />
              {t('pageMap.legend.shared')}
            </li>
          </>
        ) : (
          <>
            <li data-testid="legend-huge" data-colour={cssColor(kinds.huge)}>
              <Swatch colour={kinds.huge} />
              {t('pageMap.legend.huge')}
            </li>
            <li>
              <Swatch colour={kinds.giant} />
              {t('pageMap.legend.giant')}
            </li>
            <li>
              <Ramp colours={kinds.normal} />
              {t('pageMap.legend.normal', { size: pageSize })}
            </li>
            <li>
              <Swatch colour={kinds.normalPage} />
              {t('pageMap.legend.usedPage')}
            </li>
          </>
        )}
        <li>
          <Swatch colour={kinds.free} className="swatch-free" />
          {t('pageMap.legend.free')} / {t('pageMap.legend.freePage')}
        </li>
        <li className="muted">
          <span className="swatch swatch-tile" aria-hidden="true" />
          {t('pageMap.legend.tile')}
        </li>
      </ul>
      <dl className="legend-counts">
        {rows.map(([id, label, value, title]) => (
          <div key={id} title={title}>
            <dt>{label}</dt>
            <dd data-testid={`legend-count-${id}`}>{value}</dd>
          </div>
        ))}
      </dl>
      <p className="muted legend-note">{t('pageMap.modeledDetail')}</p>
    </aside>
  );
});
