/** A full redraw, timed: the draw calls alone, and until the pixels are on the canvas. */
export interface DrawTiming {
  readonly drawMs: number;
  readonly flushedMs: number;
}

/**
 * What benchmarks and browser tests can ask the page map: time a full redraw, find where a frame
 * or page is on screen (the tests' eyes), and read the zoom.
 */
export interface PageMapHooks {
  draw(): DrawTiming;
  /** When the map was last painted (performance.now() ms) and how many paints there have been. */
  lastPaint(): { at: number; count: number };
  /**
   * While on, every scheduled paint is timed including a one-pixel read-back (so the time covers
   * the drawing, not only issuing it); `samples()` returns and clears those times in ms.
   */
  record(on: boolean): void;
  samples(): number[];
  locate(frame: number, page?: number): { x: number; y: number } | undefined;
  view(): { k: number; x: number; y: number; level: string };
}

declare global {
  interface Window {
    __pagelensPageMap?: PageMapHooks | undefined;
    /** A full page-map redraw; returns its duration in ms (bench). */
    __pagelensPageMapDraw?: (() => number) | undefined;
  }
}

export function installMapHooks(target: Window, hooks: PageMapHooks): () => void {
  target.__pagelensPageMap = hooks;
  target.__pagelensPageMapDraw = () => hooks.draw().flushedMs;
  return () => {
    if (target.__pagelensPageMap === hooks) {
      target.__pagelensPageMap = undefined;
      target.__pagelensPageMapDraw = undefined;
    }
  };
}
