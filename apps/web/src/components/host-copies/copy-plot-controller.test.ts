// @vitest-environment happy-dom
import type { CopyRecord, HostState } from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type CopyLayout, layoutCopies } from '../../model/host-copies/copy-lanes.ts';
import { COPY_COLORS_LIGHT } from '../../model/host-copies/copy-style.ts';
import { visibleRange } from '../../model/host-copies/time-view.ts';
import { Published } from '../../viz/published.ts';
import { CopyPlotController, type PlotInput, type PlotSummary } from './copy-plot-controller.ts';

const MiB = 1024 * 1024;

function copy(id: number, start: number, end: number): CopyRecord {
  return {
    seq: id,
    id,
    pid: 10,
    fn: 'aclrtMemcpy',
    memcpyKind: 1,
    dst: 0,
    src: 0,
    bytes: 64 * MiB,
    device: 0,
    mode: 'sync',
    path: 'pinned',
    submit: start,
    start,
    end,
    bytesPerSec: 55.25e9,
    stages: 0,
  };
}

function input(copies: CopyRecord[], over: Partial<PlotInput> = {}): PlotInput {
  const streams: HostState['streams'] = new Map();
  const layout: CopyLayout = layoutCopies(copies, streams, []);
  return {
    copies,
    layout,
    colors: COPY_COLORS_LIGHT,
    prefs: { units: 'binary', addresses: 'hex' },
    blockedLabel: 'blocked',
    related: new Set(),
    selected: undefined,
    hovered: undefined,
    selectedEvent: undefined,
    hoveredMark: undefined,
    ...over,
  };
}

function mount(copies: CopyRecord[]) {
  const element = document.createElement('div');
  Object.defineProperty(element, 'clientWidth', { value: 400 });
  document.body.append(element);
  const summary = new Published<PlotSummary | undefined>(undefined);
  const controller = new CopyPlotController(element, document.createElement('canvas'), input(copies), summary);
  return { controller, summary };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('CopyPlotController', () => {
  it('publishes the fitted view with its axis ticks, then every zoom', () => {
    const { controller, summary } = mount([copy(1, 0, 1_000_000), copy(2, 2_000_000, 3_000_000)]);
    const fitted = summary.get();
    expect(fitted?.view).toMatchObject({ width: 400, k: 1, x: 0 });
    expect(fitted?.ticks.length).toBeGreaterThan(1);
    expect(controller.key('+')).toBe(true);
    const zoomed = summary.get();
    expect(zoomed?.view.k).toBe(2);
    expect(zoomed?.ticks).not.toEqual(fitted?.ticks);
    controller.reset();
    expect(summary.get()?.view.k).toBe(1);
    controller.destroy();
  });

  it('reveals a copy off screen by centring on it, and leaves one in view alone', () => {
    const { controller, summary } = mount([copy(1, 0, 1_000_000), copy(2, 9_000_000, 10_000_000)]);
    controller.zoomBy(8);
    const [, right] = visibleRange(controller.view());
    expect(right).toBeLessThan(9_000_000);
    controller.reveal(9_000_000, 10_000_000, 9_500_000);
    const [v0, v1] = visibleRange(controller.view());
    expect((v0 + v1) / 2).toBeCloseTo(9_500_000, 0);
    const shown = summary.get();
    controller.reveal(9_400_000, 9_600_000, 9_500_000);
    expect(summary.get()).toBe(shown);
    controller.destroy();
  });

  it('refits its domain when the copies span longer', () => {
    const { controller, summary } = mount([copy(1, 0, 1_000_000)]);
    const before = summary.get()?.view.d1 ?? 0;
    controller.setInput(input([copy(1, 0, 1_000_000), copy(2, 4_000_000, 5_000_000)]));
    expect(summary.get()?.view.d1).toBeGreaterThan(before);
    controller.destroy();
  });

  it('refits its domain to an event mark later than every copy (EV-2)', () => {
    const { controller, summary } = mount([copy(1, 0, 1_000_000)]);
    const before = summary.get()?.view.d1 ?? 0;
    const streams: HostState['streams'] = new Map([
      [5, { id: 5, pid: 10, device: 0, handle: 0x50, isDefault: false, busyUntil: 0, failureMode: 0 }],
    ]);
    const mark = { kind: 'record', seq: 9, event: 8, handle: 0x80, pid: 10, device: 0, stream: 5, at: 6_000_000, rule: 'EV-2' } as const;
    const copies = [copy(1, 0, 1_000_000)];
    controller.setInput(input(copies, { layout: layoutCopies(copies, streams, [], [mark]) }));
    expect(summary.get()?.view.d1).toBeGreaterThan(Math.max(before, 6_000_000));
    controller.destroy();
  });
});
