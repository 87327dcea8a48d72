import type { EventBody, Provenance } from '../model/events.ts';
import type { Segment, TraceEntry } from './snapshot-types.ts';
import { hexAddress as hex } from './trace-calls.ts';

/**
 * The pinned host memory a file recorded, as the model's host buffers (the Host & copies view):
 * PyTorch's `host_segments` / `host_traces` (record_pinned_host_memory) and msMemScope's pinned HOST
 * rows, both as host segments allocated and freed (segment_alloc / segment_free). The entries are
 * observed; the buffer each makes is modeled as an aclrtMallocHost, the call torch_npu's host
 * allocator makes (PyTorch's makes cudaHostAlloc, which ACL has no other name for). Entries inside a
 * host segment (alloc / free_*) change no buffer.
 */

/** What the replay needs of the session's event builder (snapshot-session.ts Builder). */
export interface HostEventSink {
  t: number;
  id(): number;
  call(fn: string, args: Record<string, unknown>, provenance: Provenance): number;
  emit(body: EventBody, provenance: Provenance, call?: number): number;
}

const PID = 1;

/** A host entry with the ns it happens at on the session's clock. */
interface Timed {
  readonly entry: TraceEntry;
  readonly t: number;
}

export class HostReplay {
  /** Live buffers by recorded address: their model ids. */
  readonly #live = new Map<bigint, number>();
  readonly #queue: Timed[];
  #next = 0;
  /** Entries that contradict what came before them (a second alloc at one address, a free of nothing). */
  inconsistent = 0;

  /**
   * `times(entry)`: the entry's ns on the session's clock, or undefined when the file records no
   * time for it (the untimed entries then follow the device traces).
   */
  constructor(
    readonly trace: readonly TraceEntry[],
    times: (entry: TraceEntry) => number | undefined,
  ) {
    let last = 0;
    this.#queue = trace.map((entry) => {
      const t = times(entry);
      // A missing or earlier time keeps the last, so the host entries keep their order.
      last = t === undefined ? last : Math.max(last, t);
      return { entry, t: t === undefined ? Number.POSITIVE_INFINITY : last };
    });
  }

  /** The buffers live before the trace began: freed in it without being allocated, or in the final state and never allocated in it. */
  openInitial(sink: HostEventSink, segments: readonly Segment[] | undefined): void {
    const allocated = new Set<bigint>();
    const initial = new Map<bigint, number>();
    for (const entry of this.trace) {
      if (entry.action === 'segment_alloc') allocated.add(entry.addr);
      else if (entry.action === 'segment_free' && !allocated.has(entry.addr) && !initial.has(entry.addr))
        initial.set(entry.addr, entry.size);
    }
    for (const segment of segments ?? [])
      if (!allocated.has(segment.address) && !initial.has(segment.address)) initial.set(segment.address, segment.totalSize);
    for (const [address, size] of initial) {
      const call = sink.call('aclrtMallocHost', { size, recorded: hex(address) }, 'modeled');
      this.#open(sink, address, size, call);
    }
  }

  /** Buffers live now. */
  get live(): number {
    return this.#live.size;
  }

  /** Applies the host entries that happen at or before `t` (ns), in order. */
  until(sink: HostEventSink, t: number): void {
    for (; this.#next < this.#queue.length; this.#next += 1) {
      const item = this.#queue[this.#next];
      if (item === undefined || item.t > t) return;
      if (Number.isFinite(item.t)) sink.t = Math.max(sink.t, item.t);
      this.#apply(sink, item.entry);
    }
  }

  /** Applies the rest (the untimed ones, after every device entry). */
  rest(sink: HostEventSink): void {
    this.until(sink, Number.POSITIVE_INFINITY);
  }

  #apply(sink: HostEventSink, entry: TraceEntry): void {
    // A block inside a host segment changes no buffer.
    if (entry.action !== 'segment_alloc' && entry.action !== 'segment_free') return;
    const args: Record<string, unknown> = { addr: hex(entry.addr), size: entry.size, host: true };
    if (entry.timeUs !== undefined) args.time_us = entry.timeUs;
    const call = sink.call(entry.action, args, 'observed');
    if (entry.action === 'segment_alloc') {
      if (this.#live.has(entry.addr)) this.inconsistent += 1;
      else this.#open(sink, entry.addr, entry.size, call);
      return;
    }
    const id = this.#live.get(entry.addr);
    if (id === undefined) {
      this.inconsistent += 1;
      return;
    }
    this.#live.delete(entry.addr);
    sink.emit({ kind: 'hostFree', id }, 'modeled', call);
  }

  #open(sink: HostEventSink, address: bigint, size: number, call: number): void {
    const addr = Number(address);
    // An address the event's exact integer cannot hold stays in the log only.
    if (address < 0n || !Number.isSafeInteger(addr) || !Number.isSafeInteger(size) || size < 0) return;
    const id = sink.id();
    this.#live.set(address, id);
    sink.emit({ kind: 'hostAlloc', pid: PID, id, fn: 'aclrtMallocHost', addr, size, memory: 'pinned', vaFlag: false }, 'modeled', call);
  }
}
