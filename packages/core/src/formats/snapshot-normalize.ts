import { FormatError } from './format-error.ts';
import { kindOf, type PickleDict, type PickleValue } from './pickle-values.ts';
import {
  BLOCK_STATE_ALIASES,
  BLOCK_STATES,
  type Block,
  type BlockState,
  type MemorySnapshot,
  type Segment,
  type SettingValue,
  type SnapshotFormat,
  type StackFrames,
  TRACE_ACTIONS,
  type TraceAction,
  type TraceEntry,
} from './snapshot-types.ts';

/**
 * The one place an unpickled snapshot (untrusted data) becomes typed: every field is checked, and a
 * field of the wrong kind is a FormatError that names it (`device_traces[0][17].size: expected an
 * int, found a str`). Keys the format does not define are ignored, missing optional ones defaulted.
 */
const KNOWN_TOP = new Set(['segments', 'device_traces', 'allocator_settings', 'host_segments', 'host_traces']);
const ACTIONS: ReadonlySet<string> = new Set(TRACE_ACTIONS);
const STATES: ReadonlySet<string> = new Set(BLOCK_STATES);
const NO_FRAMES: StackFrames = [];

function isAction(value: string): value is TraceAction {
  return ACTIONS.has(value);
}

function isState(value: string): value is BlockState {
  return STATES.has(value);
}

/** Where a value sits, for messages; filled in place so the hot loops build no strings. Also the last pool id and stream seen, reused. */
class Where {
  lastPool: PickleValue[] | undefined = undefined;
  lastPoolText = '';
  lastInt = Number.NaN;
  lastBig = 0n;
  list = '';
  i = -1;
  j = -1;
  sub = '';
  k = -1;

  at(key: string): string {
    let text = this.list;
    if (this.i >= 0) text += `[${this.i}]`;
    if (this.j >= 0) text += `[${this.j}]`;
    if (this.sub !== '') text += `.${this.sub}`;
    if (this.k >= 0) text += `[${this.k}]`;
    return key === '' ? text : `${text}.${key}`;
  }
}

function bad(where: Where, key: string, expected: string, found: PickleValue | undefined): never {
  throw new FormatError(`${where.at(key)}: expected ${expected}, found ${kindOf(found)}`);
}

function isDict(value: PickleValue | undefined): value is PickleDict {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function dictAt(value: PickleValue | undefined, where: Where): PickleDict {
  if (!isDict(value)) bad(where, '', 'a dict', value);
  return value;
}

function listAt(value: PickleValue | undefined, where: Where, key: string): PickleValue[] {
  if (!Array.isArray(value)) bad(where, key, 'a list', value);
  return value;
}

function own(dict: PickleDict, key: string): PickleValue | undefined {
  return Object.hasOwn(dict, key) ? dict[key] : undefined;
}

/**
 * The largest size one segment, block or entry may have: 2^46 bytes (64 TiB), hundreds of times any
 * device's memory, so that sums over a file (stats, Perfetto counters) stay exact safe integers.
 */
export const MAX_SIZE = 2 ** 46;

function size(dict: PickleDict, key: string, where: Where): number {
  const value = own(dict, key);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    if (value > MAX_SIZE) throw new FormatError(`${where.at(key)}: ${value} bytes is more than 64 TiB, larger than any device (damaged?)`);
    return value;
  }
  if (typeof value === 'bigint') bad(where, key, 'a size below 2^53 bytes', value);
  return bad(where, key, 'a non-negative int', value);
}

function optionalSize(dict: PickleDict, key: string, where: Where): number | undefined {
  return own(dict, key) === undefined ? undefined : size(dict, key, where);
}

/** Addresses and streams: ints of any width, kept exact; a negative int64 stream stays negative. */
function exact(dict: PickleDict, key: string, where: Where, fallback?: bigint): bigint {
  const value = own(dict, key);
  if (typeof value === 'number' && Number.isInteger(value)) {
    // Streams repeat: the last few conversions are reused instead of a new bigint per entry.
    if (value === where.lastInt) return where.lastBig;
    const big = BigInt(value);
    if (key === 'stream') {
      where.lastInt = value;
      where.lastBig = big;
    }
    return big;
  }
  if (typeof value === 'bigint') return value;
  if (value === undefined && fallback !== undefined) return fallback;
  return bad(where, key, 'an int', value);
}

