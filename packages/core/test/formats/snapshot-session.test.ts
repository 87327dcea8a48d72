import { describe, expect, it } from 'vitest';
import { framesOf } from '../../src/formats/frames.ts';
import { openMemoryFile, SnapshotLoader } from '../../src/formats/open-file.ts';
import { type ImportedSession, importSnapshot } from '../../src/formats/snapshot-session.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import { bareSegment, type MemorySnapshot, type Segment, type TraceEntry } from '../../src/formats/snapshot-types.ts';
import { stackFrames } from '../../src/formats/stack-table.ts';
import type { MemoryEvent } from '../../src/model/events.ts';
import { reduce } from '../../src/model/reduce.ts';
import { decodeSnapshot } from '../../src/model/snapshot.ts';
import type { HostState } from '../../src/model/state.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { DEVICE_VA_WINDOW, deviceWindowBase } from '../../src/sim/layout.ts';
import { type Py, PyFloat, PyTuple, writePickle } from './pickle-writer.ts';
import { entriesOf, type Fixture, type FixtureOptions, makeSnapshot } from './snapshot-fixtures.ts';

const MiB = 1024 * 1024;
const HUGE = 2 * MiB;
const MODEL = { profile: ASCEND_910B2, pageSize1g: false, name: 'job.pickle' };

function open(fixture: Fixture): MemorySnapshot {
  const result = openMemoryFile(writePickle(fixture.data), 'job.pickle');
  if (!result.ok || result.file.kind !== 'snapshot') throw new Error(result.ok ? result.file.kind : result.message);
  return result.file;
}

/** The generator's own segments (not read through PageLens). */
function rawSegments(fixture: Fixture): { device: number; size: number; allocated: number; expandable: boolean }[] {
  const segments = fixture.data.segments;
  if (!Array.isArray(segments)) return [];
  return segments.map((segment: Py) => {
    if (typeof segment !== 'object' || segment === null || Array.isArray(segment) || segment instanceof Uint8Array)
      throw new Error('segment');
    if (segment instanceof PyTuple || segment instanceof PyFloat) throw new Error('segment');
    return {
      device: Number(segment.device),
      size: Number(segment.total_size),
      allocated: Number(segment.allocated_size),
      expandable: segment.is_expandable === true,
    };
  });
}

/** The state at `seq`, replayed from the import's initial state. */
function stateAt(initial: Parameters<typeof decodeSnapshot>[0], events: readonly MemoryEvent[], seq: number): HostState {
  const state = decodeSnapshot(initial);
  for (const event of events) {
    if (event.seq > seq) break;
    reduce(state, event);
  }
  return state;
}

/** Bytes the model holds for a device's segments: allocations plus mapped handles. */
function reservedIn(state: HostState, device: number): number {
  let bytes = 0;
  for (const allocation of state.allocations.values()) if (allocation.device === device) bytes += allocation.size;
  for (const mapping of state.mappings.values()) if (mapping.device === device) bytes += mapping.size;
  return bytes;
}

const NPU: FixtureOptions = {
  flavour: 'torch_npu',
  events: 3000,
  seed: 7,
  devices: 2,
  expandableDevice: 1,
  ringDrop: 1000,
  liveTarget: 20,
};

