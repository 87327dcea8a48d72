import { statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SnapshotLoader } from '@pagelens/core';
import { fileChunks } from '../support/file-chunks.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';
import { baselineLoader, type LoaderClass, snapshotFile } from './formats-fixture.ts';

/**
 * Parse throughput of a generated torch_npu snapshot of 1,000,000 trace entries with long stacks
 * (issue 16: real files carry about 220 bytes per event). The file is on disk (formats-fixture.ts),
 * read back in 4 MiB chunks through SnapshotLoader (the restricted pickle reader and the
 * normaliser) with its defaults: every entry's stack kept and interned, as the Perfetto export reads
 * it (the import worker keeps only the stacks blocks take). What a parse holds, the JS heap plus
 * array buffers, is sampled after every chunk and after normalising, above what was held after a
 * full GC before the parse.
 *
 * The loader of an earlier commit (formats-fixture.ts, BASELINE_COMMIT) parses the same file in
 * the same process, alternating with the current one, so that both see the same machine load.
 */
const EVENTS = 1_000_000;
const RUNS = 3;
const MB = 1e6;

setFlagsFromString('--expose-gc');
const collect: () => void = runInNewContext('gc');

interface Parse {
  readonly seconds: number;
  readonly peakHeap: number;
  readonly retainedHeap: number;
  readonly entries: number;
  /** CPU time of the parse (user + system, all threads: the collector's included). */
  readonly cpuSeconds: number;
}

/** Reads the file through a loader of its own, which is out of reach once this returns (as in the import worker). */
function load(path: string, Loader: LoaderClass, sample: () => void): ReturnType<InstanceType<LoaderClass>['finish']> {
  const loader = new Loader({ totalBytes: statSync(path).size });
  fileChunks(path, (chunk) => {
    loader.push(chunk);
    sample();
  });
  const snapshot = loader.finish();
  sample();
  return snapshot;
}

/** What a read holds: the JS heap and array buffers (the kept trace's columns and stack ids are typed arrays). */
function held(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
}

function parse(path: string, Loader: LoaderClass): Parse {
  collect();
  const baseline = held();
  let peak = baseline;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const snapshot = load(path, Loader, () => {
    peak = Math.max(peak, held());
  });
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  collect();
  const retained = held() - baseline;
  // Read after the measurement, so the snapshot is alive through it.
  const entries = snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0);
  return { seconds, peakHeap: peak - baseline, retainedHeap: retained, entries, cpuSeconds: (used.user + used.system) / 1e6 };
}

function fastest(runs: readonly Parse[]): Parse {
  return runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
}

function summary(runs: readonly Parse[]): string {
  const best = fastest(runs);
  const peak = Math.max(...runs.map((r) => r.peakHeap));
  const cpu = Math.min(...runs.map((r) => r.cpuSeconds));
  return `best ${best.seconds.toFixed(2)} s wall, least CPU ${cpu.toFixed(2)} s, peak heap ${(peak / MB).toFixed(0)} MB, the snapshot held after GC ${(best.retainedHeap / MB).toFixed(0)} MB`;
}

export const formatsSuite: BenchSuite = {
  name: 'formats',
  async run(): Promise<BenchResult[]> {
    const file = snapshotFile({ flavour: 'torch_npu', events: EVENTS, devices: 1, framePool: 200_000, stackDepth: 56, liveTarget: 2000 });
    const { bytes, events, path } = file;
    const baseline = await baselineLoader();
    const load = loadavg()[0]?.toFixed(1) ?? '?';
    const runs: Parse[] = [];
    const before: Parse[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      if ('loader' in baseline) before.push(parse(path, baseline.loader));
      const measured = parse(path, SnapshotLoader);
      if (measured.entries !== events) throw new Error(`parsed ${measured.entries} trace entries, wrote ${events}`);
      runs.push(measured);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const best = fastest(runs);
    const peak = Math.max(...runs.map((r) => r.peakHeap));
    const cpu = Math.min(...runs.map((r) => r.cpuSeconds));
    const what =
      `${events.toLocaleString('en-US')}-entry torch_npu snapshot, ${(bytes / MB).toFixed(1)} MB ` +
      `(${(bytes / events).toFixed(0)} B per entry: 56-frame stacks from 200,000 distinct frames), pickle protocol 4`;
    const side =
      'loader' in baseline
        ? `; the loader of commit ${baseline.commit} on the same file, alternating in the same process: ${summary(before)}`
        : `; ${baseline.why}`;
    const results: BenchResult[] = [
      {
        name: 'formats.snapshot-parse.events',
        value: events / best.seconds,
        unit: 'events/s',
        higherIsBetter: true,
        detail: `${what}; read from disk in 4 MiB chunks through SnapshotLoader (restricted pickle reader + normaliser; every entry's stack interned as it streams, where the baseline keeps each entry's frames list), best of ${RUNS}: ${best.seconds.toFixed(2)} s wall, least CPU ${cpu.toFixed(2)} s; 1-minute load average ${load} on ${availableParallelism()} cores when the parses began${side}`,
      },
      {
        name: 'formats.snapshot-parse.throughput',
        value: bytes / MB / best.seconds,
        unit: 'MB/s',
        higherIsBetter: true,
        detail: `${what}; the same runs`,
      },
      {
        name: 'formats.snapshot-parse.peak-heap',
        value: peak / MB,
        unit: 'MB',
        higherIsBetter: false,
        detail: `${what}; JS heap plus array buffers above a post-GC baseline, sampled after every chunk and after normalising, highest of ${RUNS} runs; heap the normalised snapshot holds after a GC, its loader (the unpickled tree, the memo) out of reach: ${(best.retainedHeap / MB).toFixed(0)} MB${side}`,
      },
    ];
    if ('loader' in baseline) {
      const old = fastest(before);
      results.push(
        {
          name: 'formats.snapshot-parse.baseline-events',
          value: events / old.seconds,
          unit: 'events/s',
          higherIsBetter: true,
          detail: `${what}; the loader of commit ${baseline.commit} (before the issue 16 scale work), alternating with formats.snapshot-parse.events in the same process: ${summary(before)}`,
        },
        {
          name: 'formats.snapshot-parse.baseline-peak-heap',
          value: Math.max(...before.map((r) => r.peakHeap)) / MB,
          unit: 'MB',
          higherIsBetter: false,
          detail: `${what}; the loader of commit ${baseline.commit}, measured as formats.snapshot-parse.peak-heap, in the same runs`,
        },
      );
    }
    return results;
  },
};
