import { aclrtMemAttr, aclrtMemMallocPolicy } from '../acl/enums.ts';
import { ACL_ERROR_RT_MEMORY_ALLOCATION } from '../acl/errors.ts';
import type { EventBody, MemoryEvent, PageClass, Provenance } from '../model/events.ts';
import { pageBytes } from '../model/malloc-policy.ts';
import { findPages } from '../model/placement.ts';
import { advance, reduce } from '../model/reduce.ts';
import { encodeSnapshot, type Snapshot } from '../model/snapshot.ts';
import { createHostState, type HostState } from '../model/state.ts';
import { OPAQUE_BASE, OPAQUE_STRIDE } from '../sim/layout.ts';
import { type AddressMap, buildAddressMap, clusterOf, type RecordedRange, toModelAddress } from './address-map.ts';
import { BlockIndex } from './block-index.ts';
import { FormatError } from './format-error.ts';
import { HostReplay } from './host-replay.ts';
import { type AllocatorModel, expandableHandleBytes, segmentPages } from './segment-pages.ts';
import { initialLiveSets, type LiveBlock } from './snapshot-replay.ts';
import { bareSegment, type MemorySnapshot, type Segment, type TraceEntry } from './snapshot-types.ts';
import { StackInterner, type StackTable } from './stack-table.ts';
import { hexAddress as hex, RecordedEvents, type TraceCallFields, TraceCalls, traceCallArgs } from './trace-calls.ts';
import { actionAt, bareEntry, isTimed, TraceColumns, timeUsAt, tracesInterner } from './trace-columns.ts';

/**
 * A snapshot as a read-only recorded session of the model (issue 16, "Into the model"): an initial
 * state, then events that reduce into a HostState, so the page map, address space, TLB, log and time
 * travel work on a real job's memory.
 *
 * - Every trace entry is one `call` event named by its action (`alloc`, `segment_map`, …),
 *   provenance `observed`: recorded by the allocator on the real run. Its time is `time_us` (CUDA)
 *   or, since torch_npu writes none, the entry's index in µs (devices interleave by index).
 * - Segments become what torch_npu's caching allocator makes for them (segment-pages.ts cites the
 *   source): a non-expandable segment is a modeled `aclrtMallocAlign32` call and its `alloc`; an
 *   expandable one is a reservation of its address range (`aclrtReserveMemAddress`) and, per
 *   segment_map, physical handles of the allocator's segment size (`aclrtMallocPhysical`,
 *   ACL_HBM_MEM_HUGE, or HUGE1G with page_size:1g) mapped in it (`aclrtMapMem`). These events are
 *   `modeled`: the pages and their placement are PageLens's, chosen by the simulator's planners.
 * - Segments live before the trace began (a ring buffer) are found by walking the trace back from
 *   the final segments, and made first, at time 0.
 * - Blocks live in a side index (block-index.ts), not in the HostState.
 * - Addresses map into the device's model window (address-map.ts); recorded ones stay in the
 *   call's args and in the blocks.
 */
export interface ImportOptions extends AllocatorModel {
  /** The file's name, shown as the process name. */
  readonly name: string;
  /**
   * Let go of each trace entry once it is applied, and leave the snapshot's traces empty: for a
   * caller that drops the snapshot afterwards (the import worker), so the entries and the session
   * are not both held whole (at 1 M entries, the entries and their stacks are some 170 MB of a tab).
   */
  readonly consume?: boolean;
}

