// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAfterPaint } from './useAfterPaint.ts';

declare global {
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
}

const seen: (number | undefined)[] = [];

function Probe({ value }: { value: number }) {
  seen.push(useAfterPaint(value));
  return null;
}

/** Runs the frame callbacks queued so far, then the tasks they queued. */
function paintFrame(frames: (() => void)[]): void {
  act(() => {
    for (const callback of frames.splice(0)) callback();
  });
  act(() => {
    vi.runOnlyPendingTimers();
  });
}

describe('useAfterPaint', () => {
  let frames: (() => void)[] = [];
  beforeEach(() => {
    vi.useFakeTimers();
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;
    frames = [];
    vi.stubGlobal('requestAnimationFrame', (callback: () => void) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', (handle: number) => {
      frames[handle - 1] = () => undefined;
    });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('gives nothing before a frame has painted, the value after, and keeps the old value until the next frame', () => {
    seen.length = 0;
    const root = createRoot(document.createElement('div'));
    act(() => root.render(createElement(Probe, { value: 1 })));
    expect(seen.at(-1)).toBeUndefined();
    act(() => vi.runOnlyPendingTimers());
    expect(seen.at(-1)).toBeUndefined();
    paintFrame(frames);
    expect(seen.at(-1)).toBe(1);
    act(() => root.render(createElement(Probe, { value: 2 })));
    expect(seen.at(-1)).toBe(1);
    paintFrame(frames);
    expect(seen.at(-1)).toBe(2);
    act(() => root.unmount());
  });

  it('works out only the last of several changes made before a frame', () => {
    seen.length = 0;
    const root = createRoot(document.createElement('div'));
    act(() => root.render(createElement(Probe, { value: 1 })));
    act(() => root.render(createElement(Probe, { value: 2 })));
    act(() => root.render(createElement(Probe, { value: 3 })));
    paintFrame(frames);
    expect(seen.filter((value) => value !== undefined)).toEqual([3]);
    act(() => root.unmount());
  });
});
