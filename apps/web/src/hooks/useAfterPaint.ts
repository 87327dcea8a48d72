import { useEffect, useState } from 'react';

/**
 * `value` once a frame has been painted since it changed (undefined until the first one has): for
 * panels whose figures take long to work out (the peak of a million-entry file: a few hundred ms),
 * so that the view they sit beside paints first. Until then the panel keeps showing what it showed
 * for the previous value. A change before the frame restarts the wait, so only the last is worked out.
 */
export function useAfterPaint<T>(value: T): T | undefined {
  const [shown, setShown] = useState<{ readonly value: T } | undefined>(undefined);
  useEffect(() => {
    if (shown !== undefined && Object.is(shown.value, value)) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // A task queued from a frame callback runs after that frame's rendering.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setShown({ value }), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [value, shown]);
  return shown?.value;
}
