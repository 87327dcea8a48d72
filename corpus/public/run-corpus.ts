/**
 * Runs every corpus entry through the playground's interpreter on a fresh simulated host and
 * reports what happened: compiled or not (the first error, with its line), and for an entry with
 * `main` (or the one function it keeps) how the run ended and how many ACL calls failed. An entry
 * without main (framework code) runs the function `entries.json` names for it, with its inputs.
 *
 *   node corpus/public/check-manifest.mjs --from /work/.mirror   # bring the files in first
 *   npx tsx corpus/public/run-corpus.ts [--markdown] [--calls] [entry-id…]
 *
 * `--calls` also prints how many times each ACL function ran (for writing an entry's `expect`);
 * entry ids limit the run to those entries.
 *
 * It is a measurement, not a test: the files are not in git (README.md), so `npm test` cannot
 * depend on them. Its table goes into the closing notes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from '../../packages/core/src/interp/compile.ts';
import { Execution } from '../../packages/core/src/interp/execution.ts';
import type { InputDecl } from '../../packages/core/src/interp/inputs.ts';
import { ASCEND_910B2 } from '../../packages/core/src/profiles/builtin.ts';
import { SimHost } from '../../packages/core/src/sim/sim-host.ts';
import { SimRuntime } from '../../packages/core/src/sim/sim-runtime.ts';

interface Entry {
  readonly id: string;
  readonly files: readonly { readonly path: string }[];
  readonly constructs: readonly string[];
}

interface Outcome {
  readonly id: string;
  readonly result: 'clean' | 'designed' | 'unexpected' | 'acl-errors' | 'compile' | 'runtime' | 'no-entry' | 'empty' | 'missing';
  readonly detail: string;
}

/** How to run an entry (entries.json): the function (for one without main), its inputs, setup statements, main's command line. */
interface EntryRun {
  readonly entry?: string;
  readonly argv?: readonly string[];
  /** What the run must end with; a clean run that ends otherwise is reported as `unexpected`. */
  readonly expect?: Expectation;
  /** `-D` flags of the project's build, with `why` citing where the build sets them. */
  readonly defines?: Readonly<Record<string, string>>;
  readonly inputs?: readonly InputDecl[];
  readonly setup?: string;
  /** How many devices the simulated host has (910B2s; default one), for a sample that needs two (peer access). */
  readonly devices?: number;
}

/**
 * The asserted end of a run: main's return value, calls that must have happened (each succeeding,
 * as every call must), and what is still live on the simulated host when the program ends
 * (device allocations, pinned host buffers, streams, contexts…): the program's own leaks included,
 * as the real runtime would hold them until the process exits.
 */
interface Expectation {
  readonly exit?: number;
  /** Catalogue function → how many times it ran. */
  readonly calls?: Readonly<Record<string, number>>;
  readonly live?: Readonly<Partial<Record<LiveKind, number>>>;
  /**
   * The designed stop the program must end with instead (a construct out of scope, a value only
   * another process or a file would give): where (`file:line`) and how the message starts. With
   * `calls`, those must have run (and succeeded) before it.
   */
  readonly stop?: { readonly at: string; readonly message: string };
}

const LIVE_KINDS = ['allocations', 'hostBuffers', 'streams', 'contexts', 'physical', 'reservations', 'mappings', 'aclEvents'] as const;
type LiveKind = (typeof LIVE_KINDS)[number];

/** What is live on the host now, by kind (only the kinds with something live). */
function liveOn(host: SimHost): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of LIVE_KINDS) if (host.state[kind].size > 0) out[kind] = host.state[kind].size;
  return out;
}

