import { type ImportedBlock, NO_STACK } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { barPieces } from './segment-bar-model.ts';

const MiB = 1024 * 1024;
function block(
  addr: number | undefined,
  size: number,
  requested: number | undefined,
  allocSeq: number,
  freeRequestedSeq?: number,
  freeCompletedSeq?: number,
): ImportedBlock {
  return {
    row: allocSeq,
    device: 0,
    recordedAddress: BigInt(addr ?? 0) + 0x1000000000n,
    addr,
    size,
    requestedSize: requested,
    stream: 0n,
    stack: NO_STACK,
    allocSeq,
    freeRequestedSeq,
    freeCompletedSeq,
  };
}

describe('segment bar', () => {
  const base = 64 * MiB;
  const blocks = [
    block(base + 10 * MiB, 5 * MiB, 4 * MiB, 3),
    block(base, 2 * MiB, undefined, 2, 6, 8),
    block(undefined, MiB, undefined, 2),
    block(base + 18 * MiB, 4 * MiB, MiB, 1),
  ];

  it('places the live blocks by address in fractions of the segment, requested within rounded, pending free told apart', () => {
    const at7 = barPieces(blocks, base, 20 * MiB, 7);
    const round = (value: number) => Math.round(value * 1e9) / 1e9;
    expect(at7.map((piece) => [round(piece.start), round(piece.width), round(piece.requestedShare), piece.state])).toEqual([
      [0, 0.1, 1, 'active_pending_free'],
      [0.5, 0.25, 0.8, 'active_allocated'],
      // Cut at the segment's end: the bar never draws past it.
      [0.9, 0.1, 0.25, 'active_allocated'],
    ]);
  });

  it('drops freed blocks, not-yet-made blocks and blocks without a model address', () => {
    expect(barPieces(blocks, base, 20 * MiB, 9).map((piece) => piece.start)).toEqual([0.5, 0.9]);
    expect(barPieces(blocks, base, 20 * MiB, 1).map((piece) => piece.start)).toEqual([0.9]);
    expect(barPieces(blocks, base, 0, 9)).toEqual([]);
  });
});
