import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateHeaders } from './header-gen.ts';
import { generateStructCodecs, generateStubs } from './stub-gen.ts';
import { generateTraceStubs } from './trace-gen.ts';

/*
 * Builds PageLens's headers and its interposer libascendcl.so with the system C compiler, once per
 * source: the cache directory is named by the hash of every input (the C sources in
 * apps/agent/native/interposer and trace, the generated files, this recipe), so a changed catalogue
 * makes a new build and an unchanged one is reused. $PAGELENS_CACHE_DIR overrides the cache root.
 */

const SOURCES = fileURLToPath(new URL('../../../native/interposer/', import.meta.url));
const TRACE_SOURCES = fileURLToPath(new URL('../../../native/trace/', import.meta.url));

export interface NativeBuild {
  /** Holds acl/acl.h. */
  readonly include: string;
  /** Holds libascendcl.so (simulation mode). */
  readonly lib: string;
  readonly library: string;
  /** Trace mode's preload library (in its own directory, so it is never found as libascendcl.so). */
  readonly traceLibrary: string;
}

export class NoCompilerError extends Error {}

export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.PAGELENS_CACHE_DIR !== undefined && env.PAGELENS_CACHE_DIR !== '') return env.PAGELENS_CACHE_DIR;
  const base = env.XDG_CACHE_HOME !== undefined && env.XDG_CACHE_HOME !== '' ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'pagelens', 'native');
}

/** The C compiler: $CC, else cc; a clear error when there is none. */
export function findCompiler(env: NodeJS.ProcessEnv = process.env): string {
  const cc = env.CC !== undefined && env.CC !== '' ? env.CC : 'cc';
  try {
    execFileSync(cc, ['--version'], { stdio: 'ignore' });
  } catch {
    throw new NoCompilerError(
      `pagelens needs a C compiler to build its ACL headers and interposer library, and "${cc}" could not be run. ` +
        'Install one (Debian/Ubuntu: sudo apt-get install gcc; Fedora: sudo dnf install gcc) or point $CC at one.',
    );
  }
  return cc;
}

interface Input {
  readonly path: string;
  readonly text: string;
}

function read(dir: string): Input[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.c') || name.endsWith('.h'))
    .sort()
    .map((name) => ({ path: name, text: readFileSync(join(dir, name), 'utf8') }));
}

function inputs(): { readonly sources: Input[]; readonly trace: Input[]; readonly headers: Input[] } {
  const sources = read(SOURCES);
  sources.push({ path: 'pl_stubs.c', text: generateStubs() }, { path: 'pl_structs.h', text: generateStructCodecs() });
  const trace = read(TRACE_SOURCES);
  trace.push({ path: 'pt_stubs.c', text: generateTraceStubs() });
  return { sources, trace, headers: generateHeaders().map((file) => ({ path: file.path, text: file.text })) };
}

function compile(cc: string, output: string, include: string, src: string, files: readonly Input[]): void {
  const cFiles = files.filter((file) => file.path.endsWith('.c')).map((file) => join(src, file.path));
  try {
    execFileSync(
      cc,
      [
        '-shared',
        '-fPIC',
        '-O2',
        '-fvisibility=hidden',
        '-Wall',
        '-Wextra',
        '-Wno-unused-parameter',
        '-I',
        include,
        '-I',
        src,
        '-o',
        output,
        ...cFiles,
        '-lpthread',
        '-ldl',
      ],
      { stdio: 'pipe' },
    );
  } catch (error) {
    const stderr = error instanceof Error && 'stderr' in error ? String(error.stderr) : String(error);
    throw new Error(`building the PageLens native library ${output} with ${cc} failed:\n${stderr}`);
  }
}

function write(dir: string, files: readonly Input[]): void {
  for (const file of files) {
    mkdirSync(dirname(join(dir, file.path)), { recursive: true });
    writeFileSync(join(dir, file.path), file.text);
  }
}

/** Builds (or finds in the cache) the headers and the interposer. */
export function buildNative(env: NodeJS.ProcessEnv = process.env): NativeBuild {
  const { sources, trace, headers } = inputs();
  const hash = createHash('sha256');
  // This file is the build recipe (flags, outputs): a change to it makes a new build too.
  hash.update(readFileSync(fileURLToPath(import.meta.url), 'utf8'));
  for (const file of [...sources, ...trace, ...headers]) hash.update(`${file.path}\0${file.text}\0`);
  const dir = join(cacheRoot(env), hash.digest('hex').slice(0, 16));
  const build: NativeBuild = {
    include: join(dir, 'include'),
    lib: join(dir, 'lib'),
    library: join(dir, 'lib', 'libascendcl.so'),
    traceLibrary: join(dir, 'trace', 'libpagelens_trace.so'),
  };
  if (existsSync(build.library) && existsSync(build.traceLibrary)) return build;
  const cc = findCompiler(env);
  // Built in a private directory and renamed into place: two builds at once do not see half a cache.
  const partial = `${dir}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  write(join(partial, 'include'), headers);
  write(join(partial, 'src'), sources);
  write(join(partial, 'trace-src'), trace);
  mkdirSync(join(partial, 'lib'), { recursive: true });
  mkdirSync(join(partial, 'trace'), { recursive: true });
  compile(cc, join(partial, 'lib', 'libascendcl.so'), join(partial, 'include'), join(partial, 'src'), sources);
  // CANN 8.5 and later also ship the runtime calls as libacl_rt.so (reference/acl-api.md §1).
  symlinkSync('libascendcl.so', join(partial, 'lib', 'libacl_rt.so'));
  compile(cc, join(partial, 'trace', 'libpagelens_trace.so'), join(partial, 'include'), join(partial, 'trace-src'), trace);
  try {
    renameSync(partial, dir);
  } catch {
    // Another build won the race; its result is the same.
    rmSync(partial, { recursive: true, force: true });
  }
  return build;
}

/** `pagelens flags`: what to compile and link ACL code against PageLens's headers and library. */
export function compileFlags(build: NativeBuild): string {
  // --no-as-needed: `cc $(pagelens flags) app.c` names the library before the code that needs it.
  return `-I${build.include} -L${build.lib} -Wl,--no-as-needed -lascendcl`;
}
