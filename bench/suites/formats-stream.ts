import { availableParallelism, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SnapshotLoader } from '@pagelens/core';
import { fileChunks } from '../support/file-chunks.ts';
import { longTraceFile } from '../support/long-trace-fixture.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';

/**
 * A snapshot whose trace is too long to keep (issue 16: 10,000,000 events must open with memory
 * bounded by what is kept, not by the file), read with its trace summarised as it streams past
 * (SnapshotLoader summarizeTrace, as the import worker does past KEEP_TRACE_ENTRIES and
 * `pagelens stats` always does), and the same file read keeping its trace, side by side, at 1 M and
 * 10 M entries. The kept trace is columns of typed arrays (core trace-columns.ts), so what a read
 * holds is sampled as the JS heap plus array buffers, after every 4 MiB chunk, above what was held
 * after a full GC before the read.
 */
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
  const held = (): number => {
    const usage = process.memoryUsage();
    return usage.heapUsed + usage.arrayBuffers;
  };
  const base = held();
  let peak = 0;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const loader = new SnapshotLoader({ totalBytes: bytes, summarizeTrace });
  fileChunks(path, (chunk) => {
    loader.push(chunk);
    peak = Math.max(peak, held() - base);
  });
  const snapshot = loader.finish();
  peak = Math.max(peak, held() - base);
  const used = process.cpuUsage(cpu);
  const entries = loader.traceSummary?.entries ?? snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0);
  return { seconds: (performance.now() - started) / 1000, cpuSeconds: (used.user + used.system) / 1e6, peakHeap: peak / MB, entries };
}

function results(prefix: string, what: string, run: Read, extra = ''): BenchResult[] {
  const how = `${what}; ${run.entries.toLocaleString('en-US')} entries read back; wall ${run.seconds.toFixed(1)} s, CPU ${run.cpuSeconds.toFixed(1)} s; 1-minute load average ${loadavg()[0]?.toFixed(1)} on ${availableParallelism()} cores${extra}`;
  return [
    { name: `${prefix}.entries_per_sec`, value: run.entries / run.seconds, unit: 'entries/s', higherIsBetter: true, detail: how },
    {
      name: `${prefix}.peak_heap`,
      value: run.peakHeap,
      unit: 'MB',
      higherIsBetter: false,
      detail: `${how}; peak of the JS heap plus array buffers above a collected heap before the read`,
    },
  ];
}

export const formatsStreamSuite: BenchSuite = {
  name: 'formats-stream',
  async run(): Promise<BenchResult[]> {
    const out: BenchResult[] = [];
    const small = longTraceFile(1_000_000);
    const file = (f: { bytes: number; entries: number }) =>
      `a ${f.entries.toLocaleString('en-US')}-entry torch_npu-shaped snapshot (${(f.bytes / MB).toFixed(0)} MB, 56-frame stacks from 200,000 frames that repeat as a training loop's do, bench/support/long-trace-fixture.ts) read from disk in 4 MiB chunks`;
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
    // Summarised first: after the kept read, its array buffers are still being let go of while the next read begins.
    const streamed = read(large.path, large.bytes, true);
    const largeKept = read(large.path, large.bytes, false);
    out.push(...results('formats.stream.10m.kept', `${file(large)}, its trace kept`, largeKept));
    out.push(
      ...results(
        'formats.stream.10m.summarised',
        `${file(large)}, its trace summarised as it streams past`,
        streamed,
        `; the kept read of the same file in the same run: peak ${largeKept.peakHeap.toFixed(0)} MB, wall ${largeKept.seconds.toFixed(1)} s; the 1 M-entry file summarised peaked at ${summarised.peakHeap.toFixed(0)} MB`,
      ),
    );
    return out;
  },
};
