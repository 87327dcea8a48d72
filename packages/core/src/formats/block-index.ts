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
