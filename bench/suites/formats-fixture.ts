import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { writePickleChunks } from '../../packages/core/test/formats/pickle-writer.ts';
import { type FixtureOptions, makeSnapshot } from '../../packages/core/test/formats/snapshot-fixtures.ts';

/**
 * What the formats suites share: the generated snapshot file on disk, and the loader of an earlier
 * commit to run beside the current one.
 *
 * Writing a 1 M-event snapshot takes minutes on this machine, longer than parsing it, so the file
 * is kept in the temp directory under a name made of the generator's options and the text of the
 * two files that write it: a changed generator writes a new file, an unchanged one is reused.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GENERATOR = ['packages/core/test/formats/snapshot-fixtures.ts', 'packages/core/test/formats/pickle-writer.ts'];

export interface SnapshotFile {
  readonly path: string;
  readonly bytes: number;
  /** Trace entries written (device 0's, the fixtures' truth). */
  readonly events: number;
  /** Whether this run wrote it (false: an identical earlier one was reused). */
  readonly written: boolean;
}

export function snapshotFile(options: FixtureOptions): SnapshotFile {
  const hash = createHash('sha256').update(JSON.stringify(options));
  for (const file of GENERATOR) hash.update(readFileSync(join(ROOT, file)));
  const path = join(tmpdir(), `pagelens-bench-snapshot-${hash.digest('hex').slice(0, 16)}.pickle`);
  const facts = `${path}.json`;
  if (existsSync(path) && existsSync(facts)) {
    const { bytes, events } = JSON.parse(readFileSync(facts, 'utf8')) as { bytes: number; events: number };
    if (statSync(path).size === bytes) return { path, bytes, events, written: false };
  }
  const fixture = makeSnapshot(options);
  const events = fixture.truth[0]?.length ?? 0;
  const partial = `${path}.${process.pid}.partial`;
  const fd = openSync(partial, 'w');
  try {
    for (const chunk of writePickleChunks(fixture.data)) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, path);
  const bytes = statSync(path).size;
  writeFileSync(facts, JSON.stringify({ bytes, events }));
  return { path, bytes, events, written: true };
}

/** The loader class both versions export (open-file.ts). */
export interface LoaderClass {
  new (options: {
    totalBytes?: number;
  }): { push(chunk: Uint8Array): void; finish(): { deviceTraces: readonly { readonly length: number }[] } };
}

/**
 * The reader and normaliser as they were before the scale work (issue 16), for a side-by-side
 * run; PAGELENS_BENCH_BASELINE names another commit. Undefined, with the reason, when git or the
 * commit is not there.
 */
export const BASELINE_COMMIT = process.env.PAGELENS_BENCH_BASELINE ?? 'e669c3720b6e3eb27fd39340dbb6dd3007291719';

/** `packages/core/src` as it was at `commit`, unpacked once into the temp directory; the directory holding it. */
export function baselineCore(commit: string): string {
  const dir = join(tmpdir(), `pagelens-bench-baseline-${commit.slice(0, 12)}`);
  if (!existsSync(join(dir, 'packages/core/src/index.ts'))) {
    mkdirSync(dir, { recursive: true });
    const archive = execFileSync('git', ['-C', ROOT, 'archive', commit, 'packages/core/src'], { maxBuffer: 1 << 28 });
    execFileSync('tar', ['-x', '-C', dir], { input: archive });
  }
  return dir;
}

export async function baselineLoader(): Promise<{ loader: LoaderClass; commit: string } | { why: string }> {
  try {
    const entry = join(baselineCore(BASELINE_COMMIT), 'packages/core/src/formats/open-file.ts');
    const module = (await import(pathToFileURL(entry).href)) as { SnapshotLoader: LoaderClass };
    return { loader: module.SnapshotLoader, commit: BASELINE_COMMIT.slice(0, 7) };
  } catch (error) {
    return {
      why: `no baseline (commit ${BASELINE_COMMIT.slice(0, 7)}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
    };
  }
}
