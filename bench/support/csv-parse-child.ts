/**
 * One measured read of a memscope_dump CSV in a process of its own (bench/suites/formats-csv.ts
 * forks it with --expose-gc --trace-gc), so each run starts from an empty heap and the kernel's
 * peak RSS is that run's alone. argv: `now` or `baseline`, `convert` or `job`, the CSV's path, and
 * the directory holding the baseline commit's packages/core/src.
 *
 * Both ways stream the file in 4 MiB chunks through their CsvLoader, as the import worker reads a File.
 * - now: each row goes into the model as it completes (memscope-session.ts MemScopeConverter).
 * - baseline: the earlier commit's reader keeps every row as an object, then memScopeToSnapshot
 *   converts them all at once.
 * - convert: the file to the dump as a snapshot (what the worker holds before importSnapshot).
 * - job: then importSnapshot (today's, for both), as the worker does next.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ASCEND_910B2, CsvLoader, importSnapshot, type MemorySnapshot } from '../../packages/core/src/index.ts';
import type { ChildReport } from './csv-report.ts';
import { fileChunks } from './file-chunks.ts';

const [variant, phase, path, baselineDir] = process.argv.slice(2);

/** What a loader's finish gives for a dump, in either commit: only what this child reads of it. */
interface Loader {
  push(chunk: Uint8Array): void;
  finish(): { kind: string };
}

/** The baseline commit's modules, of the shapes this child calls. */
interface Baseline {
  readonly CsvLoader: new (name: string) => Loader;
  readonly memScopeToSnapshot: (dump: unknown) => { snapshot: MemorySnapshot };
}

function streamed<F extends { kind: string }>(loader: { push(chunk: Uint8Array): void; finish(): F }, sample: () => void): F {
  fileChunks(path ?? '', (chunk) => {
    loader.push(chunk);
    sample();
  });
  const file = loader.finish();
  if (file.kind !== 'memscope_dump') throw new Error(`read as ${file.kind}`);
  return file;
}

async function main(): Promise<void> {
  const gc = Reflect.get(globalThis, 'gc');
  if (typeof gc !== 'function') throw new Error('run with --expose-gc');
  const collect = (): void => void Reflect.apply(gc, undefined, []);
  // The earlier commit's modules are loaded before the measurement, as the current ones are.
  const baseline =
    variant === 'baseline'
      ? ({
          ...(await import(pathToFileURL(join(baselineDir ?? '', 'packages/core/src/formats/open-file.ts')).href)),
          ...(await import(pathToFileURL(join(baselineDir ?? '', 'packages/core/src/formats/memscope-session.ts')).href)),
        } as Baseline)
      : undefined;
  collect();
  const memory = (): number => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const baseHeap = process.memoryUsage().heapUsed;
  const baseBuffers = process.memoryUsage().arrayBuffers;
  const base = baseHeap + baseBuffers;
  const rssBefore = process.memoryUsage().rss;
  let sampledPeakHeap = base;
  const sample = (): void => {
    sampledPeakHeap = Math.max(sampledPeakHeap, memory());
  };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const name = 'memscope_dump_bench.csv';
  let snapshot: MemorySnapshot;
  let rows: number;
  let made: unknown;
  if (baseline === undefined) {
    const dump = streamed(new CsvLoader(name), sample);
    if (dump.kind !== 'memscope_dump') throw new Error(`read as ${dump.kind}`);
    ({ snapshot, rows } = dump);
    made = dump;
  } else {
    const dump = streamed(new baseline.CsvLoader(name), sample);
    rows = (dump as unknown as { events: unknown[] }).events.length;
    const converted = baseline.memScopeToSnapshot(dump);
    snapshot = converted.snapshot;
    // The worker held the rows until the conversion's reply: so does this run.
    made = { dump, converted };
  }
  sample();
  if (phase === 'job') {
    const session = importSnapshot(snapshot, { profile: ASCEND_910B2, pageSize1g: false, name });
    made = { made, session };
    sample();
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  collect();
  const retainedHeap = memory() - base;
  const report: ChildReport = {
    rows,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    baseHeap,
    baseBuffers,
    sampledPeakHeap: sampledPeakHeap - base,
    rssBefore,
    maxRss: process.resourceUsage().maxRSS * 1024,
    retainedHeap,
  };
  // Read after the measurement, so what the run made is alive through it.
  if (made === undefined) throw new Error('nothing was read');
  process.send?.(report);
}

main().catch((error: unknown) => {
  process.stderr.write(`csv-parse-child: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
