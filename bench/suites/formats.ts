import { closeSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { SnapshotLoader } from '@pagelens/core';
import { writePickleChunks } from '../../packages/core/test/formats/pickle-writer.ts';
import { makeSnapshot } from '../../packages/core/test/formats/snapshot-fixtures.ts';
import type { BenchResult, BenchSuite } from '../support/result.ts';

/**
 * Parse throughput of a generated torch_npu snapshot of 1,000,000 trace entries with long stacks
 * (issue 16: real files carry about 220 bytes per event). The file is written to disk first, then
 * read back in 4 MiB chunks through SnapshotLoader (the restricted pickle reader and the
 * normaliser), as `pagelens stats` and a browser worker read it. Peak heap is sampled after every
 * chunk and after normalising, above the heap measured after a full GC before the parse.
 */
const EVENTS = 1_000_000;
const RUNS = 3;
const CHUNK = 4 * 1024 * 1024;
const MB = 1e6;

setFlagsFromString('--expose-gc');
const collect: () => void = runInNewContext('gc');

function writeFixture(path: string): { bytes: number; events: number } {
  const fixture = makeSnapshot({ flavour: 'torch_npu', events: EVENTS, devices: 1, framePool: 200_000, stackDepth: 56, liveTarget: 2000 });
  const events = fixture.truth[0]?.length ?? 0;
  const fd = openSync(path, 'w');
  try {
    for (const chunk of writePickleChunks(fixture.data)) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  return { bytes: statSync(path).size, events };
}

interface Parse {
  readonly seconds: number;
  readonly peakHeap: number;
  readonly retainedHeap: number;
  readonly entries: number;
}

function parse(path: string): Parse {
  collect();
  const baseline = process.memoryUsage().heapUsed;
  let peak = baseline;
  const started = performance.now();
  const loader = new SnapshotLoader({ totalBytes: statSync(path).size });
  const fd = openSync(path, 'r');
  try {
    for (let position = 0; ; ) {
      const buffer = new Uint8Array(CHUNK);
      const read = readSync(fd, buffer, 0, CHUNK, position);
      if (read === 0) break;
      loader.push(read === CHUNK ? buffer : buffer.subarray(0, read));
      position += read;
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }
  } finally {
    closeSync(fd);
  }
  const snapshot = loader.finish();
  const seconds = (performance.now() - started) / 1000;
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  const entries = snapshot.deviceTraces.reduce((sum, trace) => sum + trace.length, 0);
  collect();
  const retained = process.memoryUsage().heapUsed - baseline;
  return { seconds, peakHeap: peak - baseline, retainedHeap: retained, entries };
}

export const formatsSuite: BenchSuite = {
  name: 'formats',
  async run(): Promise<BenchResult[]> {
    const path = join(tmpdir(), `pagelens-bench-snapshot-${process.pid}.pickle`);
    try {
      const { bytes, events } = writeFixture(path);
      const load = loadavg()[0]?.toFixed(1) ?? '?';
      const runs: Parse[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const measured = parse(path);
        if (measured.entries !== events) throw new Error(`parsed ${measured.entries} trace entries, wrote ${events}`);
        runs.push(measured);
        await new Promise((resolve) => setImmediate(resolve));
      }
      const best = runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));
      const peak = Math.max(...runs.map((r) => r.peakHeap));
      const what =
        `${events.toLocaleString('en-US')}-entry torch_npu snapshot, ${(bytes / MB).toFixed(1)} MB ` +
        `(${(bytes / events).toFixed(0)} B per entry: 56-frame stacks from 200,000 distinct frames), pickle protocol 4`;
      return [
        {
          name: 'formats.snapshot-parse.events',
          value: events / best.seconds,
          unit: 'events/s',
          higherIsBetter: true,
          detail: `${what}; read from disk in 4 MiB chunks through SnapshotLoader (restricted pickle reader + normaliser), best of ${RUNS}: ${best.seconds.toFixed(2)} s; 1-minute load average ${load} on ${availableParallelism()} cores when the parses began`,
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
          detail: `${what}; JS heap above a post-GC baseline, sampled after every chunk and after normalising, highest of ${RUNS} runs; heap still held by the snapshot after a GC: ${(best.retainedHeap / MB).toFixed(0)} MB`,
        },
      ];
    } finally {
      rmSync(path, { force: true });
    }
  },
};
