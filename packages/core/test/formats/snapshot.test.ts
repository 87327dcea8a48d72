import { describe, expect, it } from 'vitest';
import { framesOf } from '../../src/formats/frames.ts';
import { openMemoryFile, SnapshotLoader } from '../../src/formats/open-file.ts';
import { PickleReader } from '../../src/formats/pickle-reader.ts';
import { segmentPages } from '../../src/formats/segment-pages.ts';
import { normalizeSnapshot } from '../../src/formats/snapshot-normalize.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import type { MemorySnapshot } from '../../src/formats/snapshot-types.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { type Py, PyFloat, PyTuple, tuple, writePickle } from './pickle-writer.ts';
import { entriesOf, type Fixture, makeSnapshot, withArrays } from './snapshot-fixtures.ts';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const MODEL = { profile: ASCEND_910B2, pageSize1g: false };

function open(bytes: Uint8Array, name = 'snapshot.pickle'): MemorySnapshot {
  const result = openMemoryFile(bytes, name);
  if (!result.ok) throw new Error(result.message);
  if (result.file.kind !== 'snapshot') throw new Error(`opened as ${result.file.kind}`);
  return result.file;
}

function openError(bytes: Uint8Array, name = 'snapshot.pickle'): string {
  const result = openMemoryFile(bytes, name);
  if (result.ok) throw new Error('expected a refusal');
  return result.message;
}

/** Reads a field of the generator's own data (not through PageLens), for independent sums. */
function field(value: Py | undefined, key: string): Py | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || value instanceof Uint8Array) return undefined;
  if (value instanceof PyTuple || value instanceof PyFloat) return undefined;
  return value[key];
}

function list(value: Py | undefined): Py[] {
  return Array.isArray(value) ? value : [];
}

/** What `stats --json` must say, computed from the generated data directly. */
function expectedDevices(fixture: Fixture) {
  const segments = list(fixture.data.segments);
  const traces = list(fixture.data.device_traces);
  return traces.map((trace, device) => {
    const mine = segments.filter((segment) => field(segment, 'device') === device);
    const sum = (key: string) => mine.reduce<number>((total, segment) => total + Number(field(segment, key)), 0);
    const actions: Record<string, number> = {};
    for (const entry of list(trace)) {
      const action = String(field(entry, 'action'));
      actions[action] = (actions[action] ?? 0) + 1;
    }
    return {
      device,
      segments: mine.length,
      reservedBytes: sum('total_size'),
      allocatedBytes: sum('allocated_size'),
      activeBytes: sum('active_size'),
      traceEvents: list(trace).length,
      actions,
    };
  });
}