export interface ImportedSession {
  readonly name: string;
  readonly format: MemorySnapshot['format'];
  readonly formatEvidence: string;
  readonly model: AllocatorModel;
  /** The state before the first event (seq 0): the devices, nothing allocated. */
  readonly initial: Snapshot;
  /** Every event, made when first read (RecordedEvents.all); the import worker only packs `recorded`. */
  readonly events: readonly MemoryEvent[];
  readonly recorded: RecordedEvents;
  /** The state after every event. */
  readonly final: HostState;
  readonly blocks: BlockIndex;
  /** The blocks' stacks, each distinct one once (a block's `stack` is its id here). */
  readonly stacks: StackTable;
  readonly addressMaps: readonly AddressMap[];
  /** Per device, the seq of each trace entry's `call` event (time travel to an entry). */
  readonly entrySeqs: readonly (readonly number[])[];
  /** 'time_us' when the file records time, else 'entry order'. */
  readonly timeBasis: 'time_us' | 'entry order';
  /** Trace entries that contradict what came before them (a free of nothing, a second alloc at one address): shown in the log, changing nothing. */
  readonly inconsistent: number;
  /** Segments of the file's final state the replay did not end with (or the reverse): 0 for a consistent file. */
  readonly finalMismatch: number;
  /** The devices on which the job used expandable segments (a segment_map, or an expandable segment at the end): they became reservations. */
  readonly expandableDevices: readonly number[];
  /** Pinned host memory the file recorded (host-replay.ts): its trace entries and the buffers live at the end; undefined when it recorded none. */
  readonly pinnedHost: PinnedHostFacts | undefined;
}

export interface PinnedHostFacts {
  readonly entries: number;
  readonly live: number;
}

const PID = 1;
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Streams repeat entry after entry: their text is made once. */
const streamText = new Map<bigint, string>();
function streamHex(stream: bigint): string {
  let text = streamText.get(stream);
  if (text === undefined) {
    text = hex(stream);
    if (streamText.size < 4096) streamText.set(stream, text);
  }
  return text;
}

/** Appends events and reduces each into a scratch state, so placement sees the frames as they are. */
class Builder {
  /** The events, the trace entries' calls in columns (trace-calls.ts). */
  readonly events: RecordedEvents;
  readonly state: HostState;
  private seq = 0;
  private nextId = 1;
  t = 0;

  constructor(state: HostState, traceEntries: number) {
    this.state = state;
    this.events = new RecordedEvents(traceEntries);
  }

  /** The seq the next event takes. */
  get nextSeq(): number {
    return this.seq + 1;
  }

  id(): number {
    const id = this.nextId;
    this.nextId += 1;
    return id;
  }

  emit(body: EventBody, provenance: Provenance, call?: number): number {
    this.seq += 1;
    // The body is a fresh literal of one of the event table's kinds: the base fields complete it in
    // place rather than in a spread copy.
    const event = Object.assign(
      body,
      call === undefined ? { seq: this.seq, t: this.t, provenance } : { seq: this.seq, t: this.t, provenance, call },
    ) as MemoryEvent;
    this.events.plain(event);
    reduce(this.state, event);
    return this.seq;
  }

  /** A trace entry's observed call: a TraceCall over the columns, or a plain event when they cannot hold it exactly. */
  traceCall(fields: TraceCallFields): number {
    if (!TraceCalls.fits(fields)) return this.call(fields.action, traceCallArgs(fields), 'observed');
    this.seq += 1;
    this.events.traced(fields);
    // What reducing its event would do: a call changes only the cursor and the clock.
    advance(this.state, this.seq, fields.t);
    return this.seq;
  }

  call(fn: string, args: Record<string, unknown>, provenance: Provenance, ret = 0, message?: string): number {
    const body = { kind: 'call', pid: PID, fn, args, ret, durationNs: 0 } as const;
    return this.emit(message === undefined ? body : { ...body, message }, provenance);
  }
}

interface Handle {
  readonly recordedStart: bigint;
  readonly size: number;
  readonly physical: number;
  readonly mapping: number;
}

/** One device's model objects while replaying. */
class DeviceReplay {
  readonly segments = new Map<bigint, number>();
  readonly reservations = new Map<bigint, number>();
  readonly handles: Handle[] = [];
  /** The live blocks' rows in the index, by recorded address. */
  readonly blocks = new Map<bigint, number>();
  /** segment_type of the final segments, by recorded address (the trace does not say). */
  readonly types = new Map<bigint, Segment['segmentType']>();

  constructor(
    readonly device: number,
    readonly map: AddressMap,
  ) {}
}

