import { ASCEND_910B2, importSnapshot, openMemoryFile, packEvents, stackFrames, unpackEvents } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { writePickle } from '../../../../packages/core/test/formats/pickle-writer.ts';
import { makeSnapshot } from '../../../../packages/core/test/formats/snapshot-fixtures.ts';
import type { ImportReply, ImportRequest } from '../model/import/import-protocol.ts';
import { createAppStore } from '../store/app-store.ts';
import { cursorState } from '../store/replica-slice.ts';
import { FileImporter, type ImportWorker } from './file-importer.ts';

/** A worker the test answers by hand. */
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
  let loaded = 0;
  const importer = new FileImporter(
    store,
    () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    },
    () => {
      loaded += 1;
    },
  );
  return { store, workers, importer, loaded: () => loaded };
}

/** What the worker answers for a small generated torch_npu file (the same core calls it makes). */
function doneReply(): Extract<ImportReply, { type: 'done' }> {
  const fixture = makeSnapshot({ flavour: 'torch_npu', events: 300, seed: 2, devices: 1, liveTarget: 10 });
  const opened = openMemoryFile(writePickle(fixture.data), 'job.pickle');
  if (!opened.ok || opened.file.kind !== 'snapshot') throw new Error('fixture did not open');
  const session = importSnapshot(opened.file, { profile: ASCEND_910B2, pageSize1g: false, name: 'job.pickle' });
  return {
    type: 'done',
    facts: {
      name: 'job.pickle',
      bytes: 1,
      format: session.format,
      formatEvidence: session.formatEvidence,
      profile: ASCEND_910B2.name,
      pageSize1g: false,
      timeBasis: session.timeBasis,
      traceEntries: opened.file.deviceTraces[0]?.length ?? 0,
      segments: opened.file.segments.length,
      inconsistent: session.inconsistent,
      finalMismatch: session.finalMismatch,
      devices: 1,
    },
    initial: session.initial,
    events: packEvents(session.events).packed,
    blocks: session.blocks.parts().parts,
    stacks: session.stacks,
  };
}

