import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import * as core from '@pagelens/core';
import { ASCEND_910B2, type ImportOptions, type MemorySnapshot } from '@pagelens/core';
import { writePickleChunks } from '../../packages/core/test/formats/pickle-writer.ts';
import { makeSnapshot } from '../../packages/core/test/formats/snapshot-fixtures.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';
import { baselineCore } from './formats-fixture.ts';

/**
 * A generated 100,000-entry torch_npu snapshot (56-frame stacks, two devices, the second with
 * expandable segments) parsed from memory in 4 MiB chunks and then turned into a recorded session
 * of the model (importSnapshot: events reduced into a HostState, blocks indexed). Measures the
 * import step on its own, beside the parse it follows, and the heap the session holds; the same
 * for the commit before the blocks went into columns (IMPORT_BASELINE), alternating in one run.
 */

/** The commit before blocks and events went into columns on the import's side; PAGELENS_BENCH_IMPORT_BASELINE names another. */
const IMPORT_BASELINE = process.env.PAGELENS_BENCH_IMPORT_BASELINE ?? 'a20d041978eb807a8d767bc11b66e577eeb5c715';
const EVENTS = 100_000;
const RUNS = 3;
const CHUNK = 4 * 1024 * 1024;
const MB = 1e6;

setFlagsFromString('--expose-gc');
const collect: () => void = runInNewContext('gc');
/** What a run made, reachable from the module while its heap is measured. */
const KEPT: unknown[] = [];

/** The JS heap in use plus the array buffers outside it (the columns of traces, calls and blocks). */
function heldBytes(): number {
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** The reader and the import of one commit. */
interface Importer {
  readonly label: string;
  readonly SnapshotLoader: new (options: { totalBytes?: number }) => { push(chunk: Uint8Array): void; finish(): MemorySnapshot };
  readonly importSnapshot: (snapshot: MemorySnapshot, options: ImportOptions) => { inconsistent: number; finalMismatch: number };
}

function parse(importer: Importer, chunks: readonly Uint8Array[], total: number): MemorySnapshot {
  const loader = new importer.SnapshotLoader({ totalBytes: total });
  for (const chunk of chunks) {
    for (let offset = 0; offset < chunk.length; offset += CHUNK) loader.push(chunk.subarray(offset, offset + CHUNK));
  }
  return loader.finish();
}

interface Run {
  parse: number;
  import: number;
  held: number;
}

/** One parse and import, timed, and what the snapshot and session hold after a GC. */
function once(importer: Importer, chunks: readonly Uint8Array[], bytes: number): Run {
  collect();
  const before = heldBytes();
  const started = performance.now();
  const snapshot = parse(importer, chunks, bytes);
  const parsed = performance.now();
  const session = importer.importSnapshot(snapshot, { profile: ASCEND_910B2, pageSize1g: false, name: 'bench.pickle' });
  const imported = performance.now();
  if (session.inconsistent !== 0 || session.finalMismatch !== 0)
    throw new Error(`${importer.label}: the generated snapshot imported inconsistently`);
  // Held in a variable that outlives the measurement, so the collector cannot drop them early.
  KEPT.push(snapshot, session);
  collect();
  const held = heldBytes() - before;
  KEPT.length = 0;
  return { parse: (parsed - started) / 1000, import: (imported - parsed) / 1000, held };
}

async function baseline(): Promise<Importer | { why: string }> {
  try {
    const src = join(baselineCore(IMPORT_BASELINE), 'packages/core/src');
    const open = (await import(pathToFileURL(join(src, 'formats/open-file.ts')).href)) as Pick<Importer, 'SnapshotLoader'>;
    const session = (await import(pathToFileURL(join(src, 'formats/snapshot-session.ts')).href)) as Pick<Importer, 'importSnapshot'>;
    return { label: IMPORT_BASELINE.slice(0, 7), SnapshotLoader: open.SnapshotLoader, importSnapshot: session.importSnapshot };
  } catch (error) {
    return {
      why: `no baseline (commit ${IMPORT_BASELINE.slice(0, 7)}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    };
  }
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
    const now: Importer = { label: 'now', SnapshotLoader: core.SnapshotLoader, importSnapshot: core.importSnapshot };
    const before = await baseline();
    const importers = 'why' in before ? [now] : [now, before];
    // Per importer: the best times of the runs, and the first run's held bytes (later runs start with the previous run's objects still in the loop's registers).
    const best = new Map<Importer, Run>();
    for (let run = 0; run < RUNS; run += 1)
      for (const importer of run % 2 === 0 ? importers : [...importers].reverse()) {
        const measured = once(importer, chunks, bytes);
        const kept = best.get(importer);
        best.set(
          importer,
          kept === undefined
            ? measured
            : { parse: Math.min(kept.parse, measured.parse), import: Math.min(kept.import, measured.import), held: kept.held },
        );
        await new Promise((resolve) => setImmediate(resolve));
      }
    const ours = best.get(now);
    if (ours === undefined) throw new Error('no run');
    const opened = core.openMemoryFile(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks), 'bench.pickle');
    if (!opened.ok || opened.file.kind !== 'snapshot') throw new Error('the generated snapshot did not open');
    const entries = opened.file.deviceTraces.reduce((sum, trace) => sum + trace.length, 0);
    const events = core.importSnapshot(opened.file, { profile: ASCEND_910B2, pageSize1g: false, name: 'bench.pickle' }).recorded.length;
    const other = 'why' in before ? undefined : best.get(before);
    const beside = (figure: (run: Run) => string): string =>
      other === undefined
        ? `; ${'why' in before ? before.why : ''}`
        : `; commit ${'why' in before ? '' : before.label} in the same run: ${figure(other)}`;
    const what =
      `${entries.toLocaleString('en-US')}-entry torch_npu snapshot on 2 devices, ${(bytes / MB).toFixed(1)} MB, 56-frame stacks; ` +
      `${events.toLocaleString('en-US')} model events; best of ${RUNS}, alternating with the commit before; 1-minute load average ${load} on ${availableParallelism()} cores`;
    return [
      {
        name: 'formats.snapshot-import.entries',
        value: entries / ours.import,
        unit: 'entries/s',
        higherIsBetter: true,
        detail:
          `${what}: importSnapshot alone ${ours.import.toFixed(2)} s after a parse of ${ours.parse.toFixed(2)} s` +
          beside((run) => `${Math.round(entries / run.import).toLocaleString('en-US')} entries/s (import ${run.import.toFixed(2)} s)`),
      },
      {
        name: 'formats.snapshot-import.held-heap',
        value: ours.held / MB,
        unit: 'MB',
        higherIsBetter: false,
        detail:
          `${what}: JS heap and array buffers (typed-array columns) the parsed snapshot and its imported session hold together after a GC (first run)` +
          beside((run) => `${(run.held / MB).toFixed(1)} MB`),
      },
    ];
  },
};
