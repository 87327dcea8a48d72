import type { CopyRecord, HostState } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { asContext, RecordingContext } from '../../../test/recording-context.ts';
import { layoutCopies } from '../../model/host-copies/copy-lanes.ts';
import { COPY_COLORS_LIGHT } from '../../model/host-copies/copy-style.ts';
import type { TimeView } from '../../model/host-copies/time-view.ts';
import { BAR_INSET, type CopyScene, drawCopyTimeline, STAGE_GAP } from './copies-timeline.ts';

const MiB = 1024 * 1024;
const ROW = 30;
const colors = COPY_COLORS_LIGHT;

function copy(over: Partial<CopyRecord>): CopyRecord {
  return {
    seq: 1,
    id: 1,
    pid: 10,
    fn: 'aclrtMemcpy',
    memcpyKind: 1,
    dst: 0,
    src: 0,
    bytes: 64 * MiB,
    device: 0,
    mode: 'sync',
    path: 'pinned',
    submit: 0,
    start: 0,
    end: 1000,
    bytesPerSec: 55.25e9,
    stages: 0,
    ...over,
  };
}

function scene(copies: CopyRecord[], over: Partial<CopyScene> = {}, view: Partial<TimeView> = {}): CopyScene {
  const layout = layoutCopies(copies, new Map() as HostState['streams'], []);
  return {
    copies,
    layout,
    view: { d0: 0, d1: 4000, width: 400, k: 1, x: 0, ...view },
    rowHeight: ROW,
    colors,
    prefs: { units: 'binary', addresses: 'hex' },
    blockedLabel: 'blocked',
    ...over,
  };
}

function draw(s: CopyScene): RecordingContext {
  const ctx = new RecordingContext();
  drawCopyTimeline(asContext(ctx), 400, s.layout.lanes.length * ROW, s);
  return ctx;
}

/** Bars are the fills of the inset height. */
const bars = (ctx: RecordingContext) => ctx.ops('fillRect').filter((op) => op.args[3] === ROW - 2 * BAR_INSET);

