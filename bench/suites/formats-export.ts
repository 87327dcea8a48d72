import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExportReport } from '../support/export-child.ts';
import { longTraceFile } from '../support/long-trace-fixture.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';
import { baselineCore } from './formats-fixture.ts';
import { memScopeDumpFile } from './memscope-fixture.ts';

/**
 * The Perfetto export of a large file, as `pagelens export FILE --perfetto OUT.json` runs it now
 * (streamed in, the JSON written as it is made: core fileTraceJson) beside the way it ran before
 * (every trace event made into one array, then written), each run a fresh process
 * (support/export-child.ts), the two ways alternating:
 * - a 1,000,000-entry torch_npu snapshot with 56-frame stacks (support/long-trace-fixture.ts),
 *   against the commit before the streamed export (853ad29);
 * - a 1,000,000-row msMemScope dump (memscope-fixture.ts), against the commit before its rows went
 *   into the model as read (e4ef0f4: rows kept, converted whole, then the events array).
 * Peak RSS is the kernel's maxRSS of the run's process.
 */
const RUNS = 2;
const CHILD = fileURLToPath(new URL('../support/export-child.ts', import.meta.url));
const MB = 1e6;

const CASES = [
  { key: 'pickle-1m', baseline: '853ad2913e59686012359ac24ed550dc7ff9004e', what: 'torch_npu snapshot' },
  { key: 'memscope-1m', baseline: 'e4ef0f47606afcb7434bd242cf9d75727e5055c2', what: 'msMemScope memscope_dump CSV' },
] as const;

function measure(variant: 'now' | 'baseline', input: string, output: string, baseline: string): Promise<ExportReport> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [variant, input, output, baseline], {
      execArgv: [...process.execArgv, '--max-old-space-size=16384'],
      silent: true,
    });
    let err = '';
    let report: ExportReport | undefined;
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString('utf8');
    });
    child.on('message', (message: unknown) => {
      report = message as ExportReport;
    });
    child.once('exit', (code) => {
      if (code !== 0 || report === undefined)
        reject(new Error(`export-child ${variant} exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
      else resolve(report);
    });
  });
}

const best = (runs: readonly ExportReport[]) => ({
  seconds: Math.min(...runs.map((r) => r.seconds)),
  cpuSeconds: Math.min(...runs.map((r) => r.cpuSeconds)),
  maxRss: Math.max(...runs.map((r) => r.maxRss)),
  bytesWritten: runs[0]?.bytesWritten ?? 0,
  events: runs[0]?.events ?? 0,
});

const words = (s: ReturnType<typeof best>): string =>
  `best of ${RUNS} ${s.seconds.toFixed(1)} s wall, least CPU ${s.cpuSeconds.toFixed(1)} s, peak RSS ${(s.maxRss / MB).toFixed(0)} MB`;

export const formatsExportSuite: BenchSuite = {
  name: 'formats-export',
  async run(): Promise<BenchResult[]> {
    const inputs = {
      'pickle-1m': () => {
        const file = longTraceFile(1_000_000);
        return { path: file.path, bytes: file.bytes, count: `${file.entries.toLocaleString('en-US')}-entry` };
      },
      'memscope-1m': () => {
        const file = memScopeDumpFile({ rows: 1_000_000, devices: 2, stackPool: 4000, liveTarget: 2000 });
        return { path: file.path, bytes: file.bytes, count: `${file.rows.toLocaleString('en-US')}-row` };
      },
    };
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-bench-export-'));
    const results: BenchResult[] = [];
    try {
      for (const { key, baseline, what } of CASES) {
        const input = inputs[key]();
        const baselineDir = baselineCore(baseline);
        const loadBefore = loadavg()[0]?.toFixed(1) ?? '?';
        const now: ExportReport[] = [];
        const before: ExportReport[] = [];
        for (let run = 0; run < RUNS; run += 1) {
          before.push(await measure('baseline', input.path, join(dir, 'before.json'), baselineDir));
          now.push(await measure('now', input.path, join(dir, 'now.json'), baselineDir));
        }
        const a = best(now);
        const b = best(before);
        if (a.bytesWritten !== b.bytesWritten || a.events !== b.events) {
          throw new Error(`${key}: now wrote ${a.bytesWritten} bytes / ${a.events} events, the baseline ${b.bytesWritten} / ${b.events}`);
        }
        const detail =
          `${input.count} ${what} (${(input.bytes / MB).toFixed(1)} MB) to ${a.events.toLocaleString('en-US')} trace events, ` +
          `${(a.bytesWritten / MB).toFixed(0)} MB of JSON, the same bytes both ways; 1-minute load average ${loadBefore} before and ` +
          `${loadavg()[0]?.toFixed(1) ?? '?'} after, on ${availableParallelism()} cores; written as made (pagelens export): ${words(a)}; ` +
          `events array first (commit ${baseline.slice(0, 7)}): ${words(b)}`;
        const name = `formats.export.${key}`;
        results.push(
          { name: `${name}.seconds`, value: a.seconds, unit: 's', higherIsBetter: false, detail },
          { name: `${name}.peak-rss`, value: a.maxRss / MB, unit: 'MB', higherIsBetter: false, detail },
          { name: `${name}.baseline-seconds`, value: b.seconds, unit: 's', higherIsBetter: false, detail },
          { name: `${name}.baseline-peak-rss`, value: b.maxRss / MB, unit: 'MB', higherIsBetter: false, detail },
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return results;
  },
};
