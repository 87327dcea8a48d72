// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addressScene } from '../../../test/address-space-scene.ts';
import { buildStripModel, type StripModel } from '../../model/address-space/strip-model.ts';
import { Published } from '../../viz/published.ts';
import { AddressStripController, type StripInput, type StripSummary } from './address-strip-controller.ts';

/** A ResizeObserver the test reports through, as a browser would a frame later. */
class ManualResizeObserver {
  static readonly live = new Set<ManualResizeObserver>();
  readonly #callback: () => void;
  constructor(callback: () => void) {
    this.#callback = callback;
  }
  observe(): void {
    ManualResizeObserver.live.add(this);
  }
  unobserve(): void {}
  disconnect(): void {
    ManualResizeObserver.live.delete(this);
  }
  static report(): void {
    for (const observer of ManualResizeObserver.live) observer.#callback();
  }
}

let width = 640;
let restore: (() => void) | undefined;

beforeEach(() => {
  const original = globalThis.ResizeObserver;
  Reflect.set(globalThis, 'ResizeObserver', ManualResizeObserver);
  restore = () => Reflect.set(globalThis, 'ResizeObserver', original);
  width = 640;
});

afterEach(() => {
  restore?.();
  ManualResizeObserver.live.clear();
  document.body.innerHTML = '';
});

function input(model: StripModel): StripInput {
  return { model, dark: false, colorBy: 'owner', selected: undefined, hovered: undefined, walkAddress: undefined };
}

async function mount() {
  const scene = await addressScene();
  const element = document.createElement('div');
  Object.defineProperty(element, 'clientWidth', { get: () => width });
  document.body.append(element);
  const summary = new Published<StripSummary | undefined>(undefined);
  let published = 0;
  summary.subscribe(() => {
    published += 1;
  });
  const model = buildStripModel(scene.state, 0, scene.pid);
  const controller = new AddressStripController(
    element,
    document.createElement('canvas'),
    document.createElement('canvas'),
    input(model),
    summary,
  );
  return { scene, model, controller, summary, published: () => published };
}

describe('AddressStripController', () => {
  it('opens fitted to what is allocated, and publishes every zoom for the parts React shows', async () => {
    const { controller, summary, scene } = await mount();
    const opened = summary.get();
    expect(opened?.zoom.k).toBeGreaterThan(1000);
    expect(opened?.view.start).toBeLessThanOrEqual(scene.huge);
    controller.showWindow();
    expect(summary.get()?.zoom).toEqual({ k: 1, x: 0 });
    controller.zoomBy(2);
    expect(summary.get()?.zoom.k).toBeCloseTo(2, 9);
    expect(summary.get()?.view).toEqual(controller.view());
    controller.destroy();
  });

  it('ignores resize reports of an unchanged width, and re-limits the zoom to a new one', async () => {
    const { controller, summary, published } = await mount();
    controller.showWindow();
    controller.zoomBy(4);
    const before = published();
    ManualResizeObserver.report();
    expect(published()).toBe(before);
    expect(summary.get()?.zoom.k).toBeCloseTo(4, 9);
    width = 320;
    ManualResizeObserver.report();
    expect(summary.get()?.view.width).toBe(320);
    expect(controller.width()).toBe(320);
    controller.destroy();
  });

  it('fits again for another process, not for new content of the same one', async () => {
    const { controller, summary, scene, model } = await mount();
    controller.showWindow();
    controller.setInput({ ...input(model), model: buildStripModel(scene.state, 0, scene.pid) });
    expect(summary.get()?.zoom.k).toBe(1);
    controller.setInput(input(buildStripModel(scene.state, 0, scene.otherPid)));
    expect(summary.get()?.zoom.k).toBeGreaterThan(1000);
    controller.destroy();
  });

  it('waits for a width before the opening fit', async () => {
    width = 0;
    const { controller, summary } = await mount();
    expect(summary.get()?.zoom.k).toBe(1);
    width = 640;
    ManualResizeObserver.report();
    expect(summary.get()?.zoom.k).toBeGreaterThan(1000);
    controller.destroy();
    expect(ManualResizeObserver.live.size).toBe(0);
  });
});
