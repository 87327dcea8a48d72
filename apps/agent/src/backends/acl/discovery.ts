import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import koffi from 'koffi';
import type { KoffiLibrary } from './declarations.ts';

/*
 * Finding the ACL runtime library (acl-api.md §1): --acl-lib, then $ASCEND_HOME_PATH/lib64,
 * $ASCEND_TOOLKIT_HOME/lib64, /usr/local/Ascend/cann/lib64 and
 * /usr/local/Ascend/ascend-toolkit/latest/lib64; in each directory libascendcl.so first (every
 * CANN release has it), then libacl_rt.so (CANN 8.5 and later).
 */

export const LIBRARY_NAMES = ['libascendcl.so', 'libacl_rt.so'] as const;
const DEFAULT_DIRECTORIES = ['/usr/local/Ascend/cann/lib64', '/usr/local/Ascend/ascend-toolkit/latest/lib64'] as const;

export interface Candidate {
  readonly path: string;
  /** Why this path was tried: "--acl-lib", "$ASCEND_HOME_PATH/lib64", or "default". */
  readonly source: string;
}

export interface Attempt extends Candidate {
  readonly outcome: 'loaded' | 'missing' | 'failed' | 'not-set';
  /** The loader's message for a file that exists but did not load. */
  readonly message?: string;
}

export type Discovery =
  | { readonly ok: true; readonly library: KoffiLibrary; readonly path: string; readonly attempts: readonly Attempt[] }
  | { readonly ok: false; readonly attempts: readonly Attempt[]; readonly report: string };

export type Environment = Readonly<Record<string, string | undefined>>;

function inDirectory(directory: string, source: string): Candidate[] {
  return LIBRARY_NAMES.map((name) => ({ path: join(directory, name), source }));
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Every path to try, in order; an unset variable is an attempt too, so the report can say so. */
export function candidates(aclLib: string | undefined, env: Environment): (Candidate | Attempt)[] {
  const list: (Candidate | Attempt)[] = [];
  if (aclLib !== undefined) {
    const path = resolve(aclLib);
    list.push(...(isDirectory(path) ? inDirectory(path, '--acl-lib') : [{ path, source: '--acl-lib' }]));
  }
  for (const variable of ['ASCEND_HOME_PATH', 'ASCEND_TOOLKIT_HOME']) {
    const value = env[variable];
    const source = `$${variable}/lib64`;
    if (value === undefined || value === '') list.push({ path: '', source, outcome: 'not-set' });
    else list.push(...inDirectory(join(value, 'lib64'), source));
  }
  for (const directory of DEFAULT_DIRECTORIES) list.push(...inDirectory(directory, 'default'));
  const seen = new Set<string>();
  return list.filter((item) => {
    if (item.path === '') return true;
    if (seen.has(item.path)) return false;
    seen.add(item.path);
    return true;
  });
}

function isAttempt(item: Candidate | Attempt): item is Attempt {
  return 'outcome' in item;
}

function load(candidate: Candidate): { attempt: Attempt; library?: KoffiLibrary } {
  if (!existsSync(candidate.path)) return { attempt: { ...candidate, outcome: 'missing' } };
  let library: KoffiLibrary;
  try {
    library = koffi.load(candidate.path);
  } catch (error) {
    return { attempt: { ...candidate, outcome: 'failed', message: error instanceof Error ? error.message : String(error) } };
  }
  try {
    library.func('aclInit', 'int32_t', ['const char *']);
  } catch {
    library.unload();
    return { attempt: { ...candidate, outcome: 'failed', message: 'it loaded but does not export aclInit: not an ACL runtime library' } };
  }
  return { attempt: { ...candidate, outcome: 'loaded' }, library };
}

/** Loads the first candidate that is an ACL runtime library. */
export function discoverLibrary(aclLib: string | undefined, env: Environment): Discovery {
  const attempts: Attempt[] = [];
  for (const item of candidates(aclLib, env)) {
    if (isAttempt(item)) {
      attempts.push(item);
      continue;
    }
    const { attempt, library } = load(item);
    attempts.push(attempt);
    if (library !== undefined) return { ok: true, library, path: item.path, attempts };
  }
  return { ok: false, attempts, report: discoveryReport(attempts) };
}

export function describeAttempt(attempt: Attempt): string {
  switch (attempt.outcome) {
    case 'not-set':
      return `${attempt.source}: not tried, the variable is not set`;
    case 'missing':
      return `${attempt.path} (${attempt.source}): no such file`;
    case 'failed':
      return `${attempt.path} (${attempt.source}): did not load: ${attempt.message ?? 'unknown error'}`;
    case 'loaded':
      return `${attempt.path} (${attempt.source}): loaded`;
  }
}

/** What to do when no library loads; the loader's own message says which dependency is missing. */
export const DISCOVERY_ADVICE = [
  'On an Ascend host, load the CANN environment in the shell that starts PageLens:',
  '    source /usr/local/Ascend/cann/set_env.sh            (CANN 8.5 and later)',
  '    source /usr/local/Ascend/ascend-toolkit/set_env.sh  (older CANN)',
  'Put the driver libraries on LD_LIBRARY_PATH before node starts (setting it later has no effect on the loader):',
  '    export LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64/driver:/usr/local/Ascend/driver/lib64/common:$LD_LIBRARY_PATH',
  'Or name the library yourself: --acl-lib /path/to/libascendcl.so',
  'No Ascend device here? Run the simulator instead: pagelens --backend sim',
];

export function discoveryReport(attempts: readonly Attempt[]): string {
  const lines = ['no ACL runtime library (libascendcl.so or libacl_rt.so) could be loaded. Tried, in order:'];
  attempts.forEach((attempt, index) => {
    lines.push(`  ${index + 1}. ${describeAttempt(attempt)}`);
  });
  lines.push('What to do:', ...DISCOVERY_ADVICE.map((line) => `  ${line}`));
  return lines.join('\n');
}

/** The C library, for malloc and free (`acl: false` in the catalogue). */
export function loadLibc(): KoffiLibrary {
  try {
    return koffi.load('libc.so.6');
  } catch {
    // musl and others: the symbols of everything already loaded into the process.
    return koffi.load(null);
  }
}