function placementFor(builder: Builder, device: number, pageClass: PageClass, bytes: number, what: string) {
  const deviceState = builder.state.devices[device];
  if (deviceState === undefined) throw new Error(`no device ${device}`);
  const pageSize = pageBytes(pageClass, deviceState.profile);
  const pages = Math.ceil(bytes / pageSize);
  const runs = findPages(deviceState.frames, pageClass, pages);
  if (runs === undefined) {
    const { profile } = deviceState;
    throw new FormatError(
      `device ${device}: ${what} needs ${pages} ${pageClass} pages, and the modeled ${profile.name} ` +
        `(${Math.round(profile.capacityBytes / GiB)} GiB) has no room left: this job holds more than the profile; choose a larger profile`,
    );
  }
  return { pageClass, pageSize, pages, runs };
}

function probe(
  device: number,
  address: bigint,
  size: number,
  expandable: boolean,
  type: Segment['segmentType'],
  recordedPageClass?: PageClass,
): Segment {
  const segmentType = type ?? (size <= 2 * MiB ? 'small' : 'large');
  return bareSegment(device, address, size, {
    segmentType,
    isExpandable: expandable,
    ...(recordedPageClass === undefined ? {} : { recordedPageClass }),
  });
}

/** `recordedPageClass`: the page size the file recorded for this allocation, which the model then takes. */
function allocSegment(
  builder: Builder,
  replay: DeviceReplay,
  model: AllocatorModel,
  address: bigint,
  size: number,
  recordedPageClass?: PageClass,
): void {
  const addr = toModelAddress(replay.map, address);
  if (addr === undefined || size === 0) return;
  const plan = segmentPages(probe(replay.device, address, size, false, replay.types.get(address), recordedPageClass), model);
  // A non-expandable segment's plan names an aclrtMalloc policy, never a memAttr.
  const policyName = plan.policy === 'ACL_HBM_MEM_HUGE' || plan.policy === 'ACL_HBM_MEM_HUGE1G' ? 'ACL_MEM_MALLOC_HUGE_FIRST' : plan.policy;
  const policy = aclrtMemMallocPolicy.byName[policyName];
  const call = builder.call(
    'aclrtMallocAlign32',
    {
      size,
      policy: plan.policy,
      devPtr: `0x${addr.toString(16)}`,
      recorded: hex(address),
      ...(plan.recorded ? { recordedPageType: plan.pageClass } : {}),
    },
    'modeled',
  );
  const id = builder.id();
  const placement = placementFor(builder, replay.device, plan.pageClass, plan.padded, `segment ${hex(address)} (${size} bytes)`);
  builder.emit(
    {
      kind: 'alloc',
      pid: PID,
      device: replay.device,
      id,
      fn: 'aclrtMallocAlign32',
      addr,
      size,
      padded: plan.padded,
      policy,
      p2p: false,
      ...placement,
    },
    'modeled',
    call,
  );
  replay.segments.set(address, id);
}

function freeSegment(builder: Builder, replay: DeviceReplay, address: bigint): boolean {
  const id = replay.segments.get(address);
  if (id === undefined) return false;
  const call = builder.call('aclrtFree', { devPtr: hex(address) }, 'modeled');
  builder.emit({ kind: 'free', id }, 'modeled', call);
  replay.segments.delete(address);
  return true;
}

/** The blocks as they are made, and their stacks interned as they come (the frames are not kept). */
interface Blocks {
  readonly index: BlockIndex;
  readonly stacks: StackInterner;
}

