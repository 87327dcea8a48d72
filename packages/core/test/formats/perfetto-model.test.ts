import { describe, expect, it } from 'vitest';
import { aclrtMemMallocPolicy } from '../../src/acl/enums.ts';
import { openMemoryFile } from '../../src/formats/open-file.ts';
import { chromeTraceJson, toChromeTrace } from '../../src/formats/perfetto.ts';
import { modelToChromeTrace } from '../../src/formats/perfetto-model.ts';
import { importSnapshot } from '../../src/formats/snapshot-session.ts';
import { snapshotStats } from '../../src/formats/snapshot-stats.ts';
import type { MemoryEvent } from '../../src/model/events.ts';
import { usedBytes } from '../../src/model/pools.ts';
import { reduce } from '../../src/model/reduce.ts';
import { decodeSnapshot } from '../../src/model/snapshot.ts';
import { cloneHostState, type HostState } from '../../src/model/state.ts';
import { ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import type { Hex } from '../../src/units/hex.ts';
import { writePickle } from './pickle-writer.ts';
import { makeSnapshot } from './snapshot-fixtures.ts';

const MiB = 1024 * 1024;
const POLICY = aclrtMemMallocPolicy.byName;

interface Sample {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly ts: number;
  readonly args: Record<string, string | number>;
}

/** The export as a file would hold it: the JSON parts joined, then parsed. */
const parsed = (trace: Parameters<typeof chromeTraceJson>[0]): { traceEvents: Sample[]; metadata: Record<string, string> } =>
  JSON.parse([...chromeTraceJson(trace)].join(''));

/** A simulator session: normal, huge and VMM memory made and given back, on one device. */
async function simSession(): Promise<{ start: HostState; events: MemoryEvent[] }> {
  const host = new SimHost();
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const rt = new SimRuntime(host);
  await rt.aclInit({ configPath: null });
  await rt.aclrtSetDevice({ deviceId: 0 });
  const start = cloneHostState(host.state);
  events.length = 0;
  const NULL: Hex = '0x0';
  const small = (await rt.aclrtMalloc({ size: 100_000, policy: POLICY.ACL_MEM_MALLOC_NORMAL_ONLY })).devPtr ?? NULL;
  const big = (await rt.aclrtMalloc({ size: 3 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr ?? NULL;
  const prop = { handleType: 0, allocationType: 0, memAttr: 4, location: { type: 1, id: 0 }, reserve: 0 };
  const handle = (await rt.aclrtMallocPhysical({ size: 2 * MiB, prop, flags: 0 })).handle ?? NULL;
  const virPtr = (await rt.aclrtReserveMemAddress({ size: 4 * MiB, alignment: 0, expectPtr: '0x0', flags: 0 })).virPtr ?? NULL;
  await rt.aclrtMapMem({ virPtr, size: 2 * MiB, offset: 0, handle, flags: 0 });
  await rt.aclrtFree({ devPtr: small });
  await rt.aclrtUnmapMem({ virPtr });
  await rt.aclrtReleaseMemAddress({ virPtr });
  await rt.aclrtFreePhysical({ handle });
  await rt.aclrtFree({ devPtr: big });
  return { start, events };
}

/**
 * The reference: replays the events on its own copy and, after each, sums every held object and asks
 * the pools for the bytes in use; consecutive repeats are dropped, since the export writes changes.
 */
function expectedSamples(start: HostState, events: readonly MemoryEvent[], device: number) {
  const state = cloneHostState(start);
  const figures = (): { allocated: number; reserved: number } => {
    let allocated = 0;
    for (const a of state.allocations.values()) if (a.device === device) allocated += a.size;
    for (const m of state.physical.values()) if (m.device === device) allocated += m.size;
    const d = state.devices[device];
    if (d === undefined) throw new Error(`no device ${device}`);
    return { allocated, reserved: usedBytes(d) };
  };
  const samples = [figures()];
  for (const event of events) {
    reduce(state, event);
    const next = figures();
    const last = samples.at(-1);
    if (last?.allocated !== next.allocated || last.reserved !== next.reserved) samples.push(next);
  }
  return samples;
}

describe('Perfetto export of a model session', () => {
  it('a simulator session: the JSON parses and its counters equal the model totals after every change', async () => {
    const { start, events } = await simSession();
    const trace = parsed(modelToChromeTrace(start, events, 'a simulator session'));
    const memory = trace.traceEvents.filter((e) => e.ph === 'C' && e.name === 'memory (model)');
    const pages = trace.traceEvents.filter((e) => e.ph === 'C' && e.name === 'pages (model)');
    const expected = expectedSamples(start, events, 0);
    expect(memory.map((e) => e.args)).toEqual(expected);
    // 100,000 bytes on 4 KiB pages, then a 3 MiB allocation on two huge pages, then a 2 MiB handle: the counters saw each.
    expect(memory.map((e) => e.args.allocated)).toEqual([0, 100_000, 100_000 + 3 * MiB, 100_000 + 5 * MiB, 5 * MiB, 3 * MiB, 0]);
    expect(memory[1]?.args.reserved).toBe(Math.ceil(100_000 / 4096) * 4096);
    pages.forEach((sample, i) => {
      const { normal, huge, giant } = sample.args as { normal: number; huge: number; giant: number };
      expect(normal + huge + giant).toBe(memory[i]?.args.reserved);
      expect(sample.ts).toBe(memory[i]?.ts);
    });
    expect(pages[2]?.args).toEqual({ normal: 25 * 4096, huge: 4 * MiB, giant: 0 });
    const instants = trace.traceEvents.filter((e) => e.ph === 'i');
    expect(instants.map((e) => e.name)).toEqual(['alloc', 'alloc', 'physAlloc', 'reserve', 'map', 'free', 'physRelease', 'free']);
    const firstAlloc = events.find((e) => e.kind === 'alloc');
    expect(instants[0]?.args).toMatchObject({
      size: 100_000,
      fn: 'aclrtMalloc',
      address: `0x${firstAlloc?.kind === 'alloc' ? firstAlloc.addr.toString(16) : ''}`,
    });
    expect(instants[5]?.args).toEqual(instants[0]?.args);
  });

  it("an imported snapshot's model session: counters match the model after every change and end at the stats' pages", () => {
    const fixture = makeSnapshot({ flavour: 'torch_npu', events: 1500, devices: 2, expandableDevice: 1, ringDrop: 200 });
    const result = openMemoryFile(writePickle(fixture.data), 'job.pickle');
    if (!result.ok || result.file.kind !== 'snapshot') throw new Error('fixture did not open');
    const model = { profile: ASCEND_910B2, pageSize1g: false };
    const session = importSnapshot(result.file, { ...model, name: 'job.pickle' });
    const start = decodeSnapshot(session.initial);
    const trace = parsed(modelToChromeTrace(start, session.events, 'job.pickle'));
    const stats = snapshotStats(result.file, model);
    for (const device of [0, 1]) {
      const memory = trace.traceEvents.filter((e) => e.pid === device && e.name === 'memory (model)');
      expect(memory.map((e) => e.args)).toEqual(expectedSamples(start, session.events, device));
      const last = trace.traceEvents.filter((e) => e.pid === device && e.name === 'pages (model)').at(-1)?.args;
      expect(last?.huge).toBe(stats.pages.devices[device]?.byClass.huge.bytes);
      expect(memory.length).toBeGreaterThan(10);
    }
  });

  it('the JSON parts join into the same trace as one JSON.stringify', () => {
    const fixture = makeSnapshot({ flavour: 'pytorch_cuda', events: 1500, devices: 1 });
    const result = openMemoryFile(writePickle(fixture.data), 'cuda.pickle');
    if (!result.ok || result.file.kind !== 'snapshot') throw new Error('fixture did not open');
    const trace = toChromeTrace(result.file, { profile: ASCEND_910B2, pageSize1g: false });
    expect(parsed(trace)).toEqual(JSON.parse(JSON.stringify(trace)));
    expect(trace.traceEvents.length).toBeGreaterThan(4096);
  });
});
