import { fileURLToPath } from 'node:url';
import { CommanderError } from 'commander';
import { buildProgram } from './cli/program.ts';
import { serve } from './cli/serve.ts';

const DEFAULT_WEB_DIR = fileURLToPath(new URL('../../web/dist', import.meta.url));

/** Runs the `pagelens` command line and returns the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram({ webDir: DEFAULT_WEB_DIR }, serve).exitOverride();
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return 0;
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