describe('importSnapshot: a snapshot as a recorded session of the model', () => {
  const fixture = makeSnapshot(NPU);
  const snapshot = open(fixture);
  const session = importSnapshot(snapshot, MODEL);

  it('ends in the final state the file records: segments, bytes and huge pages per device, counted from the generator', () => {
    expect(session.inconsistent).toBe(0);
    expect(session.finalMismatch).toBe(0);
    const raw = rawSegments(fixture);
    for (const device of [0, 1]) {
      const mine = raw.filter((segment) => segment.device === device);
      const reserved = mine.reduce((sum, segment) => sum + segment.size, 0);
      const allocated = mine.reduce((sum, segment) => sum + segment.allocated, 0);
      expect(reserved).toBeGreaterThan(0);
      expect(reservedIn(session.final, device)).toBe(reserved);
      // Every generated segment is a multiple of 2 MiB and larger than 1 MiB: HUGE_FIRST (or the HUGE memAttr) takes size / 2 MiB huge pages.
      expect(session.final.devices[device]?.frames.hugeFrames).toBe(reserved / HUGE);
      expect(session.final.devices[device]?.frames.normalPagesUsed).toBe(0);
      expect(session.blocks.totalsAt(device, session.final.seq).allocated).toBe(allocated);
    }
    const device0 = [...session.final.allocations.values()].filter((a) => a.device === 0);
    expect(device0).toHaveLength(raw.filter((s) => s.device === 0).length);
    expect(device0.every((a) => a.fn === 'aclrtMallocAlign32' && a.pageClass === 'huge')).toBe(true);
    // Device 1's segments are expandable: a reservation each, mapped with physical handles, no allocation.
    expect([...session.final.allocations.values()].filter((a) => a.device === 1)).toHaveLength(0);
    expect([...session.final.mappings.values()].filter((m) => m.device === 1).length).toBeGreaterThanOrEqual(
      raw.filter((s) => s.device === 1).length,
    );
  });

  it('agrees with the modeled page figures of stats', () => {
    const stats = snapshotStats(snapshot, MODEL);
    for (const pages of stats.pages.devices) {
      expect(session.final.devices[pages.device]?.frames.hugeFrames).toBe(pages.byClass.huge.pages);
    }
  });

  it('travels to the middle of the trace: reserved, allocated and active bytes match the generator at that entry', () => {
    for (const device of [0, 1]) {
      const seqs = session.entrySeqs[device] ?? [];
      const truth = fixture.truth[device] ?? [];
      expect(seqs).toHaveLength(truth.length);
      for (const index of [0, Math.floor(seqs.length / 3), Math.floor(seqs.length / 2), seqs.length - 1]) {
        const seq = seqs[index] ?? -1;
        const expected = truth[index];
        // The modeled segment events of an entry follow its call: the state after the entry is the one before the next call.
        const next = session.events.find((event) => event.seq > seq && event.kind === 'call' && event.provenance === 'observed');
        const after = next === undefined ? session.final.seq : next.seq - 1;
        const state = stateAt(session.initial, session.events, after);
        expect(reservedIn(state, device), `device ${device} entry ${index}`).toBe(expected?.reserved);
        const totals = session.blocks.totalsAt(device, after);
        expect(totals.allocated).toBe(expected?.allocated);
        expect(totals.active).toBe(expected?.active);
      }
    }
  });

  it('infers what was live before a ring buffer that lost its start', () => {
    // The kept trace frees segments it never made (on both devices): they were live before it began.
    for (const trace of snapshot.deviceTraces.map(entriesOf)) {
      const made = new Set(trace.filter((e) => e.action === 'segment_alloc' || e.action === 'segment_map').map((e) => e.addr));
      expect(trace.some((e) => (e.action === 'segment_free' || e.action === 'segment_unmap') && !made.has(e.addr))).toBe(true);
    }
    const firstCall = Math.min(...session.entrySeqs.map((seqs) => seqs[0] ?? Number.POSITIVE_INFINITY));
    const state = stateAt(session.initial, session.events, firstCall - 1);
    for (const device of [0, 1]) {
      expect(reservedIn(state, device)).toBe(fixture.initial[device]?.reserved);
      expect(session.blocks.totalsAt(device, firstCall - 1).active).toBe(fixture.initial[device]?.active);
    }
    expect(fixture.initial[0]?.reserved).toBeGreaterThan(0);
  });

  it('marks the page placement modeled and the trace entries observed', () => {
    const observed = session.events.filter((event) => event.provenance === 'observed');
    expect(observed).toHaveLength(snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0));
    expect(observed.every((event) => event.kind === 'call')).toBe(true);
    const placed = session.events.filter((event) => event.kind === 'alloc' || event.kind === 'physAlloc');
    expect(placed.length).toBeGreaterThan(0);
    expect(placed.every((event) => event.provenance === 'modeled')).toBe(true);
    const oom = observed.find((event) => event.kind === 'call' && event.fn === 'oom');
    expect(oom?.kind === 'call' ? oom.ret : 0).toBe(207001);
  });

  it('keeps the blocks of a segment with their recorded sizes, states and stacks', () => {
    const allocation = [...session.final.allocations.values()].find(
      (a) => session.blocks.within(0, a.addr, a.size, session.final.seq).length > 0,
    );
    expect(allocation).toBeDefined();
    if (allocation === undefined) return;
    const blocks = session.blocks.within(0, allocation.addr, allocation.size, session.final.seq);
    const segment = snapshot.segments.find(
      (s: Segment) => s.device === 0 && blocks[0] !== undefined && s.blocks.some((b) => b.address === blocks[0]?.recordedAddress),
    );
    expect(segment).toBeDefined();
    for (const block of blocks) {
      const recorded = segment?.blocks.find((b) => b.address === block.recordedAddress);
      expect(block.size).toBe(recorded?.size);
      expect(block.requestedSize).toBe(recorded?.requestedSize);
      expect(stackFrames(session.stacks, block.stack)).toEqual(framesOf(recorded?.frames ?? []));
      expect(stackFrames(session.stacks, block.stack)).toHaveLength(4);
      expect(block.addr).toBe(allocation.addr + Number(block.recordedAddress - (segment?.address ?? 0n)));
    }
  });
});