/** Why the run does not meet its expectation, or undefined when it does. */
function unmet(
  expected: Expectation,
  exit: number | undefined,
  calls: readonly { fn: string }[],
  live: Record<string, number>,
): string | undefined {
  const problems: string[] = [];
  if (expected.exit !== undefined && exit !== expected.exit) problems.push(`exit ${exit ?? '-'}, expected ${expected.exit}`);
  for (const [fn, count] of Object.entries(expected.calls ?? {})) {
    const ran = calls.filter((call) => call.fn === fn).length;
    if (ran !== count) problems.push(`${fn} ran ${ran} time(s), expected ${count}`);
  }
  for (const kind of LIVE_KINDS) {
    const want = expected.live?.[kind] ?? 0;
    if ((live[kind] ?? 0) !== want) problems.push(`${live[kind] ?? 0} ${kind} live at the end, expected ${want}`);
  }
  return problems.length === 0 ? undefined : problems.join('; ');
}

/** True when the run stopped where and how `expected.stop` says, with no failed call and the expected calls before it. */
function designedStop(
  expected: Expectation | undefined,
  at: string,
  message: string,
  calls: readonly { fn: string; ret: number }[],
): boolean {
  const stop = expected?.stop;
  if (stop === undefined || !(at === stop.at || at.startsWith(`${stop.at}:`)) || !message.startsWith(stop.message)) return false;
  if (calls.some((call) => call.ret !== 0)) return false;
  return Object.entries(expected?.calls ?? {}).every(([fn, count]) => calls.filter((call) => call.fn === fn).length === count);
}

const HERE = dirname(fileURLToPath(import.meta.url));
const entries = JSON.parse(readFileSync(join(HERE, 'manifest.json'), 'utf8')) as Entry[];
const runs = JSON.parse(readFileSync(join(HERE, 'entries.json'), 'utf8')) as Record<string, EntryRun>;

/** The entry's files joined, headers first (so the sources see their declarations, as an #include would put them), and where each starts. */
interface Joined {
  readonly code: string;
  readonly starts: readonly { readonly name: string; readonly line: number }[];
}

function sourceOf(entry: Entry): Joined | undefined {
  const names = entry.files.map((file) => file.path.split('/').at(-1) ?? file.path);
  const ordered = [...names].sort((a, b) => Number(!/\.h(pp)?$/.test(a)) - Number(!/\.h(pp)?$/.test(b)));
  const texts: string[] = [];
  const starts: { name: string; line: number }[] = [];
  let line = 1;
  for (const name of ordered) {
    const path = join(HERE, entry.id, name);
    if (!existsSync(path)) return undefined;
    const text = readFileSync(path, 'utf8');
    starts.push({ name, line });
    texts.push(text);
    line += text.split('\n').length;
  }
  return { code: texts.join('\n'), starts };
}

/** `memcpy_host_device.cpp:98:5` for a line:column of the joined text. */
function where(joined: Joined, line: number, column: number): string {
  const file = [...joined.starts].reverse().find((start) => start.line <= line) ?? joined.starts[0];
  return file === undefined ? `${line}:${column}` : `${file.name}:${line - file.line + 1}:${column}`;
}

