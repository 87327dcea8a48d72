import type { BlockState } from './snapshot-types.ts';

/**
 * The caching allocator's blocks of an imported snapshot, over time: a side index beside the
 * HostState rather than an object kind of the event table. A block is a sub-range of a segment
 * (the segment is a DeviceAllocation or a mapped part of a Reservation in the state); its life is
 * given by the seqs of the trace entries that opened and closed it, so the block set at any cursor
 * is a lookup here, not a replay. Only active blocks (allocated or pending free) are kept; a
 * segment's inactive (cached, free) space is what its blocks leave.
 *
 * Why a side index: blocks change with every trace entry (most of a file) and carry stacks; as
 * events they would double the event log and make every checkpoint copy them, and no simulator
 * call creates them. The recorded figures (size, requested size, state, stream, stack) are kept as
 * the file wrote them; the model address is the segment's model address plus the block's recorded
 * offset in it (address-map.ts).
 */
export interface ImportedBlock {
  readonly device: number;
  readonly recordedAddress: bigint;
  /** Model address, in the device's window; undefined when no recorded segment holds it. */
  readonly addr: number | undefined;
  /** Rounded size (the block's `size` / the alloc entry's `size`). */
  readonly size: number;
  /** Bytes the program asked for; only the final snapshot's blocks record it. */
  requestedSize: number | undefined;
  readonly stream: bigint;
  /** Its stack in the session's table (stack-table.ts), or NO_STACK / BAD_STACK. */
  stack: number;
  /** Seq of the alloc entry, or the import's first seq when it was live before the trace began. */
  readonly allocSeq: number;
  /** Seq of free_requested, when seen. */
  freeRequestedSeq: number | undefined;
  /** Seq of free_completed, when seen; undefined while live at the end. */
  freeCompletedSeq: number | undefined;
}

/** The block's state at `seq`, or undefined when it is not live then. */
export function blockStateAt(block: ImportedBlock, seq: number): BlockState | undefined {
  if (seq < block.allocSeq) return undefined;
  if (block.freeCompletedSeq !== undefined && seq >= block.freeCompletedSeq) return undefined;
  if (block.freeRequestedSeq !== undefined && seq >= block.freeRequestedSeq) return 'active_pending_free';
  return 'active_allocated';
}

export class BlockIndex {
  /** Every block, per device, sorted by model address once `seal` ran. */
  private readonly byDevice = new Map<number, ImportedBlock[]>();

  add(block: ImportedBlock): void {
    let list = this.byDevice.get(block.device);
    if (list === undefined) {
      list = [];
      this.byDevice.set(block.device, list);
    }
    list.push(block);
  }

  /** Sorts by address (blocks without one last): after this, `within` can search. */
  seal(): void {
    for (const list of this.byDevice.values())
      list.sort((a, b) => (a.addr ?? Number.MAX_SAFE_INTEGER) - (b.addr ?? Number.MAX_SAFE_INTEGER));
  }

  get count(): number {
    let total = 0;
    for (const list of this.byDevice.values()) total += list.length;
    return total;
  }

  all(device: number): readonly ImportedBlock[] {
    return this.byDevice.get(device) ?? [];
  }

  /** Blocks live at `seq` inside [addr, addr + size) of `device` (a segment's blocks), by address. */
  within(device: number, addr: number, size: number, seq: number): ImportedBlock[] {
    const list = this.byDevice.get(device) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((list[mid]?.addr ?? Number.MAX_SAFE_INTEGER) < addr) low = mid + 1;
      else high = mid;
    }
    const found: ImportedBlock[] = [];
    for (let i = low; i < list.length; i += 1) {
      const block = list[i];
      if (block === undefined || block.addr === undefined || block.addr >= addr + size) break;
      if (blockStateAt(block, seq) !== undefined) found.push(block);
    }
    return found;
  }

  /** Recorded totals at `seq`: allocated (active_allocated) and active (allocated or pending free) bytes. */
  totalsAt(device: number, seq: number): { allocated: number; active: number; blocks: number } {
    let allocated = 0;
    let active = 0;
    let blocks = 0;
    for (const block of this.byDevice.get(device) ?? []) {
      const state = blockStateAt(block, seq);
      if (state === undefined) continue;
      blocks += 1;
      active += block.size;
      if (state === 'active_allocated') allocated += block.size;
    }
    return { allocated, active, blocks };
  }
}

