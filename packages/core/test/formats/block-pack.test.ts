import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ImportedBlock, packBlocks, unpackBlocks } from '../../src/formats/block-index.ts';
import { BAD_STACK, NO_STACK } from '../../src/formats/stack-table.ts';

/** Any block a session can hold, including numbers the columns mark as absent and ints past 64 bits. */
const bigAddress = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  fc.bigInt({ min: 1n << 64n, max: 1n << 80n }),
  fc.bigInt({ min: -(1n << 70n), max: -1n }),
);
const maybe = (arbitrary: fc.Arbitrary<number>) => fc.option(arbitrary, { nil: undefined });
const seq = fc.integer({ min: 0, max: 2 ** 32 });
const block: fc.Arbitrary<ImportedBlock> = fc.record({
  device: fc.integer({ min: 0, max: 15 }),
  recordedAddress: bigAddress,
  addr: maybe(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
  size: fc.integer({ min: 0, max: 2 ** 40 }),
  requestedSize: maybe(fc.integer({ min: 0, max: 2 ** 40 })),
  stream: bigAddress,
  stack: fc.oneof(fc.constant(NO_STACK), fc.constant(BAD_STACK), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
  allocSeq: seq,
  freeRequestedSeq: maybe(seq),
  freeCompletedSeq: maybe(seq),
});

describe('blocks in columns (the worker → page reply)', () => {
  it('unpack gives back every block, field for field and in order, whatever its numbers', () => {
    fc.assert(
      fc.property(fc.array(block, { maxLength: 60 }), (blocks) => {
        const { packed, transfer } = packBlocks(blocks);
        const received = structuredClone(packed, { transfer });
        expect(transfer.every((buffer) => buffer.byteLength === 0)).toBe(true);
        expect(unpackBlocks(received)).toEqual(blocks);
      }),
      { numRuns: 300, seed: 16 },
    );
  });

  it('only a block whose address or stream does not fit 64 bits goes as itself', () => {
    const plain: ImportedBlock = {
      device: 0,
      recordedAddress: 0x7f00_0000_0000n,
      addr: 4096,
      size: 512,
      requestedSize: undefined,
      stream: 0n,
      stack: NO_STACK,
      allocSeq: 3,
      freeRequestedSeq: undefined,
      freeCompletedSeq: 9,
    };
    const wide = { ...plain, recordedAddress: (1n << 64n) + 0x1000n };
    const { packed } = packBlocks([plain, wide, plain]);
    expect(packed.odd).toEqual([wide]);
    expect([...packed.oddAt]).toEqual([1]);
    expect(unpackBlocks(packed)).toEqual([plain, wide, plain]);
  });
});
