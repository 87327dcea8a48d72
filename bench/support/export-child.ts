/**
 * One measured Perfetto export in a process of its own (bench/suites/formats-export.ts forks it),
 * so the kernel's peak RSS is that run's alone. argv: `now` or `baseline`, the input's path, the
 * output's path, and for `baseline` the directory holding the baseline commit's packages/core/src.
 *
 * - now: `pagelens export` itself (apps/agent runExport): the file streamed in, the JSON written as
 *   it is made (core fileTraceJson).
 * - baseline: the earlier commit's way: the file read by its loader, every trace event made into one
 *   array (toChromeTrace; an msMemScope dump first converted whole, memScopeToSnapshot), then written.
 */
import { closeSync, openSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runExport } from '../../apps/agent/src/cli/export.ts';
import { ASCEND_910B2 } from '../../packages/core/src/index.ts';
import { fileChunks } from './file-chunks.ts';

const [variant, input, output, baselineDir] = process.argv.slice(2);

export interface ExportReport {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly maxRss: number;
  readonly bytesWritten: number;
  readonly events: number;
}

/** The baseline commit's modules, of the shapes this child calls. */
interface Baseline {
  readonly SnapshotLoader: new (options: { totalBytes: number }) => { push(chunk: Uint8Array): void; finish(): unknown };
  readonly CsvLoader: new (name: string) => { push(chunk: Uint8Array): void; finish(): unknown };
  readonly memScopeToSnapshot: (dump: unknown) => { snapshot: unknown };
  readonly toChromeTrace: (snapshot: unknown, model: unknown) => { traceEvents: unknown[] };
  readonly chromeTraceJson: (trace: unknown) => Iterable<string>;
}

async function baselineExport(dir: string, path: string, out: string): Promise<number> {
  const src = join(dir, 'packages/core/src');
  const core = (await import(pathToFileURL(join(src, 'index.ts')).href)) as Baseline;
  const pickle = !path.endsWith('.csv');
  const loader = pickle ? new core.SnapshotLoader({ totalBytes: statSync(path).size }) : new core.CsvLoader(path);
  fileChunks(path, (chunk) => loader.push(chunk));
  const file = loader.finish();
  const snapshot = pickle ? file : core.memScopeToSnapshot(file).snapshot;
  const trace = core.toChromeTrace(snapshot, { profile: ASCEND_910B2, pageSize1g: false });
  const fd = openSync(out, 'w');
  try {
    for (const part of core.chromeTraceJson(trace)) writeSync(fd, part);
  } finally {
    closeSync(fd);
  }
  return trace.traceEvents.length;
}

async function main(): Promise<void> {
  if (input === undefined || output === undefined) throw new Error('usage: export-child now|baseline INPUT OUTPUT [BASELINE_DIR]');
  const started = performance.now();
  const cpu = process.cpuUsage();
  let events: number;
  if (variant === 'baseline') {
    events = await baselineExport(baselineDir ?? '', input, output);
  } else {
    let said = '';
    const code = await runExport(
      input,
      { perfetto: output, profile: undefined, pageSize1g: false },
      { out: () => undefined, err: (text) => (said += text) },
    );
    if (code !== 0) throw new Error(`pagelens export exited ${code}: ${said.trim()}`);
    events = Number(/([\d,]+) trace events/.exec(said)?.[1]?.replaceAll(',', '') ?? Number.NaN);
  }
  const used = process.cpuUsage(cpu);
  const report: ExportReport = {
    seconds: (performance.now() - started) / 1000,
    cpuSeconds: (used.user + used.system) / 1e6,
    maxRss: process.resourceUsage().maxRSS * 1024,
    bytesWritten: statSync(output).size,
    events,
  };
  process.send?.(report);
}

main().catch((error: unknown) => {
  process.stderr.write(`export-child: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