/**
 * Blocks as they cross to the page: one typed column per field, transferred, so neither thread
 * holds a structured clone of a third of a million block objects (a 1 M-entry file's) beside the
 * session. NaN stands for an undefined number. A block whose recorded address or stream does not
 * fit 64 bits (a pickle's int may be any size) goes as itself in `odd`, at its place in `oddAt`.
 */
export interface PackedBlocks {
  readonly length: number;
  readonly device: Int32Array;
  readonly recordedAddress: BigUint64Array;
  readonly addr: Float64Array;
  readonly size: Float64Array;
  readonly requestedSize: Float64Array;
  readonly stream: BigUint64Array;
  readonly stack: Int32Array;
  readonly allocSeq: Float64Array;
  readonly freeRequestedSeq: Float64Array;
  readonly freeCompletedSeq: Float64Array;
  readonly odd: readonly ImportedBlock[];
  readonly oddAt: Uint32Array;
}

const U64_END = 1n << 64n;
const inU64 = (value: bigint): boolean => value >= 0n && value < U64_END;
const orNaN = (value: number | undefined): number => value ?? Number.NaN;
const unlessNaN = (value: number | undefined): number | undefined => (value === undefined || Number.isNaN(value) ? undefined : value);

export function packBlocks(blocks: readonly ImportedBlock[]): { packed: PackedBlocks; transfer: ArrayBuffer[] } {
  const n = blocks.length;
  const columns = {
    device: new Int32Array(n),
    recordedAddress: new BigUint64Array(n),
    addr: new Float64Array(n),
    size: new Float64Array(n),
    requestedSize: new Float64Array(n),
    stream: new BigUint64Array(n),
    stack: new Int32Array(n),
    allocSeq: new Float64Array(n),
    freeRequestedSeq: new Float64Array(n),
    freeCompletedSeq: new Float64Array(n),
  };
  const odd: ImportedBlock[] = [];
  const oddAt: number[] = [];
  blocks.forEach((block, i) => {
    if (!inU64(block.recordedAddress) || !inU64(block.stream) || !Number.isInteger(block.device) || !Number.isInteger(block.stack)) {
      odd.push(block);
      oddAt.push(i);
      return;
    }
    columns.device[i] = block.device;
    columns.recordedAddress[i] = block.recordedAddress;
    columns.addr[i] = orNaN(block.addr);
    columns.size[i] = block.size;
    columns.requestedSize[i] = orNaN(block.requestedSize);
    columns.stream[i] = block.stream;
    columns.stack[i] = block.stack;
    columns.allocSeq[i] = block.allocSeq;
    columns.freeRequestedSeq[i] = orNaN(block.freeRequestedSeq);
    columns.freeCompletedSeq[i] = orNaN(block.freeCompletedSeq);
  });
  const at = Uint32Array.from(oddAt);
  return {
    packed: { length: n, ...columns, odd, oddAt: at },
    transfer: [...Object.values(columns).map((column) => column.buffer), at.buffer],
  };
}

/** The blocks packBlocks packed, in their order again. */
export function unpackBlocks(packed: PackedBlocks): ImportedBlock[] {
  const blocks = new Array<ImportedBlock>(packed.length);
  let odd = 0;
  for (let i = 0; i < packed.length; i += 1) {
    if (odd < packed.oddAt.length && packed.oddAt[odd] === i) {
      const block = packed.odd[odd];
      odd += 1;
      if (block === undefined) throw new Error(`unpackBlocks: odd block ${odd - 1} is missing`);
      blocks[i] = block;
      continue;
    }
    blocks[i] = {
      device: packed.device[i] ?? 0,
      recordedAddress: packed.recordedAddress[i] ?? 0n,
      addr: unlessNaN(packed.addr[i]),
      size: packed.size[i] ?? 0,
      requestedSize: unlessNaN(packed.requestedSize[i]),
      stream: packed.stream[i] ?? 0n,
      stack: packed.stack[i] ?? 0,
      allocSeq: packed.allocSeq[i] ?? 0,
      freeRequestedSeq: unlessNaN(packed.freeRequestedSeq[i]),
      freeCompletedSeq: unlessNaN(packed.freeCompletedSeq[i]),
    };
  }
  return blocks;
}
