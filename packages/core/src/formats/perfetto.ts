import type { PageClass } from '../model/events.ts';
import { FormatError } from './format-error.ts';
import { framesOf } from './frames.ts';
import { type AllocatorModel, segmentPages } from './segment-pages.ts';
import type { Frame, MemorySnapshot, Segment, StackFrames, TraceAction, TraceEntry } from './snapshot-types.ts';
import { isTimed } from './trace-columns.ts';

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

/** How one entry changes the totals (bytes). Snapshots record `active` as allocated + pending free. */
function change(entry: TraceEntry, model: AllocatorModel): Partial<Totals> {
  switch (entry.action) {
    case 'alloc':
      return { allocated: entry.size, active: entry.size };
    case 'free_requested':
      return { allocated: -entry.size };
    case 'free_completed':
      return { active: -entry.size };
    case 'segment_alloc':
    case 'segment_map':
      return { reserved: entry.size, ...pageChange(entry, model, 1) };
    case 'segment_free':
    case 'segment_unmap':
      return { reserved: -entry.size, ...pageChange(entry, model, -1) };
    case 'snapshot':
    case 'oom':
    case 'workspace_snapshot':
      return {};
  }
}

const SMALL_BUFFER = 2 * 1024 * 1024;

/** The pages a trace entry's segment change takes or gives back: a whole segment, or a map of an expandable one. */
function pageChange(entry: TraceEntry, model: AllocatorModel, sign: 1 | -1): Partial<Totals> {
  const segment: Segment = {
    device: 0,
    address: entry.addr,
    totalSize: entry.size,
    allocatedSize: 0,
    activeSize: 0,
    requestedSize: 0,
    stream: entry.stream,
    segmentType: entry.size > SMALL_BUFFER ? 'large' : 'small',
    poolId: entry.poolId,
    isExpandable: entry.action === 'segment_map' || entry.action === 'segment_unmap',
    frames: [],
    blocks: [],
  };
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

function finalTotals(segments: readonly Segment[], model: AllocatorModel): Totals {
  const totals: Totals = { allocated: 0, active: 0, reserved: 0, normal: 0, huge: 0, giant: 0 };
  for (const segment of segments) {
    totals.allocated += segment.allocatedSize;
    totals.active += segment.activeSize;
    totals.reserved += segment.totalSize;
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

export function toChromeTrace(snapshot: MemorySnapshot, model: AllocatorModel): ChromeTrace {
  const events: TraceEvent[] = [];
  const devices = new Set<number>(snapshot.segments.map((segment) => segment.device));
  snapshot.deviceTraces.forEach((trace, device) => {
    if (trace.length > 0) devices.add(device);
  });
  for (const device of [...devices].sort((a, b) => a - b)) {
    // Every entry with its stack: the instant events carry them all.
    const trace = Array.from(snapshot.deviceTraces[device] ?? []);
    const totals = finalTotals(
      snapshot.segments.filter((segment) => segment.device === device),
      model,
    );
    const deltas = trace.map((entry) => change(entry, model));
    for (let i = deltas.length - 1; i >= 0; i -= 1) apply(totals, deltas[i] ?? {}, -1);
    const pid = device;
    events.push({ name: 'process_name', ph: 'M', ts: 0, pid, tid: 0, args: { name: `NPU ${device} (${snapshot.format})` } });
    const streams = new Map<bigint, number>();
    const tidOf = (stream: bigint): number => {
      let tid = streams.get(stream);
      if (tid === undefined) {
        tid = streams.size + 1;
        streams.set(stream, tid);
        events.push({ name: 'thread_name', ph: 'M', ts: 0, pid, tid, args: { name: `stream ${hex(stream)}` } });
      }
      return tid;
    };
    const timeOf = (entry: TraceEntry, index: number): number => entry.timeUs ?? index;
    const first = trace[0];
    events.push(...counters(pid, first === undefined ? 0 : timeOf(first, 0), totals));
    trace.forEach((entry, index) => {
      apply(totals, deltas[index] ?? {}, 1);
      const ts = timeOf(entry, index);
      if (INSTANT.has(entry.action)) {
        const args: Record<string, string | number> = { size: entry.size, stream: hex(entry.stream), stack: stackText(entry.frames) };
        if (entry.action === 'oom') args.device_free = entry.deviceFree ?? 0;
        else args.address = hex(entry.addr);
        events.push({ name: entry.action, cat: 'allocator', ph: 'i', s: 't', ts, pid, tid: tidOf(entry.stream), args });
      }
      events.push(...counters(pid, ts, totals));
    });
  }
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    metadata: {
      source: `PageLens export of a ${snapshot.format} memory snapshot`,
      pages: `modeled: torch_npu's caching allocator on ${model.profile.name}${model.pageSize1g ? ' with page_size:1g' : ''}`,
      time: snapshot.deviceTraces.some(isTimed) ? 'time_us' : 'entry index (the file records no time)',
    },
  };
}

/**
 * The trace as JSON text in parts (one event per line), for a file writer or a Blob: one string of a
 * multi-million-event trace would exceed what a JavaScript string may hold.
 */
export function* chromeTraceJson(trace: ChromeTrace): Generator<string> {
  yield '{"traceEvents":[\n';
  const events = trace.traceEvents;
  const BATCH = 4096;
  for (let i = 0; i < events.length; i += BATCH) {
    const lines: string[] = [];
    for (let j = i; j < Math.min(events.length, i + BATCH); j += 1) lines.push(JSON.stringify(events[j]));
    yield `${i === 0 ? '' : ',\n'}${lines.join(',\n')}`;
  }
  yield `\n],"displayTimeUnit":${JSON.stringify(trace.displayTimeUnit)},"metadata":${JSON.stringify(trace.metadata)}}\n`;
}
