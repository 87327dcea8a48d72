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
 *
 * Why columns: a 10 M-entry file holds 5 M blocks. As objects they cost about 100 bytes each on
 * the worker and again on the page (half a gigabyte apiece); here 77 bytes a block in typed arrays
 * that cross to the page by transfer, already sorted, and an object is made only for a block shown.
 */

/** One block, as a view shows it: made from its row when asked for (BlockIndex.block). */
export interface ImportedBlock {
  /** Its row in the index (stable: rows are never moved). */
  readonly row: number;
  readonly device: number;
  readonly recordedAddress: bigint;
  /** Model address, in the device's window; undefined when no recorded segment holds it. */
  readonly addr: number | undefined;
  /** Rounded size (the block's `size` / the alloc entry's `size`). */
  readonly size: number;
  /** Bytes the program asked for; only the final snapshot's blocks record it. */
  readonly requestedSize: number | undefined;
  readonly stream: bigint;
  /** Its stack in the session's table (stack-table.ts), or NO_STACK / BAD_STACK. */
  readonly stack: number;
  /** Seq of the alloc entry, or the import's first seq when it was live before the trace began. */
  readonly allocSeq: number;
  /** Seq of free_requested, when seen. */
  readonly freeRequestedSeq: number | undefined;
  /** Seq of free_completed, when seen; undefined while live at the end. */
  readonly freeCompletedSeq: number | undefined;
}

/** What a block is opened with (the rest is learnt later: BlockIndex.freeRequested, …). */
export type BlockOpening = Pick<ImportedBlock, 'device' | 'recordedAddress' | 'addr' | 'size' | 'stream' | 'stack' | 'allocSeq'>;

/** The block's state at `seq`, or undefined when it is not live then. */
export function blockStateAt(
  block: Pick<ImportedBlock, 'allocSeq' | 'freeRequestedSeq' | 'freeCompletedSeq'>,
  seq: number,
): BlockState | undefined {
  if (seq < block.allocSeq) return undefined;
  if (block.freeCompletedSeq !== undefined && seq >= block.freeCompletedSeq) return undefined;
  if (block.freeRequestedSeq !== undefined && seq >= block.freeRequestedSeq) return 'active_pending_free';
  return 'active_allocated';
}

/**
 * The columns as they cross to the page: one typed array per field, NaN for an undefined number,
 * and per device its rows sorted by model address (blocks without one last). A recorded address or
 * stream that does not fit 64 bits (a pickle's int may be any size) is kept in `odd`, by row.
 */
export interface BlockParts {
  readonly length: number;
  readonly device: Uint8Array;
  readonly recordedAddress: BigUint64Array;
  readonly addr: Float64Array;
  readonly size: Float64Array;
  readonly requestedSize: Float64Array;
  readonly stream: BigUint64Array;
  readonly stack: Int32Array;
  readonly allocSeq: Float64Array;
  readonly freeRequestedSeq: Float64Array;
  readonly freeCompletedSeq: Float64Array;
  readonly byAddress: readonly Uint32Array[];
  readonly odd: readonly { readonly row: number; readonly recordedAddress: bigint; readonly stream: bigint }[];
}

type Columns = Omit<BlockParts, 'length' | 'byAddress' | 'odd'>;

function allocate(capacity: number): Columns {
  return {
    device: new Uint8Array(capacity),
    recordedAddress: new BigUint64Array(capacity),
    addr: new Float64Array(capacity),
    size: new Float64Array(capacity),
    requestedSize: new Float64Array(capacity),
    stream: new BigUint64Array(capacity),
    stack: new Int32Array(capacity),
    allocSeq: new Float64Array(capacity),
    freeRequestedSeq: new Float64Array(capacity),
    freeCompletedSeq: new Float64Array(capacity),
  };
}

const COLUMN_NAMES = Object.keys(allocate(0)) as (keyof Columns)[];
const U64_END = 1n << 64n;
const inU64 = (value: bigint): boolean => value >= 0n && value < U64_END;
const orNaN = (value: number | undefined): number => value ?? Number.NaN;
const unlessNaN = (value: number | undefined): number | undefined => (value === undefined || Number.isNaN(value) ? undefined : value);
/** PageLens models at most this many devices (snapshot-session.ts). */
const MAX_DEVICES = 256;

export class BlockIndex {
  #columns: Columns;
  #length = 0;
  /** Per device, its rows by model address once sealed. */
  #byAddress: Uint32Array[] | undefined;
  readonly #odd = new Map<number, { readonly recordedAddress: bigint; readonly stream: bigint }>();
  #handedOn = false;

  constructor(capacity = 1024) {
    this.#columns = allocate(Math.max(16, capacity));
  }

  /** The columns the worker sent, read in place. */
  static from(parts: BlockParts): BlockIndex {
    const index = new BlockIndex(0);
    index.#columns = parts;
    index.#length = parts.length;
    index.#byAddress = [...parts.byAddress];
    for (const { row, recordedAddress, stream } of parts.odd) index.#odd.set(row, { recordedAddress, stream });
    return index;
  }

