import type { Memo } from './pickle-memo.ts';
import type { PickleValue } from './pickle-values.ts';

/**
 * A snapshot's trace lists read as a stream (issue 16: a 10 M-event file must open with memory
 * bounded by what is kept, not by the file). Entries appended to `device_traces[d]` go to a sink
 * batch by batch — CPython's pickler appends 1,000 at a time — and then leave the tree: the list
 * is emptied and the memo lets go of each entry and of its `frames` list. Frame dicts stay in the
 * memo (later entries refer to them); anything else memoized inside the trace is forgotten once
 * its batch is consumed.
 *
 * A later reference to a consumed entry or frames list reads as CONSUMED (pickle-memo.ts).
 */
export type TraceSink = (device: number, entries: readonly PickleValue[]) => void;

/** Device lists sit right under the top dict: only lists memoized this low can be one. */
const HIGHEST_TRACE_SLOT = 16;

export class TraceStream {
  /** Each device's trace list → its device index. */
  private readonly lists = new Map<PickleValue[], number>();
  /** The stack slot of device 0's list; entries and what they hold sit above it. */
  private firstSlot = Number.POSITIVE_INFINITY;
  /** Containers memoized inside the trace since the last consumed batch → their memo index. */
  private readonly batch = new Map<object, number>();

  constructor(private readonly sink: TraceSink) {}

  /**
   * A list was memoized at `slot`: it is `device_traces[d]` when the top dict (slot 0, its MARK at
   * 1) holds the key `device_traces` at an odd slot k, the devices' list at k + 1, and this list at
   * k + 2 + d, above the lists of devices 0 … d − 1 (which need the devices' list's MARK at k + 2).
   */
  noteList(list: PickleValue[], slot: number, stack: readonly PickleValue[], marks: readonly number[]): void {
    if (slot > HIGHEST_TRACE_SLOT || marks[0] !== 1) return;
    for (let key = 1; key + 2 <= slot; key += 2) {
      if (stack[key] !== 'device_traces') continue;
      if (!Array.isArray(stack[key + 1])) return;
      const device = slot - (key + 2);
      if (device > 0 && !marks.includes(key + 2)) return;
      for (let below = key + 2; below < slot; below += 1) {
        const earlier = stack[below];
        if (!Array.isArray(earlier) || !this.lists.has(earlier)) return;
      }
      this.lists.set(list, device);
      this.firstSlot = Math.min(this.firstSlot, key + 2);
      return;
    }
  }

  /** A container was memoized at `slot`: inside the trace, it is remembered until its batch is consumed. */
  noteMemo(value: object, index: number, slot: number): void {
    if (slot > this.firstSlot) this.batch.set(value, index);
  }

  /** After items were appended to `list`: a device's trace list hands them to the sink and lets go of them. */
  appended(list: PickleValue[], memo: Memo): void {
    const device = this.lists.get(list);
    if (device === undefined) return;
    this.sink(device, list);
    for (const entry of list) {
      if (typeof entry !== 'object' || entry === null || entry instanceof Uint8Array) continue;
      this.release(entry, memo);
      if (!Array.isArray(entry)) {
        const frames = Object.hasOwn(entry, 'frames') ? entry.frames : undefined;
        if (typeof frames === 'object' && frames !== null) this.release(frames, memo);
      }
    }
    list.length = 0;
    this.batch.clear();
    memo.settle();
  }

  private release(value: object, memo: Memo): void {
    const index = this.batch.get(value);
    if (index !== undefined) memo.consume(index);
  }
}
