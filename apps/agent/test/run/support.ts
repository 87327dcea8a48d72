import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * The `pagelens run` tests: the real CLI, real compilers, real programs. The native cache is a
 * temporary directory shared by the test files of one machine, so the interposer builds once.
 */

export const BIN = fileURLToPath(new URL('../../bin/pagelens.mjs', import.meta.url));
export const CORPUS = fileURLToPath(new URL('./corpus/', import.meta.url));
export const TEST_ENV: NodeJS.ProcessEnv = { ...process.env, PAGELENS_CACHE_DIR: join(tmpdir(), 'pagelens-test-native') };

export interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the CLI to the end; resolves once its output streams closed. */
export function pagelens(args: readonly string[], env: NodeJS.ProcessEnv = TEST_ENV): Promise<Finished> {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr })));
}

function runs(command: string): boolean {
  try {
    execFileSync(command, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** The C compiler and the C++ driver to use: cc and c++, or what exists (g++, or gcc with libstdc++). */
export function compilers(): { readonly c: string; readonly cxx: readonly string[] } {
  const c = runs('cc') ? 'cc' : 'gcc';
  if (runs('c++')) return { c, cxx: ['c++'] };
  if (runs('g++')) return { c, cxx: ['g++'] };
  return { c, cxx: [c, '-x', 'c++'] };
}

export interface Built {
  readonly name: string;
  readonly path: string;
}

/** Compiles every program of the corpus with `flags` (what `pagelens flags` printed). */
export function buildCorpus(flags: string): Built[] {
  const out = mkdtempSync(join(tmpdir(), 'pagelens-corpus-'));
  mkdirSync(out, { recursive: true });
  const { c, cxx } = compilers();
  const split = flags.trim().split(/\s+/);
  return readdirSync(CORPUS)
    .filter((file) => file.endsWith('.c') || file.endsWith('.cpp'))
    .sort()
    .map((file) => {
      const name = basename(file, extname(file));
      const path = join(out, name);
      const isCxx = file.endsWith('.cpp');
      const [driver = c, ...lead] = isCxx ? cxx : [c];
      const tail = isCxx && driver === c ? ['-lstdc++'] : [];
      execFileSync(
        driver,
        [...lead, '-g', '-O0', '-Wall', '-Werror', '-I', CORPUS, ...split, join(CORPUS, file), '-o', path, '-lpthread', ...tail],
        {
          stdio: 'pipe',
        },
      );
      return { name, path };
    });
}

/** The lines under a summary heading such as "Leaks at exit: 4". */
export function section(stdout: string, heading: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith(heading));
  if (start < 0) return [];
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('  ')) break;
    body.push(line.trim());
  }
  return body;
}

/** Everything a stream said so far, and a wait for the first match of a pattern in it (past or future). */
export function transcript(stream: NodeJS.ReadableStream) {
  let text = '';
  const waiting: { pattern: RegExp; resolve: (match: RegExpExecArray) => void }[] = [];
  const settle = () => {
    for (const [index, item] of [...waiting.entries()].reverse()) {
      const match = item.pattern.exec(text);
      if (match === null) continue;
      waiting.splice(index, 1);
      item.resolve(match);
    }
  };
  stream.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    settle();
  });
  return {
    printed: (pattern: RegExp) =>
      new Promise<RegExpExecArray>((resolve) => {
        waiting.push({ pattern, resolve });
        settle();
      }),
  };
}
