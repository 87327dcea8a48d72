// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { createCopiesZoom, ZOOM_STEP } from './copies-zoom.ts';

function mount(maxScale = 1000) {
  const element = document.createElement('div');
  Object.defineProperty(element, 'clientWidth', { value: 400 });
  document.body.append(element);
  const seen: { k: number; x: number }[] = [];
  const handle = createCopiesZoom(element, { maxScale, onZoom: (t) => seen.push(t) });
  return { handle, seen, last: () => seen.at(-1) };
}

describe('copies zoom behaviour', () => {
  it('zooms in and out around the middle with + and −, and 0 fits again', () => {
    const { handle, last } = mount();
    expect(handle.key('+')).toBe(true);
    expect(last()?.k).toBe(ZOOM_STEP);
    // The middle (x = 200) stays put: 200 = 200 × k + x.
    expect(last()?.x).toBeCloseTo(200 - 200 * ZOOM_STEP, 6);
    handle.key('-');
    expect(last()?.k).toBeCloseTo(1, 6);
    handle.key('=');
    handle.key('=');
    expect(last()?.k).toBeCloseTo(ZOOM_STEP * ZOOM_STEP, 6);
    handle.key('0');
    expect(last()).toEqual({ k: 1, x: 0 });
  });

  it('pans with the arrow keys by a share of the width, in screen pixels at any zoom', () => {
    const { handle, last } = mount();
    handle.zoomBy(4, 0);
    const before = last()?.x ?? 0;
    handle.key('ArrowRight');
    expect((last()?.x ?? 0) - before).toBeCloseTo(-60, 6);
    handle.key('ArrowLeft');
    expect(last()?.x).toBeCloseTo(before, 6);
  });

  it('ignores other keys and respects the zoom extent', () => {
    const { handle, last, seen } = mount(3);
    expect(handle.key('a')).toBe(false);
    expect(seen).toEqual([]);
    handle.zoomBy(100);
    expect(last()?.k).toBe(3);
    handle.update({ maxScale: 10 });
    handle.zoomBy(100);
    expect(last()?.k).toBe(10);
    handle.destroy();
  });
});
