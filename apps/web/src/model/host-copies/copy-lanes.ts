import type { CopyRecord, HostState, MemoryEvent } from '@pagelens/core';
import { type ProcessFilter, showsProcess } from '../processes/process-filter.ts';
import type { EventMark, PlacedMark } from './event-marks.ts';

/**
 * Rows of the copy timeline. Each process has one host-thread lane (synchronous copies run there,
 * and it is drawn busy whenever the thread waits) and one lane per stream it used.
 */
export interface Lane {
  readonly kind: 'host' | 'stream';
  readonly pid: number;
  /** Stream object id (stream lanes). */
  readonly stream?: number;
  /** Device of the stream (stream lanes). */
  readonly device?: number;
  readonly isDefault: boolean;
  /** False for a stream that has been destroyed since its copies ran. */
  readonly alive: boolean;
  /**
   * For the default stream of a context made by aclrtCreateContext, that context (CX-1): it has a
   * handle of its own, unlike the device's NULL default stream, and needs telling apart from it.
   */
  readonly ownerContext?: number;
}

/** Why the host thread could not go on. */
export type BusyCause =
  /** aclrtMemcpy: the thread moves the bytes itself (CP-1). */
  | 'sync-copy'
  /** aclrtMemcpyAsync from or to pageable memory returns only when done (HM-3). */
  | 'blocking-copy'
  /** aclrtSynchronizeStream / aclrtSynchronizeDevice (CP-4). */
  | 'synchronize';

export interface HostBusy {
  /** Index into `lanes` (a host lane). */
  readonly lane: number;
  /** Virtual ns on the simulator. */
  readonly start: number;
  readonly end: number;
  readonly cause: BusyCause;
  /** Index into the copies for copy causes. */
  readonly copy?: number;
  /** The stream waited for (synchronize). */
  readonly stream?: number;
  /** The call that waited, when the event list says (aclrtSynchronizeEvent, …). */
  readonly fn?: string;
}

export interface CopyLayout {
  readonly lanes: readonly Lane[];
  /** Lane index of each copy, parallel to the copies array; -1 for a copy of a process the filter hides. */
  readonly laneOf: Int32Array;
  /** Copy indices of each lane, ordered by start time (for culling). */
  readonly byLane: readonly Int32Array[];
  readonly busy: readonly HostBusy[];
  /** Event record and wait marks with their lanes (EV-2, EV-3), in seq order. */
  readonly marks: readonly PlacedMark[];
  /** Earliest submit and latest end of everything drawn (ns); both 0 when empty. */
  readonly t0: number;
  readonly t1: number;
}

/** A synchronize call that made the host thread wait (from `sync` events). */
export interface HostWait {
  readonly seq: number;
  readonly pid: number;
  readonly start: number;
  readonly end: number;
  readonly stream?: number;
  readonly device?: number;
  /** The call that waited: aclrtSynchronizeStream, aclrtSynchronizeEvent, … */
  readonly fn?: string;
}

/**
 * Collects synchronize waits from the timeline's append-only event list incrementally, so a live
 * stream of events costs only the new ones. A new list (after a reset) is read from the start.
 */
export class HostWaitIndex {
  #source: readonly MemoryEvent[] | undefined;
  #scanned = 0;
  #waits: HostWait[] = [];
  #lastCall: { readonly seq: number; readonly fn: string } | undefined;

  update(events: readonly MemoryEvent[]): readonly HostWait[] {
    if (events !== this.#source || events.length < this.#scanned) {
      this.#source = events;
      this.#scanned = 0;
      this.#waits = [];
      this.#lastCall = undefined;
    }
    for (let i = this.#scanned; i < events.length; i += 1) {
      const event = events[i];
      if (event?.kind === 'call') this.#lastCall = { seq: event.seq, fn: event.fn };
      if (event?.kind !== 'sync' || event.until <= event.t) continue;
      const fn = event.call !== undefined && this.#lastCall?.seq === event.call ? this.#lastCall.fn : undefined;
      this.#waits.push({
        seq: event.seq,
        pid: event.pid,
        start: event.t,
        end: event.until,
        ...(event.stream === undefined ? {} : { stream: event.stream }),
        ...(event.device === undefined ? {} : { device: event.device }),
        ...(fn === undefined ? {} : { fn }),
      });
    }
    this.#scanned = events.length;
    return this.#waits;
  }
}

