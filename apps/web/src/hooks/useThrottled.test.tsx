// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useThrottled } from './useThrottled.ts';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

const seen: number[] = [];

function Probe({ value }: { value: number }) {
  seen.push(useThrottled(value, 200));
  return null;
}

describe('useThrottled', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  });
  afterEach(() => vi.useRealTimers());

  it('shows the first change at once and the last of a burst after the interval', () => {
    seen.length = 0;
    const root = createRoot(document.createElement('div'));
    act(() => root.render(createElement(Probe, { value: 1 })));
    act(() => root.render(createElement(Probe, { value: 2 })));
    expect(seen.at(-1)).toBe(2);
    act(() => root.render(createElement(Probe, { value: 3 })));
    act(() => root.render(createElement(Probe, { value: 4 })));
    expect(seen.at(-1)).toBe(2);
    act(() => {
      vi.advanceTimersByTime(250);
    });
    expect(seen.at(-1)).toBe(4);
    expect(seen).not.toContain(3);
    act(() => root.unmount());
  });
});
