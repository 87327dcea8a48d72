import { formatBytes, type HostState, NORMAL_PAGE } from '@pagelens/core';
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { framesObservable } from '../../model/acl/backend.ts';
import { colorScheme, focusedScheme } from '../../model/page-map/colors.ts';
import { mapCounts } from '../../model/page-map/counts.ts';
import { clickOwner, describeCell } from '../../model/page-map/describe.ts';
import type { Hit } from '../../model/page-map/hit.ts';
import { mapSelection } from '../../model/page-map/selection.ts';
import { processFocus } from '../../model/processes/process-filter.ts';
import { useCursorState, useFormat } from '../../store/hooks.ts';
import { selectSession } from '../../store/session-slice.ts';
import { selectProcessFilter } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { Published } from '../../viz/published.ts';
import { PageMapCanvas } from './PageMapCanvas.tsx';
import { PageMapLegend } from './PageMapLegend.tsx';
import { PageMapStatus, PageMapToolbar } from './PageMapToolbar.tsx';
import { PageMapTooltip } from './PageMapTooltip.tsx';
import type { MapControls, ViewSummary } from './page-map-controller.ts';
import { UnobservedFrames } from './UnobservedFrames.tsx';
import './page-map.css';

const GROUP = 'shell.help.groups.map';
const PAN = 80;

/** Keyboard zoom and pan, listed in the help overlay while the page map is shown. */
function usePageMapShortcuts(controls: { current: MapControls | null }, zoomToSelection: () => void): void {
  const run = (action: (c: MapControls) => void) => () => {
    if (controls.current !== null) action(controls.current);
  };
  useShortcut(
    { key: '+', label: 'pageMap.keys.zoomIn', group: GROUP },
    run((c) => c.zoomBy(2)),
  );
  useShortcut(
    { key: '=', label: 'pageMap.keys.zoomIn', group: GROUP },
    run((c) => c.zoomBy(2)),
  );
  useShortcut(
    { key: '-', label: 'pageMap.keys.zoomOut', group: GROUP },
    run((c) => c.zoomBy(0.5)),
  );
  useShortcut(
    { key: '0', label: 'pageMap.keys.reset', group: GROUP },
    run((c) => c.reset()),
  );
  useShortcut({ key: 'z', label: 'pageMap.keys.selection', group: GROUP }, zoomToSelection);
  // ← and → step the time cursor app-wide, so horizontal panning is on [ and ] (as in the address space);
  // all four arrows pan while the map itself has focus (PageMapCanvas handles them before they get here).
  useShortcut(
    { key: '[', label: 'pageMap.keys.left', group: GROUP },
    run((c) => c.panBy(PAN, 0)),
  );
  useShortcut(
    { key: ']', label: 'pageMap.keys.right', group: GROUP },
    run((c) => c.panBy(-PAN, 0)),
  );
  useShortcut(
    { key: 'ArrowUp', label: 'pageMap.keys.up', group: GROUP },
    run((c) => c.panBy(0, PAN)),
  );
  useShortcut(
    { key: 'ArrowDown', label: 'pageMap.keys.down', group: GROUP },
    run((c) => c.panBy(0, -PAN)),
  );
}

/** The selected device's physical memory, frame by frame and page by page. */
export function PageMapView() {
  const { t } = useTranslation();
  const state = useCursorState();
  const deviceId = useAppStore((s) => s.device);
  const session = useAppStore(selectSession);
  const device = state?.devices[deviceId];
  if (state === undefined || device === undefined) {
    return (
      <section className="panel page-map-view" data-testid="page-map">
        <p className="muted">{t('pageMap.noDevice', { device: deviceId })}</p>
      </section>
    );
  }
  // A real runtime never says which frames back an allocation: no map of them to draw.
  if (!framesObservable(session?.host)) return <UnobservedFrames state={state} device={device} />;
  return <PageMapBody state={state} deviceId={deviceId} />;
}

