/**
 * One measured read of a memscope_dump CSV in a process of its own (bench/suites/formats-csv.ts
 * forks it with --expose-gc --trace-gc), so each run starts from an empty heap and the kernel's
 * peak RSS is that run's alone. argv: `streamed` or `whole`, `parse` or `job`, the CSV's path, and
 * for `whole` the directory holding the earlier commit's packages/core/src.
 *
 * - streamed: the file in 4 MiB chunks through CsvLoader, as the import worker now reads a File.
 * - whole: the earlier worker's way: every chunk collected, joined into one array, then
 *   openMemoryFile of that commit (decode to one string, parse it).
 * - job: after the parse, what the worker does next (memScopeToSnapshot, importSnapshot), with
 *   what the old worker kept (the joined bytes) still reachable.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  ASCEND_910B2,
  CsvLoader,
  importSnapshot,
  type MemScopeDump,
  memScopeToSnapshot,
  type openMemoryFile,
} from '../../packages/core/src/index.ts';
import type { ChildReport } from './csv-report.ts';

const CHUNK = 4 * 1024 * 1024;
const [variant, phase, path, baselineDir] = process.argv.slice(2);

function chunks(each: (chunk: Uint8Array) => void): void {
  const fd = openSync(path ?? '', 'r');
  try {
    for (let position = 0; ; ) {
      // A new array per chunk, as a File stream hands out.
      const buffer = new Uint8Array(CHUNK);
      const read = readSync(fd, buffer, 0, CHUNK, position);
      if (read === 0) break;
      each(read === CHUNK ? buffer : buffer.subarray(0, read));
      position += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** The earlier commit's openMemoryFile, of the same signature (formats-fixture.ts loads old loaders the same way). */
type OpenMemoryFile = typeof openMemoryFile;

function readWhole(open: OpenMemoryFile): { dump: MemScopeDump; kept: unknown } {
  const parts: Uint8Array[] = [];
  let length = 0;
  chunks((chunk) => {
    parts.push(chunk);
    length += chunk.length;
  });
  const all = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  const result = open(all, 'memscope_dump_bench.csv');
  if (!result.ok) throw new Error(result.message);
  if (result.file.kind !== 'memscope_dump') throw new Error(`read as ${result.file.kind}`);
  return { dump: result.file, kept: all };
}

function streamed(sample: () => void): MemScopeDump {
  const loader = new CsvLoader('memscope_dump_bench.csv');
  chunks((chunk) => {
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
  const oldModule =
    variant === 'whole'
      ? ((await import(pathToFileURL(join(baselineDir ?? '', 'packages/core/src/formats/open-file.ts')).href)) as {
          openMemoryFile: OpenMemoryFile;
        })
      : undefined;
  collect();
  const baseHeap = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  let sampledPeakHeap = baseHeap;
  const sample = (): void => {
    sampledPeakHeap = Math.max(sampledPeakHeap, process.memoryUsage().heapUsed);
  };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const { dump, kept } = oldModule === undefined ? { dump: streamed(sample), kept: undefined } : readWhole(oldModule.openMemoryFile);
  let made: unknown = dump;
  if (phase === 'job') {
    const converted = memScopeToSnapshot(dump);
    const session = importSnapshot(converted.snapshot, { profile: ASCEND_910B2, pageSize1g: false, name: 'memscope_dump_bench.csv' });
    made = { converted, session };
    sample();
  }
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  collect();
  const retainedHeap = process.memoryUsage().heapUsed - baseHeap;
  const report: ChildReport = {
    rows: dump.events.length,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    baseHeap,
    sampledPeakHeap: sampledPeakHeap - baseHeap,
    rssBefore,
    maxRss: process.resourceUsage().maxRSS * 1024,
    retainedHeap,
  };
  // Read after the measurement, so what the run made is alive through it.
  if (made === undefined || (kept === undefined && oldModule !== undefined)) throw new Error('nothing was read');
  process.send?.(report);
}

main().catch((error: unknown) => {
  process.stderr.write(`csv-parse-child: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