describe('snapshot normaliser', () => {
  it('a torch_npu-shaped snapshot: detected by its workspace_snapshot, pool_id and no time_us; stats match the data', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 3000, devices: 2, expandableDevice: 1, ringDrop: 100 });
    const snapshot = open(writePickle(fixture.data, { protocol: 4 }));
    expect(snapshot.format).toBe('torch_npu');
    expect(snapshot.formatEvidence).toContain('workspace_snapshot');
    expect(snapshot.allocatorSettings).toBeUndefined();
    expect(entriesOf(snapshot.deviceTraces[0]).every((entry) => entry.timeUs === undefined)).toBe(true);
    expect(snapshot.deviceTraces[0]?.at(5)?.poolId).toBe('0,0');
    const oom = entriesOf(snapshot.deviceTraces[0]).find((entry) => entry.action === 'oom');
    expect(oom?.deviceFree).toBe(123 * MiB);
    const stats = snapshotStats(snapshot, MODEL);
    const expected = expectedDevices(fixture);
    expect(stats.devices).toHaveLength(2);
    for (const [index, device] of stats.devices.entries()) {
      const want = expected[index];
      expect(device).toMatchObject({ ...want, actions: expect.objectContaining(want?.actions) });
      expect(Object.values(device.actions).reduce((a, b) => a + b, 0)).toBe(want?.traceEvents);
    }
    expect(stats.devices[1]?.actions.segment_map).toBeGreaterThan(0);
    expect(stats.devices[1]?.expandableSegments).toBe(stats.devices[1]?.segments);
  });

  it('a CUDA-shaped snapshot (protocol 2): detected by allocator_settings and time_us; active_awaiting_free reads as active_pending_free', () => {
    const fixture = makeSnapshot({ flavour: 'pytorch_cuda', events: 2000, devices: 1 });
    const snapshot = open(writePickle(fixture.data, { protocol: 2 }));
    expect(snapshot.format).toBe('pytorch_cuda');
    expect(snapshot.allocatorSettings?.PYTORCH_CUDA_ALLOC_CONF).toBe('expandable_segments:True');
    expect(snapshot.allocatorSettings?.max_split_size).toBe(-1);
    expect(snapshot.allocatorSettings?.roundup_power2_divisions).toBe('[1,2,4]');
    const states = new Set(snapshot.segments.flatMap((segment) => segment.blocks.map((block) => block.state)));
    expect(states.has('active_pending_free')).toBe(true);
    expect([...states].every((state) => ['active_allocated', 'active_pending_free', 'inactive'].includes(state))).toBe(true);
    expect(snapshot.deviceTraces[0]?.at(0)?.timeUs).toBeGreaterThan(1_700_000_000_000_000);
    expect(snapshotStats(snapshot, MODEL).devices).toMatchObject(expectedDevices(fixture).map(({ actions, ...rest }) => rest));
  });

  it('addresses past 2^53 stay exact, streams keep their int64 sign', () => {
    const base = 2n ** 57n + 0x1234_5678_9a00n;
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 200, devices: 1, base });
    const snapshot = open(writePickle(fixture.data, { protocol: 5 }));
    const written = list(fixture.data.segments).flatMap((segment) => [
      field(segment, 'address'),
      ...list(field(segment, 'blocks')).map((b) => field(b, 'address')),
    ]);
    const read = snapshot.segments.flatMap((segment) => [segment.address, ...segment.blocks.map((block) => block.address)]);
    expect(written.every((address) => typeof address === 'bigint')).toBe(true);
    expect(read).toEqual(written);
    expect(read.every((address) => address >= base)).toBe(true);
    const alloc = entriesOf(snapshot.deviceTraces[0]).find((entry) => entry.action === 'alloc');
    expect(alloc !== undefined && alloc.addr >= base && alloc.addr < base + 0x20_0000_0000n).toBe(true);
    expect(alloc?.addr.toString(16)).not.toMatch(/0{6}$/); // not rounded to a double's 53 bits
    const two = makeSnapshot({ flavour: 'torch_npu', events: 50, devices: 2 });
    expect(open(writePickle(two.data)).segments.find((segment) => segment.device === 1)?.stream).toBe(BigInt(-(2 ** 40) + 1));
  });

  it('streams: the loader gives the same snapshot when fed in 4 KiB chunks, and reports progress', () => {
    const bytes = writePickle(makeSnapshot({ flavour: 'torch_npu', events: 1000, devices: 1 }).data);
    const loader = new SnapshotLoader({ totalBytes: bytes.length });
    const progress: number[] = [];
    for (let at = 0; at < bytes.length; at += 4096) {
      loader.push(bytes.subarray(at, at + 4096));
      progress.push(loader.bytesRead);
    }
    expect(progress.at(-1)).toBe(bytes.length);
    expect(progress.every((value, i) => i === 0 || value > (progress[i - 1] ?? 0))).toBe(true);
    const whole = open(bytes);
    expect(withArrays(loader.finish())).toEqual(withArrays(whole));
    // And the same as the tree read whole with no trace stream at all.
    const tree = new PickleReader({});
    tree.push(bytes);
    expect(withArrays(whole)).toEqual(normalizeSnapshot(tree.end()));
    // Typed as it streamed, not read from a tree held to the end.
    expect(loader.streamedEntries).toBe(whole.deviceTraces[0]?.length);
    expect(loader.streamedEntries).toBeGreaterThan(900);
  });

  it('segments first: the loader answers the final state once, while the trace is still being read', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 2000, devices: 2, expandableDevice: 1 });
    const bytes = writePickle(fixture.data, { protocol: 4 });
    const whole = open(bytes);
    const loader = new SnapshotLoader({ totalBytes: bytes.length });
    const early: { at: number; snapshot: ReturnType<SnapshotLoader['finish']> }[] = [];
    for (let at = 0; at < bytes.length; at += 4096) {
      loader.push(bytes.subarray(at, at + 4096));
      const snapshot = loader.earlySegments();
      if (snapshot !== undefined) early.push({ at: loader.bytesRead, snapshot });
    }
    expect(early).toHaveLength(1);
    const [first] = early;
    // Well before the end: the segments are a small part of the file.
    expect(first?.at).toBeLessThan(bytes.length / 2);
    expect(first?.snapshot.segments).toEqual(whole.segments);
    expect(first?.snapshot.deviceTraces).toEqual([]);
    expect(withArrays(loader.finish())).toEqual(withArrays(whole));
    expect(loader.earlySegments()).toBeUndefined();
  });

  it('segments first: no early answer for a file that writes its trace first, or comes in one chunk', () => {
    const { segments, device_traces } = makeSnapshot({ flavour: 'torch_npu', events: 2000, devices: 1 }).data;
    const traceFirst = writePickle({ device_traces: device_traces ?? null, segments: segments ?? null });
    const loader = new SnapshotLoader({ totalBytes: traceFirst.length });
    let answers = 0;
    for (let at = 0; at < traceFirst.length; at += 1024) {
      loader.push(traceFirst.subarray(at, at + 1024));
      if (loader.earlySegments() !== undefined) answers += 1;
    }
    expect(answers).toBe(0);
    expect(loader.finish()).toEqual(open(traceFirst));
    const bytes = writePickle({ segments: segments ?? null, device_traces: device_traces ?? null });
    const whole = new SnapshotLoader({ totalBytes: bytes.length });
    whole.push(bytes);
    expect(whole.earlySegments()).toBeUndefined();
  });

  describe('names the field that is wrong', () => {
    const snapshot = (segments: Py, traces: Py = [[]]): Uint8Array => writePickle({ segments, device_traces: traces });
    const segment = (extra: { readonly [key: string]: Py }): Py => ({
      device: 0,
      address: 4096,
      total_size: 2 * MiB,
      blocks: [],
      ...extra,
    });

    it.each([
      [snapshot([segment({ total_size: 'big' })]), 'segments[0].total_size: expected a non-negative int, found a str'],
      [
        snapshot([segment({ blocks: [{ address: 1, size: 512, state: 'freed' }] })]),
        'segments[0].blocks[0].state: "freed" is not a block state',
      ],
      [
        snapshot(
          [],
          [
            [
              { action: 'alloc', addr: 1, size: 2, stream: 0 },
              { action: 'teleport', addr: 1, size: 2 },
            ],
          ],
        ),
        'device_traces[0][1].action: "teleport" is not a trace action',
      ],
      [snapshot([], [[{ action: 'alloc', size: 2 }]]), 'device_traces[0][0].addr: expected an int, found nothing'],
      [snapshot([segment({ frames: 'not a list' })]), 'segments[0].frames: expected a list of frames, found a str'],
      [snapshot([segment({ total_size: 2n ** 60n })]), 'segments[0].total_size: expected a size below 2^53 bytes, found an int'],
      [snapshot([segment({ total_size: 2 ** 50 })]), 'segments[0].total_size: 1125899906842624 bytes is more than 64 TiB'],
      [snapshot(Array.from({ length: 300 }, () => segment({ total_size: 2 ** 45 }))), 'segments: the segments add up to more than 4 PiB'],
      [writePickle([1, 2, 3]), 'not a memory snapshot: the pickle holds a list'],
      [writePickle({ model: 'resnet' }), 'no "segments" or "device_traces" (its keys: model)'],
      [writePickle([{ address: 0 }]), 'not a memory snapshot: the pickle holds a list, expected a dict'],
    ])('%#', (bytes, message) => {
      expect(openError(bytes)).toContain(message);
    });
  });

  it('a pickled memory_snapshot(): the list of segments alone opens as a snapshot without a trace', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 300, devices: 2 });
    const whole = open(writePickle(fixture.data));
    const segments = (fixture.data as { segments: Py[] }).segments;
    const listed = open(writePickle(segments));
    expect(listed.segments).toEqual(whole.segments);
    expect(listed.segments.length).toBeGreaterThan(0);
    expect(listed.deviceTraces).toEqual([]);
    expect(listed.formatEvidence).toContain('memory_snapshot()');
    expect(snapshotStats(listed, MODEL).devices.map((d) => d.reservedBytes)).toEqual(
      snapshotStats(whole, MODEL).devices.map((d) => d.reservedBytes),
    );
    expect(open(writePickle([])).segments).toEqual([]);
  });

  it('a damaged stack frame is named when the stack is read (stacks are checked on use, not at load)', () => {
    const snapshot = open(
      writePickle({
        segments: [
          {
            device: 0,
            address: 0,
            total_size: 2 * MiB,
            blocks: [],
            frames: [
              { filename: 'a.py', line: 1, name: 'f' },
              { filename: 'a.py', name: 'g' },
            ],
          },
        ],
        device_traces: [],
      }),
    );
    const stack = snapshot.segments[0]?.frames ?? [];
    expect(() => framesOf(stack)).toThrow('stack frame 1: expected a frame {filename: str, line: int, name: str}, missing line');
    expect(framesOf(stack.slice(0, 1))).toEqual([{ filename: 'a.py', line: 1, name: 'f' }]);
  });

  it('host_segments and host_traces (pinned host memory) when present; other top-level keys are listed as skipped', () => {
    const host = { device: 0, address: 0x7f00_0000_0000, total_size: 4 * MiB, allocated_size: MiB, active_size: MiB, blocks: [] };
    const snapshot = open(
      writePickle({
        segments: [],
        device_traces: [],
        host_segments: [host],
        host_traces: [[{ action: 'segment_alloc', addr: 0x7f00_0000_0000, size: 4 * MiB, stream: 0, time_us: 5 }]],
        external_annotations: [],
      }),
    );
    expect(snapshot.hostSegments?.map((s) => [s.address, s.totalSize, s.allocatedSize])).toEqual([[0x7f00_0000_0000n, 4 * MiB, MiB]]);
    expect(snapshot.hostTraces?.map((e) => [e.action, e.size, e.timeUs])).toEqual([['segment_alloc', 4 * MiB, 5]]);
    expect(snapshot.otherKeys).toEqual(['external_annotations']);
    expect(snapshotStats(snapshot, MODEL).devices).toEqual([]);
  });

  it("a host segment's device is the CPU's or absent; a device segment's must be an index", () => {
    const host = (device: number | string | undefined): Record<string, Py> => ({
      address: 0x7f00_0000_0000,
      total_size: MiB,
      blocks: [],
      ...(device === undefined ? {} : { device }),
    });
    const read = (device: number | undefined) =>
      open(writePickle({ segments: [], device_traces: [], host_segments: [host(device)] })).hostSegments?.[0]?.device;
    expect(read(-1)).toBe(-1);
    expect(read(undefined)).toBe(-1);
    expect(read(3)).toBe(3);
    expect(openError(writePickle({ segments: [], device_traces: [], host_segments: [host('cpu')] }))).toContain(
      'host_segments[0].device: expected an int, found a str',
    );
    expect(openError(writePickle({ segments: [{ ...host(-1), device: -1 }], device_traces: [] }))).toContain(
      'segments[0].device: expected a device index',
    );
  });

  it('truncated and hostile snapshot files come back as a message, not an exception', () => {
    const bytes = writePickle(makeSnapshot({ flavour: 'torch_npu', events: 100, devices: 1 }).data);
    expect(openError(bytes.subarray(0, bytes.length - 7))).toMatch(/^truncated at byte \d+/);
    // A snapshot-looking file whose frames call os.system through REDUCE.
    const hostile = new Uint8Array([0x80, 2, 0x63, ...new TextEncoder().encode('os\nsystem\n'), 0x4e, 0x85, 0x52, 0x2e]);
    expect(openError(hostile)).toContain('GLOBAL (0x63) is refused');
    expect(openError(new TextEncoder().encode('hello'), 'notes.txt')).toContain('not a file PageLens reads');
  });
});

