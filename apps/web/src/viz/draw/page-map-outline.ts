/**
 * The boundary of a set of grid cells, as line segments [x0, y0, x1, y1, …] in cell units: every
 * side of a member cell whose neighbour is not a member. Only cells in [c0, c1) × [r0, r1) are
 * visited (culling); `member` answers for any cell, including neighbours outside that range.
 */
export function outlineSegments(member: (col: number, row: number) => boolean, c0: number, c1: number, r0: number, r1: number): number[] {
  const segments: number[] = [];
  for (let row = r0; row < r1; row += 1) {
    for (let col = c0; col < c1; col += 1) {
      if (!member(col, row)) continue;
      if (!member(col, row - 1)) segments.push(col, row, col + 1, row);
      if (!member(col, row + 1)) segments.push(col, row + 1, col + 1, row + 1);
      if (!member(col - 1, row)) segments.push(col, row, col, row + 1);
      if (!member(col + 1, row)) segments.push(col + 1, row, col + 1, row + 1);
    }
  }
  return segments;
}

/** Strokes segments given in cell units, mapped by cell → screen scale and origin, as one path. */
export function strokeSegments(
  ctx: CanvasRenderingContext2D,
  segments: readonly number[],
  originX: number,
  originY: number,
  cellW: number,
  cellH: number,
): void {
  if (segments.length === 0) return;
  ctx.beginPath();
  for (let i = 0; i + 3 < segments.length; i += 4) {
    ctx.moveTo(originX + (segments[i] ?? 0) * cellW, originY + (segments[i + 1] ?? 0) * cellH);
    ctx.lineTo(originX + (segments[i + 2] ?? 0) * cellW, originY + (segments[i + 3] ?? 0) * cellH);
  }
  ctx.stroke();
}
