import type { MemoryEvent } from '@pagelens/core';

/**
 * A mark on a stream lane of the copy timeline. A record (aclrtRecordEvent, EV-2) sits on the
 * lane of the stream it captured, at the time that work completes; a wait (aclrtStreamWaitEvent,
 * EV-3) sits on the waiting stream's lane at the time its later work may start, with an arrow
 * from the record it waits for (none when the event was never recorded: it holds nothing back).
 * Value tasks (CP-12) mark the same way: a write where it lands, a wait where the stream may go on,
 * with an arrow from the write that met it (none when no queued write did).
 */
export interface EventMark {
  readonly kind: 'record' | 'wait' | 'valueWrite' | 'valueWait';
  /** Seq of the eventRecord or eventWait memory event. */
  readonly seq: number;
  /** The aclrtEvent's object id; -1 for a value task. */
  readonly event: number;
  /** The aclrtEvent value the program holds; 0 when its creation is older than the history. */
  readonly handle: number;
  readonly pid: number;
  readonly device: number;
  /** The stream whose lane the mark is on: recorded on, or waiting. */
  readonly stream: number;
  /** Host ns (virtual on the simulator): the record's completion, or the wait's `until`. */
  readonly at: number;
  /** A wait's source: the record in force when the stream began to wait. */
  readonly from?: { readonly stream: number; readonly at: number };
  readonly rule: 'EV-2' | 'EV-3' | 'CP-12';
  /** A value task's word and value; `observed`: a real runtime's call, whose device memory PageLens cannot see. */
  readonly value?: { readonly addr: number; readonly value: number; readonly observed: boolean };
}

interface Known {
  readonly handle: number;
  readonly pid: number;
  readonly device: number;
  record: { readonly stream: number; readonly at: number } | undefined;
}

/**
 * Collects record and wait marks from the timeline's append-only event list incrementally (the
 * HostWaitIndex pattern): only new events are read; a new list (after a reset) starts over.
 */
export class EventMarkIndex {
  #source: readonly MemoryEvent[] | undefined;
  #scanned = 0;
  #marks: EventMark[] = [];
  #events = new Map<number, Known>();
  /** pid and device of each stream seen, for records on events whose creation is not in the list. */
  #streams = new Map<number, { readonly pid: number; readonly device: number }>();
  /** The last value write to each address: a met wait's arrow starts there. */
  #writes = new Map<number, { readonly stream: number; readonly at: number }>();

  update(events: readonly MemoryEvent[]): readonly EventMark[] {
    if (events !== this.#source || events.length < this.#scanned) {
      this.#source = events;
      this.#scanned = 0;
      this.#marks = [];
      this.#events = new Map();
      this.#streams = new Map();
      this.#writes = new Map();
    }
    for (let i = this.#scanned; i < events.length; i += 1) {
      const event = events[i];
      if (event !== undefined) this.#read(event);
    }
    this.#scanned = events.length;
    return this.#marks;
  }

  #read(event: MemoryEvent): void {
    switch (event.kind) {
      case 'streamCreate':
        this.#streams.set(event.id, { pid: event.pid, device: event.device });
        return;
      case 'eventCreate':
        this.#events.set(event.id, { handle: event.handle, pid: event.pid, device: event.device, record: undefined });
        return;
      case 'eventReset': {
        const known = this.#events.get(event.id);
        if (known !== undefined) known.record = undefined;
        return;
      }
      case 'eventDestroy':
        this.#events.delete(event.id);
        return;
      case 'eventRecord': {
        const known = this.#known(event.id, event.stream);
        known.record = { stream: event.stream, at: event.at };
        this.#marks.push({
          kind: 'record',
          seq: event.seq,
          event: event.id,
          ...this.#owner(known),
          stream: event.stream,
          at: event.at,
          rule: 'EV-2',
        });
        return;
      }
      case 'eventWait': {
        const known = this.#known(event.id, event.stream);
        this.#marks.push({
          kind: 'wait',
          seq: event.seq,
          event: event.id,
          ...this.#owner(known),
          stream: event.stream,
          at: event.until,
          ...(known.record === undefined ? {} : { from: known.record }),
          rule: 'EV-3',
        });
        return;
      }
      case 'valueWrite': {
        this.#writes.set(event.addr, { stream: event.stream, at: event.at });
        this.#marks.push({
          kind: 'valueWrite',
          seq: event.seq,
          event: -1,
          handle: 0,
          pid: event.pid,
          device: event.device,
          stream: event.stream,
          at: event.at,
          rule: 'CP-12',
          value: { addr: event.addr, value: event.value, observed: event.provenance === 'observed' },
        });
        return;
      }
      case 'valueWait': {
        // Only the simulator knows which write met a wait; a real runtime's call says nothing of it.
        const observed = event.provenance === 'observed';
        const from = event.met && !observed ? this.#writes.get(event.addr) : undefined;
        this.#marks.push({
          kind: 'valueWait',
          seq: event.seq,
          event: -1,
          handle: 0,
          pid: event.pid,
          device: this.#streams.get(event.stream)?.device ?? 0,
          stream: event.stream,
          at: event.until,
          ...(from === undefined ? {} : { from }),
          rule: 'CP-12',
          value: { addr: event.addr, value: event.value, observed },
        });
        return;
      }
      default:
        return;
    }
  }

  #owner(known: Known): { handle: number; pid: number; device: number } {
    return { handle: known.handle, pid: known.pid, device: known.device };
  }

  /** The event as far as the list tells; one made before the history began is known by its stream. */
  #known(id: number, stream: number): Known {
    let known = this.#events.get(id);
    if (known === undefined) {
      const owner = this.#streams.get(stream);
      known = { handle: 0, pid: owner?.pid ?? 0, device: owner?.device ?? 0, record: undefined };
      this.#events.set(id, known);
    }
    return known;
  }
}

/** The marks made at or before `seq` (marks are in seq order). */
export function marksUpTo(marks: readonly EventMark[], seq: number): readonly EventMark[] {
  let lo = 0;
  let hi = marks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((marks[mid]?.seq ?? 0) <= seq) lo = mid + 1;
    else hi = mid;
  }
  return lo === marks.length ? marks : marks.slice(0, lo);
}

/** A mark with the lanes it is drawn on (indices into the layout's lanes). */
export interface PlacedMark {
  readonly mark: EventMark;
  readonly lane: number;
  /** A wait's arrow starts on this lane (the record's stream); -1 for none. */
  readonly fromLane: number;
}

/**
 * The mark drawn nearest to time `t` on lane `lane`, within `slack` ns; marks are points, so the
 * pointer needs that slack to find them. Index into `placed`.
 */
export function markAt(placed: readonly PlacedMark[], lane: number, t: number, slack: number): number | undefined {
  let best: number | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  placed.forEach((entry, index) => {
    if (entry.lane !== lane) return;
    const distance = Math.abs(entry.mark.at - t);
    if (distance <= slack && distance <= bestDistance) {
      best = index;
      bestDistance = distance;
    }
  });
  return best;
}