function text(dict: PickleDict, key: string, where: Where): string {
  const value = own(dict, key);
  if (typeof value !== 'string') bad(where, key, 'a str', value);
  return value;
}

/** `segment_pool_id` / `pool_id`: a (int, int) tuple, written as "a,b". */
function poolId(dict: PickleDict, key: string, where: Where): string | undefined {
  const value = own(dict, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (Array.isArray(value)) {
    // The writer shares one tuple object for every entry of a pool (memo): one string for all of them.
    if (value === where.lastPool) return where.lastPoolText;
    if (value.every((part) => typeof part === 'number' || typeof part === 'bigint')) {
      where.lastPool = value;
      where.lastPoolText = value.join(',');
      return where.lastPoolText;
    }
  }
  return bad(where, key, 'a tuple of ints', value);
}

/**
 * A stack is kept as written, unchecked: checking a frame dict reads it, and with real stacks
 * (tens of frames per entry, shared through the memo, scattered in memory) that is a cache miss
 * per frame — most of the time of a large file. `framesOf` checks a stack when it is used.
 */
function frames(dict: PickleDict, where: Where): StackFrames {
  const value = own(dict, 'frames');
  if (value === undefined || value === null) return NO_FRAMES;
  if (!Array.isArray(value)) return bad(where, 'frames', 'a list of frames', value);
  return value;
}

function blockState(dict: PickleDict, where: Where): BlockState {
  const state = text(dict, 'state', where);
  if (isState(state)) return state;
  const alias = BLOCK_STATE_ALIASES[state];
  if (alias !== undefined && Object.hasOwn(BLOCK_STATE_ALIASES, state)) return alias;
  throw new FormatError(
    `${where.at('state')}: "${state.slice(0, 40)}" is not a block state (${BLOCK_STATES.join(', ')}, active_awaiting_free)`,
  );
}

function readBlock(value: PickleValue | undefined, where: Where): Block {
  const dict = dictAt(value, where);
  return {
    address: exact(dict, 'address', where),
    size: size(dict, 'size', where),
    requestedSize: optionalSize(dict, 'requested_size', where) ?? 0,
    state: blockState(dict, where),
    frames: frames(dict, where),
  };
}

/**
 * `host`: a host segment (host_segments), whose memory is on no device: its `device` may be absent
 * or any integer (-1 for the CPU), kept as written, or -1 when absent.
 */
function readSegment(value: PickleValue | undefined, where: Where, host: boolean): Segment {
  const dict = dictAt(value, where);
  const segmentType = own(dict, 'segment_type');
  if (segmentType !== undefined && segmentType !== 'large' && segmentType !== 'small')
    bad(where, 'segment_type', '"large" or "small"', segmentType);
  const expandable = own(dict, 'is_expandable');
  if (expandable !== undefined && typeof expandable !== 'boolean') bad(where, 'is_expandable', 'a bool', expandable);
  const written = own(dict, 'device');
  const device = host && written === undefined ? -1 : written;
  if (typeof device !== 'number' || !Number.isSafeInteger(device) || (!host && device < 0))
    bad(where, 'device', host ? 'an int' : 'a device index', device);
  const rawBlocks = own(dict, 'blocks');
  const list = rawBlocks === undefined ? [] : listAt(rawBlocks, where, 'blocks');
  const blocks: Block[] = new Array(list.length);
  where.sub = 'blocks';
  for (let k = 0; k < list.length; k += 1) {
    where.k = k;
    blocks[k] = readBlock(list[k], where);
  }
  where.sub = '';
  where.k = -1;
  return {
    device,
    address: exact(dict, 'address', where),
    totalSize: size(dict, 'total_size', where),
    allocatedSize: optionalSize(dict, 'allocated_size', where) ?? 0,
    activeSize: optionalSize(dict, 'active_size', where) ?? 0,
    requestedSize: optionalSize(dict, 'requested_size', where) ?? 0,
    stream: exact(dict, 'stream', where, 0n),
    segmentType,
    poolId: poolId(dict, 'segment_pool_id', where),
    isExpandable: expandable === true,
    frames: frames(dict, where),
    blocks,
  };
}

function readEntry(value: PickleValue | undefined, where: Where): TraceEntry {
  const dict = dictAt(value, where);
  const action = own(dict, 'action');
  if (typeof action !== 'string' || !isAction(action)) {
    if (typeof action === 'string')
      throw new FormatError(`${where.at('action')}: "${action.slice(0, 40)}" is not a trace action (${TRACE_ACTIONS.join(', ')})`);
    bad(where, 'action', 'a str', action);
  }
  const oom = action === 'oom';
  const time = own(dict, 'time_us');
  if (time !== undefined && typeof time !== 'number') bad(where, 'time_us', 'an int', time);
  return {
    action,
    addr: oom ? exact(dict, 'addr', where, 0n) : exact(dict, 'addr', where),
    size: size(dict, 'size', where),
    stream: exact(dict, 'stream', where, 0n),
    timeUs: time,
    poolId: poolId(dict, 'pool_id', where),
    deviceFree: oom ? optionalSize(dict, 'device_free', where) : undefined,
    frames: frames(dict, where),
  };
}

function readSegments(value: PickleValue | undefined, name: string): Segment[] {
  const where = new Where();
  where.list = name;
  const list = listAt(value, where, '');
  const segments: Segment[] = new Array(list.length);
  let total = 0;
  for (let i = 0; i < list.length; i += 1) {
    where.i = i;
    const segment = readSegment(list[i], where, name === 'host_segments');
    segments[i] = segment;
    total += segment.totalSize;
    // Keeps every sum of page bytes a safe integer (the page figures check it).
    if (total > 2 ** 52) throw new FormatError(`${name}: the segments add up to more than 4 PiB (at ${where.at('')}): damaged?`);
  }
  return segments;
}

function readTrace(list: PickleValue[], where: Where): TraceEntry[] {
  const entries: TraceEntry[] = new Array(list.length);
  for (let j = 0; j < list.length; j += 1) {
    where.j = j;
    entries[j] = readEntry(list[j], where);
  }
  where.j = -1;
  return entries;
}

/**
 * A batch of `device_traces[device]` as the trace stream hands it over (its entries from index
 * `first` on), each typed as the whole-file path types it, with the same messages.
 */
export function readTraceBatch(list: readonly PickleValue[], device: number, first: number, each: (entry: TraceEntry) => void): void {
  const where = new Where();
  where.list = 'device_traces';
  where.i = device;
  for (let j = 0; j < list.length; j += 1) {
    where.j = first + j;
    each(readEntry(list[j], where));
  }
}

function readDeviceTraces(value: PickleValue | undefined): TraceEntry[][] {
  if (value === undefined) return [];
  const where = new Where();
  where.list = 'device_traces';
  const devices = listAt(value, where, '');
  return devices.map((trace, i) => {
    where.i = i;
    return readTrace(listAt(trace, where, ''), where);
  });
}

function readHostTraces(value: PickleValue | undefined): TraceEntry[] | undefined {
  if (value === undefined) return undefined;
  const where = new Where();
  where.list = 'host_traces';
  const list = listAt(value, where, '');
  // Some builds write one list per host; a list of lists is read as their concatenation.
  if (list.every(Array.isArray)) {
    return list.flatMap((trace, i) => {
      where.i = i;
      return readTrace(listAt(trace, where, ''), where);
    });
  }
  where.list = 'host_traces';
  return readTrace(list, where);
}

function settingValue(value: PickleValue): SettingValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value, (_key, inner: unknown) =>
    typeof inner === 'bigint' ? inner.toString() : inner instanceof Uint8Array ? `<${inner.length} bytes>` : inner,
  );
}

