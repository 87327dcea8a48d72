import type { HostState } from '@pagelens/core';
import {
  type CSSProperties,
  type PointerEvent,
  type ReactNode,
  type RefObject,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { duration } from '../../model/format.ts';
import { copyAt, type HostBusy, hostBusyAt } from '../../model/host-copies/copy-lanes.ts';
import { copyColors } from '../../model/host-copies/copy-style.ts';
import { centerOn, fitDomain, maxZoom, type TimeView, timeTicks, visibleRange, xToTime } from '../../model/host-copies/time-view.ts';
import { useFormat, useTimeline } from '../../store/hooks.ts';
import { selectTheme } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { createCopiesZoom, ZOOM_STEP } from '../../viz/behaviors/copies-zoom.ts';
import { CanvasSurface } from '../../viz/CanvasSurface.tsx';
import { drawCopyTimeline } from '../../viz/draw/copies-timeline.ts';
import { useBehavior } from '../../viz/useBehavior.ts';
import { CopyFactsList, factsForCopy } from './CopyFactsList.tsx';
import { LaneLabels } from './LaneLabels.tsx';
import { TimeAxis } from './TimeAxis.tsx';
import type { CopyData } from './useCopyData.ts';

export const ROW_HEIGHT = 30;
/** Pointer slack for thin bars (CSS px). */
const HIT_SLACK_PX = 4;
const GROUP = 'hostCopies.keys.group';

/** What the pointer is over; cx, cy are viewport px (the tooltip is fixed so no scroll box clips it). */
type Hover = { readonly cx: number; readonly cy: number } & ({ readonly copy: number } | { readonly busy: HostBusy });

function tooltipStyle(hover: Hover): CSSProperties {
  const flipX = hover.cx > window.innerWidth - 340;
  const flipY = hover.cy > window.innerHeight * 0.45;
  return {
    left: hover.cx + (flipX ? -14 : 14),
    top: hover.cy + (flipY ? -14 : 14),
    transform: `translate(${flipX ? '-100%' : '0'}, ${flipY ? '-100%' : '0'})`,
  };
}

function BusyTip({ busy }: { busy: HostBusy }) {
  const { t } = useTranslation();
  const time = duration(busy.end - busy.start);
  return (
    <p>
      {busy.stream === undefined
        ? t('hostCopies.timeline.busyDevice', { time })
        : t('hostCopies.timeline.busyStream', { time, stream: busy.stream })}
    </p>
  );
}

interface PlotAreaProps {
  readonly plotRef: RefObject<HTMLDivElement | null>;
  readonly height: number;
  readonly label: string;
  readonly zoom: number;
  readonly onKey: (key: string) => boolean;
  readonly children: ReactNode;
}

/** The focusable box the zoom behaviour is mounted on. */
function PlotArea({ plotRef, height, label, zoom, onKey, children }: PlotAreaProps) {
  return (
    <div
      ref={plotRef}
      className="hc-plot"
      style={{ height }}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the timeline takes focus for its keyboard zoom and pan.
      tabIndex={0}
      role="application"
      aria-label={label}
      aria-describedby="hc-keys"
      data-testid="copy-plot"
      data-zoom={zoom.toFixed(3)}
      onKeyDown={(event) => {
        if (event.ctrlKey || event.metaKey || event.altKey || !onKey(event.key)) return;
        // Handled here: the global shortcuts (time-travel arrows, zoom keys) must not run as well.
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      {children}
    </div>
  );
}

/** The zoomable copy timeline: lane names, the canvas of bars, the time axis, and the hover tooltip. */
export function CopyPlot({ data, state }: { data: CopyData; state: HostState }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const theme = useAppStore(selectTheme);
  const select = useAppStore((s) => s.select);
  const timeline = useTimeline();
  const { layout, copies } = data;
  const plot = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [transform, setTransform] = useState({ k: 1, x: 0 });
  const [hover, setHover] = useState<Hover | undefined>(undefined);
  const [d0, d1] = useMemo(() => fitDomain(layout.t0, layout.t1), [layout.t0, layout.t1]);
  const maxK = maxZoom(d0, d1);
  const zoom = useBehavior(plot, (element) => createCopiesZoom(element, { maxScale: maxK, onZoom: setTransform }));
  useEffect(() => zoom.current?.update({ maxScale: maxK }), [zoom, maxK]);
  useEffect(() => {
    const element = plot.current;
    if (element === null) return undefined;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    setWidth(element.clientWidth);
    return () => observer.disconnect();
  }, []);

  const view: TimeView = useMemo(() => ({ d0, d1, width, k: transform.k, x: transform.x }), [d0, d1, width, transform]);
  const ticks = timeTicks(view, Math.max(2, Math.floor(width / 110)));
  const height = layout.lanes.length * ROW_HEIGHT;

  const step = useCallback(
    (direction: 1 | -1) => {
      const { order, selected } = data;
      if (order.length === 0) return;
      const at = selected === undefined ? -1 : order.indexOf(selected);
      const next = order[at < 0 ? (direction === 1 ? 0 : order.length - 1) : Math.min(order.length - 1, Math.max(0, at + direction))];
      const copy = next === undefined ? undefined : copies[next];
      if (copy === undefined) return;
      select({ kind: 'copy', id: copy.id, device: copy.device });
      const [v0, v1] = visibleRange(view);
      if (copy.submit < v0 || copy.end > v1) zoom.current?.set(centerOn(view, (copy.start + copy.end) / 2));
    },
    [data, copies, select, view, zoom],
  );
  useShortcut({ key: '+', label: 'hostCopies.keys.zoomIn', group: GROUP }, () => zoom.current?.zoomBy(ZOOM_STEP));
  useShortcut({ key: '=', label: 'hostCopies.keys.zoomIn', group: GROUP }, () => zoom.current?.zoomBy(ZOOM_STEP));
  useShortcut({ key: '-', label: 'hostCopies.keys.zoomOut', group: GROUP }, () => zoom.current?.zoomBy(1 / ZOOM_STEP));
  useShortcut({ key: '0', label: 'hostCopies.keys.fit', group: GROUP }, () => zoom.current?.reset());
  useShortcut({ key: ']', label: 'hostCopies.keys.next', group: GROUP }, () => step(1));
  useShortcut({ key: '[', label: 'hostCopies.keys.prev', group: GROUP }, () => step(-1));

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    const lane = Math.floor(py / ROW_HEIGHT);
    const time = xToTime(view, px);
    const slack = (HIT_SLACK_PX * (d1 - d0)) / Math.max(1, width * transform.k);
    const index = copyAt(layout, copies, lane, time, slack);
    const cx = event.clientX;
    const cy = event.clientY;
    if (index !== undefined) {
      setHover({ cx, cy, copy: index });
      return;
    }
    const hostLane = layout.lanes[lane];
    const busy = hostLane?.kind === 'host' ? hostBusyAt(layout, hostLane.pid, time) : undefined;
    if (busy !== undefined && busy.cause !== 'sync-copy') {
      setHover(busy.copy === undefined ? { cx, cy, busy } : { cx, cy, copy: busy.copy });
      return;
    }
    setHover(undefined);
  };
  const onClick = () => {
    if (hover === undefined || !('copy' in hover)) return;
    const copy = copies[hover.copy];
    if (copy !== undefined) select({ kind: 'copy', id: copy.id, device: copy.device });
  };

  const hoveredCopy = hover !== undefined && 'copy' in hover ? hover.copy : undefined;
  const scene = {
    copies,
    layout,
    view,
    rowHeight: ROW_HEIGHT,
    colors: copyColors(theme),
    prefs,
    blockedLabel: t('hostCopies.timeline.blocked'),
    grid: ticks.map((tick) => tick.x),
    related: data.relatedCopies,
    ...(data.selected === undefined ? {} : { selected: data.selected }),
    ...(hoveredCopy === undefined ? {} : { hovered: hoveredCopy }),
  };

  return (
    <div className="hc-plot-grid">
      <div className="hc-toolbar">
        <span className="muted hc-keys" id="hc-keys">
          {t('hostCopies.timeline.keysHint')}
        </span>
        <span className="hc-zoom-buttons">
          <button type="button" onClick={() => zoom.current?.zoomBy(1 / ZOOM_STEP)} title={`${t('hostCopies.timeline.zoomOut')} (-)`}>
            −
          </button>
          <button type="button" onClick={() => zoom.current?.zoomBy(ZOOM_STEP)} title={`${t('hostCopies.timeline.zoomIn')} (+)`}>
            +
          </button>
          <button type="button" onClick={() => zoom.current?.reset()} title={`${t('hostCopies.timeline.fit')} (0)`}>
            {t('hostCopies.timeline.fit')}
          </button>
        </span>
      </div>
      <LaneLabels lanes={layout.lanes} rowHeight={ROW_HEIGHT} />
      <PlotArea
        plotRef={plot}
        height={height}
        label={t('hostCopies.timeline.title')}
        zoom={transform.k}
        onKey={(key) => zoom.current?.key(key) ?? false}
      >
        <CanvasSurface
          draw={(frame) => drawCopyTimeline(frame.ctx, frame.width, frame.height, scene)}
          revision={scene}
          label={t('hostCopies.timeline.canvasLabel', { count: copies.length, lanes: layout.lanes.length })}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHover(undefined)}
          onClick={onClick}
          style={{ cursor: hoveredCopy === undefined ? 'default' : 'pointer' }}
        />
        {hover !== undefined && (
          <div className="hc-tooltip" style={tooltipStyle(hover)} role="tooltip" data-testid="copy-tooltip">
            {'copy' in hover ? (
              <>
                <strong>{t('hostCopies.details.title', { id: copies[hover.copy]?.id ?? 0, fn: copies[hover.copy]?.fn ?? '' })}</strong>
                <CopyFactsList facts={factsForCopy(state, timeline, hover.copy, prefs)} compact />
              </>
            ) : (
              <BusyTip busy={hover.busy} />
            )}
          </div>
        )}
      </PlotArea>
      <div />
      <TimeAxis ticks={ticks} width={width} />
    </div>
  );
}
