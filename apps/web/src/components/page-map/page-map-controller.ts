import type { FrameTable } from '@pagelens/core';
import type { ColorScheme } from '../../model/page-map/colors.ts';
import { DrawnFrames, sameSelection } from '../../model/page-map/drawn-frames.ts';
import { type Hit, hitTest, sameHit } from '../../model/page-map/hit.ts';
import { chooseLayout, FRAME_H, FRAME_W, frameOrigin, type PageMapLayout, pageOrigin } from '../../model/page-map/layout.ts';
import type { MapSelection } from '../../model/page-map/selection.ts';
import {
  constrainZoom,
  type DetailLevel,
  detailLevel,
  type Fit,
  fitLayout,
  IDENTITY,
  makeView,
  mapBox,
  scaleExtent,
  toScreen,
  type View,
  visibleFrameSpan,
  type ZoomState,
  zoomToFrame,
} from '../../model/page-map/viewport.ts';
import { createZoom, type ZoomBehaviorHandle } from '../../viz/behaviors/zoom.ts';
import { canvasFrame } from '../../viz/canvas-frame.ts';
import { drawPageMap } from '../../viz/draw/page-map-draw.ts';
import { drawHover } from '../../viz/draw/page-map-hover.ts';
import { createRasterTarget } from '../../viz/draw/page-map-target.ts';
import type { Published } from '../../viz/published.ts';
import { frameScheduler } from '../../viz/scheduler.ts';
import type { PageMapHooks } from './page-map-hooks.ts';

/** What the toolbar, shortcuts and tests can do to the map. */
export interface MapControls {
  zoomBy(factor: number): void;
  panBy(dx: number, dy: number): void;
  reset(): void;
  zoomToFrame(frame: number): void;
}

export interface ViewSummary {
  readonly level: DetailLevel;
  readonly zoom: number;
  readonly first: number;
  readonly last: number;
}

export interface MapInput {
  readonly table: FrameTable;
  readonly scheme: ColorScheme;
  readonly selection: MapSelection | undefined;
  readonly contentKey: string;
}

interface Geometry {
  readonly width: number;
  readonly height: number;
  readonly layout: PageMapLayout;
  readonly fit: Fit;
}

const PAN_STEP = 80;
const ZOOM_STEP = 2;
/** "Zoom to" goes deep enough that each page is this many CSS pixels wide. */
const FOCUS_PAGE_PX = 6;

/**
 * The page map's imperative half, outside React: geometry, the zoom transform, hover, and
 * drawing through the one frame scheduler. Pan and zoom change a transform here, never React state;
 * React hears of them through the published ViewSummary, only when the status line would change.
 */
