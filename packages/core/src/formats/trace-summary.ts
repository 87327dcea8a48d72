import { FormatError } from './format-error.ts';
import type { PickleValue } from './pickle-values.ts';
import { addClues, type FormatClues, noClues, readTraceBatch } from './snapshot-normalize.ts';
import { noActions } from './snapshot-stats.ts';
import type { MemorySnapshot, TraceAction, TraceEntry, TraceList } from './snapshot-types.ts';
import { bareEntry } from './trace-columns.ts';

/**
 * A trace too long to keep, summarised while it streams past (pickle-trace-stream.ts): per device,
 * entries per action and the allocated and reserved bytes over the trace, in at most
 * 2 × MAX_BUCKETS buckets of equal entry counts, each with its highest value, so no peak is lost
 * to sampling. Nothing of an entry is kept once it is counted: memory does not grow with the file.
 *
 * Sums are the file's own: allocated grows by `alloc` and shrinks by `free_completed`; reserved grows
 * by `segment_alloc`/`segment_map` and shrinks by `segment_free`/`segment_unmap`. Memory live before
 * the trace began (a ring buffer) is unknown until the end; `finish` shifts both series so that
 * they end at the final segments' Σ allocated_size and Σ total_size.
 */
export interface DeviceTraceSummary {
  readonly device: number;
  readonly entries: number;
  readonly actions: Readonly<Record<TraceAction, number>>;
  /** Entries per bucket; bucket b covers entries [b · bucketEntries, (b + 1) · bucketEntries). */
  readonly bucketEntries: number;
  /** Per bucket, the highest allocated and reserved bytes reached in it. */
  readonly allocatedMax: readonly number[];
  readonly reservedMax: readonly number[];
  readonly peakAllocated: { readonly bytes: number; readonly entry: number };
  readonly peakReserved: { readonly bytes: number; readonly entry: number };
}

export interface TraceSummary {
  readonly entries: number;
  readonly devices: readonly DeviceTraceSummary[];
}

const MAX_BUCKETS = 2048;

class DeviceCounter {
  entries = 0;
  readonly actions = noActions();
  allocated = 0;
  reserved = 0;
  bucketEntries = 1;
  allocatedMax: number[] = [];
  reservedMax: number[] = [];
  peakAllocated = { bytes: Number.NEGATIVE_INFINITY, entry: 0 };
  peakReserved = { bytes: Number.NEGATIVE_INFINITY, entry: 0 };

  add(entry: TraceEntry): void {
    this.actions[entry.action] += 1;
    switch (entry.action) {
      case 'alloc':
        this.allocated += entry.size;
        break;
      case 'free_completed':
        this.allocated -= entry.size;
        break;
      case 'segment_alloc':
      case 'segment_map':
        this.reserved += entry.size;
        break;
      case 'segment_free':
      case 'segment_unmap':
        this.reserved -= entry.size;
        break;
      default:
        break;
    }
    const index = this.entries;
    this.entries += 1;
    if (this.allocated > this.peakAllocated.bytes) this.peakAllocated = { bytes: this.allocated, entry: index };
    if (this.reserved > this.peakReserved.bytes) this.peakReserved = { bytes: this.reserved, entry: index };
    let bucket = Math.floor(index / this.bucketEntries);
    if (bucket >= 2 * MAX_BUCKETS) {
      this.halve();
      bucket = Math.floor(index / this.bucketEntries);
    }
    if (bucket === this.allocatedMax.length) {
      this.allocatedMax.push(this.allocated);
      this.reservedMax.push(this.reserved);
    } else {
      this.allocatedMax[bucket] = Math.max(this.allocatedMax[bucket] ?? this.allocated, this.allocated);
      this.reservedMax[bucket] = Math.max(this.reservedMax[bucket] ?? this.reserved, this.reserved);
    }
  }

  /** Twice as many entries per bucket: neighbours merge, keeping their highest values. */
  private halve(): void {
    const merge = (values: number[]) =>
      Array.from({ length: Math.ceil(values.length / 2) }, (_, i) =>
        Math.max(values[2 * i] ?? Number.NEGATIVE_INFINITY, values[2 * i + 1] ?? Number.NEGATIVE_INFINITY),
      );
    this.allocatedMax = merge(this.allocatedMax);
    this.reservedMax = merge(this.reservedMax);
    this.bucketEntries *= 2;
  }
}

export class TraceSummarizer {
  private readonly devices: DeviceCounter[] = [];

  /** `clues`: what entries read before this summarizer took over said of the writer. */
  constructor(readonly clues: FormatClues = noClues()) {}

  #counter(device: number): DeviceCounter | undefined {
    if (device >= 16) throw new FormatError(`device_traces: the snapshot names ${device + 1} devices; PageLens models at most 16`);
    while (this.devices.length <= device) this.devices.push(new DeviceCounter());
    return this.devices[device];
  }

  /** Entries of `device` kept before the trace grew too long (SnapshotLoader keepEntries): counted in order, before any batch. */
  adopt(device: number, trace: TraceList): void {
    const counter = this.#counter(device);
    if (counter === undefined) return;
    for (let i = 0; i < trace.length; i += 1) {
      const entry = bareEntry(trace, i);
      if (entry !== undefined) counter.add(entry);
    }
  }

  /** The trace stream's sink: one batch of `device_traces[device]`, typed and counted, then dropped. */
  readonly add = (device: number, batch: readonly PickleValue[]): void => {
    const counter = this.#counter(device);
    if (counter === undefined) return;
    readTraceBatch(batch, device, counter.entries, (entry) => {
      addClues(this.clues, entry);
      counter.add(entry);
    });
  };

  /** The summary, its series shifted to end at the final segments' sums. */
  finish(snapshot: MemorySnapshot): TraceSummary {
    const devices = this.devices.map((counter, device): DeviceTraceSummary => {
      let allocated = 0;
      let reserved = 0;
      for (const segment of snapshot.segments) {
        if (segment.device !== device) continue;
        allocated += segment.allocatedSize;
        reserved += segment.totalSize;
      }
      const allocatedShift = allocated - counter.allocated;
      const reservedShift = reserved - counter.reserved;
      const entries = counter.entries;
      return {
        device,
        entries,
        actions: { ...counter.actions },
        bucketEntries: counter.bucketEntries,
        allocatedMax: counter.allocatedMax.map((bytes) => bytes + allocatedShift),
        reservedMax: counter.reservedMax.map((bytes) => bytes + reservedShift),
        peakAllocated: {
          bytes: entries === 0 ? allocated : counter.peakAllocated.bytes + allocatedShift,
          entry: counter.peakAllocated.entry,
        },
        peakReserved: { bytes: entries === 0 ? reserved : counter.peakReserved.bytes + reservedShift, entry: counter.peakReserved.entry },
      };
    });
    return { entries: devices.reduce((sum, device) => sum + device.entries, 0), devices };
  }
}
