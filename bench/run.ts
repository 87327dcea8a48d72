/**
 * `pnpm bench`: runs every suite (or those named on the command line), prints a table and writes
 * bench/results.json as an array of {name, value, unit, higherIsBetter, detail}.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { agentSuite } from './suites/agent.ts';
import { formatsSuite } from './suites/formats.ts';
import { formatsCsvSuite } from './suites/formats-csv.ts';
import { formatsExportSuite } from './suites/formats-export.ts';
import { formatsImportSuite } from './suites/formats-import.ts';
import { formatsStreamSuite } from './suites/formats-stream.ts';
import { handshakeSuite } from './suites/handshake.ts';
import { runSuite } from './suites/run.ts';
import { simSuite } from './suites/sim.ts';
import { tlbSuite } from './suites/tlb.ts';
import { viewersSuite } from './suites/viewers.ts';
import { webImportSuite } from './suites/web-import.ts';
import { webIngestSuite } from './suites/web-ingest.ts';
import { webPageMapSuite } from './suites/web-page-map.ts';
import { type BenchResult, type BenchSuite, meetsTarget } from './support/result.ts';

const SUITES: readonly BenchSuite[] = [
  simSuite,
  tlbSuite,
  handshakeSuite,
  agentSuite,
  viewersSuite,
  runSuite,
  webPageMapSuite,
  webIngestSuite,
  webImportSuite,
  formatsSuite,
  formatsImportSuite,
  formatsCsvSuite,
  formatsStreamSuite,
  formatsExportSuite,
];

/** A result as stored: which suite measured it, and when. */
type Stored = BenchResult & { readonly suite: string; readonly measuredAt: string };

function format(value: number): string {
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString('en-US');
  return value.toPrecision(4);
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const unknown = wanted.filter((name) => !SUITES.some((suite) => suite.name === name));
  if (unknown.length > 0) {
    throw new Error(`unknown suite(s) ${unknown.join(', ')}; known: ${SUITES.map((s) => s.name).join(', ')}`);
  }
  const chosen = wanted.length === 0 ? SUITES : SUITES.filter((suite) => wanted.includes(suite.name));
  const measured: Stored[] = [];
  for (const suite of chosen) {
    process.stderr.write(`bench: ${suite.name}…\n`);
    const measuredAt = new Date().toISOString();
    for (const result of await suite.run()) measured.push({ ...result, suite: suite.name, measuredAt });
  }
  const width = Math.max(...measured.map((r) => r.name.length));
  for (const r of measured) {
    const meets = meetsTarget(r);
    const verdict =
      meets === undefined ? '' : `${meets ? 'meets' : 'MISSES'} target ${r.higherIsBetter ? '≥' : '≤'} ${format(r.target ?? 0)}`;
    process.stdout.write(`${r.name.padEnd(width)}  ${format(r.value).padStart(14)} ${r.unit.padEnd(10)} ${verdict}\n`);
  }
  // Running some suites keeps the other suites' last results.
  const path = fileURLToPath(new URL('./results.json', import.meta.url));
  const ran = new Set(chosen.map((suite) => suite.name));
  const kept = readStored(path).filter((r) => !ran.has(r.suite));
  const order = SUITES.map((suite) => suite.name);
  const all = [...kept, ...measured].sort((a, b) => order.indexOf(a.suite) - order.indexOf(b.suite));
  writeFileSync(path, `${JSON.stringify(all, null, 2)}\n`);
  process.stdout.write(`wrote ${path}\n`);
}

function readStored(path: string): Stored[] {
  if (!existsSync(path)) return [];
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!Array.isArray(parsed)) return [];
  // Entries from before results carried their suite are dropped: their suite cannot be told.
  return parsed.filter((r: unknown): r is Stored => typeof r === 'object' && r !== null && typeof Reflect.get(r, 'suite') === 'string');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