  get count(): number {
    return this.#length;
  }

  /** Appends a block and returns its row. */
  open(block: BlockOpening): number {
    if (this.#byAddress !== undefined) throw new Error('BlockIndex.open after seal()');
    if (!Number.isInteger(block.device) || block.device < 0 || block.device >= MAX_DEVICES)
      throw new Error(`BlockIndex.open: device ${block.device} is not one PageLens models`);
    if (this.#length === this.#columns.size.length) this.#grow();
    const c = this.#columns;
    const row = this.#length;
    c.device[row] = block.device;
    if (inU64(block.recordedAddress) && inU64(block.stream)) {
      c.recordedAddress[row] = block.recordedAddress;
      c.stream[row] = block.stream;
    } else this.#odd.set(row, { recordedAddress: block.recordedAddress, stream: block.stream });
    c.addr[row] = orNaN(block.addr);
    c.size[row] = block.size;
    c.requestedSize[row] = Number.NaN;
    c.stack[row] = block.stack;
    c.allocSeq[row] = block.allocSeq;
    c.freeRequestedSeq[row] = Number.NaN;
    c.freeCompletedSeq[row] = Number.NaN;
    this.#length += 1;
    return row;
  }

  #grow(): void {
    const next = allocate(this.#columns.size.length * 2);
    for (const name of COLUMN_NAMES) (next[name] as { set(source: ArrayLike<unknown>): void }).set(this.#columns[name] as never);
    this.#columns = next;
  }

  freeRequested(row: number, seq: number): void {
    this.#columns.freeRequestedSeq[row] = seq;
  }

  freeCompleted(row: number, seq: number): void {
    this.#columns.freeCompletedSeq[row] = seq;
  }

  /** The final snapshot's figures for a block live at the end. */
  attach(row: number, requestedSize: number, stack: number | undefined): void {
    this.#columns.requestedSize[row] = requestedSize;
    if (stack !== undefined) this.#columns.stack[row] = stack;
  }

  /** Sorts each device's rows by model address (blocks without one last): after this, `within` can search. */
  seal(): void {
    const c = this.#columns;
    const perDevice: number[][] = [];
    for (let row = 0; row < this.#length; row += 1) {
      const device = c.device[row] ?? 0;
      const rows = perDevice[device];
      if (rows === undefined) perDevice[device] = [row];
      else rows.push(row);
    }
    this.#byAddress = Array.from({ length: perDevice.length }, (_, device) => this.#byModelAddress(perDevice[device] ?? []));
  }

  /**
   * `rows` (ascending) ordered by model address, equal addresses in row (seq) order. A recorded job
   * reuses few addresses for millions of blocks, so this ranks each row among the distinct addresses
   * and places it by counting: a native sort of the keys instead of a comparator called 100 M times.
   */
  #byModelAddress(rows: readonly number[]): Uint32Array {
    const keys = new Float64Array(rows.length);
    rows.forEach((row, i) => {
      const addr = this.#columns.addr[row] ?? Number.NaN;
      keys[i] = Number.isNaN(addr) ? Number.MAX_SAFE_INTEGER : addr;
    });
    const sorted = keys.slice().sort();
    let distinct = 0;
    for (let i = 0; i < sorted.length; i += 1) {
      if (distinct > 0 && sorted[i] === sorted[distinct - 1]) continue;
      sorted[distinct] = sorted[i] ?? 0;
      distinct += 1;
    }
    const addresses = sorted.subarray(0, distinct);
    const rank = new Uint32Array(rows.length);
    const starts = new Uint32Array(distinct + 1);
    keys.forEach((key, i) => {
      let low = 0;
      let high = distinct;
      while (low < high) {
        const mid = (low + high) >>> 1;
        if ((addresses[mid] ?? 0) < key) low = mid + 1;
        else high = mid;
      }
      rank[i] = low;
      starts[low + 1] = (starts[low + 1] ?? 0) + 1;
    });
    for (let r = 1; r <= distinct; r += 1) starts[r] = (starts[r] ?? 0) + (starts[r - 1] ?? 0);
    const ordered = new Uint32Array(rows.length);
    rows.forEach((row, i) => {
      const r = rank[i] ?? 0;
      const at = starts[r] ?? 0;
      ordered[at] = row;
      starts[r] = at + 1;
    });
    return ordered;
  }

  /** The device's rows by model address (after seal), or in the order they were opened. */
  rows(device: number): Uint32Array {
    const sorted = this.#byAddress?.[device];
    if (sorted !== undefined) return sorted;
    const rows: number[] = [];
    for (let row = 0; row < this.#length; row += 1) if (this.#columns.device[row] === device) rows.push(row);
    return Uint32Array.from(rows);
  }

  /** The devices that have blocks (0 up to the highest). */
  get devices(): number {
    let devices = this.#byAddress?.length ?? 0;
    if (this.#byAddress === undefined)
      for (let row = 0; row < this.#length; row += 1) devices = Math.max(devices, (this.#columns.device[row] ?? 0) + 1);
    return devices;
  }

  size(row: number): number {
    return this.#columns.size[row] ?? 0;
  }

  stack(row: number): number {
    return this.#columns.stack[row] ?? 0;
  }

  allocSeq(row: number): number {
    return this.#columns.allocSeq[row] ?? 0;
  }

  freeRequestedSeq(row: number): number | undefined {
    return unlessNaN(this.#columns.freeRequestedSeq[row]);
  }

  freeCompletedSeq(row: number): number | undefined {
    return unlessNaN(this.#columns.freeCompletedSeq[row]);
  }

  /** The block's state at `seq` (blockStateAt), from its columns. */
  stateAt(row: number, seq: number): BlockState | undefined {
    const c = this.#columns;
    if (seq < (c.allocSeq[row] ?? 0)) return undefined;
    const completed = c.freeCompletedSeq[row] ?? Number.NaN;
    if (seq >= completed) return undefined;
    const requested = c.freeRequestedSeq[row] ?? Number.NaN;
    if (seq >= requested) return 'active_pending_free';
    return 'active_allocated';
  }

  /** The block of a row, as an object. */
  block(row: number): ImportedBlock {
    if (row < 0 || row >= this.#length || !Number.isInteger(row))
      throw new RangeError(`BlockIndex.block: no row ${row} of ${this.#length}`);
    const c = this.#columns;
    const odd = this.#odd.get(row);
    return {
      row,
      device: c.device[row] ?? 0,
      recordedAddress: odd?.recordedAddress ?? c.recordedAddress[row] ?? 0n,
      addr: unlessNaN(c.addr[row]),
      size: c.size[row] ?? 0,
      requestedSize: unlessNaN(c.requestedSize[row]),
      stream: odd?.stream ?? c.stream[row] ?? 0n,
      stack: c.stack[row] ?? 0,
      allocSeq: c.allocSeq[row] ?? 0,
      freeRequestedSeq: unlessNaN(c.freeRequestedSeq[row]),
      freeCompletedSeq: unlessNaN(c.freeCompletedSeq[row]),
    };
  }

  /** Every block of a device, as objects, by address once sealed: for tests and small files, not a 5 M-block trace. */
  all(device: number): ImportedBlock[] {
    return Array.from(this.rows(device), (row) => this.block(row));
  }

  /** Blocks live at `seq` inside [addr, addr + size) of `device` (a segment's blocks), by address. */
  within(device: number, addr: number, size: number, seq: number): ImportedBlock[] {
    const rows = this.rows(device);
    const at = (i: number): number => {
      const value = this.#columns.addr[rows[i] ?? 0] ?? Number.NaN;
      return Number.isNaN(value) ? Number.MAX_SAFE_INTEGER : value;
    };
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (at(mid) < addr) low = mid + 1;
      else high = mid;
    }
    const found: ImportedBlock[] = [];
    for (let i = low; i < rows.length && at(i) < addr + size; i += 1) {
      const row = rows[i] ?? 0;
      if (this.stateAt(row, seq) !== undefined) found.push(this.block(row));
    }
    return found;
  }

  /** Recorded totals at `seq`: allocated (active_allocated) and active (allocated or pending free) bytes. */
  totalsAt(device: number, seq: number): { allocated: number; active: number; blocks: number } {
    let allocated = 0;
    let active = 0;
    let blocks = 0;
    for (const row of this.rows(device)) {
      const state = this.stateAt(row, seq);
      if (state === undefined) continue;
      const size = this.size(row);
      blocks += 1;
      active += size;
      if (state === 'active_allocated') allocated += size;
    }
    return { allocated, active, blocks };
  }

  /**
   * The columns cut to length, for postMessage, and the buffers to transfer (seal first). Columns
   * sized for the blocks (the usual case, an eighth spare at most) go as views of themselves; the
   * index is handed on and takes no more blocks.
   */
  parts(): { parts: BlockParts; transfer: ArrayBuffer[] } {
    if (this.#byAddress === undefined) this.seal();
    if (this.#handedOn) throw new Error('BlockIndex.parts: the columns were already handed on');
    this.#handedOn = true;
    const c = this.#columns;
    const n = this.#length;
    const copy = c.size.length - n > c.size.length / 8;
    const cut = Object.fromEntries(
      COLUMN_NAMES.map((name) => [name, copy ? c[name].slice(0, n) : c[name].subarray(0, n)]),
    ) as unknown as Columns;
    const byAddress = this.#byAddress ?? [];
    return {
      parts: { length: n, ...cut, byAddress, odd: [...this.#odd].map(([row, odd]) => ({ row, ...odd })) },
      transfer: [...COLUMN_NAMES.map((name) => cut[name].buffer as ArrayBuffer), ...byAddress.map((list) => list.buffer as ArrayBuffer)],
    };
  }
}
