import type { PageClass } from '../model/events.ts';
import { FormatError } from './format-error.ts';
import { framesOf } from './frames.ts';
import { type AllocatorModel, segmentPages } from './segment-pages.ts';
import {
  bareSegment,
  type Frame,
  type MemorySnapshot,
  type Segment,
  type StackFrames,
  type TraceAction,
  type TraceEntry,
} from './snapshot-types.ts';
import { NO_STACK } from './stack-table.ts';
import { bareEntry, isTimed, TraceColumns } from './trace-columns.ts';

/**
 * A snapshot as Chrome trace-event JSON, which Perfetto opens (google/perfetto
 * `docs/getting-started/other-formats.md`: `"ph":"C"` events become counter tracks, one per key
 * under `args`, values numbers). Per device (one process each):
 * - counter "memory" with `allocated`, `active` and `reserved` bytes after each trace entry;
 * - counter "pages (modeled)" with the bytes of normal, huge and giant pages that back the reserved
 *   segments (segment-pages.ts: torch_npu's allocator calls on the chosen profile);
 * - one instant event per trace entry, on its stream's track, with address, size and stack.
 *
 * The trace is a ring buffer that may start after the process did, so the counters are anchored
 * at the end: the final state is the snapshot's segments, and each entry's change is undone
 * backwards from it to find the state before the first entry. Time is `time_us` when the file has
 * it (CUDA), else the entry's position (torch_npu writes no time): 1 µs per entry.
 */
export interface TraceEvent {
  readonly name: string;
  readonly ph: 'C' | 'i' | 'M';
  readonly ts: number;
  readonly pid: number;
  readonly tid: number;
  readonly s?: 't';
  readonly cat?: string;
  readonly args: Readonly<Record<string, string | number>>;
}

export interface ChromeTrace {
  readonly traceEvents: readonly TraceEvent[];
  readonly displayTimeUnit: 'ms';
  readonly metadata: Readonly<Record<string, string>>;
}

/** Frames kept per instant event's stack, innermost first; deeper stacks end with "…". */
export const STACK_FRAMES = 16;

interface Totals {
  allocated: number;
  active: number;
  reserved: number;
  normal: number;
  huge: number;
  giant: number;
}

/**
 * How one entry changes the totals (bytes). Snapshots record `active` as allocated + pending free.
 * `model`: the device the pages are modeled on; undefined for host memory, which takes no device pages.
 * `recorded`: the page size the file recorded for a segment_alloc / segment_free (MemorySnapshot.recordedPageClasses).
 */
function change(entry: TraceEntry, model: AllocatorModel | undefined, recorded?: PageClass): Partial<Totals> {
  switch (entry.action) {
    case 'alloc':
      return { allocated: entry.size, active: entry.size };
    case 'free_requested':
      return { allocated: -entry.size };
    case 'free_completed':
      return { active: -entry.size };
    case 'segment_alloc':
    case 'segment_map':
      return { reserved: entry.size, ...(model === undefined ? {} : pageChange(entry, model, 1, recorded)) };
    case 'segment_free':
    case 'segment_unmap':
      return { reserved: -entry.size, ...(model === undefined ? {} : pageChange(entry, model, -1, recorded)) };
    case 'snapshot':
    case 'oom':
    case 'workspace_snapshot':
      return {};
  }
}

const SMALL_BUFFER = 2 * 1024 * 1024;

/** The pages a trace entry's segment change takes or gives back: a whole segment, or a map of an expandable one. */
function pageChange(entry: TraceEntry, model: AllocatorModel, sign: 1 | -1, recorded: PageClass | undefined): Partial<Totals> {
  const segment = bareSegment(0, entry.addr, entry.size, {
    stream: entry.stream,
    segmentType: entry.size > SMALL_BUFFER ? 'large' : 'small',
    poolId: entry.poolId,
    isExpandable: entry.action === 'segment_map' || entry.action === 'segment_unmap',
    ...(recorded === undefined ? {} : { recordedPageClass: recorded }),
  });
  const plan = segmentPages(segment, model);
  return { [plan.pageClass]: sign * plan.pages * plan.pageSize };
}

