import type { CopyRecord } from '@pagelens/core';
import type { FormatPrefs } from '../../model/format.ts';
import { barLabel } from '../../model/host-copies/copy-facts.ts';
import type { CopyLayout } from '../../model/host-copies/copy-lanes.ts';
import { barColor, type CopyColors } from '../../model/host-copies/copy-style.ts';
import { stageEdges } from '../../model/host-copies/staging.ts';
import { type TimeView, timeToX, visibleRange } from '../../model/host-copies/time-view.ts';

export interface CopyScene {
  readonly copies: readonly CopyRecord[];
  readonly layout: CopyLayout;
  readonly view: TimeView;
  /** CSS px per lane. */
  readonly rowHeight: number;
  readonly colors: CopyColors;
  readonly prefs: FormatPrefs;
  /** Copy indices. */
  readonly selected?: number;
  readonly hovered?: number;
  /** Copies that touch the selected host buffer. */
  readonly related?: ReadonlySet<number>;
  /** Text for busy host bands, already translated ("blocked"). */
  readonly blockedLabel: string;
  /** x of the axis ticks, for faint vertical grid lines. */
  readonly grid?: readonly number[];
  /** Object id of the selected aclrtEvent: its marks are ringed. */
  readonly selectedEvent?: number;
  /** Index into layout.marks of the mark under the pointer. */
  readonly hoveredMark?: number;
}

/** Half the size of a mark (CSS px). */
export const MARK_RADIUS = 6;

/** Space above and below a bar inside its lane (CSS px). */
export const BAR_INSET = 5;
const HATCH_STEP = 6;
/** Bars narrower than this never get a text label (saves formatting thousands of strings). */
const MIN_LABEL_PX = 60;
/** Width of the cut between two staging chunks (CSS px). */
export const STAGE_GAP = 1.5;
const FONT = '11px system-ui, sans-serif';

function hatch(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, color: string): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.strokeStyle = color;
  ctx.lineWidth = 1.5;
  ctx.beginPath();
  // Diagonal stripes "/" every HATCH_STEP px, starting far enough left to cover the corner.
  for (let sx = x - h - (x % HATCH_STEP); sx < x + w; sx += HATCH_STEP) {
    ctx.moveTo(sx, y + h);
    ctx.lineTo(sx + h, y);
  }
  ctx.stroke();
  ctx.restore();
}

/** Clamps a span to the canvas (plus a margin) so a deeply zoomed bar stays a sane rectangle. */
function clampSpan(x0: number, x1: number, width: number): [number, number] {
  return [Math.max(-10, x0), Math.min(width + 10, x1)];
}

function drawLanes(ctx: CanvasRenderingContext2D, width: number, scene: CopyScene): void {
  const { rowHeight, colors } = scene;
  scene.layout.lanes.forEach((lane, i) => {
    const y = i * rowHeight;
    if (lane.kind === 'host') {
      ctx.fillStyle = colors.laneAlt;
      ctx.fillRect(0, y, width, rowHeight);
    }
    ctx.fillStyle = colors.laneEdge;
    ctx.fillRect(0, y + rowHeight - 1, width, 1);
  });
  const height = scene.layout.lanes.length * rowHeight;
  ctx.fillStyle = colors.laneEdge;
  for (const x of scene.grid ?? []) ctx.fillRect(Math.round(x), 0, 1, height);
}

/** The host thread drawn busy while it waits: synchronize calls and blocking copies (HM-3, CP-4). */
function drawBusy(ctx: CanvasRenderingContext2D, width: number, scene: CopyScene): void {
  const { view, rowHeight, colors } = scene;
  const [t0, t1] = visibleRange(view);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  for (const busy of scene.layout.busy) {
    // A synchronous copy is its own bar on the host lane; the band is for waiting only.
    if (busy.cause === 'sync-copy' || busy.end < t0 || busy.start > t1) continue;
    const [x0, x1] = clampSpan(timeToX(view, busy.start), timeToX(view, busy.end), width);
    const y = busy.lane * rowHeight + 2;
    const h = rowHeight - 5;
    const w = Math.max(1, x1 - x0);
    ctx.fillStyle = colors.blocked;
    ctx.fillRect(x0, y, w, h);
    if (w >= 4) hatch(ctx, x0, y, w, h, colors.blockedHatch);
    const text = scene.blockedLabel;
    if (w > ctx.measureText(text).width + 10) {
      ctx.fillStyle = colors.text;
      ctx.fillText(text, x0 + 5, y + h / 2);
    }
  }
}

