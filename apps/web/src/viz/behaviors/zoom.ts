import { select } from 'd3-selection';
import { type D3ZoomEvent, type ZoomBehavior, type ZoomTransform, zoom, zoomIdentity, zoomTransform } from 'd3-zoom';

export interface ZoomTransformValue {
  readonly k: number;
  readonly x: number;
  readonly y: number;
}

export interface ZoomOptions {
  readonly scaleExtent: readonly [number, number];
  /** Horizontal-only zoom (address strip, timelines). */
  readonly xOnly?: boolean;
  readonly onZoom: (transform: ZoomTransformValue) => void;
}

export interface ZoomBehaviorHandle {
  update(options: Partial<Pick<ZoomOptions, 'scaleExtent'>>): void;
  /** Moves programmatically (keyboard, "zoom to selection"). */
  set(transform: ZoomTransformValue, animate?: boolean): void;
  scaleBy(factor: number, at?: readonly [number, number]): void;
  translateBy(dx: number, dy: number): void;
  current(): ZoomTransformValue;
  destroy(): void;
}

/**
 * Wheel, drag and pinch zoom on one element, as a factory the view mounts and destroys. d3 owns
 * only the element's zoom state; React never sees a d3 selection.
 */
export function createZoom(element: Element, options: ZoomOptions): ZoomBehaviorHandle {
  const selection = select(element);
  let extent = options.scaleExtent;
  const behavior: ZoomBehavior<Element, unknown> = zoom<Element, unknown>()
    .scaleExtent([extent[0], extent[1]])
    .on('zoom', (event: D3ZoomEvent<Element, unknown>) => {
      const t = event.transform;
      options.onZoom({ k: t.k, x: t.x, y: options.xOnly === true ? 0 : t.y });
    });
  selection.call(behavior);
  const toTransform = (value: ZoomTransformValue): ZoomTransform => zoomIdentity.translate(value.x, value.y).scale(value.k);
  return {
    update(next) {
      if (next.scaleExtent !== undefined) {
        extent = next.scaleExtent;
        behavior.scaleExtent([extent[0], extent[1]]);
      }
    },
    set(value) {
      behavior.transform(selection, toTransform(value));
    },
    scaleBy(factor, at) {
      if (at === undefined) behavior.scaleBy(selection, factor);
      else behavior.scaleBy(selection, factor, [at[0], at[1]]);
    },
    translateBy(dx, dy) {
      behavior.translateBy(selection, dx, dy);
    },
    current() {
      const t = zoomTransform(element);
      return { k: t.k, x: t.x, y: t.y };
    },
    destroy() {
      selection.on('.zoom', null);
    },
  };
}