function apply(totals: Totals, delta: Partial<Totals>, sign: 1 | -1): void {
  totals.allocated += sign * (delta.allocated ?? 0);
  totals.active += sign * (delta.active ?? 0);
  totals.reserved += sign * (delta.reserved ?? 0);
  totals.normal += sign * (delta.normal ?? 0);
  totals.huge += sign * (delta.huge ?? 0);
  totals.giant += sign * (delta.giant ?? 0);
}

/** The segments' totals; their pages only with a device `model` (host segments take none). */
function finalTotals(segments: readonly Segment[], model: AllocatorModel | undefined): Totals {
  const totals: Totals = { allocated: 0, active: 0, reserved: 0, normal: 0, huge: 0, giant: 0 };
  for (const segment of segments) {
    totals.allocated += segment.allocatedSize;
    totals.active += segment.activeSize;
    totals.reserved += segment.totalSize;
    if (model === undefined) continue;
    const plan = segmentPages(segment, model);
    const pageClass: PageClass = plan.pageClass;
    totals[pageClass] += plan.pages * plan.pageSize;
  }
  return totals;
}

/** A stack as instant-event text, one frame per line; a damaged stack says so instead of stopping the export. */
export function stackText(stack: StackFrames): string {
  let frames: readonly Frame[];
  try {
    frames = framesOf(stack);
  } catch (error) {
    if (error instanceof FormatError) return `(unreadable: ${error.message})`;
    throw error;
  }
  const shown = frames.slice(0, STACK_FRAMES).map((frame) => `${frame.name} (${frame.filename}:${frame.line})`);
  if (frames.length > STACK_FRAMES) shown.push(`… ${frames.length - STACK_FRAMES} more frames`);
  return shown.join('\n');
}

