/**
 * Runs every corpus entry through the playground's interpreter on a fresh simulated host and
 * reports what happened: compiled or not (the first error, with its line), and for an entry with
 * `main` (or the one function it keeps) how the run ended and how many ACL calls failed. An entry
 * without main (framework code) runs the function `entries.json` names for it, with its inputs.
 *
 *   node corpus/public/check-manifest.mjs --from /work/.mirror   # bring the files in first
 *   npx tsx corpus/public/run-corpus.ts [--markdown]
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
import { SimHost } from '../../packages/core/src/sim/sim-host.ts';
import { SimRuntime } from '../../packages/core/src/sim/sim-runtime.ts';

interface Entry {
  readonly id: string;
  readonly files: readonly { readonly path: string }[];
  readonly constructs: readonly string[];
}

interface Outcome {
  readonly id: string;
  readonly result: 'clean' | 'acl-errors' | 'compile' | 'runtime' | 'no-entry' | 'empty' | 'missing';
  readonly detail: string;
}

/** How to run an entry (entries.json): the function (for one without main), its inputs, setup statements, main's command line. */
interface EntryRun {
  readonly entry?: string;
  readonly argv?: readonly string[];
  readonly inputs?: readonly InputDecl[];
  readonly setup?: string;
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
  const compiled = compile(code, { inputs: inputs.map((input) => input.name), ...(run?.entry === undefined ? {} : { entry: run.entry }) });
  const errors = compiled.diagnostics.filter((d) => d.severity === 'error');
  const entryError = errors.find((d) => d.kind === 'entry');
  if (errors.length > 0 && entryError !== undefined && errors.length === 1) {
    return { id: entry.id, result: 'no-entry', detail: entryError.message.slice(0, 160) };
  }
  const first = errors.find((d) => d.kind !== 'entry');
  if (first !== undefined)
    return { id: entry.id, result: 'compile', detail: `${where(joined, first.line, first.column)} ${first.message}`.slice(0, 220) };
  if (compiled.program.functions.size === 0 && compiled.program.topLevel.length === 0)
    return { id: entry.id, result: 'empty', detail: "nothing to run: every line sits inside a build flag's #ifdef that is not defined" };
  const host = new SimHost({});
  const ex = new Execution(compiled.program, new SimRuntime(host), {
    stepLimit: 2_000_000,
    inputs,
    ...(run?.entry === undefined ? {} : { entry: run.entry }),
    ...(run?.setup === undefined ? {} : { setup: run.setup }),
    ...(run?.argv === undefined ? {} : { argv: run.argv }),
  });
  const outcome = await ex.run();
  if (outcome.state !== 'finished') {
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
  const ran = run?.entry === undefined ? '' : `${run.entry}(): `;
  return { id: entry.id, result: 'clean', detail: `${ran}${ex.calls.length} ACL calls, exit ${outcome.exitCode ?? '-'}` };
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