describe('importSnapshot: stacks', () => {
  it("each block freed in the trace keeps its alloc entry's stack, interned once per distinct stack", () => {
    const snapshot = open(makeSnapshot({ ...NPU, events: 6000 }));
    const session = importSnapshot(snapshot, MODEL);
    const trace = entriesOf(snapshot.deviceTraces[0]);
    const seqs = session.entrySeqs[0] ?? [];
    const byAllocSeq = new Map(session.blocks.all(0).map((block) => [block.allocSeq, block]));
    let checked = 0;
    trace.forEach((entry, index) => {
      if (entry.action !== 'alloc') return;
      const block = byAllocSeq.get(seqs[index] ?? -1);
      if (block?.freeCompletedSeq === undefined) return;
      expect(stackFrames(session.stacks, block.stack)).toEqual(framesOf(entry.frames));
      checked += 1;
    });
    expect(checked).toBeGreaterThan(50);
    const distinct = new Set(session.blocks.all(0).map((block) => block.stack)).size;
    expect(session.stacks.starts.length - 1).toBeGreaterThanOrEqual(distinct - 1);
  });
});

describe('importSnapshot: a loader that keeps only the stacks blocks take', () => {
  it('gives every block the stack it has when all stacks are kept, and holds no other entry stack', () => {
    const bytes = writePickle(makeSnapshot({ ...NPU, events: 6000 }).data);
    const load = (stacks: 'all' | 'blocks'): MemorySnapshot => {
      const loader = new SnapshotLoader({ totalBytes: bytes.length, stacks });
      for (let at = 0; at < bytes.length; at += 8192) loader.push(bytes.subarray(at, at + 8192));
      return loader.finish();
    };
    const all = load('all');
    const blocks = load('blocks');
    const kept = (snapshot: MemorySnapshot) => snapshot.deviceTraces.flatMap(entriesOf).filter((entry) => entry.frames.length > 0);
    expect(kept(all).length).toBeGreaterThan(kept(blocks).length * 1.5);
    // Only allocs, and first-seen free_completed entries (blocks alive before the ring began), keep theirs.
    expect(new Set(kept(blocks).map((entry) => entry.action))).toEqual(new Set(['alloc', 'free_completed']));
    // Apart from the stacks, the same snapshot.
    const bare = (snapshot: MemorySnapshot) =>
      snapshot.deviceTraces.map((trace) => entriesOf(trace).map((entry) => ({ ...entry, frames: [] })));
    expect(bare(blocks)).toEqual(bare(all));
    expect(blocks.segments).toEqual(all.segments);
    const sessionAll = importSnapshot(all, MODEL);
    const sessionBlocks = importSnapshot(blocks, MODEL);
    for (const device of [0, 1]) {
      const a = sessionAll.blocks.all(device);
      const b = sessionBlocks.blocks.all(device);
      expect(b.length).toBe(a.length);
      expect(a.length).toBeGreaterThan(20);
      b.forEach((block, i) => {
        const other = a[i];
        expect(block.recordedAddress).toBe(other?.recordedAddress);
        expect(stackFrames(sessionBlocks.stacks, block.stack)).toEqual(stackFrames(sessionAll.stacks, other?.stack ?? -1));
      });
    }
    // Blocks alive before the ring began take a free_completed entry's stack: the fixture has some.
    const before = sessionBlocks.blocks.all(0).filter((block) => block.allocSeq === sessionBlocks.blocks.all(0)[0]?.allocSeq);
    expect(before.some((block) => stackFrames(sessionBlocks.stacks, block.stack).length > 0)).toBe(true);
  });
});

