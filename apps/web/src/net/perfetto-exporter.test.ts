import {
  aclrtMemMallocPolicy,
  BlockIndex,
  encodeSnapshot,
  heldBytes,
  type MemoryEvent,
  PERFETTO_IN_BROWSER_BYTES,
  packEvents,
  SimHost,
  SimRuntime,
  usedBytes,
} from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import type { ImportedFacts, ImportReply, ImportRequest } from '../model/import/import-protocol.ts';
import { createAppStore } from '../store/app-store.ts';
import { FileImporter, type ImportWorker } from './file-importer.ts';
import { PerfettoExporter, perfettoName } from './perfetto-exporter.ts';

class FakeWorker implements ImportWorker {
  onmessage: ((event: MessageEvent<ImportReply>) => void) | null = null;
  onerror: ((event: ErrorEvent) => void) | null = null;
  readonly requests: ImportRequest[] = [];
  terminated = false;
  postMessage(message: ImportRequest): void {
    this.requests.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(data: ImportReply): void {
    this.onmessage?.({ data } as MessageEvent<ImportReply>);
  }
}

function setup() {
  const store = createAppStore();
  const workers: FakeWorker[] = [];
  const makeWorker = () => {
    const worker = new FakeWorker();
    workers.push(worker);
    return worker;
  };
  const importer = new FileImporter(store, makeWorker, () => undefined);
  const downloads: { json: Blob; name: string }[] = [];
  const exporter = new PerfettoExporter(store, makeWorker, importer, (json, name) => downloads.push({ json, name }));
  return { store, workers, importer, exporter, downloads };
}

interface Counter {
  readonly name: string;
  readonly ph: string;
  readonly pid: number;
  readonly args: Record<string, number>;
}

/** The facts of a small loaded file, and the worker's done reply for it (no events: the export reads the file again). */
function facts(name: string, profile = 'Ascend910B2', pageSize1g = false): ImportedFacts {
  return {
    name,
    bytes: 2,
    format: 'torch_npu',
    formatEvidence: '',
    profile,
    pageSize1g,
    timeBasis: 'entry order',
    traceEntries: 0,
    segments: 0,
    inconsistent: 0,
    finalMismatch: 0,
    devices: 1,
  };
}

function done(of: ImportedFacts): Extract<ImportReply, { type: 'done' }> {
  return {
    type: 'done',
    facts: of,
    initial: encodeSnapshot(new SimHost().state),
    events: packEvents([]).packed,
    blocks: new BlockIndex().parts().parts,
    stacks: { frames: [], starts: new Int32Array([0]), frameIds: [] },
  };
}

describe('Export to Perfetto', () => {
  it("a live session: its events, exported on the page; the last counters are the live state's totals", async () => {
    const { store, exporter, downloads } = setup();
    const host = new SimHost();
    const rt = new SimRuntime(host);
    await rt.aclInit({ configPath: null });
    await rt.aclrtSetDevice({ deviceId: 0 });
    store.getState().applySnapshot(encodeSnapshot(host.state), true);
    const events: MemoryEvent[] = [];
    host.subscribe((batch) => events.push(...batch));
    await rt.aclrtMalloc({ size: 5_000_000, policy: aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE_FIRST });
    await rt.aclrtMalloc({ size: 10_000, policy: aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_NORMAL_ONLY });
    store.getState().applyEvents(events);
    exporter.export();
    expect(downloads).toHaveLength(1);
    expect(downloads[0]?.name).toBe('pagelens-session-sim.perfetto.json');
    const trace = JSON.parse(await (downloads[0]?.json.text() ?? Promise.resolve('')));
    const memory = (trace.traceEvents as Counter[]).filter((e) => e.ph === 'C' && e.name === 'memory (model)');
    const live = store.getState().timeline?.live;
    if (live === undefined) throw new Error('no timeline');
    const device = live.devices[0];
    expect(memory.at(-1)?.args).toEqual({ allocated: heldBytes(live, 0), reserved: device === undefined ? -1 : usedBytes(device) });
    expect(memory.at(-1)?.args.allocated).toBe(5_010_000);
    expect(trace.traceEvents.filter((e: Counter) => e.ph === 'i').map((e: Counter) => e.name)).toEqual(['alloc', 'alloc']);
  });

  it('an imported file is read again in a worker for the export, and its JSON downloaded as NAME.perfetto.json', () => {
    const { store, workers, importer, exporter, downloads } = setup();
    const file = new File([new Uint8Array([0x80, 4])], 'job.pickle');
    importer.openSource({ file }, { name: 'job.pickle', size: 2 }, { profile: 'Ascend910B4', pageSize1g: true });
    // No export before the file is loaded: nothing to export yet, and no second worker.
    exporter.export();
    expect(workers).toHaveLength(1);
    // The importer learns the source once its worker said done.
    workers[0]?.reply(done(facts('job.pickle', 'Ascend910B4', true)));
    exporter.export();
    const worker = workers[1];
    expect(worker?.requests[0]).toMatchObject({ file, purpose: 'perfetto', profile: 'Ascend910B4', pageSize1g: true });
    worker?.reply({ type: 'progress', bytesRead: 1, total: 2 });
    expect(store.getState().exporting).toEqual({ name: 'job.pickle', bytesRead: 1, total: 2 });
    // A second click while it runs starts nothing.
    exporter.export();
    expect(workers).toHaveLength(2);
    const json = new Blob(['{"traceEvents":[]}']);
    worker?.reply({ type: 'perfetto', json, events: 0 });
    expect(downloads).toEqual([{ json, name: 'job.perfetto.json' }]);
    expect(store.getState().exporting).toBeUndefined();
    expect(worker?.terminated).toBe(true);
  });

  it("an export larger than a browser tab's Perfetto holds is downloaded and the page says to open it natively; the next export clears it", () => {
    const { store, workers, importer, exporter, downloads } = setup();
    importer.open(new File([new Uint8Array([0x80])], 'big.pickle'));
    workers[0]?.reply(done(facts('big.pickle')));
    exporter.export();
    // A Blob of its size is all the exporter reads of it.
    const json = { size: PERFETTO_IN_BROWSER_BYTES + 1 } as Blob;
    workers[1]?.reply({ type: 'perfetto', json, events: 10_000_000 });
    expect(downloads).toEqual([{ json, name: 'big.perfetto.json' }]);
    expect(store.getState().exportTooLarge).toEqual({ name: 'big.perfetto.json', bytes: PERFETTO_IN_BROWSER_BYTES + 1 });
    exporter.export();
    expect(store.getState().exportTooLarge).toBeUndefined();
    workers[2]?.reply({ type: 'perfetto', json: { size: PERFETTO_IN_BROWSER_BYTES } as Blob, events: 1 });
    expect(store.getState().exportTooLarge).toBeUndefined();
    expect(downloads).toHaveLength(2);
  });

  it("a failed export keeps the reader's message; Cancel ends the worker", () => {
    const { store, workers, importer, exporter, downloads } = setup();
    importer.open(new File([new Uint8Array([0x80])], 'a.pickle'));
    workers[0]?.reply(done(facts('a.pickle')));
    exporter.export();
    workers[1]?.reply({ type: 'error', message: 'truncated at byte 1', at: 1 });
    expect(store.getState().exportProblem).toBe('truncated at byte 1');
    exporter.export();
    expect(store.getState().exportProblem).toBeUndefined();
    exporter.cancel();
    expect(workers[2]?.terminated).toBe(true);
    expect(store.getState().exporting).toBeUndefined();
    workers[2]?.reply({ type: 'perfetto', json: new Blob([]), events: 0 });
    expect(downloads).toHaveLength(0);
  });

  it('names: job.pickle → job.perfetto.json', () => {
    expect(perfettoName('job.pickle')).toBe('job.perfetto.json');
    expect(perfettoName('snap.PKL')).toBe('snap.perfetto.json');
    expect(perfettoName('.pickle')).toBe('pagelens.perfetto.json');
  });
});
