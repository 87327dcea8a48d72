import type { PublishScheduler } from './replica-slice.ts';

/** The timer and frame calls a frame publisher needs (a window, or a fake in tests). */
export interface FrameClock {
  requestAnimationFrame(callback: () => void): number;
  cancelAnimationFrame(handle: number): void;
  setTimeout(callback: () => void, ms: number): number;
  clearTimeout(handle: number): void;
  queueMicrotask(callback: () => void): void;
  readonly performance: { now(): number };
}

/**
 * Share of the main thread the views may take re-rendering while events stream in: after a publish
 * whose re-render took `c` ms, the next waits at least `c × RENDER_BACKOFF` ms, so that applying
 * events keeps the rest and the page does not fall behind just to redraw.
 */
export const RENDER_BACKOFF = 2;

/**
 * Least time between two publishes, in ms: views follow a stream at 30 Hz (every second frame at
 * 60 Hz), which leaves the main thread time to apply events while the page still paints every frame.
 * A change after a quiet spell is shown at the next frame.
 */
export const MIN_PUBLISH_GAP_MS = 30;

/**
 * Publishes at an animation frame, so the views re-render once however many event batches arrive in
 * between: the next frame, or a later one while a stream keeps them busy (MIN_PUBLISH_GAP_MS,
 * RENDER_BACKOFF). A hidden page gets no frames: there a timer publishes instead (browsers slow it
 * to about once a second), so the replica's observers still hear of changes.
 */
export function framePublisher(clock: FrameClock, hiddenAfterMs = 250): PublishScheduler {
  let notBefore = 0;
  return (publish) => {
    let frame = 0;
    let timer = 0;
    const run = (): void => {
      clock.cancelAnimationFrame(frame);
      clock.clearTimeout(timer);
      const started = clock.performance.now();
      publish();
      // React re-renders in a microtask queued by the publish; this one runs after it.
      clock.queueMicrotask(() => {
        const ended = clock.performance.now();
        notBefore = Math.max(started + MIN_PUBLISH_GAP_MS, ended + (ended - started) * RENDER_BACKOFF);
      });
    };
    const onFrame = (): void => {
      if (clock.performance.now() < notBefore) frame = clock.requestAnimationFrame(onFrame);
      else run();
    };
    frame = clock.requestAnimationFrame(onFrame);
    timer = clock.setTimeout(run, hiddenAfterMs);
  };
}