function mapRange(builder: Builder, replay: DeviceReplay, model: AllocatorModel, address: bigint, size: number): void {
  const cluster = clusterOf(replay.map, address);
  if (cluster === undefined || size === 0) return;
  let reservation = replay.reservations.get(cluster.recordedStart);
  if (reservation === undefined) {
    const extent = Number(cluster.recordedEnd - cluster.recordedStart);
    const reserved = Math.ceil(extent / (2 * MiB)) * 2 * MiB;
    const call = builder.call(
      'aclrtReserveMemAddress',
      { size: reserved, virPtr: `0x${cluster.modelStart.toString(16)}`, recorded: hex(cluster.recordedStart) },
      'modeled',
    );
    reservation = builder.id();
    builder.emit(
      { kind: 'reserve', pid: PID, device: replay.device, id: reservation, addr: cluster.modelStart, size: reserved, flags: 0 },
      'modeled',
      call,
    );
    replay.reservations.set(cluster.recordedStart, reservation);
  }
  const plan = segmentPages(probe(replay.device, address, size, true, replay.types.get(cluster.recordedStart)), model);
  const memAttrName = plan.policy === 'ACL_HBM_MEM_HUGE1G' ? 'ACL_HBM_MEM_HUGE1G' : 'ACL_HBM_MEM_HUGE';
  const type = replay.types.get(cluster.recordedStart);
  const step = expandableHandleBytes(type === 'small' || (type === undefined && size <= 2 * MiB), plan.pageClass === 'giant');
  for (let offset = 0; offset < size; offset += step) {
    const bytes = Math.min(step, size - offset);
    const start = address + BigInt(offset);
    const addr = toModelAddress(replay.map, start);
    if (addr === undefined) continue;
    const physCall = builder.call('aclrtMallocPhysical', { size: bytes, memAttr: memAttrName, recorded: hex(start) }, 'modeled');
    const physical = builder.id();
    const placement = placementFor(builder, replay.device, plan.pageClass, bytes, `a handle of segment ${hex(address)}`);
    const handleValue = OPAQUE_BASE + physical * OPAQUE_STRIDE;
    builder.emit(
      {
        kind: 'physAlloc',
        pid: PID,
        device: replay.device,
        id: physical,
        handle: handleValue,
        size: bytes,
        memAttr: aclrtMemAttr.byName[memAttrName],
        ...placement,
      },
      'modeled',
      physCall,
    );
    const mapCall = builder.call('aclrtMapMem', { virPtr: `0x${addr.toString(16)}`, size: bytes, recorded: hex(start) }, 'modeled');
    const mapping = builder.id();
    builder.emit(
      { kind: 'map', pid: PID, id: mapping, reservation, handle: physical, addr, size: bytes, device: replay.device },
      'modeled',
      mapCall,
    );
    replay.handles.push({ recordedStart: start, size: bytes, physical, mapping });
  }
}

function unmapRange(builder: Builder, replay: DeviceReplay, address: bigint, size: number): boolean {
  const end = address + BigInt(size);
  let found = false;
  for (let i = 0; i < replay.handles.length; ) {
    const handle = replay.handles[i];
    if (handle === undefined || handle.recordedStart < address || handle.recordedStart >= end) {
      i += 1;
      continue;
    }
    found = true;
    const unmapCall = builder.call('aclrtUnmapMem', { recorded: hex(handle.recordedStart) }, 'modeled');
    builder.emit({ kind: 'unmap', id: handle.mapping }, 'modeled', unmapCall);
    const freeCall = builder.call('aclrtFreePhysical', { recorded: hex(handle.recordedStart) }, 'modeled');
    builder.emit({ kind: 'physFree', id: handle.physical, deferred: false }, 'modeled', freeCall);
    builder.emit({ kind: 'physRelease', id: handle.physical }, 'modeled', freeCall);
    replay.handles.splice(i, 1);
  }
  return found;
}

function openBlock(replay: DeviceReplay, blocks: Blocks, address: bigint, live: LiveBlock, seq: number): number {
  const row = blocks.index.open({
    device: replay.device,
    recordedAddress: address,
    addr: toModelAddress(replay.map, address),
    size: live.size,
    stream: live.stream,
    stack: live.stack ?? blocks.stacks.add(live.frames),
    allocSeq: seq,
  });
  replay.blocks.set(address, row);
  return row;
}

