import type { StripView } from '../../model/address-space/strip-layout.ts';
import { vaToX } from '../../model/address-space/strip-layout.ts';
import type { Palette } from '../../model/colors.ts';
import { STRIP_PAD } from './address-strip.ts';

export interface OverlayRange {
  readonly start: number;
  readonly end: number;
}

export interface OverlayScene {
  readonly view: StripView;
  readonly palette: Palette;
  readonly selected: OverlayRange | undefined;
  readonly hovered: OverlayRange | undefined;
  /** The address whose translation walk is shown. */
  readonly walkAddress: number | undefined;
}

/** Smallest drawn width of a highlighted range, so a selected 4 KiB allocation stays findable at full zoom-out. */
export const MIN_HIGHLIGHT_PX = 3;

function span(view: StripView, range: OverlayRange): [number, number] | undefined {
  const x0 = vaToX(view, range.start);
  const x1 = vaToX(view, range.end);
  if (x1 < -2 || x0 > view.width + 2) return undefined;
  const centre = (x0 + x1) / 2;
  const width = Math.max(MIN_HIGHLIGHT_PX, x1 - x0);
  return [Math.max(-2, centre - width / 2), Math.min(view.width + 2, centre + width / 2)];
}

/** The interactive layer over the strip: hover, selection and the walk address. Redrawn on pointer moves only. */
export function drawAddressOverlay(ctx: CanvasRenderingContext2D, width: number, height: number, scene: OverlayScene): void {
  ctx.clearRect(0, 0, width, height);
  const { view, palette } = scene;
  if (scene.hovered !== undefined) {
    const s = span(view, scene.hovered);
    if (s !== undefined) {
      ctx.strokeStyle = palette.text;
      ctx.lineWidth = 1;
      ctx.strokeRect(s[0] + 0.5, STRIP_PAD - 1.5, s[1] - s[0] - 1, height - 2 * STRIP_PAD + 3);
    }
  }
  if (scene.selected !== undefined) {
    const s = span(view, scene.selected);
    if (s !== undefined) {
      ctx.strokeStyle = palette.selection;
      ctx.lineWidth = 2;
      ctx.strokeRect(s[0], 1, s[1] - s[0], height - 2);
      // A marker above, so a selection narrower than a pixel still shows where it is.
      const mid = (s[0] + s[1]) / 2;
      ctx.fillStyle = palette.selection;
      ctx.beginPath();
      ctx.moveTo(mid - 5, 0);
      ctx.lineTo(mid + 5, 0);
      ctx.lineTo(mid, 6);
      ctx.fill();
    }
  }
  if (scene.walkAddress !== undefined) {
    const x = vaToX(view, scene.walkAddress);
    if (x >= 0 && x <= width) {
      ctx.strokeStyle = palette.text;
      ctx.lineWidth = 1;
      ctx.setLineDash([3, 2]);
      ctx.beginPath();
      ctx.moveTo(Math.round(x) + 0.5, 0);
      ctx.lineTo(Math.round(x) + 0.5, height);
      ctx.stroke();
      ctx.setLineDash([]);
    }
  }
}
