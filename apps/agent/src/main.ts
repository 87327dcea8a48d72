import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import type { AclBackendOptions } from './backends/acl/acl-backend.ts';
import { aclBackendFactory } from './backends/acl/factory.ts';
import { BackendRegistry } from './backends/backend.ts';
import { simBackendFactory } from './backends/sim/sim-backend.ts';
import { buildProgram } from './cli/program.ts';
import { runFlags, runProgram } from './cli/run.ts';
import { serve } from './cli/serve.ts';
import { replayJournal } from './journal/replay.ts';

const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));
const DEFAULT_JOURNAL_DIR = join(homedir(), '.pagelens', 'journal');

/** The backends by name; the acl backend is built with the command line's ACL options. */
export function createRegistry(acl: AclBackendOptions = { allowMutations: false, sampleMs: 1000, env: process.env }): BackendRegistry {
  return new BackendRegistry().register(simBackendFactory).register(aclBackendFactory(acl));
}

/** Runs the `pagelens` command line and returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram(
    { webDir: DEFAULT_WEB_DIR, journalDir: DEFAULT_JOURNAL_DIR },
    {
      serve: (options) =>
        serve(
          options,
          createRegistry({
            ...(options.aclLib === undefined ? {} : { aclLib: options.aclLib }),
            allowMutations: options.allowMutations,
            sampleMs: options.sampleMs,
            env: process.env,
          }),
        ),
      doctor: async (options) =>
        (await import('./backends/acl/doctor.ts')).runDoctor({
          ...(options.aclLib === undefined ? {} : { aclLib: options.aclLib }),
          env: process.env,
          out: (line) => process.stdout.write(`${line}\n`),
        }),
      stats: async (file, options) =>
        (await import('./cli/stats.ts')).runStats(file, options, {
          out: (text) => process.stdout.write(text),
          err: (text) => process.stderr.write(text),
        }),
      open: async (file, options, flags) =>
        (await import('./cli/open.ts')).openFile(file, options, flags, (text) => process.stderr.write(text)),
      export: async (file, options) =>
        (await import('./cli/export.ts')).runExport(file, options, {
          out: (text) => process.stdout.write(text),
          err: (text) => process.stderr.write(text),
        }),
      run: (options, flags, argv) => runProgram(options, flags, argv, createRegistry()),
      flags: () =>
        runFlags(
          (text) => process.stdout.write(text),
          (text) => process.stderr.write(text),
        ),
      replay: (file, options) => replayJournal(file, { quiet: options.quiet, out: (line) => process.stdout.write(`${line}\n`) }),
    },
    (code) => {
      exitCode = code;
    },
  ).exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof Error && Reflect.get(error, 'code') === 'EADDRINUSE') {
      process.stderr.write(`pagelens: the port is already in use (${message}); pass --port 0 for a free port or choose another\n`);
    } else {
      process.stderr.write(`pagelens: ${message}\n`);
    }
    return 1;
  }
}
