import { useEffect, useRef, useState } from 'react';

/**
 * `value`, changing at most once per `ms`: the first change after a quiet spell shows at once, a
 * burst shows its last value when the interval ends. Views that rebuild big models from the live
 * state (the TLB tables, the address-space rows: tens of ms with 100,000 allocations) use it so a
 * stream of events costs a few rebuilds a second instead of one per batch.
 */
export function useThrottled<T>(value: T, ms: number): T {
  const [shown, setShown] = useState(value);
  const last = useRef(Number.NEGATIVE_INFINITY);
  useEffect(() => {
    if (Object.is(value, shown)) return undefined;
    const show = () => {
      last.current = performance.now();
      setShown(value);
    };
    const wait = last.current + ms - performance.now();
    if (wait <= 0) {
      show();
      return undefined;
    }
    const timer = setTimeout(show, wait);
    return () => clearTimeout(timer);
  }, [value, shown, ms]);
  return shown;
}
