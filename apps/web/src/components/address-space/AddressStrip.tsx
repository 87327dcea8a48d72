import type { HostState } from '@pagelens/core';
import { memo, type PointerEvent, useCallback, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShortcut } from '../../hooks/shortcuts.ts';
import { hitTest, type StripTarget } from '../../model/address-space/strip-hit.ts';
import { viewOf, type ZoomState, zoomToRange } from '../../model/address-space/strip-layout.ts';
import { type StripModel, usedExtent } from '../../model/address-space/strip-model.ts';
import { DARK, LIGHT } from '../../model/colors.ts';
import { address, bytes } from '../../model/format.ts';
import { useFormat } from '../../store/hooks.ts';
import { useAppStore } from '../../store/useAppStore.ts';
import { createAddressZoom } from '../../viz/behaviors/address-zoom.ts';
import { CanvasSurface } from '../../viz/CanvasSurface.tsx';
import { drawAddressOverlay, type OverlayRange } from '../../viz/draw/address-overlay.ts';
import { drawAddressStrip } from '../../viz/draw/address-strip.ts';
import { useBehavior } from '../../viz/useBehavior.ts';
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

/** The device VA window as a zoomable strip: ranges on canvas, the axis in SVG, a DOM tooltip. */
export function AddressStrip({ model, state, selected, walkAddress, onPick }: AddressStripProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const dark = useAppStore((s) => s.theme === 'dark');
  const colorBy = useAppStore((s) => s.colorBy);
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [zoom, setZoom] = useState<ZoomState>({ k: 1, x: 0 });
  const [hover, setHover] = useState<{ target: StripTarget; x: number } | undefined>(undefined);
  const domain = useMemo(() => ({ start: model.domainStart, end: model.domainEnd }), [model.domainStart, model.domainEnd]);
  const live = useRef({ domain, width });
  live.current = { domain, width };

  const zoomer = useBehavior(box, (element) =>
    createAddressZoom(element, { domain: () => live.current.domain, width: () => live.current.width, onZoom: setZoom }),
  );

  // The width is measured in the commit that shows the strip, not first when the ResizeObserver
  // reports (a frame or more later, much later on a busy machine): the fit below then happens
  // before a person can press a key or turn the wheel, instead of overriding what they did.
  useLayoutEffect(() => {
    const element = box.current;
    if (element === null) return undefined;
    const measure = (): void => {
      live.current = { ...live.current, width: element.clientWidth };
      setWidth(element.clientWidth);
      zoomer.current?.refresh();
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [zoomer]);

  // A new device or process, or the first objects appearing: show what is there (or the whole window when empty).
  const extent = usedExtent(model);
  const fitKey = `${model.device}|${model.pid}|${extent === undefined}`;
  const fitUsed = useCallback(() => {
    const used = usedExtent(model);
    const { domain: d, width: w } = live.current;
    zoomer.current?.show(used === undefined ? { k: 1, x: 0 } : zoomToRange(d, w, used.start, used.end, 0.05));
  }, [model, zoomer]);
  const fitRef = useRef(fitUsed);
  fitRef.current = fitUsed;
  const hasWidth = width > 0;
  useLayoutEffect(() => {
    // fitKey names what changed; the fit itself reads the latest model through fitRef. A layout
    // effect for the same reason as the measuring above: the fit is part of showing the strip.
    if (hasWidth && fitKey !== '') fitRef.current();
  }, [fitKey, hasWidth]);

  const view = useMemo(() => viewOf(domain, width, zoom), [domain, width, zoom]);
  const palette = dark ? DARK : LIGHT;

  const zoomToSelection = useCallback(() => {
    if (selected !== undefined) zoomer.current?.show(zoomToRange(domain, width, selected.start, selected.end));
  }, [selected, domain, width, zoomer]);
  useShortcut({ key: '+', label: 'addressSpace.keys.zoomIn', group: GROUP }, () => zoomer.current?.zoomBy(ZOOM_STEP));
  useShortcut({ key: '=', label: 'addressSpace.keys.zoomIn', group: GROUP }, () => zoomer.current?.zoomBy(ZOOM_STEP));
  useShortcut({ key: '-', label: 'addressSpace.keys.zoomOut', group: GROUP }, () => zoomer.current?.zoomBy(1 / ZOOM_STEP));
  useShortcut({ key: '0', label: 'addressSpace.keys.fit', group: GROUP }, () => zoomer.current?.show({ k: 1, x: 0 }));
  useShortcut({ key: '[', label: 'addressSpace.keys.panLeft', group: GROUP }, () => zoomer.current?.panBy(-PAN_STEP));
  useShortcut({ key: ']', label: 'addressSpace.keys.panRight', group: GROUP }, () => zoomer.current?.panBy(PAN_STEP));
  useShortcut({ key: 'z', label: 'addressSpace.keys.zoomSelection', group: GROUP }, zoomToSelection);
  useShortcut({ key: 'f', label: 'addressSpace.keys.used', group: GROUP }, fitUsed);

  const hoveredRange = useMemo(() => rangeOfTarget(model, hover?.target), [model, hover]);
  const onMove = (event: PointerEvent<HTMLCanvasElement>): void => {
    const x = event.nativeEvent.offsetX;
    setHover({ target: hitTest(model, view, x), x });
  };
  const onClick = (event: PointerEvent<HTMLCanvasElement>): void => {
    onPick(hitTest(model, view, event.nativeEvent.offsetX));
  };
  const empty = model.blocks.count === 0 && model.reservations.count === 0;

  return (
    <div className="address-strip">
      <div className="address-strip-status">
        <span className="address-zoom-tools">
          <button
            type="button"
            onClick={() => zoomer.current?.zoomBy(1 / ZOOM_STEP)}
            title={`${t('addressSpace.zoom.out')} (−)`}
            aria-label={t('addressSpace.zoom.out')}
          >
            −
          </button>
          <button
            type="button"
            onClick={() => zoomer.current?.zoomBy(ZOOM_STEP)}
            title={`${t('addressSpace.zoom.in')} (+)`}
            aria-label={t('addressSpace.zoom.in')}
          >
            +
          </button>
          <button type="button" onClick={fitUsed} title="f" data-testid="address-fit-used">
            {t('addressSpace.zoom.used')}
          </button>
          <button type="button" onClick={() => zoomer.current?.show({ k: 1, x: 0 })} title="0" data-testid="address-fit-window">
            {t('addressSpace.zoom.fit')}
          </button>
          <button type="button" onClick={zoomToSelection} disabled={selected === undefined} title="z">
            {t('addressSpace.zoom.selection')}
          </button>
        </span>
        <span className="mono address-visible" data-testid="address-strip-range">
          {t('addressSpace.visible', {
            start: address(Math.round(view.start), format),
            end: address(Math.round(view.end), format),
            size: bytes(Math.round(view.end - view.start), format),
            perPixel: bytes(Math.max(1, Math.round((view.end - view.start) / Math.max(1, view.width))), format),
          })}
        </span>
      </div>
      <div className="address-strip-lane">
        <div
          ref={box}
          className="address-strip-canvas"
          data-testid="address-strip"
          data-zoom={zoom.k.toFixed(3)}
          data-view-start={Math.round(view.start)}
          data-view-end={Math.round(view.end)}
        >
          <StripBase model={model} view={view} dark={dark} colorBy={colorBy} />
          <div className="address-strip-overlay">
            <CanvasSurface
              label={t('addressSpace.strip.label', {
                device: model.device,
                blocks: model.blocks.count,
                reservations: model.reservations.count,
              })}
              revision={[view, selected, hoveredRange, walkAddress, dark]}
              draw={(frame) =>
                drawAddressOverlay(frame.ctx, frame.width, frame.height, { view, palette, selected, hovered: hoveredRange, walkAddress })
              }
              onPointerMove={onMove}
              onPointerLeave={() => setHover(undefined)}
              onClick={onClick}
            />
          </div>
          {empty && <p className="address-strip-empty muted">{t('addressSpace.strip.empty')}</p>}
          {hover !== undefined && !empty && <StripTooltip model={model} state={state} target={hover.target} x={hover.x} width={width} />}
        </div>
        <StripAxis view={view} format={format} />
      </div>
      <p id="address-strip-help" className="address-strip-help muted">
        {t('addressSpace.strip.help')}
      </p>
    </div>
  );
}

function rangeOfTarget(model: StripModel, target: StripTarget | undefined): OverlayRange | undefined {
  if (target === undefined) return undefined;
  if (target.kind === 'blocks') return { start: model.blocks.start[target.first] ?? 0, end: model.blocks.end[target.last - 1] ?? 0 };
  return { start: target.start, end: target.end };
}

interface StripBaseProps {
  readonly model: StripModel;
  readonly view: ReturnType<typeof viewOf>;
  readonly dark: boolean;
  readonly colorBy: 'owner' | 'kind';
}

/** The ranges layer; memoised so hover and tooltip updates never repaint 100,000 ranges. */
const StripBase = memo(function StripBase({ model, view, dark, colorBy }: StripBaseProps) {
  return (
    <CanvasSurface
      label=""
      revision={[model, view, dark, colorBy]}
      draw={(frame) => drawAddressStrip(frame.ctx, frame.width, frame.height, { model, view, palette: dark ? DARK : LIGHT, dark, colorBy })}
    />
  );
});
