import { fork } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type ChildReport, isChildReport } from '../support/csv-report.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';
import { baselineCore } from './formats-fixture.ts';
import { memScopeDumpFile } from './memscope-fixture.ts';

/**
 * A generated 1,000,000-row msMemScope memscope_dump CSV (memscope-fixture.ts: two devices, HAL
 * allocations with PTA blocks inside, 3–8-frame Python stacks on MALLOC rows) read the way the
 * import worker reads it now (each row into the model as it completes: core MemScopeConverter, the
 * trace as columns) and the way it did before (every row kept as an object, then all converted at
 * once: the baseline commit), both streamed in 4 MiB chunks, alternating, each run in a fresh
 * process (support/csv-parse-child.ts).
 *
 * Peak memory is the JS heap plus array buffers (the columns are typed arrays, outside the heap):
 * the highest of heapUsed + arrayBuffers sampled between chunks and after each stage, and of the
 * heap alone before each collection in the collector's trace (--trace-gc: the moments it is
 * fullest), above what was held after a full GC before the read; peak RSS is the kernel's maxRSS
 * above the RSS then. `convert` is the file to the dump as a snapshot (what the worker holds before
 * importSnapshot); `job` adds importSnapshot, with what each way keeps still held.
 */
const ROWS = 1_000_000;
const RUNS = { convert: 3, job: 2 } as const;
const CHILD = fileURLToPath(new URL('../support/csv-parse-child.ts', import.meta.url));
/** The commit before rows went into the model as they are read; PAGELENS_BENCH_CSV_BASELINE names another. */
const CSV_BASELINE = process.env.PAGELENS_BENCH_CSV_BASELINE ?? 'e4ef0f47606afcb7434bd242cf9d75727e5055c2';
const MB = 1e6;
const V8_MB = 1024 * 1024;

type Variant = 'now' | 'baseline';
type Phase = keyof typeof RUNS;

interface Run extends ChildReport {
  /** Highest heap before a collection, from the trace, in bytes above baseHeap. */
  readonly tracedPeakHeap: number;
}

/** `Mark-Compact 1500.2 (1600.1) -> 900.3 (1000.2) MB`: the first figure is the heap's objects before the collection. */
const GC_LINE = /: [A-Za-z-]+(?: \([^)]*\))? (\d+(?:\.\d+)?) \(\d+(?:\.\d+)?\) -> \d+(?:\.\d+)? \(\d+(?:\.\d+)?\) MB/;

function measure(variant: Variant, phase: Phase, path: string, baseline: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [variant, phase, path, baseline], {
      execArgv: [...process.execArgv, '--expose-gc', '--trace-gc', '--max-old-space-size=8192'],
      silent: true,
    });
    let out = '';
    let err = '';
    let report: ChildReport | undefined;
    child.stdout?.on('data', (data: Buffer) => {
      out += data.toString('utf8');
    });
    child.stderr?.on('data', (data: Buffer) => {
      err += data.toString('utf8');
    });
    child.on('message', (message: unknown) => {
      if (isChildReport(message)) report = message;
    });
    child.once('exit', (code) => {
      if (code !== 0 || report === undefined) {
        reject(new Error(`csv-parse-child ${variant} ${phase} exited ${code}: ${err.trim().split('\n').slice(-3).join(' | ')}`));
        return;
      }
      let traced = 0;
      for (const line of out.split('\n')) {
        const before = GC_LINE.exec(line)?.[1];
        if (before !== undefined) traced = Math.max(traced, Number(before) * V8_MB);
      }
      resolve({ ...report, tracedPeakHeap: Math.max(0, traced - report.baseHeap) });
    });
  });
}

interface Summary {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakHeap: number;
  readonly peakRss: number;
  readonly retainedHeap: number;
  readonly rows: number;
}

function summarize(runs: readonly Run[]): Summary {
  return {
    seconds: Math.min(...runs.map((r) => r.seconds)),
    cpuSeconds: Math.min(...runs.map((r) => r.cpuSeconds)),
    peakHeap: Math.max(...runs.map((r) => Math.max(r.tracedPeakHeap, r.sampledPeakHeap))),
    peakRss: Math.max(...runs.map((r) => r.maxRss - r.rssBefore)),
    retainedHeap: Math.min(...runs.map((r) => r.retainedHeap)),
    rows: runs[0]?.rows ?? 0,
  };
}

