import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { copyColors, LEGEND_PATHS } from '../../model/host-copies/copy-style.ts';
import { selectTheme } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';

const stripes = (base: string, stripe: string): string => `repeating-linear-gradient(-45deg, ${base} 0 3px, ${stripe} 3px 5px), ${base}`;

/** What the colours, hatches and lines of the timeline mean, in the canvas's own colours. */
export function CopyLegend({ paths, marks = false }: { paths: ReadonlySet<string>; marks?: boolean }) {
  const { t } = useTranslation();
  const colors = copyColors(useAppStore(selectTheme));
  // Pinned and pageable are the lesson: always listed; the other paths only once they occur.
  const shown = LEGEND_PATHS.filter((path) => path === 'pinned' || path === 'pageable-staged' || paths.has(path));
  const swatch = (style: CSSProperties) => <span className="hc-swatch" style={style} aria-hidden="true" />;
  return (
    <ul className="hc-legend" aria-label={t('hostCopies.timeline.legend.title')} data-testid="copy-legend">
      {shown.map((path) => (
        <li key={path}>
          {swatch(
            path === 'pageable-staged'
              ? {
                  background: `linear-gradient(90deg, transparent 0 10px, ${colors.background} 10px 12px, transparent 12px), ${stripes(colors.paths[path], colors.stagingHatch)}`,
                }
              : { background: colors.paths[path] },
          )}
          {t(`hostCopies.timeline.legend.${path}`)}
        </li>
      ))}
      <li>
        {swatch({ background: stripes(colors.blocked, colors.blockedHatch) })}
        {t('hostCopies.timeline.legend.blocked')}
      </li>
      <li>
        <span className="hc-swatch hc-swatch-queued" style={{ borderColor: colors.queued }} aria-hidden="true" />
        {t('hostCopies.timeline.legend.queued')}
      </li>
      <li>
        {swatch({ background: 'transparent', outline: `2px solid ${colors.selection}`, outlineOffset: '-2px' })}
        {t('hostCopies.timeline.legend.selected')}
      </li>
      {marks && (
        <>
          <li className="hc-mark-record">
            <span className="hc-mark-glyph" aria-hidden="true" />
            {t('hostCopies.timeline.legend.record')}
          </li>
          <li className="hc-mark-wait">
            <span className="hc-mark-glyph" aria-hidden="true" />
            {t('hostCopies.timeline.legend.wait')}
          </li>
        </>
      )}
    </ul>
  );
}