function drawWait(ctx: CanvasRenderingContext2D, copy: CopyRecord, y: number, scene: CopyScene, width: number): void {
  const { view, rowHeight, colors } = scene;
  const [xs, xe] = clampSpan(timeToX(view, copy.submit), timeToX(view, copy.start), width);
  if (xe - xs < 1) return;
  const mid = y + rowHeight / 2;
  ctx.strokeStyle = colors.queued;
  ctx.lineWidth = 1;
  ctx.setLineDash([3, 3]);
  ctx.beginPath();
  ctx.moveTo(xs, mid);
  ctx.lineTo(xe, mid);
  ctx.stroke();
  ctx.setLineDash([]);
  // The moment the host issued the call.
  ctx.fillStyle = colors.queued;
  ctx.fillRect(xs, mid - 4, 1.5, 8);
}

function drawBar(ctx: CanvasRenderingContext2D, copy: CopyRecord, lane: number, scene: CopyScene, width: number): void {
  const { view, rowHeight, colors } = scene;
  const y = lane * rowHeight;
  if (copy.start > copy.submit) drawWait(ctx, copy, y, scene, width);
  const raw0 = timeToX(view, copy.start);
  const raw1 = timeToX(view, copy.end);
  if (raw1 < 0 || raw0 > width) return;
  const [x0, x1] = clampSpan(raw0, raw1, width);
  const w = Math.max(1, x1 - x0);
  const by = y + BAR_INSET;
  const bh = rowHeight - 2 * BAR_INSET;
  ctx.fillStyle = barColor(colors, copy.path);
  ctx.fillRect(x0, by, w, bh);
  if (copy.path === 'pageable-staged') {
    // HM-1: hatched and cut into its staging chunks by gaps (edges computed on the unclamped bar).
    if (w >= 4) hatch(ctx, x0, by, w, bh, colors.stagingHatch);
    ctx.fillStyle = colors.background;
    for (const edge of stageEdges(raw0, raw1, copy.stages, 0, width)) ctx.fillRect(edge - STAGE_GAP / 2, by, STAGE_GAP, bh);
  }
  const visible0 = Math.max(0, x0);
  const visibleW = Math.min(width, x1) - visible0;
  if (visibleW < MIN_LABEL_PX) return;
  const text = barLabel(copy, scene.prefs);
  const textW = ctx.measureText(text).width;
  if (visibleW > textW + 12) {
    // A solid backing keeps the text readable over hatching and chunk gaps.
    ctx.fillStyle = barColor(colors, copy.path);
    ctx.fillRect(visible0 + 2, by + 2, textW + 8, bh - 4);
    ctx.fillStyle = colors.textOnBar;
    ctx.fillText(text, visible0 + 6, by + bh / 2);
  }
}

function outline(
  ctx: CanvasRenderingContext2D,
  copy: CopyRecord,
  lane: number,
  scene: CopyScene,
  width: number,
  color: string,
  line: number,
): void {
  const { view, rowHeight } = scene;
  const [x0, x1] = clampSpan(timeToX(view, copy.start), timeToX(view, copy.end), width);
  const y = lane * rowHeight + BAR_INSET;
  ctx.strokeStyle = color;
  ctx.lineWidth = line;
  ctx.strokeRect(x0 - line / 2, y - line / 2, Math.max(1, x1 - x0) + line, rowHeight - 2 * BAR_INSET + line);
}

function arrowHead(ctx: CanvasRenderingContext2D, x0: number, y0: number, x1: number, y1: number): void {
  const angle = Math.atan2(y1 - y0, x1 - x0);
  const size = 6;
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x1 - size * Math.cos(angle - 0.45), y1 - size * Math.sin(angle - 0.45));
  ctx.lineTo(x1 - size * Math.cos(angle + 0.45), y1 - size * Math.sin(angle + 0.45));
  ctx.closePath();
  ctx.fill();
}

/**
 * Event marks over the bars: a record (EV-2) is a diamond where the captured work completes; a
 * wait (EV-3) is a bar with a notch where the waiting stream may go on, with a dashed arrow from
 * the record it waits for. Value tasks (CP-12) draw the same way, a write as a square. The selected
 * event's marks, and the hovered mark, are ringed.
 */