describe('importSnapshot: consume', () => {
  it('builds the same session while letting go of the entries, and leaves the traces empty', () => {
    const fixture = makeSnapshot({ ...NPU, events: 3000 });
    const whole = importSnapshot(open(fixture), MODEL);
    const snapshot = open(fixture);
    const entries = snapshot.deviceTraces.map((trace) => trace.length);
    const consumed = importSnapshot(snapshot, { ...MODEL, consume: true });
    expect(snapshot.deviceTraces.map((trace) => trace.length)).toEqual(entries.map(() => 0));
    expect(consumed.entrySeqs.map((seqs) => seqs.length)).toEqual(entries);
    expect(consumed.entrySeqs).toEqual(whole.entrySeqs);
    expect(consumed.timeBasis).toBe(whole.timeBasis);
    expect(consumed.inconsistent).toBe(whole.inconsistent);
    expect(consumed.finalMismatch).toBe(whole.finalMismatch);
    expect(consumed.events.length).toBe(whole.events.length);
    const text = (value: unknown) => JSON.stringify(value, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
    consumed.events.forEach((event, i) => {
      expect(text(event)).toBe(text(whole.events[i]));
    });
    for (const device of [0, 1]) {
      const a = whole.blocks.all(device);
      const b = consumed.blocks.all(device);
      expect(
        b.map((block) => [block.recordedAddress, block.allocSeq, block.freeCompletedSeq, stackFrames(consumed.stacks, block.stack)]),
      ).toEqual(a.map((block) => [block.recordedAddress, block.allocSeq, block.freeCompletedSeq, stackFrames(whole.stacks, block.stack)]));
    }
  });
});

describe('importSnapshot: consume, a streamed trace', () => {
  it('lets the columns go chunk by chunk as each device is read, interleaved, and builds the same session', () => {
    // Two devices of more than one 65,536-entry chunk each, read entry by entry in turn.
    const bytes = writePickle(makeSnapshot({ ...NPU, events: 70_000, ringDrop: 0, liveTarget: 200 }).data);
    const load = (): MemorySnapshot => {
      const loader = new SnapshotLoader({ totalBytes: bytes.length, stacks: 'blocks' });
      for (let at = 0; at < bytes.length; at += 1 << 20) loader.push(bytes.subarray(at, at + (1 << 20)));
      return loader.finish();
    };
    const whole = importSnapshot(load(), MODEL);
    const snapshot = load();
    expect(snapshot.deviceTraces.map((trace) => trace.constructor.name)).toEqual(['TraceColumns', 'TraceColumns']);
    const consumed = importSnapshot(snapshot, { ...MODEL, consume: true });
    expect(snapshot.deviceTraces.map((trace) => trace.length)).toEqual([0, 0]);
    expect(consumed.entrySeqs).toEqual(whole.entrySeqs);
    expect(consumed.events.length).toBe(whole.events.length);
    expect(consumed.events.map((event) => JSON.stringify(event, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)))).toEqual(
      whole.events.map((event) => JSON.stringify(event, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))),
    );
    for (const device of [0, 1]) expect(consumed.blocks.all(device)).toEqual(whole.blocks.all(device));
  });
});