function words(s: Summary, runs: number): string {
  return (
    `best of ${runs} ${s.seconds.toFixed(2)} s wall, least CPU ${s.cpuSeconds.toFixed(2)} s, peak heap + buffers ${(s.peakHeap / MB).toFixed(0)} MB, ` +
    `peak RSS ${(s.peakRss / MB).toFixed(0)} MB, held after GC ${(s.retainedHeap / MB).toFixed(0)} MB`
  );
}

export const formatsCsvSuite: BenchSuite = {
  name: 'formats-csv',
  async run(): Promise<BenchResult[]> {
    const file = memScopeDumpFile({ rows: ROWS, devices: 2, stackPool: 4000, liveTarget: 2000 });
    const baseline = baselineCore(CSV_BASELINE);
    const load = (): string => loadavg()[0]?.toFixed(1) ?? '?';
    const results: BenchResult[] = [];
    for (const phase of ['convert', 'job'] as const) {
      const loadBefore = load();
      const nowRuns: Run[] = [];
      const baselineRuns: Run[] = [];
      for (let run = 0; run < RUNS[phase]; run += 1) {
        baselineRuns.push(await measure('baseline', phase, file.path, baseline));
        nowRuns.push(await measure('now', phase, file.path, baseline));
      }
      const now = summarize(nowRuns);
      const before = summarize(baselineRuns);
      if (now.rows !== file.rows || before.rows !== file.rows) {
        throw new Error(`read ${now.rows} (now) and ${before.rows} (baseline) rows, wrote ${file.rows}`);
      }
      const what =
        `${file.rows.toLocaleString('en-US')}-row memscope_dump CSV, ${(file.bytes / MB).toFixed(1)} MB ` +
        `(${(file.bytes / file.rows).toFixed(0)} B per row), ${phase === 'convert' ? 'file to the dump as a snapshot' : 'file to imported session'}, ` +
        `each run a fresh process, the two ways alternating; 1-minute load average ${loadBefore} before the runs and ${load()} after, on ${availableParallelism()} cores (wall time is the scheduler's as much as ours: compare CPU)`;
      const compare = `rows into the model as read: ${words(now, RUNS[phase])}; rows kept, then converted (commit ${CSV_BASELINE.slice(0, 7)}): ${words(before, RUNS[phase])}`;
      const name = `formats.csv-${phase}`;
      results.push(
        { name: `${name}.rows`, value: file.rows / now.seconds, unit: 'rows/s', higherIsBetter: true, detail: `${what}; ${compare}` },
        { name: `${name}.seconds`, value: now.seconds, unit: 's', higherIsBetter: false, detail: `${what}; wall, best run; ${compare}` },
        {
          name: `${name}.cpu`,
          value: now.cpuSeconds,
          unit: 's',
          higherIsBetter: false,
          detail: `${what}; CPU (user + system, all threads), least of the runs`,
        },
        { name: `${name}.peak-heap`, value: now.peakHeap / MB, unit: 'MB', higherIsBetter: false, detail: `${what}; ${compare}` },
        {
          name: `${name}.peak-rss`,
          value: now.peakRss / MB,
          unit: 'MB',
          higherIsBetter: false,
          detail: `${what}; kernel maxRSS above the RSS before the read`,
        },
        {
          name: `${name}.baseline-seconds`,
          value: before.seconds,
          unit: 's',
          higherIsBetter: false,
          detail: `${what}; rows kept then converted, commit ${CSV_BASELINE.slice(0, 7)}, in the same runs`,
        },
        {
          name: `${name}.baseline-cpu`,
          value: before.cpuSeconds,
          unit: 's',
          higherIsBetter: false,
          detail: `${what}; rows kept then converted, in the same runs`,
        },
        {
          name: `${name}.baseline-peak-heap`,
          value: before.peakHeap / MB,
          unit: 'MB',
          higherIsBetter: false,
          detail: `${what}; rows kept then converted, in the same runs`,
        },
        {
          name: `${name}.baseline-peak-rss`,
          value: before.peakRss / MB,
          unit: 'MB',
          higherIsBetter: false,
          detail: `${what}; rows kept then converted, in the same runs`,
        },
      );
    }
    return results;
  },
};
