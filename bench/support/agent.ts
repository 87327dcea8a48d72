import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BenchAgent {
  readonly port: number;
  readonly token: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/** The real CLI on a free port, as a user would start it. */
export function startBenchAgent(args: readonly string[] = []): Promise<BenchAgent> {
  const child = spawn(process.execPath, ['apps/agent/bin/pagelens.mjs', '--port', '0', '--quiet', ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`agent exited with ${code}: ${output}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open: (http:\/\/\S+)/.exec(output);
      if (match?.[1] === undefined) return;
      child.removeAllListeners('exit');
      const url = new URL(match[1]);
      resolve({
        port: Number(url.port),
        token: url.searchParams.get('token') ?? '',
        process: child,
        stop: () =>
          new Promise((done) => {
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
  });
}
