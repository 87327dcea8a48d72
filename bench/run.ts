/**
 * `pnpm bench`: runs every suite (or those named on the command line), prints a table and writes
 * bench/results.json as an array of {name, value, unit, higherIsBetter, detail}.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { agentSuite } from './suites/agent.ts';
import { handshakeSuite } from './suites/handshake.ts';
import { simSuite } from './suites/sim.ts';
import { tlbSuite } from './suites/tlb.ts';
import type { BenchResult, BenchSuite } from './support/result.ts';

const SUITES: readonly BenchSuite[] = [simSuite, tlbSuite, handshakeSuite, agentSuite];

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
  const results: BenchResult[] = [];
  for (const suite of chosen) {
    process.stderr.write(`bench: ${suite.name}…\n`);
    results.push(...(await suite.run()));
  }
  const width = Math.max(...results.map((r) => r.name.length));
  for (const r of results) {
    process.stdout.write(
      `${r.name.padEnd(width)}  ${format(r.value).padStart(14)} ${r.unit.padEnd(10)} ${r.higherIsBetter ? '(higher is better)' : '(lower is better)'}\n`,
    );
  }
  const path = fileURLToPath(new URL('./results.json', import.meta.url));
  writeFileSync(path, `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write(`wrote ${path}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