/** The waits that happened at or before `seq` (waits are in seq order). */
export function waitsUpTo(waits: readonly HostWait[], seq: number): readonly HostWait[] {
  let lo = 0;
  let hi = waits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((waits[mid]?.seq ?? 0) <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo === waits.length ? waits : waits.slice(0, lo);
}

interface StreamInfo {
  readonly pid: number;
  readonly device: number;
  readonly isDefault: boolean;
  readonly alive: boolean;
  readonly ownerContext?: number;
}

/** Copy indices ordered by start; copies mostly arrive in that order already, so check before sorting. */
function sortedByStart(list: number[], copies: readonly CopyRecord[]): number[] {
  const start = (i: number | undefined): number => (i === undefined ? 0 : (copies[i]?.start ?? 0));
  for (let i = 1; i < list.length; i += 1) {
    if (start(list[i]) < start(list[i - 1])) return list.sort((a, b) => start(a) - start(b));
  }
  return list;
}

function laneOrder(a: Lane, b: Lane): number {
  if (a.pid !== b.pid) return a.pid - b.pid;
  if (a.kind !== b.kind) return a.kind === 'host' ? -1 : 1;
  if (a.isDefault !== b.isDefault) return a.isDefault ? -1 : 1;
  if ((a.device ?? 0) !== (b.device ?? 0)) return (a.device ?? 0) - (b.device ?? 0);
  return (a.stream ?? 0) - (b.stream ?? 0);
}

/**
 * Assigns every copy to a lane: copies on a stream to that stream's lane, synchronous copies
 * without a stream to their process's host lane. The host lane is busy during synchronous and
 * blocking copies and synchronize waits; an async copy leaves it free (HM-3, CP-4). Event marks
 * go on the lanes of their streams, which get a lane even when destroyed since (EV-2, EV-3).
 * Under a process filter only that process's lanes, copies, waits and marks are laid out.
 */
export function layoutCopies(
  copies: readonly CopyRecord[],
  streams: HostState['streams'],
  waits: readonly HostWait[],
  marks: readonly EventMark[] = [],
  filter: ProcessFilter = undefined,
): CopyLayout {
  const streamInfo = new Map<number, StreamInfo>();
  const pids = new Set<number>();
  const shown = (item: { readonly pid: number }) => showsProcess(filter, item.pid);
  for (const stream of streams.values()) {
    if (!shown(stream)) continue;
    const owned = stream.isDefault && stream.handle !== 0 && stream.context !== undefined;
    streamInfo.set(stream.id, {
      pid: stream.pid,
      device: stream.device,
      isDefault: stream.isDefault,
      alive: true,
      ...(owned && stream.context !== undefined ? { ownerContext: stream.context } : {}),
    });
  }
  for (const copy of copies) {
    if (!shown(copy)) continue;
    pids.add(copy.pid);
    if (copy.stream !== undefined && !streamInfo.has(copy.stream)) {
      streamInfo.set(copy.stream, { pid: copy.pid, device: copy.device, isDefault: false, alive: false });
    }
  }
  for (const wait of waits) if (shown(wait)) pids.add(wait.pid);
  for (const mark of marks) {
    if (!shown(mark)) continue;
    const sources = mark.from === undefined ? [mark.stream] : [mark.stream, mark.from.stream];
    for (const stream of sources) {
      if (!streamInfo.has(stream)) streamInfo.set(stream, { pid: mark.pid, device: mark.device, isDefault: false, alive: false });
    }
  }
  for (const info of streamInfo.values()) pids.add(info.pid);

  const lanes: Lane[] = [...pids].map((pid) => ({ kind: 'host', pid, isDefault: false, alive: true }));
  for (const [id, info] of streamInfo) {
    lanes.push({
      kind: 'stream',
      pid: info.pid,
      stream: id,
      device: info.device,
      isDefault: info.isDefault,
      alive: info.alive,
      ...(info.ownerContext === undefined ? {} : { ownerContext: info.ownerContext }),
    });
  }
  lanes.sort(laneOrder);
  const hostLane = new Map<number, number>();
  const streamLane = new Map<number, number>();
  lanes.forEach((lane, index) => {
    if (lane.kind === 'host') hostLane.set(lane.pid, index);
    else if (lane.stream !== undefined) streamLane.set(lane.stream, index);
  });

  const laneOf = new Int32Array(copies.length);
  const lists: number[][] = lanes.map(() => []);
  const busy: HostBusy[] = [];
  let t0 = Number.POSITIVE_INFINITY;
  let t1 = Number.NEGATIVE_INFINITY;
  copies.forEach((copy, index) => {
    if (!shown(copy)) {
      laneOf[index] = -1;
      return;
    }
    const host = hostLane.get(copy.pid) ?? 0;
    const lane = copy.stream === undefined ? host : (streamLane.get(copy.stream) ?? host);
    laneOf[index] = lane;
    lists[lane]?.push(index);
    if (copy.mode !== 'async') {
      const cause: BusyCause = copy.mode === 'sync' && copy.stream === undefined ? 'sync-copy' : 'blocking-copy';
      busy.push({ lane: host, start: copy.submit, end: copy.end, cause, copy: index });
    }
    t0 = Math.min(t0, copy.submit);
    t1 = Math.max(t1, copy.end);
  });
  for (const wait of waits) {
    if (!shown(wait)) continue;
    busy.push({
      lane: hostLane.get(wait.pid) ?? 0,
      start: wait.start,
      end: wait.end,
      cause: 'synchronize',
      ...(wait.stream === undefined ? {} : { stream: wait.stream }),
      ...(wait.fn === undefined ? {} : { fn: wait.fn }),
    });
    t0 = Math.min(t0, wait.start);
    t1 = Math.max(t1, wait.end);
  }
  const placed: PlacedMark[] = [];
  for (const mark of marks) {
    if (!shown(mark)) continue;
    const lane = streamLane.get(mark.stream);
    if (lane === undefined) continue;
    const fromLane = mark.from === undefined ? -1 : (streamLane.get(mark.from.stream) ?? -1);
    placed.push({ mark, lane, fromLane });
    t0 = Math.min(t0, mark.at, mark.from?.at ?? mark.at);
    t1 = Math.max(t1, mark.at);
  }
  const byLane = lists.map((list) => Int32Array.from(sortedByStart(list, copies)));
  if (t0 > t1) {
    t0 = 0;
    t1 = 0;
  }
  return { lanes, laneOf, byLane, busy, marks: placed, t0, t1 };
}

/** Whether the host thread of `pid` is busy at time `t`, and why. */
export function hostBusyAt(layout: CopyLayout, pid: number, t: number): HostBusy | undefined {
  return layout.busy.find((b) => layout.lanes[b.lane]?.pid === pid && t >= b.start && t < b.end);
}

/** Indices of the other copies whose bytes moved at the same time as copy `index`. */
export function overlapping(copies: readonly CopyRecord[], index: number): number[] {
  const copy = copies[index];
  if (copy === undefined) return [];
  const result: number[] = [];
  copies.forEach((other, i) => {
    if (i !== index && other.start < copy.end && copy.start < other.end) result.push(i);
  });
  return result;
}

/**
 * The copy drawn under lane `lane` at time `t`, allowing `slack` ns either side (thin bars). A bar
 * the point is inside wins over a queued wait line, which wins over the nearest edge.
 */
export function copyAt(layout: CopyLayout, copies: readonly CopyRecord[], lane: number, t: number, slack: number): number | undefined {
  const list = layout.byLane[lane];
  if (list === undefined) return undefined;
  let best: number | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const index of list) {
    const copy = copies[index];
    if (copy === undefined || t < copy.submit - slack || t > copy.end + slack) continue;
    let distance: number;
    if (t >= copy.start && t <= copy.end) distance = 0;
    else if (t >= copy.submit && t < copy.start) distance = slack / 2;
    else distance = Math.min(Math.abs(t - copy.submit), Math.abs(t - copy.end));
    if (distance <= bestDistance) {
      best = index;
      bestDistance = distance;
    }
  }
  return best;
}
