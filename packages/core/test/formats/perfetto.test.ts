import { describe, expect, it } from 'vitest';
import { framesOf } from '../../src/formats/frames.ts';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { chromeTraceJson, snapshotTraceJson, toChromeTrace } from '../../src/formats/perfetto.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import type { MemorySnapshot } from '../../src/formats/snapshot-types.ts';
import { StackInterner } from '../../src/formats/stack-table.ts';
import { TraceColumns } from '../../src/formats/trace-columns.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { writePickle } from './pickle-writer.ts';
import { entriesOf, makeSnapshot, withArrays } from './snapshot-fixtures.ts';

interface Parsed {
  readonly traceEvents: { name: string; ph: string; ts: number; pid: number; tid: number; args: Record<string, string | number> }[];
}

function snapshotOf(bytes: Uint8Array): MemorySnapshot {
  const result = openMemoryFile(bytes, 'x.pickle');
  if (!result.ok || result.file.kind !== 'snapshot') throw new Error('not opened');
  return result.file;
}

describe('Perfetto (Chrome trace-event JSON) export', () => {
  const fixture = makeSnapshot({ flavour: 'torch_npu', events: 2500, devices: 2, expandableDevice: 1, ringDrop: 300 });
  const snapshot = snapshotOf(writePickle(fixture.data));
  const model = { profile: ASCEND_910B2, pageSize1g: false };
  const parsed: Parsed = JSON.parse(JSON.stringify(toChromeTrace(snapshot, model)));

  it('parses, and its memory counters equal the allocator totals before and after every entry, though the ring buffer dropped the start', () => {
    for (const device of [0, 1]) {
      const samples = parsed.traceEvents.filter((e) => e.pid === device && e.ph === 'C' && e.name === 'memory');
      const truth = fixture.truth[device] ?? [];
      expect(samples).toHaveLength(truth.length + 1);
      expect(samples[0]?.args).toEqual(fixture.initial[device]);
      samples.slice(1).forEach((sample, i) => {
        expect(sample.args).toEqual(truth[i]);
      });
      const stats = snapshotStats(snapshot, model).devices.find((d) => d.device === device);
      expect(samples.at(-1)?.args).toEqual({
        allocated: stats?.allocatedBytes,
        active: stats?.activeBytes,
        reserved: stats?.reservedBytes,
      });
    }
  });

  it('written as it is made, the text is the same as of the whole trace, from columns or from entries', () => {
    expect(snapshot.deviceTraces[0]).toBeInstanceOf(TraceColumns);
    const whole = [...chromeTraceJson(toChromeTrace(snapshot, model))].join('');
    const streamed = snapshotTraceJson(snapshot, model);
    expect(streamed.events).toBe(0);
    const text = [...streamed.parts].join('');
    expect(text).toBe(whole);
    expect(streamed.events).toBe(parsed.traceEvents.length);
    // The same file with its traces as entry arrays (the whole-file reader's): the columns' stack ids change nothing.
    expect([...snapshotTraceJson(withArrays(snapshot), model).parts].join('')).toBe(text);
    expect(JSON.parse(text).traceEvents).toHaveLength(parsed.traceEvents.length);
  });

  it('a stack that is not a list of frames says so in its event, and the export goes on', () => {
    const columns = new TraceColumns(new StackInterner());
    const entry = {
      action: 'alloc',
      addr: 0x1000n,
      size: 512,
      stream: 0n,
      timeUs: undefined,
      poolId: undefined,
      deviceFree: undefined,
    } as const;
    columns.push({ ...entry, frames: [{ filename: 'x.py', name: 'no line' }] as never }, true);
    columns.push({ ...entry, addr: 0x2000n, frames: [{ filename: 'y.py', line: 3, name: 'step' }] }, true);
    const bad: MemorySnapshot = { ...snapshot, segments: [], deviceTraces: [columns] };
    const instants = JSON.parse([...snapshotTraceJson(bad, model).parts].join('')).traceEvents.filter((e: { ph: string }) => e.ph === 'i');
    expect(instants.map((e: { args: { stack: string } }) => e.args.stack)).toEqual([
      expect.stringMatching(/^\(unreadable: /),
      'step (y.py:3)',
    ]);
  });

  it('page counters (modeled) add up to the reserved bytes at each sample, and to the stats at the end', () => {
    for (const device of [0, 1]) {
      const memory = parsed.traceEvents.filter((e) => e.pid === device && e.ph === 'C' && e.name === 'memory');
      const pages = parsed.traceEvents.filter((e) => e.pid === device && e.ph === 'C' && e.name === 'pages (modeled)');
      expect(pages).toHaveLength(memory.length);
      pages.forEach((sample, i) => {
        // 910B2: every segment is 2 MiB-granular and HUGE_FIRST / ACL_HBM_MEM_HUGE: huge pages, no waste.
        expect(sample.args).toEqual({ normal: 0, huge: memory[i]?.args.reserved, giant: 0 });
        expect(sample.ts).toBe(memory[i]?.ts);
      });
    }
    const oneG = { profile: ASCEND_910B2, pageSize1g: true };
    const final = JSON.parse(JSON.stringify(toChromeTrace(snapshot, oneG))).traceEvents.filter(
      (e: Parsed['traceEvents'][number]) => e.pid === 0 && e.name === 'pages (modeled)',
    );
    const last = final.at(-1)?.args;
    const stats = snapshotStats(snapshot, oneG).pages.devices[0];
    expect(last).toEqual({ normal: stats?.byClass.normal.bytes, huge: stats?.byClass.huge.bytes, giant: stats?.byClass.giant.bytes });
    expect(stats?.byClass.giant.bytes).toBeGreaterThan(0);
  });

  it('one instant event per trace entry, with address, size, stream and stack; time is the entry index (torch_npu records none)', () => {
    const instants = parsed.traceEvents.filter((e) => e.pid === 0 && e.ph === 'i');
    const trace = entriesOf(snapshot.deviceTraces[0]);
    expect(instants).toHaveLength(trace.length);
    const firstAlloc = trace.findIndex((entry) => entry.action === 'alloc');
    const event = instants[firstAlloc];
    const entry = trace[firstAlloc];
    expect(event?.name).toBe('alloc');
    expect(event?.ts).toBe(firstAlloc);
    expect(event?.args.address).toBe(`0x${entry?.addr.toString(16)}`);
    expect(event?.args.size).toBe(entry?.size);
    const frames = framesOf(entry?.frames ?? []);
    expect(String(event?.args.stack).split('\n')).toHaveLength(frames.length);
    expect(frames.length).toBeGreaterThan(0);
    expect(String(event?.args.stack)).toContain(`${frames[0]?.name} (${frames[0]?.filename}:${frames[0]?.line})`);
    const oom = instants.find((e) => e.name === 'oom');
    expect(oom?.args.device_free).toBe(123 * 1024 * 1024);
    const names = parsed.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => e.args.name);
    expect(names).toEqual(['NPU 0 (torch_npu)', 'NPU 1 (torch_npu)']);
  });

  it('CUDA files keep their time_us as the timestamp', () => {
    const cuda = makeSnapshot({ flavour: 'pytorch_cuda', events: 300, devices: 1 });
    const trace = toChromeTrace(snapshotOf(writePickle(cuda.data)), model);
    const times = trace.traceEvents.filter((e) => e.ph === 'i').map((e) => e.ts);
    expect(times[0]).toBeGreaterThan(1_700_000_000_000_000);
    expect(times.every((t, i) => i === 0 || t > (times[i - 1] ?? 0))).toBe(true);
  });
});
