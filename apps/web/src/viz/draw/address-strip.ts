import { bytesPerPixel, layoutRanges, type StripRect, type StripView, vaToX } from '../../model/address-space/strip-layout.ts';
import { RangeKind, type RangeSet, type StripModel } from '../../model/address-space/strip-model.ts';
import { ownerColor, type Palette } from '../../model/colors.ts';

export interface StripScene {
  readonly model: StripModel;
  readonly view: StripView;
  readonly palette: Palette;
  readonly dark: boolean;
  readonly colorBy: 'owner' | 'kind';
}

/** Vertical layout of the lane, in CSS pixels. */
export const STRIP_PAD = 4;
/** Mappings sit this far inside their reservation's outline, so the outline stays visible. */
export const MAPPING_INSET = 9;
/** Page boundaries are drawn once a page is at least this wide. */
export const PAGE_LINE_MIN_PX = 6;

export function fillColor(set: RangeSet, index: number, scene: StripScene): string {
  if (scene.colorBy === 'kind') {
    const code = set.pageClass[index] ?? 0;
    return code === 2 ? scene.palette.giant : code === 1 ? scene.palette.huge : scene.palette.normal;
  }
  return ownerColor(set.color[index] ?? 0, scene.dark);
}

/**
 * The base layer: holes (the free background), reservations (dashed outlines), allocations and
 * mappings (fills), page boundaries once pages are wide enough to see. Only what is in view is
 * touched; sub-pixel ranges arrive merged per pixel from layoutRanges.
 */
export function drawAddressStrip(ctx: CanvasRenderingContext2D, width: number, height: number, scene: StripScene): void {
  const { palette, model, view } = scene;
  ctx.clearRect(0, 0, width, height);
  ctx.fillStyle = palette.free;
  ctx.fillRect(0, 0, width, height);
  const top = STRIP_PAD;
  const bottom = height - STRIP_PAD;

  const reservations = layoutRanges(model.reservations, view);
  ctx.fillStyle = palette.background;
  for (const r of reservations) ctx.fillRect(r.x0, top, Math.max(1, r.x1 - r.x0), bottom - top);
  ctx.strokeStyle = palette.muted;
  ctx.lineWidth = 1;
  ctx.setLineDash([4, 3]);
  for (const r of reservations) {
    if (r.x1 - r.x0 >= 3) ctx.strokeRect(r.x0 + 0.5, top + 0.5, r.x1 - r.x0 - 1, bottom - top - 1);
  }
  ctx.setLineDash([]);

  const blocks = layoutRanges(model.blocks, view);
  for (const rect of blocks) drawBlock(ctx, rect, scene, top, bottom);
  drawPageLines(ctx, blocks, scene, top, bottom);
}

/** Mappings and IPC imports reach pages that are not theirs: drawn inset, as on the page map. */
function insetOf(kind: number | undefined): number {
  return kind === RangeKind.mapping || kind === RangeKind.ipcImport ? MAPPING_INSET : 0;
}

function drawBlock(ctx: CanvasRenderingContext2D, rect: StripRect, scene: StripScene, top: number, bottom: number): void {
  const set = scene.model.blocks;
  const inset = insetOf(set.kind[rect.index]);
  // Aggregates fade with how little of their pixel is used, but never below 0.7: a lone 4 KiB
  // allocation must stay visible at the whole-window zoom.
  ctx.globalAlpha = rect.count > 1 || rect.coverage < 1 ? 0.7 + 0.3 * rect.coverage : 1;
  ctx.fillStyle = fillColor(set, rect.index, scene);
  // A one-pixel gap at the right edge tells neighbours apart once they are a few pixels wide.
  const w = rect.x1 - rect.x0 >= 4 ? rect.x1 - rect.x0 - 1 : Math.max(1, rect.x1 - rect.x0);
  ctx.fillRect(rect.x0, top + inset, w, bottom - top - 2 * inset);
  ctx.globalAlpha = 1;
}

/** Page boundaries inside each visible block, once its pages are PAGE_LINE_MIN_PX wide (down to single 4 KiB pages). */
function drawPageLines(ctx: CanvasRenderingContext2D, blocks: readonly StripRect[], scene: StripScene, top: number, bottom: number): void {
  const set = scene.model.blocks;
  const perPixel = bytesPerPixel(scene.view);
  ctx.strokeStyle = scene.dark ? 'rgba(0, 0, 0, 0.45)' : 'rgba(255, 255, 255, 0.7)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  let any = false;
  for (const rect of blocks) {
    if (rect.count !== 1) continue;
    const pageSize = set.pageSize[rect.index] ?? 0;
    if (pageSize <= 0 || pageSize / perPixel < PAGE_LINE_MIN_PX) continue;
    const start = set.start[rect.index] ?? 0;
    const end = set.end[rect.index] ?? 0;
    const inset = insetOf(set.kind[rect.index]);
    const from = Math.max(start + pageSize, start + Math.ceil((scene.view.start - start) / pageSize) * pageSize);
    for (let va = from; va < end && va <= scene.view.end; va += pageSize) {
      const x = Math.round(vaToX(scene.view, va)) + 0.5;
      ctx.moveTo(x, top + inset);
      ctx.lineTo(x, bottom - inset);
      any = true;
    }
  }
  if (any) ctx.stroke();
}
