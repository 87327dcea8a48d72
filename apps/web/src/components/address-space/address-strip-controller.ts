import { hitTest, type StripTarget } from '../../model/address-space/strip-hit.ts';
import { type Domain, type StripView, viewOf, type ZoomState, zoomToRange } from '../../model/address-space/strip-layout.ts';
import { type StripModel, usedExtent } from '../../model/address-space/strip-model.ts';
import { DARK, LIGHT } from '../../model/colors.ts';
import { type AddressZoomHandle, createAddressZoom } from '../../viz/behaviors/address-zoom.ts';
import { canvasFrame } from '../../viz/canvas-frame.ts';
import { drawAddressOverlay, type OverlayRange } from '../../viz/draw/address-overlay.ts';
import { drawAddressStrip } from '../../viz/draw/address-strip.ts';
import type { Published } from '../../viz/published.ts';
import { frameScheduler } from '../../viz/scheduler.ts';
import { changedIn } from '../../viz/useController.ts';

export interface StripInput {
  readonly model: StripModel;
  readonly dark: boolean;
  readonly colorBy: 'owner' | 'kind';
  /** The selected object's VA range, when it lies in this strip. */
  readonly selected: OverlayRange | undefined;
  readonly hovered: OverlayRange | undefined;
  readonly walkAddress: number | undefined;
}

/** What React shows of the zoom: the visible range, the axis and the strip's data-* attributes. */
export interface StripSummary {
  readonly zoom: ZoomState;
  readonly view: StripView;
}

/** What each layer draws from (besides the view): a change repaints that layer only. */
const BASE_INPUT: readonly (keyof StripInput)[] = ['model', 'dark', 'colorBy'];
const OVERLAY_INPUT: readonly (keyof StripInput)[] = ['dark', 'selected', 'hovered', 'walkAddress'];

const WHOLE_WINDOW: ZoomState = { k: 1, x: 0 };

const domainOf = (model: StripModel): Domain => ({ start: model.domainStart, end: model.domainEnd });

/** A new device or process, or the first objects appearing (or the last going): the strip fits again. */
const fitKeyOf = (model: StripModel): string => `${model.device}|${model.pid}|${usedExtent(model) === undefined}`;

/**
 * The address strip's imperative half, outside React (the page map's pattern): the width, the zoom
 * transform, the d3 zoom behaviour, and both canvases drawn through the one frame scheduler. Zoom
 * ticks publish a StripSummary and repaint; they never re-render the strip.
 */
export class AddressStripController {
  readonly #element: HTMLElement;
  readonly #base: HTMLCanvasElement;
  readonly #overlay: HTMLCanvasElement;
  readonly #summary: Published<StripSummary | undefined>;
  #input: StripInput;
  #width: number;
  #zoom: ZoomState = WHOLE_WINDOW;
  /** The fit key the strip was last fitted for ('' while it has no width). */
  #fitted = '';
  readonly #zoomer: AddressZoomHandle;
  readonly #observer: ResizeObserver;
  readonly #paintBase = (): void => this.#drawBase();
  readonly #paintOverlay = (): void => this.#drawOverlay();

  constructor(
    element: HTMLElement,
    base: HTMLCanvasElement,
    overlay: HTMLCanvasElement,
    input: StripInput,
    summary: Published<StripSummary | undefined>,
  ) {
    this.#element = element;
    this.#base = base;
    this.#overlay = overlay;
    this.#input = input;
    this.#summary = summary;
    // Measured now, in the commit that shows the strip, not when the ResizeObserver first reports (a
    // frame or more later, much later on a busy machine): the opening fit then happens before a
    // person can press a key or turn the wheel, instead of overriding what they did.
    this.#width = element.clientWidth;
    this.#zoomer = createAddressZoom(element, {
      domain: () => domainOf(this.#input.model),
      width: () => this.#width,
      onZoom: (zoom) => {
        this.#zoom = zoom;
        this.#changed();
      },
    });
    this.#observer = new ResizeObserver(() => this.resize());
    this.#observer.observe(element);
    this.#fitIfNew();
    this.#changed();
  }

  setInput(input: StripInput): void {
    const previous = this.#input;
    this.#input = input;
    if (previous.model.domainStart !== input.model.domainStart || previous.model.domainEnd !== input.model.domainEnd)
      this.#zoomer.refresh();
    this.#fitIfNew();
    if (changedIn(previous, input, BASE_INPUT)) frameScheduler.schedule(this.#paintBase);
    if (changedIn(previous, input, OVERLAY_INPUT)) frameScheduler.schedule(this.#paintOverlay);
  }

  resize(): void {
    const width = this.#element.clientWidth;
    // The observer also reports the first size and unchanged ones.
    if (width === this.#width) return;
    this.#width = width;
    if (width === 0) this.#fitted = '';
    this.#zoomer.refresh();
    this.#fitIfNew();
    this.#changed();
  }

  /** CSS pixels across the strip. */
  width(): number {
    return this.#width;
  }

  view(): StripView {
    return viewOf(domainOf(this.#input.model), this.#width, this.#zoom);
  }

  hitAt(x: number): StripTarget {
    return hitTest(this.#input.model, this.view(), x);
  }

  zoomBy(factor: number): void {
    this.#zoomer.zoomBy(factor);
  }

  /** Pans by a fraction of the visible width (negative: left). */
  panBy(fraction: number): void {
    this.#zoomer.panBy(fraction);
  }

  showWindow(): void {
    this.#zoomer.show(WHOLE_WINDOW);
  }

  /** Shows what is allocated, or the whole window when nothing is. */
  showUsed(): void {
    const used = usedExtent(this.#input.model);
    const domain = domainOf(this.#input.model);
    this.#zoomer.show(used === undefined ? WHOLE_WINDOW : zoomToRange(domain, this.#width, used.start, used.end, 0.05));
  }

  showRange(range: OverlayRange): void {
    this.#zoomer.show(zoomToRange(domainOf(this.#input.model), this.#width, range.start, range.end));
  }

  destroy(): void {
    this.#zoomer.destroy();
    this.#observer.disconnect();
    frameScheduler.cancel(this.#paintBase);
    frameScheduler.cancel(this.#paintOverlay);
  }

  #fitIfNew(): void {
    const key = fitKeyOf(this.#input.model);
    if (this.#width <= 0 || key === this.#fitted) return;
    this.#fitted = key;
    this.showUsed();
  }

  /** The zoom or the width changed: publish what React shows, repaint both layers. */
  #changed(): void {
    this.#summary.set({ zoom: this.#zoom, view: this.view() });
    frameScheduler.schedule(this.#paintBase);
    frameScheduler.schedule(this.#paintOverlay);
  }

  #drawBase(): void {
    const frame = canvasFrame(this.#base);
    if (frame === undefined) return;
    const { model, dark, colorBy } = this.#input;
    drawAddressStrip(frame.ctx, frame.width, frame.height, { model, view: this.view(), palette: dark ? DARK : LIGHT, dark, colorBy });
  }

  #drawOverlay(): void {
    const frame = canvasFrame(this.#overlay);
    if (frame === undefined) return;
    const { dark, selected, hovered, walkAddress } = this.#input;
    drawAddressOverlay(frame.ctx, frame.width, frame.height, {
      view: this.view(),
      palette: dark ? DARK : LIGHT,
      selected,
      hovered,
      walkAddress,
    });
  }
}
