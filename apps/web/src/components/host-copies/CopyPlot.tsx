import { type HostState, toHex } from '@pagelens/core';
import { type CSSProperties, type PointerEvent, type ReactNode, type RefObject, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { duration } from '../../model/format.ts';
import { copyAt, type HostBusy, hostBusyAt } from '../../model/host-copies/copy-lanes.ts';
import { copyColors } from '../../model/host-copies/copy-style.ts';
import { type EventMark, markAt } from '../../model/host-copies/event-marks.ts';
import { xToTime } from '../../model/host-copies/time-view.ts';
import { useFormat, useTimeline } from '../../store/hooks.ts';
import { selectTheme } from '../../store/ui-slice.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { ZOOM_STEP } from '../../viz/behaviors/copies-zoom.ts';
import { Published, usePublished } from '../../viz/published.ts';
import { mounted, useController } from '../../viz/useController.ts';
import { CopyFactsList, factsForCopy } from './CopyFactsList.tsx';
import { CopyPlotController, MARK_HIT_PX, type PlotInput, type PlotSummary, ROW_HEIGHT } from './copy-plot-controller.ts';
import { LaneLabels } from './LaneLabels.tsx';
import { TimeAxis } from './TimeAxis.tsx';
import type { CopyData } from './useCopyData.ts';

/** Pointer slack for thin bars (CSS px). */
const HIT_SLACK_PX = 4;
const GROUP = 'hostCopies.keys.group';

/** What the pointer is over; cx, cy are viewport px (the tooltip is fixed so no scroll box clips it). */
type Hover = { readonly cx: number; readonly cy: number } & (
  | { readonly copy: number }
  | { readonly busy: HostBusy }
  | { readonly mark: number }
);

type T = ReturnType<typeof useTranslation>['t'];

/** The event's handle as the program holds it, or its object id when its creation is older than the history. */
function handleText(mark: EventMark): string {
  return mark.handle === 0 ? `#${mark.event}` : toHex(mark.handle);
}

/** What a mark says, with the rule behind it (EV-2, EV-3). */
export function markLabel(t: T, mark: EventMark): string {
  const values = { handle: handleText(mark), stream: mark.stream, time: duration(mark.at), ...valueFacts(mark) };
  if (mark.kind === 'valueWrite') return t('hostCopies.timeline.marks.valueWrite', values);
  if (mark.kind === 'valueWait') {
    if (mark.value?.observed === true) return t('hostCopies.timeline.marks.valueWaitObserved', values);
    return t(mark.from === undefined ? 'hostCopies.timeline.marks.valueWaitUnmet' : 'hostCopies.timeline.marks.valueWait', values);
  }
  if (mark.kind === 'record') return t('hostCopies.timeline.marks.record', values);
  return t(mark.from === undefined ? 'hostCopies.timeline.marks.waitNever' : 'hostCopies.timeline.marks.wait', values);
}

/** A value task's word and value, for its label (CP-12). */
function valueFacts(mark: EventMark): { addr?: string; value?: number } {
  return mark.value === undefined ? {} : { addr: toHex(mark.value.addr), value: mark.value.value };
}

/** The mark's short line in the list under the plot. */
function markShort(t: T, mark: EventMark): string {
  return t(`hostCopies.timeline.marks.short.${mark.kind}`, {
    ...valueFacts(mark),
    handle: handleText(mark),
    stream: mark.stream,
    time: duration(mark.at),
    rule: mark.rule,
  });
}

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
  if (busy.fn?.startsWith('aclrtSynchronizeEvent') === true) return <p>{t('hostCopies.timeline.busyEvent', { time, fn: busy.fn })}</p>;
  return (
    <p>
      {busy.stream === undefined
        ? t('hostCopies.timeline.busyDevice', { time })
        : t('hostCopies.timeline.busyStream', { time, stream: busy.stream })}
    </p>
  );
}

