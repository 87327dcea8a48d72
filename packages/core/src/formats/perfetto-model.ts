import type { MemoryEvent } from '../model/events.ts';
import { reduce } from '../model/reduce.ts';
import { cloneHostState, type HostState } from '../model/state.ts';
import { FRAME_BYTES } from '../profiles/profile.ts';
import type { ChromeTrace, TraceEvent } from './perfetto.ts';

/**
 * A model session (the live simulator, a journal, an imported file's events) as Chrome trace-event
 * JSON, the counterpart of perfetto.ts's snapshot export. Per device (one process each):
 * - counter "memory (model)": `allocated` (bytes the program holds: device allocations as requested
 *   plus physical memory) and `reserved` (bytes of the pages taken for them, rounding included);
 * - counter "pages (model)": the bytes of normal, huge and giant pages in use, which add up to `reserved`;
 * - an instant event per allocation, free, physical allocation and release, reservation and map,
 *   with address, size and the object's id, on its process's track.
 * Counters are written when a device's figures change, at the event's time (ns → µs).
 */
export interface DeviceFigures {
  allocated: number;
  reserved: number;
  normal: number;
  huge: number;
  giant: number;
}

/** The figures of `device` in `state`, from the frame table's counters and the held objects' sizes. */
export function deviceFiguresOf(state: HostState, device: number, allocated: number): DeviceFigures {
  const d = state.devices[device];
  if (d === undefined) return { allocated, reserved: 0, normal: 0, huge: 0, giant: 0 };
  const normal = d.frames.normalPagesUsed * d.profile.normalPageSize;
  const huge = d.frames.hugeFrames * FRAME_BYTES;
  const giant = d.frames.giantFrames * FRAME_BYTES;
  return { allocated, reserved: normal + huge + giant, normal, huge, giant };
}

/** Bytes held on `device` (allocations as requested, physical memory), summed over the state: the reference figure. */
export function heldBytes(state: HostState, device: number): number {
  let total = 0;
  for (const allocation of state.allocations.values()) if (allocation.device === device) total += allocation.size;
  for (const memory of state.physical.values()) if (memory.device === device) total += memory.size;
  return total;
}

const hex = (value: number): string => `0x${value.toString(16)}`;

/** What the event adds to (or takes from) a device's held bytes, read before it is applied. */
function heldChange(state: HostState, event: MemoryEvent): { device: number; bytes: number } | undefined {
  switch (event.kind) {
    case 'alloc':
    case 'physAlloc':
      return { device: event.device, bytes: event.size };
    case 'free': {
      const allocation = state.allocations.get(event.id);
      return allocation === undefined ? undefined : { device: allocation.device, bytes: -allocation.size };
    }
    case 'physRelease': {
      const memory = state.physical.get(event.id);
      return memory === undefined ? undefined : { device: memory.device, bytes: -memory.size };
    }
    default:
      return undefined;
  }
}

/** The instant event's name and args for the kinds that change memory; undefined for the others. */
function instantOf(
  state: HostState,
  event: MemoryEvent,
): { device: number; pid: number; args: Record<string, string | number> } | undefined {
  switch (event.kind) {
    case 'alloc':
      return { device: event.device, pid: event.pid, args: { id: event.id, address: hex(event.addr), size: event.size, fn: event.fn } };
    case 'free': {
      const a = state.allocations.get(event.id);
      return a === undefined
        ? undefined
        : { device: a.device, pid: a.pid, args: { id: a.id, address: hex(a.addr), size: a.size, fn: a.fn } };
    }
    case 'physAlloc':
      return { device: event.device, pid: event.pid, args: { id: event.id, handle: hex(event.handle), size: event.size } };
    case 'physRelease': {
      const m = state.physical.get(event.id);
      return m === undefined
        ? undefined
        : { device: m.device, pid: state.handles.get(event.id)?.pid ?? 0, args: { id: m.id, size: m.size } };
    }
    case 'reserve':
      return { device: event.device, pid: event.pid, args: { id: event.id, address: hex(event.addr), size: event.size } };
    case 'map':
      return { device: event.device, pid: event.pid, args: { id: event.id, address: hex(event.addr), size: event.size } };
    default:
      return undefined;
  }
}

const same = (a: DeviceFigures, b: DeviceFigures): boolean =>
  a.allocated === b.allocated && a.reserved === b.reserved && a.normal === b.normal && a.huge === b.huge && a.giant === b.giant;

function counters(pid: number, ts: number, f: DeviceFigures): TraceEvent[] {
  return [
    { name: 'memory (model)', ph: 'C', ts, pid, tid: 0, args: { allocated: f.allocated, reserved: f.reserved } },
    { name: 'pages (model)', ph: 'C', ts, pid, tid: 0, args: { normal: f.normal, huge: f.huge, giant: f.giant } },
  ];
}

/** `start` is the state before `events[0]` (left untouched); `source` says what the session was, for the metadata. */
export function modelToChromeTrace(start: HostState, events: readonly MemoryEvent[], source: string): ChromeTrace {
  const state = cloneHostState(start);
  const out: TraceEvent[] = [];
  const held = state.devices.map((_, device) => heldBytes(state, device));
  const last = state.devices.map((_, device) => deviceFiguresOf(state, device, held[device] ?? 0));
  const ts0 = Math.floor(state.time / 1000);
  const threads = new Set<string>();
  state.devices.forEach((d, device) => {
    out.push({ name: 'process_name', ph: 'M', ts: 0, pid: device, tid: 0, args: { name: `NPU ${device} (${d.profile.name})` } });
    out.push(...counters(device, ts0, last[device] as DeviceFigures));
  });
  for (const event of events) {
    const change = heldChange(state, event);
    const instant = instantOf(state, event);
    reduce(state, event);
    const ts = event.t / 1000;
    if (instant !== undefined) {
      const tid = instant.pid + 1;
      if (!threads.has(`${instant.device}:${tid}`)) {
        threads.add(`${instant.device}:${tid}`);
        out.push({ name: 'thread_name', ph: 'M', ts: 0, pid: instant.device, tid, args: { name: `process ${instant.pid}` } });
      }
      out.push({ name: event.kind, cat: 'memory', ph: 'i', s: 't', ts, pid: instant.device, tid, args: instant.args });
    }
    if (change !== undefined) held[change.device] = (held[change.device] ?? 0) + change.bytes;
    state.devices.forEach((_, device) => {
      const figures = deviceFiguresOf(state, device, held[device] ?? 0);
      if (same(figures, last[device] as DeviceFigures)) return;
      last[device] = figures;
      out.push(...counters(device, ts, figures));
    });
  }
  return {
    traceEvents: out,
    displayTimeUnit: 'ms',
    metadata: {
      source: `PageLens export of ${source}`,
      pages: 'pages as the model placed them (placement modeled)',
      time: 'host time of each event',
    },
  };
}
