import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface BenchAgent {
  readonly port: number;
  readonly token: string;
  readonly process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * The real CLI on a free port, as a user would start it. With PAGELENS_BENCH_PROFILE=<dir> each agent
 * writes a V8 CPU profile there when it exits (for finding where its time goes; never set in CI).
 */
export function startBenchAgent(args: readonly string[] = []): Promise<BenchAgent> {
  const profileDir = process.env.PAGELENS_BENCH_PROFILE;
  const profile = profileDir === undefined || profileDir === '' ? [] : ['--cpu-prof', `--cpu-prof-dir=${profileDir}`];
  const child = spawn(process.execPath, [...profile, 'apps/agent/bin/pagelens.mjs', '--port', '0', '--quiet', ...args], {
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
