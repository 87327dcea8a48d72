import { blockStateAt, type ImportedBlock } from '@pagelens/core';

/** One block drawn in its segment's bar: where (fractions of the segment), how much was requested, and its state. */
export interface BarPiece {
  readonly key: string;
  readonly block: ImportedBlock;
  /** Offset and width as fractions of the segment (0–1). */
  readonly start: number;
  readonly width: number;
  /** requested / rounded size (1 when the file does not record the request). */
  readonly requestedShare: number;
  readonly state: 'active_allocated' | 'active_pending_free';
}

export const blockKey = (block: ImportedBlock): string => `${block.recordedAddress}-${block.allocSeq}`;

/**
 * The blocks live at `seq` inside the segment [addr, addr + size) of the model, as pieces of a bar,
 * by address. Blocks without a model address (outside every recorded segment) cannot be drawn.
 */
export function barPieces(blocks: readonly ImportedBlock[], addr: number, size: number, seq: number): BarPiece[] {
  if (size <= 0) return [];
  const pieces: BarPiece[] = [];
  for (const block of blocks) {
    const state = blockStateAt(block, seq);
    if (block.addr === undefined || state === undefined || state === 'inactive') continue;
    const start = Math.max(0, (block.addr - addr) / size);
    const end = Math.min(1, (block.addr + block.size - addr) / size);
    if (end <= start) continue;
    const requested = block.requestedSize === undefined ? block.size : Math.min(block.requestedSize, block.size);
    pieces.push({
      key: blockKey(block),
      block,
      start,
      width: end - start,
      requestedShare: block.size === 0 ? 1 : requested / block.size,
      state,
    });
  }
  return pieces.sort((a, b) => a.start - b.start);
}