function PageMapBody({ state, deviceId }: { state: HostState; deviceId: number }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const version = useAppStore((s) => s.version);
  const cursor = useAppStore((s) => s.cursor);
  const colorBy = useAppStore((s) => s.colorBy);
  const theme = useAppStore((s) => s.theme);
  const selection = useAppStore((s) => s.selection);
  const select = useAppStore((s) => s.select);
  const processFilter = useAppStore(selectProcessFilter);
  const controls = useRef<MapControls | null>(null);
  const [hover, setHover] = useState<{ hit: Hit; x: number; y: number } | undefined>(undefined);
  const [summary] = useState(() => new Published<ViewSummary | undefined>(undefined));
  const mapBox = useRef<HTMLDivElement>(null);

  const device = state.devices[deviceId];
  const table = device?.frames;
  const pageSize = device?.profile.normalPageSize ?? NORMAL_PAGE;
  const contentKey = `${deviceId}:${version}:${cursor}:${colorBy}:${theme}:${processFilter ?? 'all'}`;
  // The process filter dims the other processes' memory: they share the frames, so hiding it would misstate what is free.
  // Without a filter the scheme is the mode's and the theme's alone, so a step of the time cursor keeps it (and the legend).
  const schemeKey = processFilter === undefined ? `${colorBy}:${theme}` : contentKey;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the replica mutates in place; schemeKey says when it changed.
  const scheme = useMemo(
    () =>
      focusedScheme(colorScheme(colorBy, theme === 'dark'), table === undefined ? undefined : processFocus(state, table, processFilter)),
    [schemeKey],
  );
  // biome-ignore lint/correctness/useExhaustiveDependencies: the replica mutates in place; version and cursor say when it changed.
  const counts = useMemo(() => (table === undefined ? undefined : mapCounts(table)), [table, version, cursor]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: as above.
  const chosen = useMemo(
    () => (table === undefined ? undefined : mapSelection(state, deviceId, table, selection)),
    [state, deviceId, table, selection, version, cursor],
  );

  const zoomToSelection = useCallback(() => {
    if (chosen !== undefined && chosen.first >= 0) controls.current?.zoomToFrame(chosen.first);
  }, [chosen]);
  usePageMapShortcuts(controls, zoomToSelection);

  const onHover = useCallback((hit: Hit | undefined, x: number, y: number) => setHover(hit === undefined ? undefined : { hit, x, y }), []);
  const onPick = useCallback(
    (hit: Hit) => {
      if (table === undefined) return;
      const owner = clickOwner(table, hit);
      if (owner === 0) select({ kind: 'frame', id: hit.frame, device: deviceId });
      else select({ kind: state.allocations.has(owner) ? 'allocation' : 'physical', id: owner, device: deviceId });
    },
    [table, state, deviceId, select],
  );

  if (table === undefined || counts === undefined || device === undefined) return null;
  const info = hover === undefined || hover.hit.frame >= table.count ? undefined : describeCell(state, table, pageSize, hover.hit);
  const empty = counts.free === counts.total;
  const elsewhere = selection !== undefined && selection.kind !== 'frame' && chosen === undefined;
  return (
    <section className="page-map-view" data-testid="page-map" data-color-by={colorBy} data-process={processFilter ?? 'all'}>
      <PageMapToolbar
        colorBy={colorBy}
        controls={controls}
        canZoomToSelection={chosen !== undefined && chosen.first >= 0}
        onZoomToSelection={zoomToSelection}
      />
      <p className="page-map-modeled" data-testid="page-map-modeled" title={t('pageMap.modeledDetail')}>
        <span className="provenance provenance-modeled">{t('common.provenance.modeled')}</span> {t('pageMap.modeled')}
      </p>
      <div className="page-map-main">
        <div className="page-map-box" ref={mapBox}>
          <PageMapCanvas
            table={table}
            scheme={scheme}
            selection={chosen}
            contentKey={contentKey}
            label={t('pageMap.label', { device: deviceId, frames: table.count.toLocaleString('en-US') })}
            describedBy="page-map-hint"
            controls={controls}
            onHover={onHover}
            onPick={onPick}
            summary={summary}
          />
          {empty && (
            <p className="page-map-empty" data-testid="page-map-empty">
              {t('pageMap.empty', { device: deviceId })}
            </p>
          )}
          {info !== undefined && hover !== undefined && (
            <PageMapTooltip
              info={info}
              place={{ x: hover.x, y: hover.y, width: mapBox.current?.clientWidth ?? 600, height: mapBox.current?.clientHeight ?? 400 }}
              prefs={prefs}
            />
          )}
        </div>
        <PageMapLegend scheme={scheme} counts={counts} normalPageSize={pageSize} prefs={prefs} />
      </div>
      <div className="page-map-footer">
        <PageMapStatus summary={summary} total={table.count} pageSize={formatBytes(pageSize, 'binary')} />
        <p className="muted page-map-hint" id="page-map-hint">
          {elsewhere ? t('pageMap.selectionElsewhere', { device: deviceId }) : t('pageMap.hint')}
        </p>
        {processFilter !== undefined && (
          <p className="muted page-map-hint" data-testid="page-map-dimmed">
            {t('pageMap.otherProcessesDimmed', { pid: processFilter })}
          </p>
        )}
      </div>
    </section>
  );
}