async function runEntry(entry: Entry): Promise<Outcome> {
  const joined = sourceOf(entry);
  if (joined === undefined) return { id: entry.id, result: 'missing', detail: 'files not brought in' };
  const code = joined.code;
  const run = runs[entry.id];
  const inputs = run?.inputs ?? [];
  const compiled = compile(code, {
    inputs: inputs.map((input) => input.name),
    ...(run?.defines === undefined ? {} : { defines: run.defines }),
    ...(run?.entry === undefined ? {} : { entry: run.entry }),
  });
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  const entryError = errors.find((d) => d.kind === 'entry');
  if (errors.length > 0 && entryError !== undefined && errors.length === 1) {
    return { id: entry.id, result: 'no-entry', detail: entryError.message.slice(0, 160) };
  }
  const first = errors.find((d) => d.kind !== 'entry');
  if (first !== undefined) {
    const at = where(joined, first.line, first.column);
    if (designedStop(run?.expect, at, first.message, []))
      return { id: entry.id, result: 'designed', detail: `${at} ${first.message}`.slice(0, 220) };
    return { id: entry.id, result: 'compile', detail: `${at} ${first.message}`.slice(0, 220) };
  }
  if (compiled.program.functions.size === 0 && compiled.program.topLevel.length === 0)
    return { id: entry.id, result: 'empty', detail: "nothing to run: every line sits inside a build flag's #ifdef that is not defined" };
  const host = new SimHost(run?.devices === undefined ? {} : { devices: Array.from({ length: run.devices }, () => ASCEND_910B2) });
  const ex = new Execution(compiled.program, new SimRuntime(host), {
    stepLimit: 2_000_000,
    inputs,
    ...(run?.entry === undefined ? {} : { entry: run.entry }),
    ...(run?.setup === undefined ? {} : { setup: run.setup }),
    ...(run?.argv === undefined ? {} : { argv: run.argv }),
  });
  const outcome = await ex.run();
  if (outcome.state !== 'finished') {
    const at = outcome.error === undefined ? '' : where(joined, outcome.error.line, outcome.error.column);
    if (outcome.error !== undefined && designedStop(run?.expect, at, outcome.error.message, ex.calls))
      return { id: entry.id, result: 'designed', detail: `${at} ${outcome.error.message}`.slice(0, 220) };
    return {
      id: entry.id,
      result: 'runtime',
      detail:
        `${outcome.error === undefined ? '' : where(joined, outcome.error.line, outcome.error.column)} ${outcome.error?.message ?? outcome.state}`.slice(
          0,
          220,
        ),
    };
  }
  const failed = ex.calls.filter((call) => call.ret !== 0);
  if (failed.length > 0) {
    return {
      id: entry.id,
      result: 'acl-errors',
      detail: failed
        .map((call) => `${call.fn} ${call.ret}`)
        .slice(0, 4)
        .join(', '),
    };
  }
  if (process.argv.includes('--calls')) {
    const counts = new Map<string, number>();
    for (const call of ex.calls) counts.set(call.fn, (counts.get(call.fn) ?? 0) + 1);
    write(`${entry.id}: ${JSON.stringify(Object.fromEntries(counts))}`);
  }
  const ran = run?.entry === undefined ? '' : `${run.entry}(): `;
  const live = liveOn(host);
  const shown = Object.entries(live).map(([kind, count]) => `${count} ${kind}`);
  const end = `${ran}${ex.calls.length} ACL calls, exit ${outcome.exitCode ?? '-'}, live at the end: ${shown.length === 0 ? 'nothing' : shown.join(', ')}`;
  if (run?.expect === undefined) return { id: entry.id, result: 'unexpected', detail: `${end} (no expectation in entries.json)` };
  const problem = unmet(run.expect, outcome.exitCode, ex.calls, live);
  if (problem !== undefined) return { id: entry.id, result: 'unexpected', detail: `${end}: ${problem}` };
  return { id: entry.id, result: 'clean', detail: `${end} (as expected)` };
}

/** One line of the report on stdout. */
function write(line: string): void {
  process.stdout.write(`${line}\n`);
}

const outcomes: Outcome[] = [];
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
for (const entry of entries) if (only.length === 0 || only.includes(entry.id)) outcomes.push(await runEntry(entry));
const counts = new Map<string, number>();
for (const outcome of outcomes) counts.set(outcome.result, (counts.get(outcome.result) ?? 0) + 1);
if (process.argv.includes('--markdown')) {
  write('| Entry | Result | Detail |\n|---|---|---|');
  for (const o of outcomes) write(`| ${o.id} | ${o.result} | ${o.detail.replaceAll('|', '\\|')} |`);
} else {
  for (const o of outcomes) write(`${o.result.padEnd(10)} ${o.id.padEnd(40)} ${o.detail}`);
}
write(`\n${[...counts].map(([result, n]) => `${result}: ${n}`).join(', ')} (of ${outcomes.length})`);
