/**
 * The corpus as compiled programs: every entry that keeps a whole program (a `main`) is built with
 * the system C++ compiler against PageLens's headers and library (`pagelens flags`, no CANN) and
 * run under `pagelens run --check` with the command line entries.json gives it. The report says,
 * per entry, whether it built (or the compiler's first error), how the program ended, its ACL calls,
 * errors, functions not modeled and leaks, and whether that matches the entry's `expect` — the
 * same expectation the playground's run is held to (run-corpus.ts), so the interpreter and the
 * interposer are checked against one reading of each program.
 *
 *   node corpus/public/check-manifest.mjs --from /work/.mirror   # bring the files in first
 *   npx tsx corpus/public/run-native.ts [entry-id…]
 *
 * Like run-corpus.ts it is a measurement, not a test (the files are not in git).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

interface Entry {
  readonly id: string;
  readonly files: readonly { readonly path: string }[];
}

interface Expectation {
  /** The playground's designed stop (run-corpus.ts): a compiled program runs past it, so there is nothing to compare. */
  readonly stop?: unknown;
  readonly exit?: number;
  readonly calls?: Readonly<Record<string, number>>;
  readonly live?: Readonly<Record<string, number>>;
}

interface EntryRun {
  readonly argv?: readonly string[];
  readonly expect?: Expectation;
  readonly defines?: Readonly<Record<string, string>>;
  /** Simulated devices the program needs (a peer-access sample returns at once on one). */
  readonly devices?: number;
}

const HERE = dirname(fileURLToPath(import.meta.url));
const CLI = join(HERE, '../../apps/agent/bin/pagelens.mjs');
const entries = JSON.parse(readFileSync(join(HERE, 'manifest.json'), 'utf8')) as Entry[];
const runs = JSON.parse(readFileSync(join(HERE, 'entries.json'), 'utf8')) as Record<string, EntryRun>;
const only = new Set(process.argv.slice(2));
const out = join(tmpdir(), 'pagelens-corpus-native');
mkdirSync(out, { recursive: true });

const flags = spawnSync(process.execPath, [CLI, 'flags'], { encoding: 'utf8' });
if (flags.status !== 0) throw new Error(`pagelens flags failed: ${flags.stderr}`);
const FLAGS = flags.stdout.trim().split(/\s+/);

/** The lines under a `--check` heading such as "ACL calls: 42", up to the next heading. */
function section(text: string, heading: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${heading}:`));
  if (start === -1) return [];
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    body.push(line.trim());
  }
  return body;
}

function calls(text: string): Map<string, number> {
  const counted = new Map<string, number>();
  for (const line of section(text, 'ACL calls')) {
    const [fn, count] = line.split(/\s+/);
    if (fn !== undefined && count !== undefined) counted.set(fn, Number(count));
  }
  return counted;
}

/** Whether the run ended as the entry expects: exit code, the calls it names, as many leaks as it leaves live. */
function unmet(text: string, code: number | undefined, expected: Expectation): string[] {
  const problems: string[] = [];
  if (expected.exit !== undefined && code !== expected.exit) problems.push(`exit ${code ?? '?'}, expected ${expected.exit}`);
  const counted = calls(text);
  for (const [fn, count] of Object.entries(expected.calls ?? {})) {
    const ran = counted.get(fn) ?? 0;
    if (ran !== count) problems.push(`${fn} ×${ran}, expected ×${count}`);
  }
  const live = Object.values(expected.live ?? {}).reduce((sum, n) => sum + n, 0);
  const leaks = section(text, 'Leaks at exit').length;
  if (leaks !== live) problems.push(`${leaks} leaks at exit, expected ${live} live`);
  return problems;
}

function runEntry(entry: Entry): string {
  const dir = join(HERE, entry.id);
  const names = entry.files.map((file) => file.path.split('/').at(-1) ?? file.path);
  const sources = names.filter((name) => /\.(c|cc|cpp)$/.test(name)).map((name) => join(dir, name));
  if (sources.some((path) => !existsSync(path))) return `missing    ${entry.id.padEnd(40)} bring the files in first`;
  if (!sources.some((path) => /\b(int|int32_t)\s+main\s*\(/.test(readFileSync(path, 'utf8')))) return '';
  const run = runs[entry.id] ?? {};
  const binary = join(out, entry.id);
  const defines = Object.entries(run.defines ?? {}).map(([name, value]) => `-D${name}=${value}`);
  const build = spawnSync('c++', ['-std=c++17', '-w', `-I${dir}`, ...defines, ...sources, ...FLAGS, '-o', binary], { encoding: 'utf8' });
  if (build.status !== 0) {
    const first = build.stderr.split('\n').find((line) => /error/.test(line)) ?? build.stderr.trim();
    return `build      ${entry.id.padEnd(40)} ${first.replace(`${dir}/`, '')}`;
  }
  const argv = run.argv?.slice(1) ?? [];
  const ran = spawnSync(
    process.execPath,
    [CLI, 'run', '--check', '--quiet', '--devices', String(run.devices ?? 1), '--', binary, ...argv],
    {
      encoding: 'utf8',
      cwd: out,
      timeout: 120_000,
    },
  );
  const text = ran.stdout;
  const ended = /exited with code (\d+)/.exec(text);
  const code = ended === null ? undefined : Number(ended[1]);
  const total = [...calls(text).values()].reduce((sum, n) => sum + n, 0);
  const errors = section(text, 'ACL errors').length;
  const notModeled = section(text, 'Not modeled (answered 207000)').length;
  const leaks = section(text, 'Leaks at exit').length;
  const summary = `${total} ACL calls, exit ${code ?? /killed by (\w+)/.exec(text)?.[1] ?? '?'}, ${errors} errors, ${notModeled} not modeled, ${leaks} leaks`;
  if (code === undefined) return `no end     ${entry.id.padEnd(40)} ${summary}: ${ran.error?.message ?? 'no exit line'}`;
  if (run.expect === undefined) return `ran        ${entry.id.padEnd(40)} ${summary} (no expectation recorded)`;
  if (run.expect.stop !== undefined)
    return `ran        ${entry.id.padEnd(40)} ${summary} (the playground's expectation is a designed stop)`;
  const problems = unmet(text, code, run.expect);
  return problems.length === 0 && errors === 0
    ? `clean      ${entry.id.padEnd(40)} ${summary} (as expected)`
    : `unexpected ${entry.id.padEnd(40)} ${summary}: ${problems.join('; ') || 'ACL errors'}`;
}

for (const entry of entries) {
  if (only.size > 0 && !only.has(entry.id)) continue;
  const line = runEntry(entry);
  if (line !== '') process.stdout.write(`${line}\n`);
}