describe('FileImporter', () => {
  it('shows progress, and Cancel ends the worker so nothing it says later reaches the page', () => {
    const { store, workers, importer } = setup();
    importer.open(new File([new Uint8Array(10)], 'big.pickle'));
    const worker = workers[0];
    const request = worker?.requests[0];
    expect(request !== undefined && 'file' in request ? request.file.name : undefined).toBe('big.pickle');
    worker?.reply({ type: 'progress', bytesRead: 4, total: 10 });
    expect(store.getState().importing).toEqual({ name: 'big.pickle', bytesRead: 4, total: 10 });
    importer.cancel();
    expect(worker?.terminated).toBe(true);
    expect(store.getState().importing).toBeUndefined();
    worker?.reply(doneReply());
    expect(store.getState().imported).toBeUndefined();
    expect(store.getState().timeline).toBeUndefined();
  });

  it("keeps the reader's message and where it broke", () => {
    const { store, workers, importer } = setup();
    importer.open(new File([new Uint8Array(10)], 'cut.pickle'));
    workers[0]?.reply({ type: 'error', message: 'truncated at byte 10: BINUNICODE at byte 4 needs 20 bytes, 6 remain', at: 10 });
    expect(store.getState().importProblem).toEqual({
      name: 'cut.pickle',
      kind: 'format',
      message: 'truncated at byte 10: BINUNICODE at byte 4 needs 20 bytes, 6 remain',
      at: 10,
    });
    expect(store.getState().importing).toBeUndefined();
    expect(workers[0]?.terminated).toBe(true);
  });

  it('loads the session read-only, stops the agent link, and time travel reaches the middle of the file', () => {
    const { store, workers, importer, loaded } = setup();
    // A selection of the live session names an id that means something else (or nothing) in the file.
    store.getState().select({ kind: 'allocation', id: 3 });
    importer.open(new File([new Uint8Array(10)], 'job.pickle'));
    const reply = doneReply();
    workers[0]?.reply(reply);
    expect(loaded()).toBe(1);
    expect(store.getState().selection).toBeUndefined();
    const state = store.getState();
    expect(state.imported?.format).toBe('torch_npu');
    expect(state.session?.role).toBe('viewer');
    expect(state.session?.functions.size).toBe(0);
    expect(state.session?.host.provenance).toBe('modeled');
    const events = unpackEvents(reply.events);
    const last = events[events.length - 1]?.seq ?? 0;
    expect(state.timeline?.lastSeq).toBe(last);
    // At the first segment's alloc one segment is live; at the end, every segment of the file.
    const firstAlloc = events.find((event) => event.kind === 'alloc')?.seq ?? 0;
    state.setCursor(firstAlloc);
    expect(cursorState(store.getState())?.allocations.size).toBe(1);
    state.setCursor('live');
    expect(cursorState(store.getState())?.allocations.size).toBe(reply.facts.segments);
    expect(store.getState().importedBlocks?.count).toBe(reply.blocks.length);
    // Each block's stack comes back from the interned table: the generator's stacks have 4 frames.
    const stacks = store.getState().importedStacks;
    const block = store.getState().importedBlocks?.all(0)[0];
    if (stacks === undefined || block === undefined) throw new Error('no blocks');
    const frames = stackFrames(stacks, block.stack);
    expect(frames).toHaveLength(4);
    expect(frames[0]?.filename).toMatch(/^\/home\/user\/project\/model\/layers\//);
  });

  it('segments first: the preview is shown while reading goes on; done replaces it, Cancel keeps it and says so', () => {
    const { store, workers, importer, loaded } = setup();
    importer.open(new File([new Uint8Array(10)], 'job.pickle'));
    const done = doneReply();
    const preview: ImportReply = { ...done, type: 'preview', facts: { ...done.facts, segmentsOnly: true, traceEntries: 0 } };
    workers[0]?.reply({ type: 'progress', bytesRead: 2, total: 10 });
    workers[0]?.reply(preview);
    expect(loaded()).toBe(1);
    expect(workers[0]?.terminated).toBe(false);
    expect(store.getState().imported?.segmentsOnly).toBe(true);
    expect(store.getState().importing).toEqual({ name: 'job.pickle', bytesRead: 2, total: 10 });
    workers[0]?.reply({ type: 'progress', bytesRead: 6, total: 10 });
    expect(store.getState().importing?.bytesRead).toBe(6);
    workers[0]?.reply(done);
    expect(store.getState().imported?.segmentsOnly).toBeUndefined();
    expect(store.getState().importing).toBeUndefined();
    expect(workers[0]?.terminated).toBe(true);

    importer.open(new File([new Uint8Array(10)], 'again.pickle'));
    workers[1]?.reply(preview);
    importer.cancel();
    expect(store.getState().imported?.segmentsOnly).toBe(true);
    expect(store.getState().importing).toBeUndefined();
    workers[1]?.reply(done);
    expect(store.getState().imported?.segmentsOnly).toBe(true);
  });

  it('remodel reads the file on show again with the new options, the others kept; with no file shown it does nothing', () => {
    const { workers, importer } = setup();
    importer.remodel({ pageSize1g: true });
    expect(workers).toHaveLength(0);
    const file = new File([new Uint8Array(8)], 'job.pickle');
    importer.openSource({ file }, { name: 'job.pickle', size: 8 }, { profile: 'Ascend910B4' });
    workers[0]?.reply(doneReply());
    importer.remodel({ pageSize1g: true });
    expect(workers[0]?.terminated).toBe(true);
    expect(workers[1]?.requests).toEqual([{ file, profile: 'Ascend910B4', pageSize1g: true }]);
    // Once the file is modeled again, the next change builds on those options.
    workers[1]?.reply(doneReply());
    importer.remodel({ profile: 'Ascend310P3' });
    expect(workers[2]?.requests).toEqual([{ file, profile: 'Ascend310P3', pageSize1g: true }]);
  });
});
