import { select } from 'd3-selection';
import { type D3ZoomEvent, type ZoomBehavior, zoom, zoomIdentity, zoomTransform } from 'd3-zoom';

export interface PageMapZoomValue {
  readonly k: number;
  readonly x: number;
  readonly y: number;
}

export interface PageMapZoomOptions {
  readonly scaleExtent: readonly [number, number];
  /** Corrects a transform so the map stays in view (a pure function of the transform). */
  readonly constrain: (transform: PageMapZoomValue) => PageMapZoomValue;
  readonly onZoom: (transform: PageMapZoomValue) => void;
}

export interface PageMapZoomHandle {
  update(options: Pick<PageMapZoomOptions, 'scaleExtent' | 'constrain'>): void;
  set(transform: PageMapZoomValue): void;
  scaleBy(factor: number, at?: readonly [number, number]): void;
  translateBy(dx: number, dy: number): void;
  current(): PageMapZoomValue;
  destroy(): void;
}

/**
 * Wheel, drag and pinch zoom for the page map (d3-zoom), with the pan constrained so the device
 * cannot be dragged out of sight. Keyboard zoom goes through scaleBy/translateBy
 * so every path shares the same constraints.
 */
export function createPageMapZoom(element: Element, options: PageMapZoomOptions): PageMapZoomHandle {
  const selection = select(element);
  const behavior: ZoomBehavior<Element, unknown> = zoom<Element, unknown>().on('zoom', (event: D3ZoomEvent<Element, unknown>) => {
    const t = event.transform;
    options.onZoom({ k: t.k, x: t.x, y: t.y });
  });
  let constrain = options.constrain;
  const apply = (next: Pick<PageMapZoomOptions, 'scaleExtent' | 'constrain'>): void => {
    constrain = next.constrain;
    behavior.scaleExtent([next.scaleExtent[0], next.scaleExtent[1]]);
    behavior.constrain((transform) => {
      const c = next.constrain({ k: transform.k, x: transform.x, y: transform.y });
      return zoomIdentity.translate(c.x, c.y).scale(c.k);
    });
  };
  apply(options);
  selection.call(behavior);
  return {
    update(next) {
      apply(next);
      // Re-apply the current transform so it obeys the new limits.
      const t = zoomTransform(element);
      const c = constrain({ k: Math.min(next.scaleExtent[1], Math.max(next.scaleExtent[0], t.k)), x: t.x, y: t.y });
      behavior.transform(selection, zoomIdentity.translate(c.x, c.y).scale(c.k));
    },
    set(value) {
      // d3 applies the constraint to gestures and scaleBy/translateBy, not to a transform set outright.
      const c = constrain(value);
      behavior.transform(selection, zoomIdentity.translate(c.x, c.y).scale(c.k));
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
