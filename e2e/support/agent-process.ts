import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface RunningAgent {
  readonly url: string;
  readonly origin: string;
  readonly token: string;
  readonly process: ChildProcess;
  stop(): Promise<number | null>;
}

/** Starts the real `pagelens` CLI on a free port and resolves with the URL it prints. */
export function startAgent(extraArgs: readonly string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningAgent> {
  // Parallel work (several people building at once) may point the agent at its own build with PAGELENS_WEB_DIR.
  const webDir = process.env.PAGELENS_WEB_DIR;
  const args = [
    'apps/agent/bin/pagelens.mjs',
    '--port',
    '0',
    '--quiet',
    '--no-journal',
    ...(webDir === undefined ? [] : ['--web-dir', webDir]),
    ...extraArgs,
  ];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let errors = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`agent did not print its URL within 30 s:\n${output}\n${errors}`)), 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`agent exited with ${code} before printing its URL:\n${output}\n${errors}`));
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open: (http:\/\/\S+)/.exec(output);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const url = new URL(match[1]);
      resolve({
        url: url.toString(),
        origin: url.origin,
        token: url.searchParams.get('token') ?? '',
        process: child,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) {
              done(child.exitCode);
              return;
            }
            child.once('exit', (code) => done(code));
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
