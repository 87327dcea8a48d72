import type { HostState } from '@pagelens/core';
import { type PointerEvent, type ReactNode, type Ref, useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import type { StripTarget } from '../../model/address-space/strip-hit.ts';
import type { StripModel } from '../../model/address-space/strip-model.ts';
import { address, bytes, type FormatPrefs } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import type { OverlayRange } from '../../viz/draw/address-overlay.ts';
import { Published, usePublished } from '../../viz/published.ts';
import { mounted, useController } from '../../viz/useController.ts';
import { AddressStripController, type StripInput, type StripSummary } from './address-strip-controller.ts';
import { StripAxis } from './StripAxis.tsx';
import { StripTooltip } from './StripTooltip.tsx';

export interface AddressStripProps {
  readonly model: StripModel;
  readonly state: HostState;
  /** The selected object's VA range, when it lies in this strip. */
  readonly selected: OverlayRange | undefined;
  readonly walkAddress: number | undefined;
  readonly onPick: (target: StripTarget) => void;
}

const GROUP = 'shell.help.groups.map';
const ZOOM_STEP = 2;
const PAN_STEP = 0.25;

/**
 * The device VA window as a zoomable strip: ranges on two canvases an AddressStripController
 * draws, the axis in SVG, a DOM tooltip. Zooming re-renders only the parts that show the zoom.
 */
export function AddressStrip({ model, state, selected, walkAddress, onPick }: AddressStripProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const dark = useAppStore((s) => s.theme === 'dark');
  const colorBy = useAppStore((s) => s.colorBy);
  const box = useRef<HTMLDivElement>(null);
  const base = useRef<HTMLCanvasElement>(null);
  const overlay = useRef<HTMLCanvasElement>(null);
  const [summary] = useState(() => new Published<StripSummary | undefined>(undefined));
  const [hover, setHover] = useState<{ target: StripTarget; x: number; width: number } | undefined>(undefined);
  const hovered = useMemo(() => rangeOfTarget(model, hover?.target), [model, hover]);

  const input: StripInput = { model, dark, colorBy, selected, hovered, walkAddress };
  const strip = useController(
    box,
    input,
    (element, first) =>
      new AddressStripController(element, mounted(base, 'the strip'), mounted(overlay, 'the strip overlay'), first, summary),
  );

  const showUsed = useCallback(() => strip.current?.showUsed(), [strip]);
  const zoomToSelection = useCallback(() => {
    if (selected !== undefined) strip.current?.showRange(selected);
  }, [selected, strip]);
  useShortcut({ key: '+', label: 'addressSpace.keys.zoomIn', group: GROUP }, () => strip.current?.zoomBy(ZOOM_STEP));
  useShortcut({ key: '=', label: 'addressSpace.keys.zoomIn', group: GROUP }, () => strip.current?.zoomBy(ZOOM_STEP));
  useShortcut({ key: '-', label: 'addressSpace.keys.zoomOut', group: GROUP }, () => strip.current?.zoomBy(1 / ZOOM_STEP));
  useShortcut({ key: '0', label: 'addressSpace.keys.fit', group: GROUP }, () => strip.current?.showWindow());
  useShortcut({ key: '[', label: 'addressSpace.keys.panLeft', group: GROUP }, () => strip.current?.panBy(-PAN_STEP));
  useShortcut({ key: ']', label: 'addressSpace.keys.panRight', group: GROUP }, () => strip.current?.panBy(PAN_STEP));
  useShortcut({ key: 'z', label: 'addressSpace.keys.zoomSelection', group: GROUP }, zoomToSelection);
  useShortcut({ key: 'f', label: 'addressSpace.keys.used', group: GROUP }, showUsed);

  const onMove = (event: PointerEvent<HTMLCanvasElement>): void => {
    const controller = strip.current;
    if (controller === undefined) return;
    const x = event.nativeEvent.offsetX;
    setHover({ target: controller.hitAt(x), x, width: controller.width() });
  };
  const onClick = (event: PointerEvent<HTMLCanvasElement>): void => {
    const target = strip.current?.hitAt(event.nativeEvent.offsetX);
    if (target !== undefined) onPick(target);
  };
  const empty = model.blocks.count === 0 && model.reservations.count === 0;

  return (
    <div className="address-strip">
      <div className="address-strip-status">
        <span className="address-zoom-tools">
          <button
            type="button"
            onClick={() => strip.current?.zoomBy(1 / ZOOM_STEP)}
            title={`${t('addressSpace.zoom.out')} (−)`}
            aria-label={t('addressSpace.zoom.out')}
          >
            −
          </button>
          <button
            type="button"
            onClick={() => strip.current?.zoomBy(ZOOM_STEP)}
            title={`${t('addressSpace.zoom.in')} (+)`}
            aria-label={t('addressSpace.zoom.in')}
          >
            +
          </button>
          <button type="button" onClick={showUsed} title="f" data-testid="address-fit-used">
            {t('addressSpace.zoom.used')}
          </button>
          <button type="button" onClick={() => strip.current?.showWindow()} title="0" data-testid="address-fit-window">
            {t('addressSpace.zoom.fit')}
          </button>
          <button type="button" onClick={zoomToSelection} disabled={selected === undefined} title="z">
            {t('addressSpace.zoom.selection')}
          </button>
        </span>
        <VisibleRange summary={summary} format={format} />
      </div>
      <div className="address-strip-lane">
        <StripBox boxRef={box} summary={summary}>
          <canvas ref={base} className="address-strip-layer" />
          <div className="address-strip-overlay">
            <canvas
              ref={overlay}
              className="address-strip-layer"
              role="img"
              aria-label={t('addressSpace.strip.label', {
                device: model.device,
                blocks: model.blocks.count,
                reservations: model.reservations.count,
              })}
              onPointerMove={onMove}
              onPointerLeave={() => setHover(undefined)}
              onClick={onClick}
            />
          </div>
          {empty && <p className="address-strip-empty muted">{t('addressSpace.strip.empty')}</p>}
          {hover !== undefined && !empty && (
            <StripTooltip model={model} state={state} target={hover.target} x={hover.x} width={hover.width} />
          )}
        </StripBox>
        <StripAxis summary={summary} format={format} />
      </div>
      <p id="address-strip-help" className="address-strip-help muted">
        {t('addressSpace.strip.help')}
      </p>
    </div>
  );
}

/**
 * The box the zoom behaviour is mounted on, with the zoom and the visible range as data-* for
 * tests. It re-renders on every zoom tick; its children are the strip's elements, unchanged, so
 * React leaves them alone.
 */
function StripBox({
  boxRef,
  summary,
  children,
}: {
  boxRef: Ref<HTMLDivElement>;
  summary: Published<StripSummary | undefined>;
  children: ReactNode;
}) {
  const shown = usePublished(summary);
  return (
    <div
      ref={boxRef}
      className="address-strip-canvas"
      data-testid="address-strip"
      data-zoom={shown?.zoom.k.toFixed(3)}
      data-view-start={shown === undefined ? undefined : Math.round(shown.view.start)}
      data-view-end={shown === undefined ? undefined : Math.round(shown.view.end)}
    >
      {children}
    </div>
  );
}

function VisibleRange({ summary, format }: { summary: Published<StripSummary | undefined>; format: FormatPrefs }) {
  const { t } = useTranslation();
  const view = usePublished(summary)?.view;
  return (
    <span className="mono address-visible" data-testid="address-strip-range">
      {view !== undefined &&
        t('addressSpace.visible', {
          start: address(Math.round(view.start), format),
          end: address(Math.round(view.end), format),
          size: bytes(Math.round(view.end - view.start), format),
          perPixel: bytes(Math.max(1, Math.round((view.end - view.start) / Math.max(1, view.width))), format),
        })}
    </span>
  );
}

function rangeOfTarget(model: StripModel, target: StripTarget | undefined): OverlayRange | undefined {
  if (target === undefined) return undefined;
  if (target.kind === 'blocks') return { start: model.blocks.start[target.first] ?? 0, end: model.blocks.end[target.last - 1] ?? 0 };
  return { start: target.start, end: target.end };
}
