import { describe, expect, it } from 'vitest';
import { type FrameClock, framePublisher, RENDER_BACKOFF } from './frame-publisher.ts';

function fakeClock() {
  const frames = new Map<number, () => void>();
  const timers = new Map<number, () => void>();
  const microtasks: (() => void)[] = [];
  let next = 1;
  let now = 0;
  const clock: FrameClock = {
    requestAnimationFrame: (callback) => {
      frames.set(next, callback);
      return next++;
    },
    cancelAnimationFrame: (handle) => frames.delete(handle),
    setTimeout: (callback) => {
      timers.set(next, callback);
      return next++;
    },
    clearTimeout: (handle) => timers.delete(handle),
    queueMicrotask: (callback) => microtasks.push(callback),
    performance: { now: () => now },
  };
  const run = (map: Map<number, () => void>) => {
    for (const [handle, callback] of [...map]) {
      map.delete(handle);
      callback();
    }
    for (const task of microtasks.splice(0)) task();
  };
  return {
    clock,
    frames,
    timers,
    /** One frame 16 ms later. */
    frame: () => {
      now += 16;
      run(frames);
    },
    runTimers: () => run(timers),
    /** Time a publish spends re-rendering. */
    spend: (ms: number) => {
      now += ms;
    },
  };
}

describe('framePublisher', () => {
  it('publishes at the next frame and cancels the fallback timer', () => {
    const { clock, frames, timers, frame } = fakeClock();
    let published = 0;
    framePublisher(clock)(() => {
      published += 1;
    });
    expect(published).toBe(0);
    frame();
    expect(published).toBe(1);
    expect(frames.size + timers.size).toBe(0);
  });

  it('publishes from the timer when no frame comes (a hidden page), once', () => {
    const { clock, runTimers, frame } = fakeClock();
    let published = 0;
    framePublisher(clock)(() => {
      published += 1;
    });
    runTimers();
    frame();
    expect(published).toBe(1);
  });

  it('after a slow re-render, skips frames so that re-rendering takes at most a third of the time', () => {
    const { clock, frame, spend } = fakeClock();
    const publisher = framePublisher(clock);
    const publishedAt: number[] = [];
    let frames = 0;
    const schedule = (): void =>
      publisher(() => {
        publishedAt.push(frames);
        spend(40);
      });
    schedule();
    for (frames = 1; frames <= 30; frames += 1) {
      frame();
      if (publishedAt.length > 0 && publishedAt.at(-1) === frames) schedule();
    }
    // 40 ms re-renders: at most one publish per 40 × (1 + RENDER_BACKOFF) ms of frames.
    const gaps = publishedAt.slice(1).map((at, index) => (at - (publishedAt[index] ?? 0)) * 16 + 40);
    expect(publishedAt.length).toBeGreaterThan(3);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(40 * (1 + RENDER_BACKOFF));
  });

  it('follows a stream at 30 Hz when re-rendering is cheap, and shows a change after a quiet spell at the next frame', () => {
    const { clock, frame, spend } = fakeClock();
    const publisher = framePublisher(clock);
    let published = 0;
    let pending = false;
    for (let i = 0; i < 20; i += 1) {
      if (!pending) {
        pending = true;
        publisher(() => {
          pending = false;
          published += 1;
          spend(1);
        });
      }
      frame();
    }
    expect(published).toBe(10);
    for (let i = 0; i < 5; i += 1) frame();
    expect(published).toBe(11);
    publisher(() => {
      published += 1;
    });
    frame();
    expect(published).toBe(12);
  });
});