describe('importSnapshot: addresses, CUDA files, limits', () => {
  it('maps addresses above 2^53 into the device window and keeps the recorded ones exact', () => {
    const base = (1n << 60n) + 0x1234_5600_0000n;
    const fixture = makeSnapshot({ ...NPU, base, ringDrop: 0, events: 800 });
    const session = importSnapshot(open(fixture), MODEL);
    expect(session.inconsistent).toBe(0);
    for (const allocation of session.final.allocations.values()) {
      expect(allocation.addr).toBeGreaterThanOrEqual(deviceWindowBase(allocation.device));
      expect(allocation.addr + allocation.size).toBeLessThanOrEqual(deviceWindowBase(allocation.device) + DEVICE_VA_WINDOW);
    }
    const block = session.blocks.all(0)[0];
    expect(block?.recordedAddress).toBeGreaterThan(BigInt(Number.MAX_SAFE_INTEGER));
    // One offset for the whole device: the recorded gaps are kept.
    const map = session.addressMaps[0];
    expect(map?.mode).toBe('shifted');
    const [a, b] = map?.clusters ?? [];
    if (a !== undefined && b !== undefined) expect(b.modelStart - a.modelStart).toBe(Number(b.recordedStart - a.recordedStart));
    const alloc = session.events.find((event) => event.kind === 'call' && event.fn === 'alloc');
    expect(alloc?.kind === 'call' ? String(alloc.args.addr) : '').toMatch(/^0x1[0-9a-f]{15}$/);
  });

  it('opens a CUDA snapshot with time_us as its clock', () => {
    const fixture = makeSnapshot({ flavour: 'pytorch_cuda', events: 600, seed: 3, devices: 1 });
    const session = importSnapshot(open(fixture), MODEL);
    expect(session.format).toBe('pytorch_cuda');
    expect(session.timeBasis).toBe('time_us');
    expect(session.inconsistent).toBe(0);
    const times = session.events.map((event) => event.t);
    expect(times.every((t, i) => i === 0 || t >= (times[i - 1] ?? 0))).toBe(true);
    expect(times[times.length - 1]).toBeGreaterThan(0);
  });

  it('refuses a job larger than the modeled device, naming the profile', () => {
    const snapshot: MemorySnapshot = {
      kind: 'snapshot',
      format: 'torch_npu',
      formatEvidence: 'test',
      segments: [
        {
          device: 0,
          address: 0x12c0_0000_0000n,
          totalSize: 100 * 1024 * MiB,
          allocatedSize: 0,
          activeSize: 0,
          requestedSize: 0,
          stream: 0n,
          segmentType: 'large',
          poolId: undefined,
          isExpandable: false,
          frames: [],
          blocks: [],
        },
      ],
      deviceTraces: [[]],
      allocatorSettings: undefined,
      hostSegments: undefined,
      hostTraces: undefined,
      otherKeys: [],
    };
    expect(() => importSnapshot(snapshot, { ...MODEL, profile: ASCEND_310P3 })).toThrow(/Ascend310P3.*choose a larger profile/);
  });

  it('counts entries that contradict the state instead of failing', () => {
    const fixture = makeSnapshot({ ...NPU, ringDrop: 0, events: 300 });
    const snapshot = open(fixture);
    const first = entriesOf(snapshot.deviceTraces[0]).find((entry) => entry.action === 'alloc');
    if (first === undefined) throw new Error('no alloc');
    const doubled: MemorySnapshot = {
      ...snapshot,
      deviceTraces: [[first, ...entriesOf(snapshot.deviceTraces[0])], ...snapshot.deviceTraces.slice(1)],
    };
    const session = importSnapshot(doubled, MODEL);
    expect(session.inconsistent).toBeGreaterThan(0);
  });
});

