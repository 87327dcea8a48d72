import { memo, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { ColorBy } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { type Published, usePublished } from '../../viz/published.ts';
import type { MapControls, ViewSummary } from './page-map-controller.ts';

export interface PageMapToolbarProps {
  readonly colorBy: ColorBy;
  readonly controls: RefObject<MapControls | null>;
  readonly canZoomToSelection: boolean;
  onZoomToSelection(): void;
}

/** Colour mode and zoom buttons (for pointer users; the same as + − 0 z). Unchanged by a step of the time cursor. */
export const PageMapToolbar = memo(function PageMapToolbar({
  colorBy,
  controls,
  canZoomToSelection,
  onZoomToSelection,
}: PageMapToolbarProps) {
  const { t } = useTranslation();
  const setPrefs = useAppStore((s) => s.setPrefs);
  const modes: ColorBy[] = ['owner', 'kind'];
  return (
    <div className="page-map-toolbar">
      <fieldset className="toggle" aria-label={t('pageMap.colorBy.label')} data-testid="color-by">
        <span className="toolbar-label">{t('pageMap.colorBy.label')}</span>
        {modes.map((mode) => (
          <button
            key={mode}
            type="button"
            aria-pressed={colorBy === mode}
            onClick={() => setPrefs({ colorBy: mode })}
            data-testid={`color-by-${mode}`}
          >
            {t(`pageMap.colorBy.${mode}`)}
          </button>
        ))}
      </fieldset>
      <span className="zoom-buttons">
        <button
          type="button"
          onClick={() => controls.current?.zoomBy(0.5)}
          title={`${t('pageMap.zoom.out')} (−)`}
          aria-label={t('pageMap.zoom.out')}
        >
          −
        </button>
        <button
          type="button"
          onClick={() => controls.current?.zoomBy(2)}
          title={`${t('pageMap.zoom.in')} (+)`}
          aria-label={t('pageMap.zoom.in')}
        >
          +
        </button>
        <button type="button" onClick={() => controls.current?.reset()} title={`${t('pageMap.zoom.reset')} (0)`} data-testid="zoom-reset">
          {t('pageMap.zoom.reset')}
        </button>
        <button type="button" onClick={onZoomToSelection} disabled={!canZoomToSelection} title={`${t('pageMap.zoom.selection')} (z)`}>
          {t('pageMap.zoom.selection')}
        </button>
      </span>
    </div>
  );
});

/**
 * Where the view is: the frames on screen, the zoom factor and whether cells are frames or pages.
 * It follows the controller's published summary, so zooming re-renders this line, not the view.
 */
export const PageMapStatus = memo(function PageMapStatus({
  summary,
  total,
  pageSize,
}: {
  summary: Published<ViewSummary | undefined>;
  total: number;
  pageSize: string;
}) {
  const { t } = useTranslation();
  const shown = usePublished(summary);
  if (shown === undefined || shown.last < 0) return <span className="page-map-status" />;
  return (
    <span className="page-map-status" data-testid="page-map-status" data-level={shown.level}>
      {t('pageMap.status.frames', {
        first: shown.first.toLocaleString('en-US'),
        last: shown.last.toLocaleString('en-US'),
        total: total.toLocaleString('en-US'),
      })}
      {' · '}
      {t('pageMap.status.zoom', { zoom: shown.zoom < 10 ? shown.zoom.toFixed(1) : Math.round(shown.zoom) })}
      {' · '}
      {shown.level === 'pages' ? t('pageMap.status.levelPages', { size: pageSize }) : t('pageMap.status.levelFrames')}
    </span>
  );
});