/** One trace entry: its observed call, then what it changes in the model. Returns false when it contradicts the state. */
function applyEntry(
  builder: Builder,
  replay: DeviceReplay,
  model: AllocatorModel,
  blocks: Blocks,
  entry: TraceEntry,
  /** The entry's stack id in `blocks.stacks`, when the trace holds its stacks so (else its frames are interned). */
  stack: number | undefined,
  /** A segment_alloc's page size as the file recorded it (MemorySnapshot.recordedPageClasses). */
  recordedPageClass: PageClass | undefined,
): { seq: number; ok: boolean } {
  const fields: TraceCallFields = {
    seq: builder.nextSeq,
    t: builder.t,
    action: entry.action,
    device: replay.device,
    addr: entry.addr,
    size: entry.size,
    stream: streamHex(entry.stream),
    modelAddr: toModelAddress(replay.map, entry.addr),
    poolId: entry.poolId,
    timeUs: entry.timeUs,
  };
  if (entry.action === 'oom') {
    const args = traceCallArgs(fields);
    args.device_free = entry.deviceFree ?? null;
    const seq = builder.call(
      'oom',
      args,
      'observed',
      ACL_ERROR_RT_MEMORY_ALLOCATION,
      `out of memory: ${entry.size} bytes requested, ${entry.deviceFree ?? '?'} bytes free on the device`,
    );
    return { seq, ok: true };
  }
  const seq = builder.traceCall(fields);
  switch (entry.action) {
    case 'segment_alloc':
      if (replay.segments.has(entry.addr)) return { seq, ok: false };
      allocSegment(builder, replay, model, entry.addr, entry.size, recordedPageClass);
      return { seq, ok: true };
    case 'segment_free':
      return { seq, ok: freeSegment(builder, replay, entry.addr) };
    case 'segment_map':
      mapRange(builder, replay, model, entry.addr, entry.size);
      return { seq, ok: true };
    case 'segment_unmap':
      return { seq, ok: unmapRange(builder, replay, entry.addr, entry.size) };
    case 'alloc':
      if (replay.blocks.has(entry.addr)) return { seq, ok: false };
      openBlock(replay, blocks, entry.addr, { size: entry.size, stream: entry.stream, frames: entry.frames, stack, pending: false }, seq);
      return { seq, ok: true };
    case 'free_requested': {
      const row = replay.blocks.get(entry.addr);
      if (row === undefined || blocks.index.freeRequestedSeq(row) !== undefined) return { seq, ok: false };
      blocks.index.freeRequested(row, seq);
      return { seq, ok: true };
    }
    case 'free_completed': {
      const row = replay.blocks.get(entry.addr);
      if (row === undefined) return { seq, ok: false };
      if (blocks.index.freeRequestedSeq(row) === undefined) blocks.index.freeRequested(row, seq);
      blocks.index.freeCompleted(row, seq);
      replay.blocks.delete(entry.addr);
      return { seq, ok: true };
    }
    case 'snapshot':
    case 'workspace_snapshot':
      return { seq, ok: true };
  }
}

function rangesOf(snapshot: MemorySnapshot, device: number): RecordedRange[] {
  const ranges: RecordedRange[] = [];
  for (const segment of snapshot.segments) if (segment.device === device) ranges.push({ start: segment.address, size: segment.totalSize });
  const trace = snapshot.deviceTraces[device] ?? [];
  for (let i = 0; i < trace.length; i += 1) {
    if (actionAt(trace, i)?.startsWith('segment_') !== true) continue;
    const entry = bareEntry(trace, i);
    if (entry !== undefined) ranges.push({ start: entry.addr, size: entry.size });
  }
  return ranges;
}

/** Trace entries of every device in time order, as columns: the k-th is entry `index[p]` of device `device[p]` at time `t[p]`, p = order[k]. */
interface MergedOrder {
  /** Whether any entry records time_us (the order is then by time). */
  readonly timed: boolean;
  /** The earliest time_us of any entry, the host trace's too: the session's time 0. */
  readonly t0: number;
  readonly length: number;
  readonly device: Uint8Array;
  readonly index: Uint32Array;
  readonly t: Float64Array;
  /** Positions by time; undefined when the columns are in time order already (one device's trace). */
  readonly order: Uint32Array | undefined;
}

