import type { PageClass } from '../model/events.ts';

/**
 * A PyTorch / torch_npu allocator snapshot after normalising (snapshot-normalize.ts): the same
 * facts as the pickle, with one spelling for each, exact addresses, and the differences between the
 * CUDA and the torch_npu writers made explicit. Field facts: ../shared/reference/formats.md, checked
 * against torch_npu's writer (Ascend/pytorch `torch_npu/csrc/npu/Module.cpp`, commit 9e73e708).
 *
 * Addresses and streams are `bigint`: device addresses may exceed 2^53 and streams are int64
 * pointers, so a `number` could round them. Sizes are `number`s of bytes, refused when not a safe
 * integer (8 PiB is far beyond any device).
 */

import type { PickleValue } from './pickle-values.ts';

/** A stack as the file holds it: a list of frame dicts, checked when read with `framesOf` (frames.ts). */
export type StackFrames = readonly PickleValue[];

/** Every trace action, written once; `workspace_snapshot` only torch_npu writes. */
export const TRACE_ACTIONS = [
  'alloc',
  'free_requested',
  'free_completed',
  'segment_alloc',
  'segment_free',
  'segment_map',
  'segment_unmap',
  'snapshot',
  'oom',
  'workspace_snapshot',
] as const;
export type TraceAction = (typeof TRACE_ACTIONS)[number];

/** Block states as the writers spell them; `active_awaiting_free` (the Python docstring's name) reads as `active_pending_free`. */
export const BLOCK_STATES = ['active_allocated', 'active_pending_free', 'inactive'] as const;
export type BlockState = (typeof BLOCK_STATES)[number];
export const BLOCK_STATE_ALIASES: Readonly<Record<string, BlockState>> = { active_awaiting_free: 'active_pending_free' };

/** Who wrote the file: PyTorch on CUDA, torch_npu on Ascend, or not decidable from its content. */
export type SnapshotFormat = 'torch_npu' | 'pytorch_cuda' | 'unknown';

export interface Frame {
  readonly filename: string;
  readonly line: number;
  readonly name: string;
}

export interface Block {
  readonly address: bigint;
  readonly size: number;
  readonly requestedSize: number;
  readonly state: BlockState;
  readonly frames: StackFrames;
}

export interface Segment {
  readonly device: number;
  readonly address: bigint;
  readonly totalSize: number;
  readonly allocatedSize: number;
  readonly activeSize: number;
  readonly requestedSize: number;
  readonly stream: bigint;
  /** "large" (> 1 MiB requests) or "small"; undefined when the file does not say. */
  readonly segmentType: 'large' | 'small' | undefined;
  /** `segment_pool_id` as text ("0,0" for the default pool); undefined when absent. */
  readonly poolId: string | undefined;
  readonly isExpandable: boolean;
  readonly frames: StackFrames;
  readonly blocks: readonly Block[];
  /**
   * The page size a tool recorded for this allocation (msMemScope's HAL `page_type`, read from the
   * driver's allocation flags); absent when the file does not say, and then the pages are modeled.
   */
  readonly recordedPageClass?: PageClass;
}

/** A trace entry as a converter writes it (msMemScope rows): no stream, pool or device_free. */
export function traceEntry(action: TraceAction, addr: bigint, size: number, timeUs: number, frames: StackFrames): TraceEntry {
  return { action, addr, size, stream: 0n, timeUs, poolId: undefined, deviceFree: undefined, frames };
}

/**
 * A segment known only by its place and size (one a trace entry makes, or an msMemScope
 * allocation): nothing allocated in it, no stream, pool or stack; `extra` sets the rest.
 */
export function bareSegment(device: number, address: bigint, totalSize: number, extra: Partial<Segment> = {}): Segment {
  return {
    device,
    address,
    totalSize,
    allocatedSize: 0,
    activeSize: 0,
    requestedSize: 0,
    stream: 0n,
    segmentType: undefined,
    poolId: undefined,
    isExpandable: false,
    frames: [],
    blocks: [],
    ...extra,
  };
}

export interface TraceEntry {
  readonly action: TraceAction;
  /** `addr`; for `oom` entries 0n (they carry `deviceFree` instead). */
  readonly addr: bigint;
  readonly size: number;
  readonly stream: bigint;
  /** µs; CUDA writes it, torch_npu does not. */
  readonly timeUs: number | undefined;
  /** torch_npu's `pool_id` as text. */
  readonly poolId: string | undefined;
  /** `oom` entries: the device's free bytes when it happened. */
  readonly deviceFree: number | undefined;
  readonly frames: StackFrames;
}

/**
 * A device's trace as every reader of a snapshot sees it: an array of entries (a file read whole,
 * a test's literal) or TraceColumns (trace-columns.ts: a file streamed by the loader). Read it by
 * `at` or `for … of`.
 */
export interface TraceList extends Iterable<TraceEntry> {
  readonly length: number;
  at(index: number): TraceEntry | undefined;
}

/** A setting's value as it was written: text, number or flag; lists and dicts as JSON text. */
export type SettingValue = string | number | boolean | null;

export interface MemorySnapshot {
  readonly kind: 'snapshot';
  readonly format: SnapshotFormat;
  /** Why `format` was chosen, for the UI and `stats`. */
  readonly formatEvidence: string;
  readonly segments: readonly Segment[];
  /** `device_traces`: index = device. The trace is a ring buffer and may not start at the beginning. */
  readonly deviceTraces: readonly TraceList[];
  /** `allocator_settings`; undefined when absent (torch_npu writes none). */
  readonly allocatorSettings: Readonly<Record<string, SettingValue>> | undefined;
  readonly hostSegments: readonly Segment[] | undefined;
  readonly hostTraces: readonly TraceEntry[] | undefined;
  /** Top-level keys PageLens does not read (e.g. `external_annotations`), so the UI can say they were skipped. */
  readonly otherKeys: readonly string[];
  /** Per device: trace index of a segment_alloc or segment_free → the page size the file recorded for that allocation (Segment.recordedPageClass). */
  readonly recordedPageClasses?: readonly ReadonlyMap<number, PageClass>[];
}
