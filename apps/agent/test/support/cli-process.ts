import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';

const BIN = fileURLToPath(new URL('../../bin/pagelens.mjs', import.meta.url));
const children: ChildProcess[] = [];

// A failed assertion must not leave an agent running: stop every child a test started.
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

/** The real `pagelens` command line with exactly `env`; its output as it comes, and its exit. */
export function spawnCli(args: readonly string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  /** Resolves with the first match of `pattern` in stdout (within 20 s). */
  const printed = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no match for ${pattern} in: ${stdout} ${stderr}`)), 20_000);
      const check = () => {
        const match = pattern.exec(stdout);
        if (match === null) return;
        clearTimeout(timer);
        resolve(match);
      };
      child.stdout?.on('data', check);
      check();
    });
  return { child, exited, printed, output: () => ({ stdout, stderr }) };
}
