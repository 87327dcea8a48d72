/**
 * Generated allocator snapshots for tests and the bench: a tiny caching allocator (first fit in
 * segments, splits, free_requested then free_completed, empty segments released) runs a seeded
 * workload and records what torch_npu's or PyTorch's writer would dump, plus the ground truth the
 * tests check against: allocated / active / reserved bytes after every trace entry.
 */

import type { MemorySnapshot, TraceEntry, TraceList } from '../../src/formats/snapshot-types.ts';
import { type Py, tuple } from './pickle-writer.ts';

/** A trace's entries as an array (the loader keeps them in columns, trace-columns.ts). */
export const entriesOf = (trace: TraceList | undefined): TraceEntry[] => Array.from(trace ?? []);

/** The snapshot with its traces as arrays, for toEqual. */
export const withArrays = (snapshot: MemorySnapshot): MemorySnapshot => ({
  ...snapshot,
  deviceTraces: snapshot.deviceTraces.map(entriesOf),
});

export type Flavour = 'torch_npu' | 'pytorch_cuda';

export interface FixtureOptions {
  readonly flavour: Flavour;
  /** Trace entries per device, segment entries included (torch_npu's device 0 adds its workspace and OOM entries). */
  readonly events: number;
  readonly seed?: number;
  readonly devices?: number;
  /** Device memory starts here; past 2^53 for the exact-address cases. */
  readonly base?: bigint;
  /** Segments of device 1 are expandable (segment_map/segment_unmap). */
  readonly expandableDevice?: number;
  /** Entries dropped from the start of each trace, as a full ring buffer does. */
  readonly ringDrop?: number;
  /** Distinct frames to draw stacks from, and frames per stack. */
  readonly framePool?: number;
  readonly stackDepth?: number;
  /** Live allocations the workload hovers around (so a long run stays a plausible size). */
  readonly liveTarget?: number;
}

export interface Truth {
  readonly allocated: number;
  readonly active: number;
  readonly reserved: number;
}

export interface Fixture {
  readonly data: { readonly [key: string]: Py };
  /** Per device, the totals after each kept trace entry. */
  readonly truth: readonly (readonly Truth[])[];
  /** Per device, the totals before the first kept entry (what a ring buffer's reader must infer). */
  readonly initial: readonly Truth[];
}

interface Block {
  owner: SegmentState | undefined;
  address: bigint;
  size: number;
  requested: number;
  state: 'active_allocated' | 'active_pending_free' | 'inactive';
  frames: Py[];
}

interface SegmentState {
  address: bigint;
  size: number;
  expandable: boolean;
  small: boolean;
  blocks: Block[];
  frames: Py[];
}

const MiB = 1024 * 1024;

/**
 * The odds of each step, as cumulative thresholds of one roll: below `alloc` allocates, below
 * `freeRequested` asks for a free, the rest completes the oldest pending free. Under the live
 * target the job grows; at or over it, frees are asked for a little more often than allocations
 * (so the live count returns to the target instead of wandering off as an unbiased walk), and
 * completions are more likely than requests in both, as a real job's pending frees complete once
 * their stream's work does: a few are pending at a time (IN_FLIGHT). When requests outpaced completions
 * (0.35 against 0.30), pending blocks piled up by one per 20 entries — at 1 M entries some 50,000
 * blocks (about 85 GiB) that were never freed, pinning their segments, more than a 64 GiB device holds.
 */
const ODDS = {
  growing: { alloc: 0.55, freeRequested: 0.75 },
  steady: { alloc: 0.3, freeRequested: 0.64 },
} as const;
/** Frees whose stream work is still running: the newest this many pending frees do not complete yet, so a snapshot ends with some pending. */
const IN_FLIGHT = 2;

class Lcg {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }
  next(): number {
    this.state = (Math.imul(this.state, 1664525) + 1013904223) >>> 0;
    return this.state / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
}

function addressValue(address: bigint): Py {
  return address <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(address) : address;
}