function drawMarks(ctx: CanvasRenderingContext2D, width: number, scene: CopyScene): void {
  const { view, rowHeight, colors } = scene;
  const mid = (lane: number) => lane * rowHeight + rowHeight / 2;
  const visible = (x: number) => x >= -MARK_RADIUS * 2 && x <= width + MARK_RADIUS * 2;
  scene.layout.marks.forEach((placed, index) => {
    const { mark, lane, fromLane } = placed;
    const x = timeToX(view, mark.at);
    const y = mid(lane);
    const waits = mark.kind === 'wait' || mark.kind === 'valueWait';
    if (waits && mark.from !== undefined && fromLane >= 0) {
      const fx = timeToX(view, mark.from.at);
      const fy = mid(fromLane);
      if (visible(fx) || visible(x)) {
        ctx.strokeStyle = colors.wait;
        ctx.fillStyle = colors.wait;
        ctx.lineWidth = 1.5;
        ctx.setLineDash([4, 3]);
        ctx.beginPath();
        ctx.moveTo(fx, fy);
        const ey = y + (fy < y ? -MARK_RADIUS : fy > y ? MARK_RADIUS : 0);
        const ex = fy === y ? x - MARK_RADIUS : x;
        ctx.lineTo(ex, ey);
        ctx.stroke();
        ctx.setLineDash([]);
        arrowHead(ctx, fx, fy, ex, ey);
      }
    }
    if (!visible(x)) return;
    ctx.lineWidth = 1;
    if (mark.kind === 'record') {
      ctx.fillStyle = colors.record;
      ctx.beginPath();
      ctx.moveTo(x, y - MARK_RADIUS);
      ctx.lineTo(x + MARK_RADIUS, y);
      ctx.lineTo(x, y + MARK_RADIUS);
      ctx.lineTo(x - MARK_RADIUS, y);
      ctx.closePath();
      ctx.fill();
      ctx.strokeStyle = colors.background;
      ctx.stroke();
    } else if (mark.kind === 'valueWrite') {
      // A value write (CP-12): a square where the word is set.
      ctx.fillStyle = colors.record;
      ctx.fillRect(x - MARK_RADIUS + 1, y - MARK_RADIUS + 1, 2 * MARK_RADIUS - 2, 2 * MARK_RADIUS - 2);
      ctx.strokeStyle = colors.background;
      ctx.strokeRect(x - MARK_RADIUS + 1, y - MARK_RADIUS + 1, 2 * MARK_RADIUS - 2, 2 * MARK_RADIUS - 2);
    } else {
      ctx.fillStyle = colors.wait;
      ctx.fillRect(x - 1.5, y - MARK_RADIUS - 2, 3, 2 * MARK_RADIUS + 4);
      ctx.beginPath();
      ctx.moveTo(x + 1.5, y - 4);
      ctx.lineTo(x + 1.5 + 5, y);
      ctx.lineTo(x + 1.5, y + 4);
      ctx.closePath();
      ctx.fill();
    }
    const ring = (color: string, line: number) => {
      ctx.strokeStyle = color;
      ctx.lineWidth = line;
      ctx.beginPath();
      ctx.arc(x, y, MARK_RADIUS + 3, 0, Math.PI * 2);
      ctx.stroke();
    };
    if (mark.event !== -1 && scene.selectedEvent === mark.event) ring(colors.selection, 2);
    if (scene.hoveredMark === index) ring(colors.hover, 1.5);
  });
}

/**
 * The copy timeline on a canvas: lanes, host-thread busy bands, then one bar per copy (culled to
 * the visible time range), coloured by path, pageable ones hatched and cut into staging chunks,
 * queued waits as dashed lines from submit to start, outlines for related, hovered and selected,
 * and the event record and wait marks on top.
 */
export function drawCopyTimeline(ctx: CanvasRenderingContext2D, width: number, height: number, scene: CopyScene): void {
  ctx.clearRect(0, 0, width, height);
  drawLanes(ctx, width, scene);
  drawBusy(ctx, width, scene);
  const [t0, t1] = visibleRange(scene.view);
  ctx.font = FONT;
  ctx.textBaseline = 'middle';
  // Zoomed out, many copies share one pixel column: draw only the first of each path per column.
  const perPixel = (t1 - t0) / Math.max(1, width);
  scene.layout.byLane.forEach((indices, lane) => {
    const lastColumn = new Map<string, number>();
    for (const index of indices) {
      const copy = scene.copies[index];
      if (copy === undefined || copy.end < t0 || copy.submit > t1) continue;
      if (copy.end - copy.submit < perPixel) {
        const column = Math.floor((copy.start - t0) / perPixel);
        if (lastColumn.get(copy.path) === column) continue;
        lastColumn.set(copy.path, column);
      }
      drawBar(ctx, copy, lane, scene, width);
    }
  });
  const mark = (index: number | undefined, color: string, line: number): void => {
    const copy = index === undefined ? undefined : scene.copies[index];
    const lane = index === undefined ? undefined : scene.layout.laneOf[index];
    if (copy !== undefined && lane !== undefined && lane >= 0) outline(ctx, copy, lane, scene, width, color, line);
  };
  for (const index of scene.related ?? []) mark(index, scene.colors.selection, 1.5);
  mark(scene.hovered, scene.colors.hover, 1.5);
  if (scene.selected !== undefined) {
    mark(scene.selected, scene.colors.hover, 4);
    mark(scene.selected, scene.colors.selection, 2);
  }
  drawMarks(ctx, width, scene);
}
