import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallEvent, MemoryEvent } from '@pagelens/core';
import { freshDouble } from '../acl/support/acl-double.ts';
import { TestClient } from '../support/ws-client.ts';
import { BIN, compilers, pagelens, TEST_ENV, transcript } from './support.ts';

/*
 * A traced program under `pagelens run --trace` against a fresh C test double (TEST DOUBLE, not
 * hardware), with a viewer that joins before the program's first call: the program waits for
 * "start" on stdin, and the trace library connects at its first call, so the viewer sees every
 * call event. The trace specs share this setup and keep their own checks.
 */
export async function startTraced(source: string, name: string, options: { devices?: number; libs?: readonly string[] } = {}) {
  const flags = (await pagelens(['flags'])).stdout.trim().split(/\s+/);
  const program = join(mkdtempSync(join(tmpdir(), `pagelens-${name}-`)), name);
  execFileSync(compilers().c, [...flags, source, '-o', program, ...(options.libs ?? [])], { stdio: 'pipe' });
  const double = freshDouble();
  const devices = options.devices === undefined ? [] : ['--devices', String(options.devices)];
  const args = [BIN, '--port', '0', '--no-journal', ...devices, 'run', '--trace', '--acl-lib', double.dir, '--', program];
  const child = spawn(process.execPath, args, { env: { ...TEST_ENV, ACL_DOUBLE_LOG: double.log }, stdio: ['pipe', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const stdout = transcript(child.stdout);
  const stderr = transcript(child.stderr);
  const url = await stdout.printed(/Open: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/);
  const viewer = await TestClient.connect(Number(url[1]), url[2] ?? '');
  await viewer.hello('viewer');
  const traced = () => [...viewer.replica.processes.values()].find((item) => item.name.startsWith(`${name} [pid `));
  child.stdin.write('start\n');
  await viewer.waitFor(() => traced() !== undefined, 20_000);
  const pid = traced()?.pid ?? -1;
  const calls = (): CallEvent[] =>
    viewer.events.filter((event: MemoryEvent): event is CallEvent => event.kind === 'call' && event.pid === pid);
  return { program, double, child, exited, stdout, stderr, viewer, pid, calls };
}
