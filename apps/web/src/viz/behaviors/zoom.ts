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
  /**
   * Corrects a transform so the content stays in view (a pure function of the transform). Gestures,
   * scaleBy/translateBy and `set` all obey it, so every path shares the same limits.
   */
  readonly constrain?: (transform: ZoomTransformValue) => ZoomTransformValue;
  readonly onZoom: (transform: ZoomTransformValue) => void;
}

export interface ZoomBehaviorHandle {
  /** New limits; with a constraint, the current transform is re-applied so it obeys them. */
  update(options: Partial<Pick<ZoomOptions, 'scaleExtent' | 'constrain'>>): void;
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
  let constrain = options.constrain;
  const toTransform = (value: ZoomTransformValue): ZoomTransform => zoomIdentity.translate(value.x, value.y).scale(value.k);
  const behavior: ZoomBehavior<Element, unknown> = zoom<Element, unknown>()
    .scaleExtent([extent[0], extent[1]])
    .on('zoom', (event: D3ZoomEvent<Element, unknown>) => {
      const t = event.transform;
      options.onZoom({ k: t.k, x: t.x, y: options.xOnly === true ? 0 : t.y });
    });
  const applyConstraint = (): void => {
    const current = constrain;
    if (current !== undefined) behavior.constrain((t) => toTransform(current({ k: t.k, x: t.x, y: t.y })));
  };
  applyConstraint();
  selection.call(behavior);
  return {
    update(next) {
      if (next.scaleExtent !== undefined) {
        extent = next.scaleExtent;
        behavior.scaleExtent([extent[0], extent[1]]);
      }
      if (next.constrain !== undefined) {
        constrain = next.constrain;
        applyConstraint();
      }
      if (constrain !== undefined) {
        const t = zoomTransform(element);
        behavior.transform(selection, toTransform(constrain({ k: Math.min(extent[1], Math.max(extent[0], t.k)), x: t.x, y: t.y })));
      }
    },
    set(value) {
      // d3 applies the constraint to gestures and scaleBy/translateBy, not to a transform set outright.
      behavior.transform(selection, toTransform(constrain === undefined ? value : constrain(value)));
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