describe('modeled pages of segments (torch_npu NPUCachingAllocator)', () => {
  const segment = (totalSize: number, extra: Partial<Parameters<typeof segmentPages>[0]> = {}) => ({
    device: 0,
    address: 0n,
    totalSize,
    allocatedSize: 0,
    activeSize: 0,
    requestedSize: 0,
    stream: 0n,
    segmentType: totalSize > 2 * MiB ? ('large' as const) : ('small' as const),
    poolId: undefined,
    isExpandable: false,
    frames: [],
    blocks: [],
    ...extra,
  });

  it.each([
    // [total_size, page_size:1g, expandable, call, pageClass, pages, waste]
    [2 * MiB, false, false, 'aclrtMallocAlign32', 'huge', 1, 0], // DM-3: Align32 adds no pad, DM-4: > 1 MiB → huge
    [20 * MiB, false, false, 'aclrtMallocAlign32', 'huge', 10, 0],
    [MiB, false, false, 'aclrtMallocAlign32', 'normal', 256, 0], // DM-4: ≤ 1 MiB after Align32's rounding → normal pages
    [MiB + 100, false, false, 'aclrtMallocAlign32', 'huge', 1, MiB - 100],
    [22 * MiB, true, false, 'aclrtMallocAlign32', 'giant', 1, GiB - 22 * MiB], // DM-7: HUGE1G_ONLY for the large pool
    [2 * MiB, true, false, 'aclrtMallocAlign32', 'huge', 1, 0], // small pool stays HUGE_FIRST
    [40 * MiB, false, true, 'aclrtMallocPhysical', 'huge', 20, 0], // ACL_HBM_MEM_HUGE handles
    [2 * GiB, true, true, 'aclrtMallocPhysical', 'giant', 2, 0], // ACL_HBM_MEM_HUGE1G handles
  ] as const)(
    'DM-3/DM-4/DM-7: %i bytes, 1g %s, expandable %s → %s, %s pages × %i',
    (size, oneG, expandable, call, pageClass, pages, waste) => {
      const plan = segmentPages(segment(size, { isExpandable: expandable }), { profile: ASCEND_910B2, pageSize1g: oneG });
      expect(plan).toMatchObject({ call, pageClass, pages, wasteBytes: waste });
    },
  );

  it('DM-7: with page_size:1g on a profile without 1 GiB pages, segments take 2 MiB pages', () => {
    const plan = segmentPages(segment(22 * MiB), { profile: ASCEND_310P3, pageSize1g: true });
    expect(plan).toMatchObject({ policy: 'ACL_MEM_MALLOC_HUGE_FIRST', pageClass: 'huge', pages: 11 });
  });

  it('stats pages: per class, waste and PTEs, computed independently from the data', () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 2000, devices: 1 });
    const snapshot = open(writePickle(fixture.data));
    const sizes = list(fixture.data.segments).map((s) => Number(field(s, 'total_size')));
    const twoMiB = snapshotStats(snapshot, MODEL).pages.devices[0];
    // Every segment is a multiple of 2 MiB: 910B2 HUGE_FIRST takes exactly that many huge pages, no waste.
    const hugePages = sizes.reduce((sum, size) => sum + size / (2 * MiB), 0);
    expect(twoMiB?.byClass.huge.pages).toBe(hugePages);
    expect(twoMiB?.byClass.normal.pages).toBe(0);
    expect(twoMiB?.wasteBytes).toBe(0);
    expect(twoMiB?.ptes).toBe(hugePages);
    const oneG = snapshotStats(snapshot, { profile: ASCEND_910B2, pageSize1g: true }).pages.devices[0];
    const large = sizes.filter((size) => size > 2 * MiB);
    const giantPages = large.reduce((sum, size) => sum + Math.ceil(size / GiB), 0);
    expect(oneG?.byClass.giant.pages).toBe(giantPages);
    expect(oneG?.byClass.huge.pages).toBe(sizes.length - large.length);
    expect(oneG?.wasteBytes).toBe(giantPages * GiB - large.reduce((a, b) => a + b, 0));
    expect(oneG?.ptes).toBeLessThan(twoMiB?.ptes ?? 0);
  });

  it('pool ids as tuples read as text', () => {
    const snapshot = open(
      writePickle({
        segments: [{ device: 0, address: 0, total_size: 2 * MiB, segment_pool_id: tuple(1, 2), blocks: [] }],
        device_traces: [],
      }),
    );
    expect(snapshot.segments[0]?.poolId).toBe('1,2');
    expect(snapshot.format).toBe('unknown');
  });
});