describe('importSnapshot: pinned host memory (host_segments, host_traces)', () => {
  const at = (action: TraceEntry['action'], addr: bigint, size: number, timeUs: number | undefined): TraceEntry => ({
    action,
    addr,
    size,
    stream: 0n,
    timeUs,
    poolId: undefined,
    deviceFree: undefined,
    frames: [],
  });
  const A = 0x7f00_0000_0000n;
  const B = 0x7f00_1000_0000n;
  const C = 0x7f00_2000_0000n;
  const D = 0x7f00_3000_0000n;
  const segment = (address: bigint, totalSize: number): Segment => bareSegment(-1, address, totalSize, { segmentType: 'large' });
  const snapshot = (timed: boolean): MemorySnapshot => ({
    kind: 'snapshot',
    format: 'pytorch_cuda',
    formatEvidence: 'test',
    segments: [],
    deviceTraces: [
      [
        at('segment_alloc', 0x2000_0000n, 2 * MiB, timed ? 100 : undefined),
        at('segment_free', 0x2000_0000n, 2 * MiB, timed ? 300 : undefined),
      ],
    ],
    allocatorSettings: undefined,
    // C was live before the trace and still is; B was live before it and is freed in it.
    hostSegments: [segment(A, 4 * MiB), segment(C, MiB)],
    hostTraces: [
      at('segment_alloc', A, 4 * MiB, timed ? 200 : undefined),
      at('alloc', A, 512, timed ? 210 : undefined),
      at('segment_free', B, 2 * MiB, timed ? 400 : undefined),
      at('segment_free', D, MiB, timed ? 500 : undefined),
      at('segment_alloc', D, MiB, timed ? 600 : undefined),
      at('segment_alloc', D, MiB, timed ? 700 : undefined),
    ],
    otherKeys: [],
  });
  const order = (session: ImportedSession) =>
    session.events
      .filter((e) => e.kind === 'hostAlloc' || e.kind === 'hostFree' || e.kind === 'alloc' || e.kind === 'free')
      .map((e) => {
        if (e.kind === 'hostAlloc') return `hostAlloc ${e.size / MiB}`;
        if (e.kind === 'hostFree') return 'hostFree';
        return e.kind;
      });

  it('timed: the buffers live before the trace first, then each host entry among the device entries by time', () => {
    const session = importSnapshot(snapshot(true), MODEL);
    // Initial: B (freed without an alloc) and D (freed first: live before), and C (in the final state, never allocated).
    expect(order(session)).toEqual([
      'hostAlloc 2',
      'hostAlloc 1',
      'hostAlloc 1',
      'alloc',
      'hostAlloc 4',
      'free',
      'hostFree',
      'hostFree',
      'hostAlloc 1',
    ]);
    // D allocated twice without a free between: the second is counted, and the block entry changes no buffer.
    expect(session.inconsistent).toBe(1);
    const live = [...session.final.hostBuffers.values()].map((b) => [b.addr, b.size, b.memory]);
    expect(live).toEqual([
      [Number(C), MiB, 'pinned'],
      [Number(A), 4 * MiB, 'pinned'],
      [Number(D), MiB, 'pinned'],
    ]);
    // Times never go back.
    session.events.forEach((event, i) => {
      if (i > 0) expect(event.t).toBeGreaterThanOrEqual(session.events[i - 1]?.t ?? 0);
    });
    const hostCall = session.events.find((e) => e.kind === 'call' && e.args.host === true && e.fn === 'segment_alloc');
    expect(hostCall?.t).toBe(100_000);
  });

  it('untimed (entry order): the host entries follow every device entry', () => {
    const session = importSnapshot(snapshot(false), MODEL);
    expect(order(session)).toEqual([
      'hostAlloc 2',
      'hostAlloc 1',
      'hostAlloc 1',
      'alloc',
      'free',
      'hostAlloc 4',
      'hostFree',
      'hostFree',
      'hostAlloc 1',
    ]);
  });
});