function MarkTip({ mark }: { mark: EventMark | undefined }) {
  const { t } = useTranslation();
  return <p data-testid="mark-tooltip">{mark === undefined ? '' : markLabel(t, mark)}</p>;
}

interface PlotAreaProps {
  readonly plotRef: RefObject<HTMLDivElement | null>;
  readonly height: number;
  readonly label: string;
  readonly summary: Published<PlotSummary | undefined>;
  readonly onKey: (key: string) => boolean;
  readonly children: ReactNode;
}

/**
 * The focusable box the zoom behaviour is mounted on, with the zoom as data-zoom. It re-renders on
 * every zoom tick; its children are the plot's elements, unchanged, so React leaves them alone.
 */
function PlotArea({ plotRef, height, label, summary, onKey, children }: PlotAreaProps) {
  const zoom = usePublished(summary)?.view.k;
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
      data-zoom={zoom?.toFixed(3)}
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

/**
 * The zoomable copy timeline: lane names, the canvas of bars a CopyPlotController draws, the time
 * axis, and the hover tooltip. Zooming re-renders only the axis and the plot box's data-zoom.
 */
export function CopyPlot({ data, state }: { data: CopyData; state: HostState }) {
  const { t } = useTranslation();
  const prefs = useFormat();
  const theme = useAppStore(selectTheme);
  const select = useAppStore((s) => s.select);
  const timeline = useTimeline();
  const { layout, copies } = data;
  const plot = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [summary] = useState(() => new Published<PlotSummary | undefined>(undefined));
  const [hover, setHover] = useState<Hover | undefined>(undefined);
  const hoveredCopy = hover !== undefined && 'copy' in hover ? hover.copy : undefined;
  const [focusedMark, setFocusedMark] = useState<number | undefined>(undefined);
  const hoveredMark = hover !== undefined && 'mark' in hover ? hover.mark : focusedMark;
  const input: PlotInput = {
    copies,
    layout,
    colors: copyColors(theme),
    prefs,
    blockedLabel: t('hostCopies.timeline.blocked'),
    related: data.relatedCopies,
    selected: data.selected,
    hovered: hoveredCopy,
    selectedEvent: data.selectedEvent,
    hoveredMark,
  };
  const controller = useController(
    plot,
    input,
    (element, first) => new CopyPlotController(element, mounted(canvas, 'the copy canvas'), first, summary),
  );
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
      controller.current?.reveal(copy.submit, copy.end, (copy.start + copy.end) / 2);
    },
    [data, copies, select, controller],
  );
  useShortcut({ key: '+', label: 'hostCopies.keys.zoomIn', group: GROUP }, () => controller.current?.zoomBy(ZOOM_STEP));
  useShortcut({ key: '=', label: 'hostCopies.keys.zoomIn', group: GROUP }, () => controller.current?.zoomBy(ZOOM_STEP));
  useShortcut({ key: '-', label: 'hostCopies.keys.zoomOut', group: GROUP }, () => controller.current?.zoomBy(1 / ZOOM_STEP));
  useShortcut({ key: '0', label: 'hostCopies.keys.fit', group: GROUP }, () => controller.current?.reset());
  useShortcut({ key: ']', label: 'hostCopies.keys.next', group: GROUP }, () => step(1));
  useShortcut({ key: '[', label: 'hostCopies.keys.prev', group: GROUP }, () => step(-1));

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    const view = controller.current?.view();
    if (view === undefined) return;
    const rect = event.currentTarget.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    const lane = Math.floor(py / ROW_HEIGHT);
    const time = xToTime(view, px);
    const slack = (HIT_SLACK_PX * (view.d1 - view.d0)) / Math.max(1, view.width * view.k);
    const index = copyAt(layout, copies, lane, time, slack);
    const cx = event.clientX;
    const cy = event.clientY;
    const markSlack = (MARK_HIT_PX * (view.d1 - view.d0)) / Math.max(1, view.width * view.k);
    const mark = markAt(layout.marks, lane, time, markSlack);
    if (mark !== undefined) {
      setHover({ cx, cy, mark });
      return;
    }
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
  const selectMark = (index: number) => {
    const mark = layout.marks[index]?.mark;
    if (mark === undefined) return;
    // A value task (CP-12) has no aclEvent: it selects its stream.
    select(
      mark.event === -1 ? { kind: 'stream', id: mark.stream, device: mark.device } : { kind: 'event', id: mark.event, device: mark.device },
    );
    controller.current?.reveal(mark.at, mark.at, mark.at);
  };
  const onClick = () => {
    if (hover !== undefined && 'mark' in hover) {
      selectMark(hover.mark);
      return;
    }
    if (hover === undefined || !('copy' in hover)) return;
    const copy = copies[hover.copy];
    if (copy !== undefined) select({ kind: 'copy', id: copy.id, device: copy.device });
  };

  return (
    <div className="hc-plot-grid">
      <div className="hc-toolbar">
        <span className="muted hc-keys" id="hc-keys">
          {t('hostCopies.timeline.keysHint')}
        </span>
        <span className="hc-zoom-buttons">
          <button type="button" onClick={() => controller.current?.zoomBy(1 / ZOOM_STEP)} title={`${t('hostCopies.timeline.zoomOut')} (-)`}>
            −
          </button>
          <button type="button" onClick={() => controller.current?.zoomBy(ZOOM_STEP)} title={`${t('hostCopies.timeline.zoomIn')} (+)`}>
            +
          </button>
          <button type="button" onClick={() => controller.current?.reset()} title={`${t('hostCopies.timeline.fit')} (0)`}>
            {t('hostCopies.timeline.fit')}
          </button>
        </span>
      </div>
      <LaneLabels lanes={layout.lanes} rowHeight={ROW_HEIGHT} />
      <PlotArea
        plotRef={plot}
        height={height}
        label={t('hostCopies.timeline.title')}
        summary={summary}
        onKey={(key) => controller.current?.key(key) ?? false}
      >
        <canvas
          ref={canvas}
          className="hc-canvas"
          role="img"
          aria-label={t('hostCopies.timeline.canvasLabel', { count: copies.length, lanes: layout.lanes.length })}
          onPointerMove={onPointerMove}
          onPointerLeave={() => setHover(undefined)}
          onClick={onClick}
          style={{ cursor: hoveredCopy === undefined && hoveredMark === undefined ? 'default' : 'pointer' }}
        />
        {hover !== undefined && (
          <div className="hc-tooltip" style={tooltipStyle(hover)} role="tooltip" data-testid="copy-tooltip">
            {'mark' in hover ? (
              <MarkTip mark={layout.marks[hover.mark]?.mark} />
            ) : 'copy' in hover ? (
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
      <TimeAxis summary={summary} />
      {layout.marks.length > 0 && (
        <section className="hc-marks" aria-labelledby="hc-marks-title" data-testid="event-marks">
          <h3 id="hc-marks-title" className="hc-marks-title">
            {t('hostCopies.timeline.marks.title')} <span className="muted">{t('hostCopies.timeline.marks.hint')}</span>
          </h3>
          <ul className="hc-marks-list">
            {layout.marks.map(({ mark }, index) => (
              <li key={mark.seq}>
                <button
                  type="button"
                  className={`hc-mark hc-mark-${mark.kind}${data.selectedEvent === mark.event ? ' selected-item' : ''}`}
                  aria-label={markLabel(t, mark)}
                  title={markLabel(t, mark)}
                  aria-pressed={data.selectedEvent === mark.event}
                  data-testid="event-mark"
                  data-kind={mark.kind}
                  data-event={mark.event}
                  data-stream={mark.stream}
                  data-at={mark.at}
                  data-rule={mark.rule}
                  onClick={() => selectMark(index)}
                  onFocus={() => setFocusedMark(index)}
                  onBlur={() => setFocusedMark(undefined)}
                >
                  <span className="hc-mark-glyph" aria-hidden="true" />
                  {markShort(t, mark)}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
