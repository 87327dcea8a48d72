import { describe, expect, it } from 'vitest';
import { FormatError } from '../../src/formats/format-error.ts';
import { SnapshotLoader } from '../../src/formats/open-file.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import type { MemorySnapshot } from '../../src/formats/snapshot-types.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { type Py, writePickle } from './pickle-writer.ts';
import { makeSnapshot } from './snapshot-fixtures.ts';

function load(bytes: Uint8Array, summarizeTrace: boolean, chunk = 8192) {
  const loader = new SnapshotLoader({ totalBytes: bytes.length, summarizeTrace });
  for (let at = 0; at < bytes.length; at += chunk) loader.push(bytes.subarray(at, at + chunk));
  const snapshot = loader.finish();
  return { loader, snapshot, summary: loader.traceSummary };
}

/** The same figures computed from the whole trace, the plain way. */
function expected(whole: MemorySnapshot, device: number) {
  const trace = whole.deviceTraces[device] ?? [];
  let allocated = 0;
  let reserved = 0;
  const series: { allocated: number; reserved: number }[] = [];
  for (const entry of trace) {
    if (entry.action === 'alloc') allocated += entry.size;
    if (entry.action === 'free_completed') allocated -= entry.size;
    if (entry.action === 'segment_alloc' || entry.action === 'segment_map') reserved += entry.size;
    if (entry.action === 'segment_free' || entry.action === 'segment_unmap') reserved -= entry.size;
    series.push({ allocated, reserved });
  }
  const segments = whole.segments.filter((segment) => segment.device === device);
  const shiftA = segments.reduce((sum, s) => sum + s.allocatedSize, 0) - allocated;
  const shiftR = segments.reduce((sum, s) => sum + s.totalSize, 0) - reserved;
  const counts: Record<string, number> = {};
  for (const entry of trace) counts[entry.action] = (counts[entry.action] ?? 0) + 1;
  return {
    counts,
    peakAllocated: Math.max(...series.map((point) => point.allocated)) + shiftA,
    peakReserved: Math.max(...series.map((point) => point.reserved)) + shiftR,
    allocatedAt: (entry: number) => (series[entry]?.allocated ?? 0) + shiftA,
    reservedAt: (entry: number) => (series[entry]?.reserved ?? 0) + shiftR,
  };
}