describe('drawCopyTimeline', () => {
  it('draws one bar per copy at its time, on its lane, in its path colour', () => {
    const ctx = draw(
      scene([
        copy({ id: 1, path: 'pinned', start: 0, end: 1000 }),
        copy({ id: 2, path: 'device', mode: 'async', stream: 7, start: 2000, end: 3000 }),
      ]),
    );
    expect(bars(ctx).map((op) => [op.fillStyle, ...op.args])).toEqual([
      [colors.paths.pinned, 0, BAR_INSET, 100, ROW - 2 * BAR_INSET],
      [colors.paths.device, 200, ROW + BAR_INSET, 100, ROW - 2 * BAR_INSET],
    ]);
  });

  it('HM-1: a pageable bar is hatched and cut into its staging chunks; a pinned one is not', () => {
    const staged = draw(scene([copy({ path: 'pageable-staged', stages: 4, start: 0, end: 4000 })]));
    expect(bars(staged)[0]?.fillStyle).toBe(colors.paths['pageable-staged']);
    // 3 chunk gaps cut at 100, 200, 300.
    const gaps = staged.ops('fillRect').filter((op) => op.fillStyle === colors.background);
    expect(gaps.map((op) => (op.args[0] as number) + STAGE_GAP / 2)).toEqual([100, 200, 300]);
    expect(staged.ops('clip').length).toBeGreaterThan(0);
    expect(staged.ops('stroke').some((op) => op.strokeStyle === colors.stagingHatch)).toBe(true);
    const pinned = draw(scene([copy({ path: 'pinned', start: 0, end: 4000 })]));
    expect(pinned.ops('fillRect').filter((op) => op.fillStyle === colors.background)).toEqual([]);
    expect(pinned.ops('stroke').some((op) => op.strokeStyle === colors.stagingHatch)).toBe(false);
  });

  it('culls copies outside the visible range', () => {
    const copies = [copy({ id: 1, start: 0, end: 100 }), copy({ id: 2, submit: 3000, start: 3000, end: 3100 })];
    // Zoomed 4× on the first quarter: [0, 1000] visible.
    const ctx = draw(scene(copies, {}, { k: 4, x: 0 }));
    expect(bars(ctx)).toHaveLength(1);
    // A copy that queued from inside the view but runs after it: only its wait line is drawn.
    const late = draw(scene([copy({ submit: 500, start: 3000, end: 3100 })], {}, { k: 4, x: 0 }));
    expect(bars(late)).toEqual([]);
    expect(late.ops('moveTo').some((op) => op.args[0] === 200)).toBe(true);
  });

  it('zoomed out, draws one bar per path per pixel column instead of every tiny copy', () => {
    // 1000 copies of 1 ns each inside the first 10 ns: one pixel column at 10 ns per pixel.
    const tiny = Array.from({ length: 1000 }, (_, i) =>
      copy({ id: i, path: i % 2 === 0 ? 'pinned' : 'device', submit: i / 100, start: i / 100, end: i / 100 + 1 }),
    );
    const ctx = draw(scene(tiny));
    expect(bars(ctx).length).toBeLessThanOrEqual(1000 / 2);
    expect(new Set(bars(ctx).map((op) => op.fillStyle))).toEqual(new Set([colors.paths.pinned, colors.paths.device]));
    const one = draw(scene(tiny.filter((_, i) => i % 2 === 0)));
    expect(bars(one)).toHaveLength(1);
  });

  it('HM-3: draws the host lane blocked during a blocking copy, with its label, but not during an async one', () => {
    const blocking = draw(scene([copy({ mode: 'async-blocking', stream: 3, submit: 0, start: 0, end: 2000 })]));
    const band = blocking.ops('fillRect').find((op) => op.fillStyle === colors.blocked);
    expect(band?.args.slice(0, 1)).toEqual([0]);
    expect(band?.args[2]).toBe(200);
    expect(blocking.ops('fillText').map((op) => op.args[0])).toContain('blocked');
    const free = draw(scene([copy({ mode: 'async', stream: 3, submit: 0, start: 0, end: 2000 })]));
    expect(free.ops('fillRect').some((op) => op.fillStyle === colors.blocked)).toBe(false);
  });

  it('CP-4: draws the queued wait as a dashed line from submit to start', () => {
    const ctx = draw(scene([copy({ mode: 'async', stream: 3, submit: 500, start: 1500, end: 2500 })]));
    expect(ctx.ops('setLineDash')[0]?.args).toEqual([[3, 3]]);
    const line = ctx.ops('moveTo').find((op) => op.args[0] === 50);
    expect(line?.args).toEqual([50, ROW + ROW / 2]);
    expect(ctx.ops('lineTo').some((op) => op.args[0] === 150 && op.args[1] === ROW + ROW / 2)).toBe(true);
  });

  it('writes size and bandwidth inside a wide bar only', () => {
    const wide = draw(scene([copy({ start: 0, end: 4000 })]));
    expect(wide.ops('fillText').map((op) => op.args[0])).toContain('64 MiB · 55.3 GB/s');
    const narrow = draw(scene([copy({ start: 0, end: 100 })]));
    expect(narrow.ops('fillText')).toEqual([]);
  });

  it('outlines the selected copy in the selection colour and the hovered one', () => {
    const copies = [copy({ id: 1, start: 0, end: 1000 }), copy({ id: 2, start: 2000, end: 3000 })];
    const ctx = draw(scene(copies, { selected: 1, hovered: 0 }));
    const strokes = ctx.ops('strokeRect');
    expect(strokes.some((op) => op.strokeStyle === colors.selection && (op.args[0] as number) < 201 && (op.args[0] as number) > 198)).toBe(
      true,
    );
    expect(strokes.some((op) => op.strokeStyle === colors.hover && (op.args[0] as number) < 1)).toBe(true);
    expect(draw(scene(copies)).ops('strokeRect')).toEqual([]);
  });
});
