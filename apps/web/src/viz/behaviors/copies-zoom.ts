import { createZoom, type ZoomBehaviorHandle } from './zoom.ts';

export interface CopiesZoomOptions {
  /** Largest zoom factor (the narrowest visible span is the fitted span ÷ this). */
  readonly maxScale: number;
  readonly onZoom: (transform: { readonly k: number; readonly x: number }) => void;
}

export interface CopiesZoomHandle {
  /** Zooms by `factor` around screen x `at` (default: the middle). */
  zoomBy(factor: number, at?: number): void;
  /** Moves the picture by `dx` CSS px (positive: later times come into view from the left). */
  panBy(dx: number): void;
  set(transform: { readonly k: number; readonly x: number }): void;
  /** Back to the whole timeline. */
  reset(): void;
  /** Handles a key pressed while the timeline has focus (arrows pan, + − zoom, 0 fits); true when handled. */
  key(key: string): boolean;
  update(options: { readonly maxScale: number }): void;
  destroy(): void;
}

/** Fraction of the width one arrow key press pans. */
const PAN_STEP = 0.15;
/** Zoom factor of one key press or button click. */
export const ZOOM_STEP = 2;

/**
 * Horizontal zoom for the copy timeline: wheel, drag and pinch through `createZoom` (x only), and
 * the keyboard through `key` (the view calls it from the focused element's keydown and stops the
 * event there, so the time-travel arrows do not also fire).
 */
export function createCopiesZoom(element: HTMLElement, options: CopiesZoomOptions): CopiesZoomHandle {
  const zoom: ZoomBehaviorHandle = createZoom(element, {
    scaleExtent: [1, options.maxScale],
    xOnly: true,
    onZoom: (t) => options.onZoom({ k: t.k, x: t.x }),
  });
  const panBy = (dx: number): void => {
    zoom.translateBy(dx / zoom.current().k, 0);
  };
  const zoomBy = (factor: number, at?: number): void => {
    zoom.scaleBy(factor, [at ?? element.clientWidth / 2, 0]);
  };
  const reset = (): void => zoom.set({ k: 1, x: 0, y: 0 });
  return {
    zoomBy,
    panBy,
    key(key) {
      switch (key) {
        case 'ArrowLeft':
          panBy(element.clientWidth * PAN_STEP);
          return true;
        case 'ArrowRight':
          panBy(-element.clientWidth * PAN_STEP);
          return true;
        case '+':
        case '=':
          zoomBy(ZOOM_STEP);
          return true;
        case '-':
          zoomBy(1 / ZOOM_STEP);
          return true;
        case '0':
          reset();
          return true;
        default:
          return false;
      }
    },
    set(transform) {
      zoom.set({ k: transform.k, x: transform.x, y: 0 });
    },
    reset,
    update(next) {
      zoom.update({ scaleExtent: [1, next.maxScale] });
    },
    destroy() {
      zoom.destroy();
    },
  };
}
