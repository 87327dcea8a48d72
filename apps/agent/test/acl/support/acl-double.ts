import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/*
 * Builds the C test double of the ACL ABI (apps/agent/test/acl-double) with the system C compiler
 * and hands out copies of it. A copy is a different file, so dlopen gives it fresh state.
 * TEST DOUBLE: nothing it answers is Ascend hardware behaviour.
 */

export const DOUBLE_SOURCES = fileURLToPath(new URL('../../acl-double/', import.meta.url));
const BUILD = join(DOUBLE_SOURCES, 'build');

export type Variant = 'full' | 'old';

const FLAGS: Record<Variant, string[]> = {
  full: [],
  // An "older CANN": no VMM, no aclrtPointerGetAttributes / aclrtMallocHostWithCfg / aclrtHostRegisterV2 /
  // aclrtMemGetAddressRange (v9.0.0+).
  old: ['-DNO_VMM', '-DNO_NEW_API'],
};

function compiler(): string {
  const cc = process.env.CC ?? 'cc';
  try {
    execFileSync(cc, ['--version'], { stdio: 'ignore' });
  } catch {
    throw new Error(
      `the ACL test double needs a C compiler, and "${cc}" could not be run. Install one (Debian/Ubuntu: apt-get install gcc) or set CC; CI images have gcc.`,
    );
  }
  return cc;
}

function newest(paths: readonly string[]): number {
  return Math.max(...paths.map((path) => statSync(path).mtimeMs));
}

/** Compiles the double (once per source change) and answers the path of the shared library. */
export function buildDouble(variant: Variant = 'full'): string {
  const sources = readdirSync(DOUBLE_SOURCES)
    .filter((name) => name.startsWith('double_') && name.endsWith('.c'))
    .map((name) => join(DOUBLE_SOURCES, name));
  const headers = readdirSync(DOUBLE_SOURCES)
    .filter((name) => name.endsWith('.h'))
    .map((name) => join(DOUBLE_SOURCES, name));
  const output = join(BUILD, variant, 'libascendcl.so');
  if (existsSync(output) && statSync(output).mtimeMs >= newest([...sources, ...headers])) return output;
  mkdirSync(join(BUILD, variant), { recursive: true });
  // Built under a unique name and renamed into place: test files build in parallel.
  const partial = `${output}.${process.pid}.tmp`;
  execFileSync(compiler(), ['-shared', '-fPIC', '-O1', '-Wall', '-Wextra', ...FLAGS[variant], '-o', partial, ...sources, '-lpthread'], {
    stdio: 'pipe',
  });
  renameSync(partial, output);
  return output;
}

/** A private copy of the double in a fresh directory: its own runtime state, its own log file. */
export function freshDouble(variant: Variant = 'full'): { readonly lib: string; readonly dir: string; readonly log: string } {
  const dir = mkdtempSync(join(tmpdir(), 'pagelens-acl-double-'));
  const lib = join(dir, 'libascendcl.so');
  copyFileSync(buildDouble(variant), lib);
  return { lib, dir, log: join(dir, 'calls.jsonl') };
}

/** The gcc layout of the double's structs (sizeof, _Alignof, offsetof), from a tiny C program. */
export function gccLayouts(): unknown {
  mkdirSync(BUILD, { recursive: true });
  const program = join(BUILD, `layout-${process.pid}`);
  execFileSync(compiler(), ['-Wall', '-Werror', '-o', program, join(DOUBLE_SOURCES, 'layout.c')], { stdio: 'pipe' });
  return JSON.parse(execFileSync(program, { encoding: 'utf8' }));
}

export interface LoggedCall {
  readonly seq: number;
  readonly tid: number;
  readonly fn: string;
  readonly args: Readonly<Record<string, unknown>>;
  readonly out: Readonly<Record<string, unknown>>;
  readonly ret: number;
}

function isLoggedCall(value: unknown): value is LoggedCall {
  return value !== null && typeof value === 'object' && 'fn' in value && 'args' in value && 'ret' in value;
}

/** Every call the double recorded in `log`, in order. */
export function readLog(log: string): LoggedCall[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line): unknown => JSON.parse(line))
    .filter(isLoggedCall);
}