/** Trace entries of every device in time order: by time_us when recorded, else by index; ties by device. */
function mergedOrder(snapshot: MemorySnapshot): MergedOrder {
  const timed = snapshot.deviceTraces.some(isTimed);
  let t0 = Number.POSITIVE_INFINITY;
  if (timed) {
    for (const trace of snapshot.deviceTraces)
      for (let i = 0; i < trace.length; i += 1) {
        const time = timeUsAt(trace, i);
        if (time !== undefined && time < t0) t0 = time;
      }
    for (const entry of snapshot.hostTraces ?? []) if (entry.timeUs !== undefined && entry.timeUs < t0) t0 = entry.timeUs;
  }
  const length = snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0);
  const device = new Uint8Array(length);
  const index = new Uint32Array(length);
  const t = new Float64Array(length);
  let k = 0;
  snapshot.deviceTraces.forEach((trace, d) => {
    let last = 0;
    for (let i = 0; i < trace.length; i += 1) {
      const timeUs = timed ? timeUsAt(trace, i) : undefined;
      // ns; a missing or earlier time keeps the device's last, so each device's order is kept.
      const time = timed ? (timeUs === undefined ? last : Math.max(last, Math.round((timeUs - t0) * 1000))) : (i + 1) * 1000;
      last = time;
      device[k] = d;
      index[k] = i;
      t[k] = time;
      k += 1;
    }
  });
  // One device's times never go back: its entries are in order as they are.
  if (snapshot.deviceTraces.filter((trace) => trace.length > 0).length <= 1)
    return { timed, t0, length, device, index, t, order: undefined };
  const order = Uint32Array.from({ length }, (_, i) => i);
  order.sort((a, b) => (t[a] ?? 0) - (t[b] ?? 0) || (device[a] ?? 0) - (device[b] ?? 0) || (index[a] ?? 0) - (index[b] ?? 0));
  return { timed, t0, length, device, index, t, order };
}

export function importSnapshot(snapshot: MemorySnapshot, options: ImportOptions): ImportedSession {
  const model: AllocatorModel = { profile: options.profile, pageSize1g: options.pageSize1g };
  let deviceCount = snapshot.deviceTraces.length;
  for (const segment of snapshot.segments) deviceCount = Math.max(deviceCount, segment.device + 1);
  deviceCount = Math.max(deviceCount, 1);
  if (deviceCount > 16) throw new FormatError(`the snapshot names ${deviceCount} devices; PageLens models at most 16`);
  const initialState = createHostState(Array.from({ length: deviceCount }, () => options.profile));
  const initial = encodeSnapshot(initialState);
  const builder = new Builder(
    initialState,
    snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0),
  );
  // Streamed traces hold their stacks as ids of the loader's interner: the blocks take those ids as they are.
  const replays = Array.from(
    { length: deviceCount },
    (_, device) => new DeviceReplay(device, buildAddressMap(device, rangesOf(snapshot, device))),
  );
  for (const segment of snapshot.segments) replays[segment.device]?.types.set(segment.address, segment.segmentType);

  builder.emit({ kind: 'process', pid: PID, name: options.name.slice(0, 64) }, 'modeled');
  builder.emit({ kind: 'init', pid: PID }, 'modeled');
  for (let device = 0; device < deviceCount; device += 1) builder.emit({ kind: 'deviceSet', pid: PID, device, refs: 1 }, 'modeled');

  // What was live when the trace began, then the trace.
  const live = replays.map((replay) => initialLiveSets(snapshot, replay.device));
  const blocks: Blocks = {
    index: new BlockIndex(blockCapacity(snapshot, live)),
    stacks: tracesInterner(snapshot.deviceTraces) ?? new StackInterner(),
  };
  replays.forEach((replay, device) => {
    const sets = live[device];
    if (sets === undefined) return;
    for (const [address, size] of sets.segments) allocSegment(builder, replay, model, address, size);
    for (const [start, end] of sets.mapped) mapRange(builder, replay, model, start, Number(end - start));
  });
  // Blocks live before the trace are live from the last event of this initial state on.
  const firstSeq = builder.events.length;
  replays.forEach((replay, device) => {
    for (const [address, block] of live[device]?.blocks ?? []) {
      const row = openBlock(replay, blocks, address, block, firstSeq);
      if (block.pending) blocks.index.freeRequested(row, firstSeq);
    }
  });
  const entrySeqs = snapshot.deviceTraces.map((trace) => new Array<number>(trace.length).fill(0));
  let inconsistent = 0;
  const merged = mergedOrder(snapshot);
  const timeBasis = merged.timed ? 'time_us' : 'entry order';
  // Pinned host memory, on the devices' clock; untimed, after them.
  const host = new HostReplay(snapshot.hostTraces ?? [], (entry) =>
    merged.timed && entry.timeUs !== undefined ? Math.max(0, Math.round((entry.timeUs - merged.t0) * 1000)) : undefined,
  );
  host.openInitial(builder, snapshot.hostSegments);
  const consume = options.consume === true;
  for (let k = 0; k < merged.length; k += 1) {
    const p = merged.order === undefined ? k : (merged.order[k] ?? 0);
    const device = merged.device[p] ?? 0;
    const index = merged.index[p] ?? 0;
    const t = merged.t[p] ?? 0;
    const trace = snapshot.deviceTraces[device];
    const columns = trace instanceof TraceColumns && trace.stacks === blocks.stacks ? trace : undefined;
    const entry = columns === undefined ? trace?.at(index) : columns.bareAt(index);
    const replay = replays[device];
    if (trace === undefined || entry === undefined || replay === undefined) continue;
    host.until(builder, t);
    builder.t = t;
    const recordedPageClass = snapshot.recordedPageClasses?.[device]?.get(index);
    const result = applyEntry(builder, replay, model, blocks, entry, columns?.stackAt(index), recordedPageClass);
    if (consume && Array.isArray(trace)) (trace as (TraceEntry | undefined)[])[index] = undefined;
    else if (consume && trace instanceof TraceColumns) trace.releaseBefore(index);
    const seqs = entrySeqs[device];
    if (seqs !== undefined) seqs[index] = result.seq;
    if (!result.ok) inconsistent += 1;
  }
  host.rest(builder);
  inconsistent += host.inconsistent;
  if (consume)
    for (const trace of snapshot.deviceTraces) {
      if (trace instanceof TraceColumns) trace.release();
      else if (Array.isArray(trace)) trace.length = 0;
    }
  const finalMismatch = attachFinalBlocks(snapshot, replays, blocks);
  blocks.index.seal();
  return {
    name: options.name,
    format: snapshot.format,
    formatEvidence: snapshot.formatEvidence,
    model,
    initial,
    recorded: builder.events,
    get events() {
      return builder.events.all;
    },
    final: builder.state,
    blocks: blocks.index,
    stacks: blocks.stacks.table(),
    addressMaps: replays.map((replay) => replay.map),
    entrySeqs,
    timeBasis,
    inconsistent,
    finalMismatch,
    expandableDevices: replays.filter((replay) => replay.reservations.size > 0).map((replay) => replay.device),
    pinnedHost:
      snapshot.hostSegments === undefined && snapshot.hostTraces === undefined
        ? undefined
        : { entries: snapshot.hostTraces?.length ?? 0, live: host.live },
  };
}

