import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { BackendRegistry } from './backends/backend.ts';
import { simBackendFactory } from './backends/sim/sim-backend.ts';
import { buildProgram } from './cli/program.ts';
import { serve } from './cli/serve.ts';
import { replayJournal } from './journal/replay.ts';

const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));
const DEFAULT_JOURNAL_DIR = join(homedir(), '.pagelens', 'journal');

export function createRegistry(): BackendRegistry {
  return new BackendRegistry().register(simBackendFactory);
}

/** Runs the `pagelens` command line and returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const registry = createRegistry();
  const program = buildProgram(
    { webDir: DEFAULT_WEB_DIR, journalDir: DEFAULT_JOURNAL_DIR },
    {
      serve: (options) => serve(options, registry),
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