const hex = (value: bigint): string => (value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`);

function counters(pid: number, ts: number, totals: Totals): TraceEvent[] {
  return [
    { name: 'memory', ph: 'C', ts, pid, tid: 0, args: { allocated: totals.allocated, active: totals.active, reserved: totals.reserved } },
    { name: 'pages (modeled)', ph: 'C', ts, pid, tid: 0, args: { normal: totals.normal, huge: totals.huge, giant: totals.giant } },
  ];
}

const INSTANT: ReadonlySet<TraceAction> = new Set<TraceAction>([
  'alloc',
  'free_requested',
  'free_completed',
  'segment_alloc',
  'segment_free',
  'segment_map',
  'segment_unmap',
  'oom',
  'snapshot',
  'workspace_snapshot',
]);

/** The devices a snapshot names, in index order: every one with a segment or a trace entry. */
function devicesOf(snapshot: MemorySnapshot): number[] {
  const devices = new Set<number>(snapshot.segments.map((segment) => segment.device));
  snapshot.deviceTraces.forEach((trace, device) => {
    if (trace.length > 0) devices.add(device);
  });
  return [...devices].sort((a, b) => a - b);
}

/** Stack texts kept at once, by stack id: a file's stacks repeat (stack-table.ts), its texts are made once each. */
const STACK_TEXTS = 65_536;

/**
 * The trace events, made one at a time as they are written, so none is held: a 10 M-entry file
 * makes some 30 M of them. Two passes over the kept trace (core trace-columns.ts): backwards to
 * find the totals before its first entry, then forwards to write.
 */
function* snapshotEvents(snapshot: MemorySnapshot, model: AllocatorModel): Generator<TraceEvent> {
  for (const device of devicesOf(snapshot)) {
    const trace = snapshot.deviceTraces[device] ?? [];
    const recorded = snapshot.recordedPageClasses?.[device];
    const columns = trace instanceof TraceColumns ? trace : undefined;
    const totals = finalTotals(
      snapshot.segments.filter((segment) => segment.device === device),
      model,
    );
    for (let i = trace.length - 1; i >= 0; i -= 1) {
      const entry = bareEntry(trace, i);
      if (entry !== undefined) apply(totals, change(entry, model, recorded?.get(i)), -1);
    }
    const pid = device;
    yield { name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: `NPU ${device} (${snapshot.format})` } };
    const streams = new Map<bigint, number>();
    const texts = new Map<number, string>();
    /** The entry's stack as text: from the interner's id (made once per stack), or from the frames the entry holds. */
    const textOf = (index: number, entry: TraceEntry): string => {
      if (columns === undefined) return stackText(entry.frames);
      const id = columns.stackAt(index);
      if (id === NO_STACK) return '';
      // A stack that is not a list of frames is kept as the file wrote it (trace-columns.ts), to say so.
      if (id < 0) return stackText(columns.at(index)?.frames ?? []);
      let text = texts.get(id);
      if (text === undefined) {
        text = stackText(columns.stacks.frames(id) as unknown as StackFrames);
        if (texts.size >= STACK_TEXTS) texts.clear();
        texts.set(id, text);
      }
      return text;
    };
    const timeOf = (entry: TraceEntry, index: number): number => entry.timeUs ?? index;
    const first = bareEntry(trace, 0);
    yield* counters(pid, first === undefined ? 0 : timeOf(first, 0), totals);
    for (let index = 0; index < trace.length; index += 1) {
      const entry = columns === undefined ? trace.at(index) : columns.bareAt(index);
      if (entry === undefined) continue;
      apply(totals, change(entry, model, recorded?.get(index)), 1);
      const ts = timeOf(entry, index);
      if (INSTANT.has(entry.action)) {
        let tid = streams.get(entry.stream);
        if (tid === undefined) {
          tid = streams.size + 1;
          streams.set(entry.stream, tid);
          yield { name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name: `stream ${hex(entry.stream)}` } };
        }
        const args: Record<string, string | number> = { size: entry.size, stream: hex(entry.stream), stack: textOf(index, entry) };
        if (entry.action === 'oom') args.device_free = entry.deviceFree ?? 0;
        else args.address = hex(entry.addr);
        yield { name: entry.action, cat: 'allocator', ph: 'i', s: 't', ts, pid, tid, args };
      }
      yield* counters(pid, ts, totals);
    }
  }
  yield* hostEvents(snapshot);
}

/** The Perfetto process of the pinned host memory, past any device index. */
export const HOST_PID = 65_536;

/**
 * Pinned host memory (host_segments / host_traces, msMemScope's pinned HOST rows) as one more
 * process: counter "pinned host" with allocated, active and reserved bytes after each host entry,
 * anchored at the final host segments as the devices are, and an instant event per entry.
 */
function* hostEvents(snapshot: MemorySnapshot): Generator<TraceEvent> {
  if (snapshot.hostSegments === undefined && snapshot.hostTraces === undefined) return;
  const trace = snapshot.hostTraces ?? [];
  // Bytes only: host memory takes no device pages, so no device model is asked.
  const totals = finalTotals(snapshot.hostSegments ?? [], undefined);
  for (let i = trace.length - 1; i >= 0; i -= 1) {
    const entry = trace[i];
    if (entry !== undefined) apply(totals, change(entry, undefined), -1);
  }
  const pid = HOST_PID;
  const sample = (ts: number): TraceEvent => ({
    name: 'pinned host',
    ph: 'C',
    ts,
    pid,
    tid: 0,
    args: { allocated: totals.allocated, active: totals.active, reserved: totals.reserved },
  });
  yield { name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: 'host (pinned memory)' } };
  yield { name: 'thread_name', ph: 'M', ts: 0, pid, tid: 1, args: { name: 'host allocator' } };
  yield sample(trace[0]?.timeUs ?? 0);
  for (let index = 0; index < trace.length; index += 1) {
    const entry = trace[index];
    if (entry === undefined) continue;
    apply(totals, change(entry, undefined), 1);
    const ts = entry.timeUs ?? index;
    const args = { size: entry.size, address: hex(entry.addr), stack: stackText(entry.frames) };
    yield { name: entry.action, cat: 'host allocator', ph: 'i', s: 't', ts, pid, tid: 1, args };
    yield sample(ts);
  }
}

function snapshotMetadata(snapshot: MemorySnapshot, model: AllocatorModel): Record<string, string> {
  return {
    source: `PageLens export of a ${snapshot.format} memory snapshot`,
    pages: `modeled: torch_npu's caching allocator on ${model.profile.name}${model.pageSize1g ? ' with page_size:1g' : ''}`,
    time: snapshot.deviceTraces.some(isTimed) ? 'time_us' : 'entry index (the file records no time)',
  };
}