describe('trace summary: a snapshot read with its trace streamed past', () => {
  it('a trace that grows past keepEntries is summarised from there, to the same summary as one summarised from the start', () => {
    const fixture = makeSnapshot({ flavour: 'pytorch_cuda', events: 9000, devices: 2, expandableDevice: 1, liveTarget: 300 });
    const bytes = writePickle(fixture.data, { protocol: 4 });
    const from = load(bytes, true);
    const total = from.summary?.entries ?? 0;
    expect(total).toBeGreaterThan(12_000);
    const keep = (keepEntries: number) => {
      const loader = new SnapshotLoader({ totalBytes: bytes.length, keepEntries });
      for (let at = 0; at < bytes.length; at += 8192) loader.push(bytes.subarray(at, at + 8192));
      return { snapshot: loader.finish(), summary: loader.traceSummary };
    };
    // Past the limit inside device 0's trace, and inside device 1's.
    for (const limit of [2500, Math.floor(total * 0.8)]) {
      const switched = keep(limit);
      expect(switched.summary).toEqual(from.summary);
      expect(switched.snapshot).toEqual(from.snapshot);
    }
    // At the limit, the trace is kept.
    const kept = keep(total);
    expect(kept.summary).toBeUndefined();
    expect(kept.snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0)).toBe(total);
  });

  it('counts, peaks and the bucketed series agree with the whole trace; the segments are the same', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 12_000, devices: 2, expandableDevice: 1, liveTarget: 300 });
    const bytes = writePickle(fixture.data, { protocol: 4 });
    const whole = load(bytes, false).snapshot;
    const { snapshot, summary } = load(bytes, true);
    expect(snapshot.segments).toEqual(whole.segments);
    expect(snapshot.format).toBe(whole.format);
    expect(snapshot.formatEvidence).toBe(whole.formatEvidence);
    expect(snapshot.deviceTraces.map((trace) => trace.length)).toEqual([0, 0]);
    if (summary === undefined) throw new Error('no summary');
    expect(summary.entries).toBe(whole.deviceTraces.reduce((sum, trace) => sum + trace.length, 0));
    for (const device of [0, 1]) {
      const mine = summary.devices[device];
      const plain = expected(whole, device);
      if (mine === undefined) throw new Error(`no device ${device}`);
      expect(mine.entries).toBe(whole.deviceTraces[device]?.length);
      for (const [action, count] of Object.entries(mine.actions)) expect(count).toBe(plain.counts[action] ?? 0);
      expect(mine.peakAllocated.bytes).toBe(plain.peakAllocated);
      expect(plain.allocatedAt(mine.peakAllocated.entry)).toBe(plain.peakAllocated);
      expect(mine.peakReserved.bytes).toBe(plain.peakReserved);
      // Every bucket holds the highest value of its entries.
      expect(mine.allocatedMax.length).toBeLessThanOrEqual(4096);
      mine.allocatedMax.forEach((high, bucket) => {
        const first = bucket * mine.bucketEntries;
        const last = Math.min(mine.entries, first + mine.bucketEntries);
        let a = Number.NEGATIVE_INFINITY;
        let r = Number.NEGATIVE_INFINITY;
        for (let entry = first; entry < last; entry += 1) {
          a = Math.max(a, plain.allocatedAt(entry));
          r = Math.max(r, plain.reservedAt(entry));
        }
        expect(high).toBe(a);
        expect(mine.reservedMax[bucket]).toBe(r);
      });
    }
  });

  it('buckets merge as the trace grows, so a long trace keeps at most 4,096 of them', () => {
    const fixture = makeSnapshot({ flavour: 'pytorch_cuda', events: 30_000, devices: 1, liveTarget: 100 });
    const { summary } = load(writePickle(fixture.data), true, 65536);
    const device = summary?.devices[0];
    expect(device?.bucketEntries).toBeGreaterThan(1);
    expect(device?.allocatedMax.length).toBe(Math.ceil((device?.entries ?? 0) / (device?.bucketEntries ?? 1)));
    expect(device?.allocatedMax.length).toBeLessThanOrEqual(4096);
  });

  it('lets go of every entry: the memo keeps no trace entry once its batch is counted, and keeps the frames', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 5000, devices: 1, liveTarget: 100 });
    const { loader } = load(writePickle(fixture.data), true);
    // The reader's memo, reached on purpose: what it still holds is what the stream failed to release.
    const memo = Reflect.get(Reflect.get(loader, 'reader'), 'memo') as { value(index: number): unknown; length: number };
    let entries = 0;
    let frameDicts = 0;
    for (let index = 0; index < memo.length; index += 1) {
      const value = memo.value(index);
      if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
      if (Object.hasOwn(value, 'action')) entries += 1;
      if (Object.hasOwn(value, 'filename')) frameDicts += 1;
    }
    expect(entries).toBe(0);
    expect(frameDicts).toBeGreaterThan(0);
  });

  it('an entry the file refers to again after its batch was counted is named; a shared frames list is not a problem', () => {
    const frames: Py = [{ filename: 'train.py', line: 3, name: 'step' }];
    const entry = (i: number): Py => ({ action: 'alloc', addr: 4096 * (i + 1), size: 512, stream: 0, frames });
    const trace: Py[] = Array.from({ length: 2500 }, (_, i) => entry(i));
    const { summary } = load(writePickle({ segments: [], device_traces: [trace] }), true);
    expect(summary?.devices[0]?.actions.alloc).toBe(2500);
    const twice = [...trace, trace[0] ?? null];
    expect(() => load(writePickle({ segments: [], device_traces: [twice] }), true)).toThrow(FormatError);
    expect(() => load(writePickle({ segments: [], device_traces: [twice] }), true)).toThrow(/device_traces\[0\]\[2500\]: expected a dict/);
  });

  it('stats from a summarised read equal stats from the whole trace (pagelens stats reads this way)', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 4000, devices: 2, expandableDevice: 1, liveTarget: 200 });
    const bytes = writePickle(fixture.data);
    const model = { profile: ASCEND_910B2, pageSize1g: false };
    const whole = snapshotStats(load(bytes, false).snapshot, model);
    const { snapshot, summary } = load(bytes, true);
    expect(snapshotStats(snapshot, model, summary)).toEqual(whole);
    expect(whole.devices[0]?.traceEvents).toBeGreaterThan(0);
  });
});
