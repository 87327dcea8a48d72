import { useEffect, useRef, useState } from 'react';

/**
 * `value`, passed on at most once per `ms`: the first change after a quiet spell at once, the
 * rest trailing. The view rebuilds its sorted models (100,000 rows) from the replica, which can
 * change thousands of times a second while a script runs; this keeps that work to a few per second.
 */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(0);
  useEffect(() => {
    if (Object.is(value, shown)) return undefined;
    const publish = (): void => {
      last.current = performance.now();
      setShown(value);
    };
    const wait = last.current + ms - performance.now();
    if (wait <= 0) {
      publish();
      return undefined;
    }
    const timer = setTimeout(publish, wait);
    return () => clearTimeout(timer);
  }, [value, shown, ms]);
  return shown;
}