function readSettings(value: PickleValue | undefined): Record<string, SettingValue> | undefined {
  if (value === undefined) return undefined;
  const where = new Where();
  where.list = 'allocator_settings';
  const dict = dictAt(value, where);
  const settings: Record<string, SettingValue> = {};
  for (const key of Object.keys(dict)) Object.defineProperty(settings, key, { value: settingValue(dict[key] ?? null), enumerable: true });
  return settings;
}

/**
 * CUDA or torch_npu, from what only one of them writes (torch_npu `Module.cpp` vs PyTorch
 * `memory_snapshot.cpp`): a `workspace_snapshot` action, or trace entries with `pool_id` and no
 * `time_us`, mean torch_npu; `allocator_settings` naming PYTORCH_CUDA_ALLOC_CONF, or `time_us`, mean CUDA.
 */
export interface FormatClues {
  /** A `workspace_snapshot` entry was seen. */
  workspace: boolean;
  /** Entries with `time_us`, and with `pool_id`. */
  timed: number;
  pooled: number;
}

export function noClues(): FormatClues {
  return { workspace: false, timed: 0, pooled: 0 };
}

/** What one trace entry says about its writer (detectFormat). */
export function addClues(clues: FormatClues, entry: TraceEntry): void {
  if (entry.action === 'workspace_snapshot') clues.workspace = true;
  if (entry.timeUs !== undefined) clues.timed += 1;
  if (entry.poolId !== undefined) clues.pooled += 1;
}

