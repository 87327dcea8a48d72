import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BlockIndex, blockStateAt, type ImportedBlock } from '../../src/formats/block-index.ts';
import { BAD_STACK, NO_STACK } from '../../src/formats/stack-table.ts';

/** Any block a session can hold, including numbers the columns mark as absent and ints past 64 bits. */
const bigAddress = fc.oneof(
  fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  fc.bigInt({ min: 1n << 64n, max: 1n << 80n }),
  fc.bigInt({ min: -(1n << 70n), max: -1n }),
);
const maybe = (arbitrary: fc.Arbitrary<number>) => fc.option(arbitrary, { nil: undefined });
const seq = fc.integer({ min: 0, max: 2 ** 32 });
/** Few distinct model addresses, as a job's reused blocks have, and some blocks outside any segment. */
const addr = maybe(
  fc.oneof(
    fc.integer({ min: 0, max: 8 }).map((k) => k * 4096),
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  ),
);
const block: fc.Arbitrary<Omit<ImportedBlock, 'row'>> = fc.record({
  device: fc.integer({ min: 0, max: 15 }),
  recordedAddress: bigAddress,
  addr,
  size: fc.integer({ min: 0, max: 2 ** 40 }),
  requestedSize: maybe(fc.integer({ min: 0, max: 2 ** 40 })),
  stream: bigAddress,
  stack: fc.oneof(fc.constant(NO_STACK), fc.constant(BAD_STACK), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
  allocSeq: seq,
  freeRequestedSeq: maybe(seq),
  freeCompletedSeq: maybe(seq),
});

/** The blocks in an index as the replay makes them: opened, then freed and given their final figures. */
function indexOf(blocks: readonly Omit<ImportedBlock, 'row'>[], capacity?: number): BlockIndex {
  const index = new BlockIndex(capacity);
  for (const b of blocks) {
    const row = index.open(b);
    if (b.freeRequestedSeq !== undefined) index.freeRequested(row, b.freeRequestedSeq);
    if (b.freeCompletedSeq !== undefined) index.freeCompleted(row, b.freeCompletedSeq);
    if (b.requestedSize !== undefined) index.attach(row, b.requestedSize, undefined);
  }
  return index;
}

/** The address order the index promises: by model address, blocks without one last, equal ones in row order. */
const key = (b: ImportedBlock): number => b.addr ?? Number.MAX_SAFE_INTEGER;
const byAddress = (blocks: readonly ImportedBlock[]): ImportedBlock[] => [...blocks].sort((a, b) => key(a) - key(b) || a.row - b.row);

describe('the block index in columns', () => {
  it('every block comes back field for field, on this side and across postMessage, whatever its numbers', () => {
    fc.assert(
      fc.property(fc.array(block, { maxLength: 60 }), fc.integer({ min: 0, max: 64 }), (blocks, capacity) => {
        const want = blocks.map((b, row) => ({ row, ...b }));
        const index = indexOf(blocks, capacity);
        expect(Array.from({ length: index.count }, (_, row) => index.block(row))).toEqual(want);
        const { parts, transfer } = index.parts();
        const received = BlockIndex.from(structuredClone(parts, { transfer }));
        expect(transfer.every((buffer) => buffer.byteLength === 0)).toBe(true);
        expect(Array.from({ length: received.count }, (_, row) => received.block(row))).toEqual(want);
        for (let device = 0; device < 16; device += 1)
          expect(received.all(device)).toEqual(byAddress(want.filter((b) => b.device === device)));
      }),
      { numRuns: 300, seed: 16 },
    );
  });

  it("a segment's blocks at a seq, and the totals, are what the blocks' own states say", () => {
    fc.assert(
      fc.property(fc.array(block, { maxLength: 80 }), seq, fc.integer({ min: 0, max: 9 * 4096 }), (blocks, at, from) => {
        const index = indexOf(blocks.map((b) => ({ ...b, device: b.device % 2 })));
        index.seal();
        for (const device of [0, 1]) {
          const mine = index.all(device);
          const inside = mine.filter((b) => b.addr !== undefined && b.addr >= from && b.addr < from + 3 * 4096);
          expect(index.within(device, from, 3 * 4096, at)).toEqual(inside.filter((b) => blockStateAt(b, at) !== undefined));
          const live = mine.filter((b) => blockStateAt(b, at) !== undefined);
          expect(index.totalsAt(device, at)).toEqual({
            blocks: live.length,
            active: live.reduce((sum, b) => sum + b.size, 0),
            allocated: live.filter((b) => blockStateAt(b, at) === 'active_allocated').reduce((sum, b) => sum + b.size, 0),
          });
          for (const b of mine) expect(index.stateAt(b.row, at)).toBe(blockStateAt(b, at));
        }
      }),
      { numRuns: 300, seed: 61 },
    );
  });

  it('grows past its capacity, and keeps a 65-bit address or stream exact', () => {
    const wide = (1n << 64n) + 0x1000n;
    const index = new BlockIndex(16);
    for (let i = 0; i < 1000; i += 1)
      index.open({
        device: 0,
        recordedAddress: i === 500 ? wide : BigInt(i),
        addr: i,
        size: i,
        stream: i === 7 ? -1n : 0n,
        stack: NO_STACK,
        allocSeq: i,
      });
    const received = BlockIndex.from(structuredClone(index.parts().parts));
    expect(received.count).toBe(1000);
    expect(received.block(500).recordedAddress).toBe(wide);
    expect(received.block(7).stream).toBe(-1n);
    expect(received.block(999)).toMatchObject({ recordedAddress: 999n, size: 999, stream: 0n });
  });

  it('refuses a block after the columns were sealed or handed on, a device it cannot hold, and a row it does not have', () => {
    const index = new BlockIndex();
    const opening = { device: 0, recordedAddress: 1n, addr: 0, size: 1, stream: 0n, stack: NO_STACK, allocSeq: 1 };
    expect(() => index.open({ ...opening, device: 256 })).toThrow(/device 256/);
    expect(() => index.open({ ...opening, device: 1.5 })).toThrow(/device 1.5/);
    index.open(opening);
    expect(() => index.block(1)).toThrow(/no row 1 of 1/);
    index.parts();
    expect(() => index.parts()).toThrow(/already handed on/);
    expect(() => index.open(opening)).toThrow(/after seal/);
  });
});
