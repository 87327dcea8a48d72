import type { CopyRecord } from '@pagelens/core';
import type { FormatPrefs } from '../../model/format.ts';
import type { CopyLayout } from '../../model/host-copies/copy-lanes.ts';
import type { CopyColors } from '../../model/host-copies/copy-style.ts';
import { centerOn, fitDomain, maxZoom, type Tick, type TimeView, timeTicks, visibleRange } from '../../model/host-copies/time-view.ts';
import { type CopiesZoomHandle, createCopiesZoom } from '../../viz/behaviors/copies-zoom.ts';
import { canvasFrame } from '../../viz/canvas-frame.ts';
import { drawCopyTimeline } from '../../viz/draw/copies-timeline.ts';
import type { Published } from '../../viz/published.ts';
import { frameScheduler } from '../../viz/scheduler.ts';
import { changedIn } from '../../viz/useController.ts';

/** CSS px per lane. */
export const ROW_HEIGHT = 30;
/** Pointer slack around an event mark (CSS px): marks are points. */
export const MARK_HIT_PX = 8;
/** About one axis tick per this many CSS px. */
const TICK_SPACING_PX = 110;

export interface PlotInput {
  readonly copies: readonly CopyRecord[];
  readonly layout: CopyLayout;
  readonly colors: CopyColors;
  readonly prefs: FormatPrefs;
  /** Text for busy host bands, already translated. */
  readonly blockedLabel: string;
  readonly related: ReadonlySet<number>;
  /** Copy indices. */
  readonly selected: number | undefined;
  readonly hovered: number | undefined;
  /** Object id of the selected aclrtEvent (its marks are ringed). */
  readonly selectedEvent: number | undefined;
  /** Index into layout.marks. */
  readonly hoveredMark: number | undefined;
}

/** Every input the canvas draws from: a change repaints it. */
const DRAWN_INPUT: readonly (keyof PlotInput)[] = [
  'copies',
  'layout',
  'colors',
  'prefs',
  'blockedLabel',
  'related',
  'selected',
  'hovered',
  'selectedEvent',
  'hoveredMark',
];

/** What React shows of the zoom: the axis ticks and the plot's data-zoom. */
export interface PlotSummary {
  readonly view: TimeView;
  readonly ticks: readonly Tick[];
}

/**
 * The copy timeline's imperative half, outside React (the page map's pattern): the width, the
 * fitted time domain, the zoom transform, the d3 zoom behaviour, and the canvas drawn through the
 * one frame scheduler. Zoom ticks publish a PlotSummary and repaint; they never re-render the plot.
 */
export class CopyPlotController {
  readonly #element: HTMLElement;
  readonly #canvas: HTMLCanvasElement;
  readonly #summary: Published<PlotSummary | undefined>;
  #input: PlotInput;
  #width: number;
  #domain: readonly [number, number];
  #zoom = { k: 1, x: 0 };
  #ticks: readonly Tick[] = [];
  readonly #zoomer: CopiesZoomHandle;
  readonly #observer: ResizeObserver;
  readonly #paint = (): void => this.#draw();

  constructor(element: HTMLElement, canvas: HTMLCanvasElement, input: PlotInput, summary: Published<PlotSummary | undefined>) {
    this.#element = element;
    this.#canvas = canvas;
    this.#input = input;
    this.#summary = summary;
    this.#width = element.clientWidth;
    this.#domain = fitDomain(input.layout.t0, input.layout.t1);
    this.#zoomer = createCopiesZoom(element, {
      maxScale: maxZoom(...this.#domain),
      onZoom: (zoom) => {
        this.#zoom = zoom;
        this.#changed();
      },
    });
    this.#observer = new ResizeObserver(() => this.resize());
    this.#observer.observe(element);
    this.#changed();
  }

  setInput(input: PlotInput): void {
    const previous = this.#input;
    this.#input = input;
    if (previous.layout.t0 !== input.layout.t0 || previous.layout.t1 !== input.layout.t1) {
      this.#domain = fitDomain(input.layout.t0, input.layout.t1);
      this.#zoomer.update({ maxScale: maxZoom(...this.#domain) });
      this.#changed();
      return;
    }
    if (changedIn(previous, input, DRAWN_INPUT)) frameScheduler.schedule(this.#paint);
  }

  resize(): void {
    const width = this.#element.clientWidth;
    if (width === this.#width) return;
    this.#width = width;
    this.#changed();
  }

  view(): TimeView {
    const [d0, d1] = this.#domain;
    return { d0, d1, width: this.#width, k: this.#zoom.k, x: this.#zoom.x };
  }

  zoomBy(factor: number): void {
    this.#zoomer.zoomBy(factor);
  }

  /** Back to the whole timeline. */
  reset(): void {
    this.#zoomer.reset();
  }

  /** A key pressed while the plot has focus; true when it zoomed or panned. */
  key(key: string): boolean {
    return this.#zoomer.key(key);
  }

  /** Centres on `at` at the current zoom when any of [from, to] is off screen. */
  reveal(from: number, to: number, at: number): void {
    const view = this.view();
    const [v0, v1] = visibleRange(view);
    if (from < v0 || to > v1) this.#zoomer.set(centerOn(view, at));
  }

  destroy(): void {
    this.#zoomer.destroy();
    this.#observer.disconnect();
    frameScheduler.cancel(this.#paint);
  }

  /** The zoom, the width or the domain changed: new ticks, published for React; a repaint. */
  #changed(): void {
    const view = this.view();
    this.#ticks = timeTicks(view, Math.max(2, Math.floor(this.#width / TICK_SPACING_PX)));
    this.#summary.set({ view, ticks: this.#ticks });
    frameScheduler.schedule(this.#paint);
  }

  #draw(): void {
    const frame = canvasFrame(this.#canvas);
    if (frame === undefined) return;
    const { selected, hovered, selectedEvent, hoveredMark, ...rest } = this.#input;
    drawCopyTimeline(frame.ctx, frame.width, frame.height, {
      ...rest,
      view: this.view(),
      rowHeight: ROW_HEIGHT,
      grid: this.#ticks.map((tick) => tick.x),
      ...(selected === undefined ? {} : { selected }),
      ...(hovered === undefined ? {} : { hovered }),
      ...(selectedEvent === undefined ? {} : { selectedEvent }),
      ...(hoveredMark === undefined ? {} : { hoveredMark }),
    });
  }
}
