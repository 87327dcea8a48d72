export type TimerHandle = ReturnType<typeof setTimeout>;

/**
 * Every timer the session layer uses, injected: tests drive time by hand, and nothing in a session
 * waits on a timer it did not get from here.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  /** Runs `callback` every `ms` until the returned function is called; never keeps the process alive. */
  every(callback: () => void, ms: number): () => void;
  /** Runs `callback` once the current turn's I/O is done (before any timer). */
  defer(callback: () => void): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle),
  every: (callback, ms) => {
    const handle = setInterval(callback, ms);
    handle.unref();
    return () => clearInterval(handle);
  },
  defer: (callback) => {
    setImmediate(callback);
  },
};
