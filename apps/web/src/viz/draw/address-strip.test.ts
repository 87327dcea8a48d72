import { describe, expect, it } from 'vitest';
import { asContext, RecordingContext } from '../../../test/recording-context.ts';
import { viewOf } from '../../model/address-space/strip-layout.ts';
import { RangeKind, type RangeSet, type StripModel } from '../../model/address-space/strip-model.ts';
import { LIGHT, ownerColor } from '../../model/colors.ts';
import { drawAddressOverlay } from './address-overlay.ts';
import { drawAddressStrip, MAPPING_INSET, STRIP_PAD } from './address-strip.ts';

const BASE = 16 * 1024 ** 4;
const MiB = 1024 * 1024;

function set(items: { start: number; end: number; kind: number; id: number; pageSize: number }[]): RangeSet {
  return {
    count: items.length,
    start: Float64Array.from(items.map((i) => i.start)),
    end: Float64Array.from(items.map((i) => i.end)),
    kind: Uint8Array.from(items.map((i) => i.kind)),
    id: Int32Array.from(items.map((i) => i.id)),
    color: Int32Array.from(items.map((i) => i.id)),
    pageClass: Uint8Array.from(items.map((i) => (i.pageSize === 2 * MiB ? 1 : 0))),
    pageSize: Float64Array.from(items.map((i) => i.pageSize)),
  };
}

const model: StripModel = {
  device: 0,
  pid: 1,
  domainStart: BASE,
  domainEnd: BASE + 16 * MiB,
  blocks: set([
    { start: BASE, end: BASE + 4 * MiB, kind: RangeKind.allocation, id: 7, pageSize: 2 * MiB },
    { start: BASE + 8 * MiB, end: BASE + 10 * MiB, kind: RangeKind.mapping, id: 9, pageSize: 2 * MiB },
  ]),
  reservations: set([{ start: BASE + 8 * MiB, end: BASE + 12 * MiB, kind: RangeKind.reservation, id: 8, pageSize: 0 }]),
};

describe('drawAddressStrip', () => {
  it('paints holes, the reservation outline, allocations full height and mappings inset, in owner colours', () => {
    const ctx = new RecordingContext();
    const view = viewOf({ start: model.domainStart, end: model.domainEnd }, 1600, { k: 1, x: 0 });
    drawAddressStrip(asContext(ctx), 1600, 64, { model, view, palette: LIGHT, dark: false, colorBy: 'owner' });
    const fills = ctx.ops('fillRect');
    expect(fills[0]).toMatchObject({ fillStyle: LIGHT.free, args: [0, 0, 1600, 64] });
    const allocation = fills.find((f) => f.fillStyle === ownerColor(7));
    expect(allocation?.args).toEqual([0, STRIP_PAD, 399, 64 - 2 * STRIP_PAD]);
    const mapping = fills.find((f) => f.fillStyle === ownerColor(9));
    expect(mapping?.args).toEqual([800, STRIP_PAD + MAPPING_INSET, 199, 64 - 2 * STRIP_PAD - 2 * MAPPING_INSET]);
    expect(ctx.ops('strokeRect')[0]?.args).toEqual([800.5, STRIP_PAD + 0.5, 399, 64 - 2 * STRIP_PAD - 1]);
    // 2 MiB pages are 200 px wide here: one boundary inside the 4 MiB allocation is drawn.
    expect(ctx.ops('moveTo').map((op) => op.args[0])).toEqual([200.5]);
  });

  it('colours by page kind when asked', () => {
    const ctx = new RecordingContext();
    const view = viewOf({ start: model.domainStart, end: model.domainEnd }, 1600, { k: 1, x: 0 });
    drawAddressStrip(asContext(ctx), 1600, 64, { model, view, palette: LIGHT, dark: false, colorBy: 'kind' });
    expect(ctx.ops('fillRect').filter((f) => f.fillStyle === LIGHT.huge)).toHaveLength(2);
  });

  it('culls what is out of view', () => {
    const ctx = new RecordingContext();
    // Only the first 2 MiB are visible.
    const view = viewOf({ start: model.domainStart, end: model.domainEnd }, 800, { k: 8, x: 0 });
    drawAddressStrip(asContext(ctx), 800, 64, { model, view, palette: LIGHT, dark: false, colorBy: 'owner' });
    expect(ctx.ops('fillRect').some((f) => f.fillStyle === ownerColor(9))).toBe(false);
    expect(ctx.ops('strokeRect')).toHaveLength(0);
  });
});

describe('drawAddressOverlay', () => {
  it('outlines the selection, keeps a tiny selection findable and marks the walk address', () => {
    const ctx = new RecordingContext();
    const view = viewOf({ start: model.domainStart, end: model.domainEnd }, 1600, { k: 1, x: 0 });
    drawAddressOverlay(asContext(ctx), 1600, 64, {
      view,
      palette: LIGHT,
      selected: { start: BASE + 8 * MiB, end: BASE + 8 * MiB + 4096 },
      hovered: undefined,
      walkAddress: BASE + 4 * MiB,
    });
    const selection = ctx.ops('strokeRect').find((op) => op.strokeStyle === LIGHT.selection);
    expect(selection?.args[2]).toBe(3); // 4 KiB is 0.4 px here; drawn 3 px wide
    expect(ctx.ops('moveTo').some((op) => op.args[0] === 400.5)).toBe(true);
  });
});