/**
 * The blocks the import will hold: those live before the trace, and one per alloc entry. Counted
 * first so the columns are made once at their size: grown by doubling, 5 M blocks sat in columns
 * for 8 M and were copied to be cut down.
 */
function blockCapacity(snapshot: MemorySnapshot, live: readonly { readonly blocks: ReadonlyMap<bigint, unknown> }[]): number {
  let blocks = live.reduce((sum, sets) => sum + sets.blocks.size, 0);
  for (const trace of snapshot.deviceTraces) for (let i = 0; i < trace.length; i += 1) if (actionAt(trace, i) === 'alloc') blocks += 1;
  return blocks;
}

/** Gives the blocks live at the end the final snapshot's requested sizes and stacks; counts the segments that disagree. */
function attachFinalBlocks(snapshot: MemorySnapshot, replays: readonly DeviceReplay[], blocks: Blocks): number {
  let mismatch = 0;
  const expected = replays.map(() => 0);
  for (const segment of snapshot.segments) {
    const replay = replays[segment.device];
    if (replay === undefined) continue;
    if (!segment.isExpandable) {
      expected[segment.device] = (expected[segment.device] ?? 0) + 1;
      if (!replay.segments.has(segment.address)) mismatch += 1;
    }
    for (const block of segment.blocks) {
      if (block.state === 'inactive') continue;
      const row = replay.blocks.get(block.address);
      if (row === undefined) {
        mismatch += 1;
        continue;
      }
      blocks.index.attach(row, block.requestedSize, block.frames.length > 0 ? blocks.stacks.add(block.frames) : undefined);
    }
  }
  replays.forEach((replay, device) => {
    mismatch += Math.max(0, replay.segments.size - (expected[device] ?? 0));
  });
  return mismatch;
}