export function makeSnapshot(options: FixtureOptions): Fixture {
  const rng = new Lcg(options.seed ?? 7);
  const deviceCount = options.devices ?? 2;
  const npu = options.flavour === 'torch_npu';
  const base = options.base ?? (npu ? 0x12c0_0000_0000n : 0x7f00_0000_0000n);
  const poolId = tuple(0, 0);
  const framePool: Py[] = Array.from({ length: options.framePool ?? 64 }, (_, i) => ({
    filename: `/home/user/project/model/layers/${['attention', 'mlp', 'norm', 'embedding'][i % 4]}_block_${i}.py`,
    line: 10 + ((i * 37) % 900),
    name: `forward_${['q', 'k', 'v', 'proj', 'gate', 'up', 'down'][i % 7]}_${i}`,
  }));
  const depth = options.stackDepth ?? 4;
  const liveTarget = options.liveTarget ?? 200;
  const stack = (): Py[] => Array.from({ length: depth }, () => framePool[rng.int(framePool.length)] ?? null);

  const traces: Py[][] = [];
  const truth: Truth[][] = [];
  const initial: Truth[] = [];
  const finalSegments: Py[] = [];
  let time = 1_700_000_000_000_000;

  for (let device = 0; device < deviceCount; device += 1) {
    const expandable = options.expandableDevice === device;
    const segments: SegmentState[] = [];
    let nextAddress = base + BigInt(device) * 0x20_0000_0000n;
    const trace: Py[] = [];
    const totals: Truth[] = [];
    let allocated = 0;
    let active = 0;
    let reserved = 0;
    const live: Block[] = [];
    const pending: Block[] = [];
    const stream = device === 0 ? 0 : -(2 ** 40) + device; // a negative int64 stream, as written for some handles

    const entry = (action: string, addr: bigint, size: number, frames: Py[]): void => {
      const e: { [key: string]: Py } = { action, addr: addressValue(addr), size, stream };
      if (npu) e.pool_id = poolId;
      else {
        time += 1 + rng.int(50);
        e.time_us = time;
      }
      e.frames = frames;
      trace.push(e);
      totals.push({ allocated, active, reserved });
    };

    const newSegment = (request: number): SegmentState => {
      const small = request <= MiB;
      const size = small ? 2 * MiB : request < 10 * MiB ? 20 * MiB : Math.ceil(request / (2 * MiB)) * 2 * MiB;
      const segment: SegmentState = { address: nextAddress, size, expandable, small, frames: stack(), blocks: [] };
      segment.blocks.push({ owner: segment, address: nextAddress, size, requested: 0, state: 'inactive', frames: [] });
      nextAddress += BigInt(size) + 0x20_0000n;
      segments.push(segment);
      reserved += size;
      entry(expandable ? 'segment_map' : 'segment_alloc', segment.address, size, segment.frames);
      return segment;
    };

    // Steps until the trace holds `events` entries: a completion rolled with nothing pending writes none.
    while (trace.length < options.events) {
      const roll = rng.next();
      const odds = live.length < liveTarget ? ODDS.growing : ODDS.steady;
      if (live.length === 0 || roll < odds.alloc) {
        const requested = rng.next() < 0.6 ? 1 + rng.int(512 * 1024) : 1 + rng.int(8 * MiB);
        const size = Math.ceil(requested / 512) * 512;
        let found: { segment: SegmentState; index: number } | undefined;
        for (const segment of segments) {
          if (segment.small !== size <= MiB) continue;
          const index = segment.blocks.findIndex((block) => block.state === 'inactive' && block.size >= size);
          if (index >= 0) {
            found = { segment, index };
            break;
          }
        }
        if (found === undefined) {
          const segment = newSegment(size);
          found = { segment, index: 0 };
        }
        const block = found.segment.blocks[found.index];
        if (block === undefined) throw new Error('no block');
        if (block.size > size) {
          found.segment.blocks.splice(found.index + 1, 0, {
            owner: found.segment,
            address: block.address + BigInt(size),
            size: block.size - size,
            requested: 0,
            state: 'inactive',
            frames: [],
          });
          block.size = size;
        }
        block.state = 'active_allocated';
        block.requested = requested;
        block.frames = stack();
        live.push(block);
        allocated += size;
        active += size;
        entry('alloc', block.address, size, block.frames);
      } else if (roll < odds.freeRequested) {
        const block = live.splice(rng.int(live.length), 1)[0];
        if (block === undefined) continue;
        block.state = 'active_pending_free';
        pending.push(block);
        allocated -= block.size;
        entry('free_requested', block.address, block.size, block.frames);
      } else if (pending.length > IN_FLIGHT) {
        const block = pending.shift();
        if (block === undefined) continue;
        block.state = 'inactive';
        active -= block.size;
        entry('free_completed', block.address, block.size, block.frames);
        const segment = block.owner;
        const owner = segment === undefined ? -1 : segments.indexOf(segment);
        if (segment?.blocks.every((b) => b.state === 'inactive') && rng.next() < 0.5) {
          segments.splice(owner, 1);
          reserved -= segment.size;
          entry(segment.expandable ? 'segment_unmap' : 'segment_free', segment.address, segment.size, []);
        } else if (segment !== undefined) {
          // Merge free neighbours, as the caching allocator does.
          for (let i = segment.blocks.length - 1; i > 0; i -= 1) {
            const a = segment.blocks[i - 1];
            const b = segment.blocks[i];
            if (a !== undefined && b !== undefined && a.state === 'inactive' && b.state === 'inactive') {
              a.size += b.size;
              segment.blocks.splice(i, 1);
            }
          }
        }
      }
    }
    if (npu && device === 0) {
      entry('workspace_snapshot', 0n, 0, []);
      const e: { [key: string]: Py } = { action: 'oom', device_free: 123 * MiB, size: 64 * MiB, stream, pool_id: poolId, frames: stack() };
      trace.push(e);
      totals.push({ allocated, active, reserved });
    }
    const drop = Math.min(options.ringDrop ?? 0, trace.length);
    traces.push(trace.slice(drop));
    truth.push(totals.slice(drop));
    initial.push(totals[drop - 1] ?? { allocated: 0, active: 0, reserved: 0 });
    for (const segment of segments) {
      const allocatedSize = segment.blocks.filter((b) => b.state === 'active_allocated').reduce((sum, b) => sum + b.size, 0);
      const activeSize = segment.blocks.filter((b) => b.state !== 'inactive').reduce((sum, b) => sum + b.size, 0);
      const requestedSize = segment.blocks.filter((b) => b.state !== 'inactive').reduce((sum, b) => sum + b.requested, 0);
      const dict: { [key: string]: Py } = {
        device,
        address: addressValue(segment.address),
        total_size: segment.size,
        allocated_size: allocatedSize,
        active_size: activeSize,
        requested_size: requestedSize,
        stream,
        segment_pool_id: poolId,
        segment_type: segment.small ? 'small' : 'large',
        is_expandable: segment.expandable,
        frames: segment.frames,
        blocks: segment.blocks.map((b) => ({
          address: addressValue(b.address),
          size: b.size,
          requested_size: b.requested,
          state: !npu && b.state === 'active_pending_free' ? 'active_awaiting_free' : b.state,
          frames: b.frames,
        })),
      };
      finalSegments.push(dict);
    }
  }
  const data: { [key: string]: Py } = { segments: finalSegments, device_traces: traces };
  if (!npu) {
    data.allocator_settings = {
      PYTORCH_CUDA_ALLOC_CONF: 'expandable_segments:True',
      max_split_size: -1,
      garbage_collection_threshold: 0,
      expandable_segments: true,
      roundup_power2_divisions: [1, 2, 4],
    };
  }
  return { data, truth, initial };
}