/** The whole trace as objects (tests, and callers of small files); a large file is written by snapshotTraceJson. */
export function toChromeTrace(snapshot: MemorySnapshot, model: AllocatorModel): ChromeTrace {
  return { traceEvents: [...snapshotEvents(snapshot, model)], displayTimeUnit: 'ms', metadata: snapshotMetadata(snapshot, model) };
}

/** JSON text in parts as it is written, and how many trace events the parts held once read to the end. */
export interface TraceJson {
  readonly parts: Iterable<string>;
  readonly events: number;
}

/**
 * A snapshot's export written as it is made: the same text as chromeTraceJson(toChromeTrace(…)),
 * without the events array (at 10 M entries, GBs of objects a worker cannot hold).
 */
export function snapshotTraceJson(snapshot: MemorySnapshot, model: AllocatorModel): TraceJson {
  let events = 0;
  function* counted(): Generator<TraceEvent> {
    for (const event of snapshotEvents(snapshot, model)) {
      events += 1;
      yield event;
    }
  }
  return {
    parts: traceJson(counted(), 'ms', () => snapshotMetadata(snapshot, model)),
    get events() {
      return events;
    },
  };
}

/**
 * The trace as JSON text in parts (one event per line), for a file writer or a Blob: one string of a
 * multi-million-event trace would exceed what a JavaScript string may hold.
 */
export function chromeTraceJson(trace: ChromeTrace): Generator<string> {
  return traceJson(trace.traceEvents, trace.displayTimeUnit, () => trace.metadata);
}

/** Events in batches of lines; the metadata is asked for once the events are written. */
function* traceJson(
  events: Iterable<TraceEvent>,
  displayTimeUnit: 'ms',
  metadata: () => Readonly<Record<string, string>>,
): Generator<string> {
  yield '{"traceEvents":[\n';
  const BATCH = 4096;
  let lines: string[] = [];
  let first = true;
  const flush = (): string => {
    const text = `${first ? '' : ',\n'}${lines.join(',\n')}`;
    first = false;
    lines = [];
    return text;
  };
  for (const event of events) {
    lines.push(JSON.stringify(event));
    if (lines.length === BATCH) yield flush();
  }
  if (lines.length > 0) yield flush();
  yield `\n],"displayTimeUnit":${JSON.stringify(displayTimeUnit)},"metadata":${JSON.stringify(metadata())}}\n`;
}

/**
 * The largest JSON PageLens tells a person to open in ui.perfetto.dev as it is. Perfetto's own
 * guide to large traces puts the memory a browser gives its in-page engine at about 2 GB, for the
 * trace as the engine holds it, which is larger than the file; past that, the UI works through a
 * native `trace_processor --httpd FILE`, found on 127.0.0.1:9001 when the UI opens
 * (perfetto.dev/docs/visualization/large-traces). 1 GiB of JSON leaves the engine room.
 */
export const PERFETTO_IN_BROWSER_BYTES = 1024 ** 3;

/** Whether a trace of `bytes` should be opened through a native trace_processor rather than in the browser. */
export const perfettoNeedsNative = (bytes: number): boolean => bytes > PERFETTO_IN_BROWSER_BYTES;
