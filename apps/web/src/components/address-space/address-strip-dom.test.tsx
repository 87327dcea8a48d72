// @vitest-environment happy-dom
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addressScene } from '../../../test/address-space-scene.ts';
import { mountDom } from '../../../test/dom-mount.tsx';
import { installShortcutHandler } from '../../hooks/shortcuts.ts';
import { buildStripModel } from '../../model/address-space/strip-model.ts';
import { AddressStrip } from './AddressStrip.tsx';

/** CSS pixels every element reports as its width (happy-dom does no layout). */
const WIDTH = 640;

/** A ResizeObserver that reports only when the test says so, like a browser a frame (or a busy second) later. */
class LateResizeObserver {
  static readonly live = new Set<LateResizeObserver>();
  readonly #callback: () => void;
  constructor(callback: () => void) {
    this.#callback = callback;
  }
  observe(): void {
    LateResizeObserver.live.add(this);
  }
  unobserve(): void {}
  disconnect(): void {
    LateResizeObserver.live.delete(this);
  }
  static reportAll(): void {
    for (const observer of LateResizeObserver.live) observer.#callback();
  }
}

let uninstall: (() => void) | undefined;
let restore: (() => void) | undefined;

beforeEach(() => {
  const original = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => WIDTH });
  const originalObserver = globalThis.ResizeObserver;
  Reflect.set(globalThis, 'ResizeObserver', LateResizeObserver);
  restore = () => {
    if (original !== undefined) Object.defineProperty(HTMLElement.prototype, 'clientWidth', original);
    Reflect.set(globalThis, 'ResizeObserver', originalObserver);
  };
});

afterEach(() => {
  uninstall?.();
  restore?.();
  LateResizeObserver.live.clear();
  document.body.innerHTML = '';
});

async function mountStrip(): Promise<HTMLElement> {
  const scene = await addressScene();
  const model = buildStripModel(scene.state, 0, scene.pid);
  uninstall = installShortcutHandler(window);
  const { container } = mountDom(
    <AddressStrip model={model} state={scene.state} selected={undefined} walkAddress={undefined} onPick={() => {}} />,
  );
  const strip = container.querySelector<HTMLElement>('[data-testid="address-strip"]');
  if (strip === null) throw new Error('the strip did not render');
  return strip;
}

const zoomOf = (strip: HTMLElement): number => Number(strip.getAttribute('data-zoom'));

function press(key: string): void {
  act(() => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });
}

describe('AddressStrip opening', () => {
  it('is fitted to what is allocated when it first shows, without waiting for the ResizeObserver', async () => {
    const strip = await mountStrip();
    // The scene spans about 11 MiB of the 128 GiB window.
    expect(zoomOf(strip)).toBeGreaterThan(1000);
    expect(Number(strip.getAttribute('data-view-end')) - Number(strip.getAttribute('data-view-start'))).toBeLessThan(32 * 1024 * 1024);
  });

  it('keeps the whole window after 0 when the first resize report arrives later', async () => {
    const strip = await mountStrip();
    press('0');
    expect(zoomOf(strip)).toBe(1);
    act(() => LateResizeObserver.reportAll());
    expect(zoomOf(strip)).toBe(1);
    press('+');
    act(() => LateResizeObserver.reportAll());
    expect(zoomOf(strip)).toBe(2);
  });
});