export class PageMapController implements MapControls {
  readonly #element: HTMLElement;
  readonly #base: HTMLCanvasElement;
  readonly #overlay: HTMLCanvasElement;
  #input: MapInput;
  #zoom: ZoomState = IDENTITY;
  #geometry: Geometry;
  #hover: Hit | undefined;
  readonly #target = createRasterTarget(document);
  readonly #handle: ZoomBehaviorHandle;
  readonly #observer: ResizeObserver;
  readonly #published: Published<ViewSummary | undefined>;
  #summary: ViewSummary | undefined;
  #summaryKey = '';
  #paints = 0;
  #paintedAt = 0;
  #recording: number[] | undefined;
  /** What the last paint drew, to leave the canvas alone when new input shows the same. */
  #drawn: { readonly frames: DrawnFrames; readonly scheme: ColorScheme; readonly selection: MapSelection | undefined } | undefined;
  /** A paint is scheduled and has not run yet (it will draw the latest input, whatever it is). */
  #due = false;
  readonly #paint = (): void => {
    this.#due = false;
    const started = performance.now();
    this.#drawMap();
    if (this.#recording !== undefined) {
      this.#base.getContext('2d')?.getImageData(0, 0, 1, 1);
      this.#recording.push(performance.now() - started);
    }
  };
  readonly #paintHover = (): void => this.#drawHover();

  constructor(
    element: HTMLElement,
    base: HTMLCanvasElement,
    overlay: HTMLCanvasElement,
    input: MapInput,
    published: Published<ViewSummary | undefined>,
  ) {
    this.#element = element;
    this.#base = base;
    this.#overlay = overlay;
    this.#input = input;
    this.#published = published;
    this.#geometry = this.#measure();
    this.#handle = createZoom(element, {
      ...this.#limits(),
      onZoom: (t) => {
        this.#zoom = t;
        this.#redraw();
      },
    });
    this.#observer = new ResizeObserver(() => this.resize());
    this.#observer.observe(element);
    this.#redraw();
  }

  setInput(input: MapInput): void {
    const previous = this.#input;
    this.#input = input;
    if (previous.table.count !== input.table.count || previous.table.pagesPerFrame !== input.table.pagesPerFrame) {
      this.resize();
      return;
    }
    // New content redraws the map, unless it shows what is drawn already (a step of the time cursor
    // that changed no frame); the hover layer only changes with the zoom, the pointer or the theme.
    if ((previous.contentKey !== input.contentKey || previous.selection !== input.selection) && !this.#showsDrawn(input))
      this.#schedulePaint();
    if (previous.scheme !== input.scheme) this.#redraw();
  }

  /** The element changed size (or the device did): a new layout may fit better; a new layout starts from the whole device. */
  resize(): void {
    const previous = this.#geometry;
    const width = this.#element.clientWidth;
    const height = this.#element.clientHeight;
    // The observer also reports the first size and unchanged ones: a paint then would repeat the last one.
    const { count, pagesPerFrame } = this.#input.table;
    if (
      width === previous.width &&
      height === previous.height &&
      previous.layout.frames === count &&
      previous.layout.pagesPerFrame === pagesPerFrame
    )
      return;
    this.#geometry = this.#measure();
    this.#handle.update(this.#limits());
    const { layout } = this.#geometry;
    if (previous.layout.tilesAcross !== layout.tilesAcross || previous.layout.frames !== layout.frames) this.#handle.set(IDENTITY);
    this.#redraw();
  }

  hitAt(clientX: number, clientY: number): Hit | undefined {
    const box = this.#element.getBoundingClientRect();
    const view = this.#view();
    return hitTest(
      this.#geometry.layout,
      view,
      this.#input.table,
      detailLevel(view, this.#geometry.layout),
      clientX - box.left,
      clientY - box.top,
    );
  }

  /** Moves the hover ring; true when the hovered cell changed. */
  setHover(hit: Hit | undefined): boolean {
    if (sameHit(hit, this.#hover)) return false;
    this.#hover = hit;
    frameScheduler.schedule(this.#paintHover);
    return true;
  }

  zoomBy(factor: number): void {
    this.#handle.scaleBy(factor, [this.#geometry.width / 2, this.#geometry.height / 2]);
  }

  panBy(dx: number, dy: number): void {
    this.#handle.translateBy(dx / this.#zoom.k, dy / this.#zoom.k);
  }

  reset(): void {
    this.#handle.set(IDENTITY);
  }

  zoomToFrame(frame: number): void {
    const { fit, layout, width, height } = this.#geometry;
    const [, deepest] = scaleExtent(fit, layout);
    const k = Math.min(deepest, (FOCUS_PAGE_PX * layout.pageCols) / (FRAME_W * fit.scale));
    this.#handle.set(zoomToFrame(fit, layout, frame, k, width, height));
  }

  /** Keyboard zoom and pan while the map has focus; true when the key was handled. */
  key(key: string): boolean {
    switch (key) {
      case '+':
      case '=':
        this.zoomBy(ZOOM_STEP);
        return true;
      case '-':
        this.zoomBy(1 / ZOOM_STEP);
        return true;
      case '0':
        this.reset();
        return true;
      case 'ArrowLeft':
        this.panBy(PAN_STEP, 0);
        return true;
      case 'ArrowRight':
        this.panBy(-PAN_STEP, 0);
        return true;
      case 'ArrowUp':
        this.panBy(0, PAN_STEP);
        return true;
      case 'ArrowDown':
        this.panBy(0, -PAN_STEP);
        return true;
      default:
        return false;
    }
  }

  hooks(): PageMapHooks {
    return {
      draw: () => {
        this.#target.invalidate();
        const started = performance.now();
        this.#drawMap();
        const drawn = performance.now();
        // Reading one pixel back makes the browser finish the drawing before the clock stops.
        this.#base.getContext('2d')?.getImageData(0, 0, 1, 1);
        return { drawMs: drawn - started, flushedMs: performance.now() - started };
      },
      locate: (frame, page) => {
        const { layout } = this.#geometry;
        if (frame < 0 || frame >= layout.frames) return undefined;
        const box = this.#element.getBoundingClientRect();
        const [wx, wy] = page === undefined ? frameOrigin(layout, frame) : pageOrigin(layout, frame, page);
        const w = page === undefined ? FRAME_W : FRAME_W / layout.pageCols;
        const h = page === undefined ? FRAME_H : FRAME_H / layout.pageRows;
        const [sx, sy] = toScreen(this.#view(), wx + w / 2, wy + h / 2);
        return { x: box.left + sx, y: box.top + sy };
      },
      view: () => ({ ...this.#zoom, level: this.#summary?.level ?? 'frames' }),
      lastPaint: () => ({ at: this.#paintedAt, count: this.#paints }),
      record: (on) => {
        this.#recording = on ? [] : undefined;
      },
      samples: () => {
        const taken = this.#recording ?? [];
        if (this.#recording !== undefined) this.#recording = [];
        return taken;
      },
    };
  }

  destroy(): void {
    this.#handle.destroy();
    this.#observer.disconnect();
    frameScheduler.cancel(this.#paint);
    frameScheduler.cancel(this.#paintHover);
  }

  #measure(): Geometry {
    const width = this.#element.clientWidth;
    const height = this.#element.clientHeight;
    const layout = chooseLayout(this.#input.table.count, this.#input.table.pagesPerFrame, width, height);
    return { width, height, layout, fit: fitLayout(layout, width, height) };
  }

  /** From the whole device to a page 40 px wide; panning keeps the map in view. */
  #limits() {
    const { width, height, fit, layout } = this.#geometry;
    const box = mapBox(fit, layout);
    return {
      scaleExtent: scaleExtent(fit, layout),
      constrain: (zoom: ZoomState) => constrainZoom(zoom, box, width, height),
    };
  }

  #view(): View {
    const { fit, width, height } = this.#geometry;
    return makeView(fit, this.#zoom, width, height);
  }

  #schedulePaint(): void {
    this.#due = true;
    frameScheduler.schedule(this.#paint);
  }

  #redraw(): void {
    this.#schedulePaint();
    frameScheduler.schedule(this.#paintHover);
  }

  /** True when the last paint drew this input's frames, colours and selection, and no paint is due. */
  #showsDrawn(input: MapInput): boolean {
    const drawn = this.#drawn;
    if (drawn === undefined || this.#due) return false;
    return drawn.scheme === input.scheme && sameSelection(drawn.selection, input.selection) && drawn.frames.same(input.table);
  }

  #drawMap(): void {
    const { layout, width, height } = this.#geometry;
    const ctx = canvasFrame(this.#base, width, height)?.ctx;
    if (ctx === undefined) return;
    const view = this.#view();
    const { table, scheme, selection, contentKey } = this.#input;
    drawPageMap(ctx, { table, layout, view, scheme, selection, contentKey: `${contentKey}|${layout.tilesAcross}` }, this.#target);
    const frames = this.#drawn?.frames ?? new DrawnFrames();
    frames.remember(table);
    this.#drawn = { frames, scheme, selection };
    this.#paints += 1;
    this.#paintedAt = performance.now();
    const span = visibleFrameSpan(layout, view);
    const summary: ViewSummary = { level: detailLevel(view, layout), zoom: this.#zoom.k, first: span?.[0] ?? 0, last: span?.[1] ?? -1 };
    const key = `${summary.level}:${summary.zoom.toFixed(1)}:${summary.first}:${summary.last}`;
    if (key === this.#summaryKey) return;
    this.#summaryKey = key;
    this.#summary = summary;
    this.#published.set(summary);
  }

  #drawHover(): void {
    const { layout, width, height } = this.#geometry;
    const ctx = canvasFrame(this.#overlay, width, height)?.ctx;
    if (ctx === undefined) return;
    const { palette } = this.#input.scheme;
    drawHover(ctx, layout, this.#view(), this.#hover, palette.text, palette.background);
  }
}
