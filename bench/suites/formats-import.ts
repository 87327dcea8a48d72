import { availableParallelism, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ASCEND_910B2, importSnapshot, type MemorySnapshot, SnapshotLoader } from '@pagelens/core';
import { writePickleChunks } from '../../packages/core/test/formats/pickle-writer.ts';
import { makeSnapshot } from '../../packages/core/test/formats/snapshot-fixtures.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';

/**
 * A generated 100,000-entry torch_npu snapshot (56-frame stacks, two devices, the second with
 * expandable segments) parsed from memory in 4 MiB chunks and then turned into a recorded session
 * of the model (importSnapshot: events reduced into a HostState, blocks indexed). Measures the
 * import step on its own, beside the parse it follows, and the heap the session holds.
 */
const EVENTS = 100_000;
const RUNS = 3;
const CHUNK = 4 * 1024 * 1024;
const MB = 1e6;

setFlagsFromString('--expose-gc');
const collect: () => void = runInNewContext('gc');
/** What a run made, reachable from the module while its heap is measured. */
const KEPT: unknown[] = [];

function parse(chunks: readonly Uint8Array[], total: number): MemorySnapshot {
  const loader = new SnapshotLoader({ totalBytes: total });
  for (const chunk of chunks) {
    for (let offset = 0; offset < chunk.length; offset += CHUNK) loader.push(chunk.subarray(offset, offset + CHUNK));
  }
  return loader.finish();
}

export const formatsImportSuite: BenchSuite = {
  name: 'formats-import',
  async run(): Promise<BenchResult[]> {
    const fixture = makeSnapshot({
      flavour: 'torch_npu',
      events: EVENTS / 2,
      devices: 2,
      expandableDevice: 1,
      framePool: 20_000,
      stackDepth: 56,
      liveTarget: 2000,
    });
    const chunks = writePickleChunks(fixture.data);
    const bytes = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const load = loadavg()[0]?.toFixed(1) ?? '?';
    let best = { parse: Number.POSITIVE_INFINITY, import: Number.POSITIVE_INFINITY };
    let events = 0;
    let entries = 0;
    let held = 0;
    for (let run = 0; run < RUNS; run += 1) {
      collect();
      const before = process.memoryUsage().heapUsed;
      const started = performance.now();
      const snapshot = parse(chunks, bytes);
      const parsed = performance.now();
      const session = importSnapshot(snapshot, { profile: ASCEND_910B2, pageSize1g: false, name: 'bench.pickle' });
      const imported = performance.now();
      entries = snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0);
      events = session.events.length;
      if (session.inconsistent !== 0 || session.finalMismatch !== 0) throw new Error('the generated snapshot imported inconsistently');
      // Held in a variable that outlives the measurement, so the collector cannot drop them early.
      KEPT.push(snapshot, session);
      collect();
      // The first run's: later runs start with the previous run's objects still in the loop's registers.
      if (run === 0) held = process.memoryUsage().heapUsed - before;
      KEPT.length = 0;
      best = { parse: Math.min(best.parse, (parsed - started) / 1000), import: Math.min(best.import, (imported - parsed) / 1000) };
      await new Promise((resolve) => setImmediate(resolve));
    }
    const what =
      `${entries.toLocaleString('en-US')}-entry torch_npu snapshot on 2 devices, ${(bytes / MB).toFixed(1)} MB, 56-frame stacks; ` +
      `${events.toLocaleString('en-US')} model events; best of ${RUNS}; 1-minute load average ${load} on ${availableParallelism()} cores`;
    return [
      {
        name: 'formats.snapshot-import.entries',
        value: entries / best.import,
        unit: 'entries/s',
        higherIsBetter: true,
        detail: `${what}: importSnapshot alone ${best.import.toFixed(2)} s after a parse of ${best.parse.toFixed(2)} s`,
      },
      {
        name: 'formats.snapshot-import.held-heap',
        value: held / MB,
        unit: 'MB',
        higherIsBetter: false,
        detail: `${what}: JS heap the parsed snapshot and its imported session hold together after a GC (first run)`,
      },
    ];
  },
};
