import { closeSync, openSync, readSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SnapshotLoader } from '@pagelens/core';
import { longTraceFile } from '../support/long-trace-fixture.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';

/**
 * A snapshot whose trace is too long to keep (issue 16: 10,000,000 events must open with memory
 * bounded by what is kept, not by the file), read with its trace summarised as it streams past
 * (SnapshotLoader summarizeTrace, as the import worker does above SUMMARIZE_ABOVE_BYTES and
 * `pagelens stats` always does). At 1 M entries the same file is also read keeping the trace, side
 * by side, to show what the summary saves; at 10 M only the summary runs (a kept trace of that
 * length would need several GB of heap). Peak heap is sampled after every 4 MiB chunk, above the
 * heap after a full GC before the read.
 */
const CHUNK = 4 * 1024 * 1024;
const MB = 1e6;

setFlagsFromString('--expose-gc');
const collect: () => void = runInNewContext('gc');

interface Read {
  readonly seconds: number;
  readonly cpuSeconds: number;
  readonly peakHeap: number;
  readonly entries: number;
}

function read(path: string, bytes: number, summarizeTrace: boolean): Read {
  collect();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const loader = new SnapshotLoader({ totalBytes: bytes, summarizeTrace });
  const fd = openSync(path, 'r');
  try {
    for (let position = 0; ; ) {
      const buffer = new Uint8Array(CHUNK);
      const got = readSync(fd, buffer, 0, CHUNK, position);
      if (got === 0) break;
      loader.push(got === CHUNK ? buffer : buffer.subarray(0, got));
      position += got;
      peak = Math.max(peak, process.memoryUsage().heapUsed - base);
    }
  } finally {
    closeSync(fd);
  }
  const snapshot = loader.finish();
  peak = Math.max(peak, process.memoryUsage().heapUsed - base);
  const used = process.cpuUsage(cpu);
  const entries = loader.traceSummary?.entries ?? snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, peakHeap: peak / MB, entries };
}

function results(prefix: string, what: string, run: Read, extra = ''): BenchResult[] {
  const how = `${what}; ${run.entries.toLocaleString('en-US')} entries read back; wall ${run.seconds.toFixed(1)} s, CPU ${run.cpuSeconds.toFixed(1)} s; 1-minute load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores${extra}`;
  return [
    { name: `${prefix}.entries_per_sec`, value: run.entries / run.seconds, unit: 'entries/s', higherIsBetter: true, detail: how },
    { name: `${prefix}.peak_heap`, value: run.peakHeap, unit: 'MB', higherIsBetter: false, detail: how },
  ];
}

export const formatsStreamSuite: BenchSuite = {
  name: 'formats-stream',
  async run(): Promise<BenchResult[]> {
    const out: BenchResult[] = [];
    const small = longTraceFile(1_000_000);
    const file = (f: { bytes: number; entries: number }) =>
      `a ${f.entries.toLocaleString('en-US')}-entry torch_npu-shaped snapshot (${(f.bytes / MB).toFixed(0)} MB, 56-frame stacks from 200,000 frames, bench/support/long-trace-fixture.ts) read from disk in 4 MiB chunks`;
    const kept = read(small.path, small.bytes, false);
    const summarised = read(small.path, small.bytes, true);
    out.push(...results('formats.stream.1m.kept', `${file(small)}, its trace kept (the whole-file path)`, kept));
    out.push(
      ...results(
        'formats.stream.1m.summarised',
        `${file(small)}, its trace summarised as it streams past`,
        summarised,
        `; the kept read of the same file in the same run: peak heap ${kept.peakHeap.toFixed(0)} MB, wall ${kept.seconds.toFixed(1)} s`,
      ),
    );
    const large = longTraceFile(10_000_000);
    const streamed = read(large.path, large.bytes, true);
    out.push(
      ...results(
        'formats.stream.10m.summarised',
        `${file(large)}, its trace summarised as it streams past (a kept trace of this length is not attempted: it would need several GB of heap)`,
        streamed,
        `; the 1 M-entry file in the same run peaked at ${summarised.peakHeap.toFixed(0)} MB summarised`,
      ),
    );
    return out;
  },
};