function detectFormat(raw: PickleDict, clues: FormatClues, settings: Record<string, SettingValue> | undefined): [SnapshotFormat, string] {
  const { timed, pooled } = clues;
  if (clues.workspace) return ['torch_npu', 'a workspace_snapshot trace entry (only torch_npu writes it)'];
  if (settings !== undefined && Object.keys(settings).some((key) => key.includes('CUDA'))) {
    return ['pytorch_cuda', 'allocator_settings name PYTORCH_CUDA_ALLOC_CONF'];
  }
  if (timed > 0) return ['pytorch_cuda', `${timed} trace entries carry time_us (torch_npu writes none)`];
  if (pooled > 0) return ['torch_npu', `${pooled} trace entries carry pool_id and none time_us`];
  if (settings !== undefined) return ['pytorch_cuda', 'allocator_settings present (torch_npu writes none)'];
  if (Object.hasOwn(raw, 'device_traces') || Object.hasOwn(raw, 'segments')) {
    return ['unknown', 'no trace entry and no allocator_settings tell the writer apart'];
  }
  return ['unknown', 'no trace entries'];
}

/**
 * `torch.cuda.memory_snapshot()` (and torch_npu's `torch_npu.npu.memory_snapshot()`) return only the
 * snapshot's `segments` list, and people pickle that too: a list whose items are segment dicts
 * (each with `total_size`), or an empty one.
 */
function isSegmentList(value: PickleValue): value is PickleValue[] {
  if (!Array.isArray(value)) return false;
  const first = value[0];
  return first === undefined || (isDict(first) && Object.hasOwn(first, 'total_size'));
}

/**
 * An unpickled value to a typed snapshot; throws FormatError naming the first field that is wrong.
 * `streamed`: the trace went to a sink while it was read (its lists are empty here), and these are
 * the clues its entries gave about the writer.
 */
export function normalizeSnapshot(value: PickleValue, streamed?: FormatClues): MemorySnapshot {
  if (isSegmentList(value)) {
    return {
      ...normalizeSnapshot({ segments: value }, streamed),
      formatEvidence:
        'a list of segments, as torch.cuda.memory_snapshot() and torch_npu.npu.memory_snapshot() return: no trace and no settings tell the writer apart',
    };
  }
  if (!isDict(value))
    throw new FormatError(
      `not a memory snapshot: the pickle holds ${kindOf(value)}, expected a dict with "segments" and "device_traces" (or the list of segment dicts memory_snapshot() returns)`,
    );
  if (!Object.hasOwn(value, 'segments') && !Object.hasOwn(value, 'device_traces')) {
    const keys = Object.keys(value).slice(0, 8).join(', ');
    throw new FormatError(
      `not a memory snapshot: the dict has no "segments" or "device_traces" (its keys: ${keys === '' ? 'none' : keys})`,
    );
  }
  const segments = Object.hasOwn(value, 'segments') ? readSegments(value.segments, 'segments') : [];
  const deviceTraces = readDeviceTraces(own(value, 'device_traces'));
  const allocatorSettings = readSettings(own(value, 'allocator_settings'));
  const hostSegments = own(value, 'host_segments') === undefined ? undefined : readSegments(value.host_segments, 'host_segments');
  const hostTraces = readHostTraces(own(value, 'host_traces'));
  let clues = streamed;
  if (clues === undefined) {
    clues = noClues();
    for (const trace of deviceTraces) for (const entry of trace) addClues(clues, entry);
  }
  const [format, formatEvidence] = detectFormat(value, clues, allocatorSettings);
  return {
    kind: 'snapshot',
    format,
    formatEvidence,
    segments,
    deviceTraces,
    allocatorSettings,
    hostSegments,
    hostTraces,
    otherKeys: Object.keys(value).filter((key) => !KNOWN_TOP.has(key)),
  };
}
