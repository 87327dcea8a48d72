import { type AccessPattern, type BufferSegment, patternAccessCount, simulateTlb, type TlbGeometry } from '@pagelens/core';
import type { BenchResult, BenchSuite } from '../support/result.ts';

const RUNS = 3;
const ACCESSES = 50_000_000;
const WARM_UP_ACCESSES = 2_000_000;
const TARGET = 20_000_000;
const KiB = 1024;
const MiB = 1024 * KiB;
const GiB = 1024 * MiB;
/** 16 TiB: where the device SVM window starts (RULES.md), so 4 KiB page numbers pass 2^32 as on a device. */
const BASE = 2 ** 44;

/** The built-in profiles' assumed geometry (PT-3: Ascend TLB sizes are unpublished). */
const GEOMETRY: TlbGeometry = {
  normal: { entries: 1024, ways: 8 },
  huge: { entries: 1024, ways: 8 },
  giant: { entries: 64, ways: 4 },
};

interface Case {
  readonly name: string;
  readonly buffer: string;
  readonly segments: readonly BufferSegment[];
  /** The timed run: at least ACCESSES accesses. */
  readonly timed: AccessPattern;
  /** Same shape, smaller: lets V8 optimise the loops before timing. */
  readonly warmUp: AccessPattern;
}

function cases(pageClass: 'normal' | 'huge', bytes: number, pageSize: number, sequentialStride: number): Case[] {
  const segments = [{ va: BASE, bytes, pageSize }];
  const buffer = `${bytes / GiB} GiB of ${pageSize < MiB ? `${pageSize / KiB} KiB` : `${pageSize / MiB} MiB`} pages`;
  const passes = Math.ceil(ACCESSES / Math.ceil(bytes / sequentialStride));
  const strided = (count: number): AccessPattern => ({ kind: 'strided', stride: 2 * MiB + 64, count });
  const random = (count: number): AccessPattern => ({ kind: 'random', count, seed: 0x5eed });
  return [
    {
      name: `tlb.sequential.${pageClass}`,
      // Most accesses repeat the page just used and take the simulator's MRU shortcut.
      buffer: `${buffer}, stride ${sequentialStride} B, ${passes} ${passes === 1 ? 'pass' : 'passes'}`,
      segments,
      timed: { kind: 'sequential', stride: sequentialStride, passes },
      warmUp: { kind: 'sequential', stride: sequentialStride, passes: 1 },
    },
    {
      name: `tlb.strided.${pageClass}`,
      buffer: `${buffer}, stride 2 MiB + 64 B`,
      segments,
      timed: strided(ACCESSES),
      warmUp: strided(WARM_UP_ACCESSES),
    },
    {
      name: `tlb.random.${pageClass}`,
      buffer: `${buffer}, uniform offsets`,
      segments,
      timed: random(ACCESSES),
      warmUp: random(WARM_UP_ACCESSES),
    },
  ];
}

/** Accesses of one run and their rate; throws if the simulator did not make the accesses asked for. */
function measure(c: Case, pattern: AccessPattern): { accesses: number; perSecond: number } {
  const expected = patternAccessCount(pattern, bufferBytes(c.segments));
  const started = performance.now();
  const result = simulateTlb(c.segments, pattern, GEOMETRY);
  const seconds = (performance.now() - started) / 1000;
  if (result.accesses !== expected) throw new Error(`${c.name}: ${result.accesses} accesses, expected ${expected}`);
  return { accesses: result.accesses, perSecond: result.accesses / seconds };
}

function bufferBytes(segments: readonly BufferSegment[]): number {
  return segments.reduce((sum, segment) => sum + segment.bytes, 0);
}

export const tlbSuite: BenchSuite = {
  name: 'tlb',
  async run(): Promise<BenchResult[]> {
    const all = [...cases('normal', GiB, 4 * KiB, 64), ...cases('huge', 64 * GiB, 2 * MiB, 1024)];
    const results: BenchResult[] = [];
    for (const c of all) {
      measure(c, c.warmUp);
      let best = 0;
      let accesses = 0;
      for (let run = 0; run < RUNS; run += 1) {
        const measured = measure(c, c.timed);
        best = Math.max(best, measured.perSecond);
        accesses = measured.accesses;
      }
      results.push({
        name: c.name,
        value: best,
        unit: 'accesses/s',
        higherIsBetter: true,
        detail:
          `${accesses.toLocaleString('en-US')} accesses over ${c.buffer}, assumed TLB ` +
          `${GEOMETRY.normal.entries} entries ${GEOMETRY.normal.ways}-way normal / ${GEOMETRY.huge.entries} entries ${GEOMETRY.huge.ways}-way huge, ` +
          `best of ${RUNS} after a warm-up; target from DESIGN.md`,
        target: TARGET,
      });
      // Let the event loop run between cases (each takes seconds): timers, signals, output.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return results;
  },
};
