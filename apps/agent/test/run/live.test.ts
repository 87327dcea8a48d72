import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentMessage } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/ws-client.ts';
import { BIN, compilers, pagelens, TEST_ENV, transcript } from './support.ts';

const SOURCE = fileURLToPath(new URL('./live/wait_stdin.c', import.meta.url));

describe('pagelens run without --check', () => {
  it('serves the explorer: a viewer sees the program’s process and its allocation while it runs, and the run exits with its status after Ctrl-C', async () => {
    const flags = (await pagelens(['flags'])).stdout.trim().split(/\s+/);
    const program = join(mkdtempSync(join(tmpdir(), 'pagelens-live-')), 'wait_stdin');
    execFileSync(compilers().c, [...flags, SOURCE, '-o', program], { stdio: 'pipe' });
    const child = spawn(process.execPath, [BIN, '--port', '0', '--no-journal', 'run', '--', program], {
      env: TEST_ENV,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const stdout = transcript(child.stdout);
    const stderr = transcript(child.stderr);
    const url = await stdout.printed(/Open: http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+)/);
    await stdout.printed(/allocated 0x[0-9a-f]+/);
    const viewer = await TestClient.connect(Number(url[1]), url[2] ?? '');
    await viewer.hello('viewer');
    const running = [...viewer.replica.processes.values()].find((item) => item.name.startsWith('wait_stdin [pid '));
    expect(running).toBeDefined();
    const allocations = [...viewer.replica.allocations.values()].filter((item) => item.pid === running?.pid);
    expect(allocations.map((item) => [item.fn, item.size, item.pageSize])).toEqual([['aclrtMalloc', 5 * 1024 * 1024, 2 * 1024 * 1024]]);
    // The processes panel's list: the run, simulated, running, with its calls counted.
    const run = (state: string) => (message: AgentMessage) =>
      message.type === 'runs' && message.runs.some((item) => item.pid === running?.pid && item.state === state);
    const listed = await viewer.waitFor(run('running'));
    expect(listed.type === 'runs' && listed.runs.find((item) => item.pid === running?.pid)).toMatchObject({
      mode: 'simulated',
      command: program,
      calls: 2,
      errors: 0,
      dropped: 0,
    });
    // Each call event names the program's calling thread (its only one: the main thread, whose tid is its pid).
    const osPid = listed.type === 'runs' ? listed.runs.find((item) => item.pid === running?.pid)?.osPid : undefined;
    // The program frees and exits; the viewer sees the free, and the agent keeps serving.
    const freed = viewer.waitFor((message) => message.type === 'events' && message.events.some((event) => event.kind === 'free'));
    const ended = stderr.printed(/wait_stdin, pid \d+\) exited with code 7/);
    child.stdin.end('go\n');
    await freed;
    await ended;
    expect([...viewer.replica.allocations.values()].filter((item) => item.pid === running?.pid)).toEqual([]);
    const calls = viewer.events.filter((event) => event.kind === 'call' && event.pid === running?.pid);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((event) => event.kind === 'call' && event.thread === osPid)).toBe(true);
    const finished = await viewer.waitFor(run('exited'), 10_000);
    expect(finished.type === 'runs' && finished.runs.find((item) => item.pid === running?.pid)).toMatchObject({ state: 'exited', code: 7 });
    // A driver resets the host: the run stays listed as history, marked as before the reset, its process gone from the model.
    const driver = await TestClient.connect(Number(url[1]), url[2] ?? '');
    await driver.hello('driver');
    const history = viewer.waitFor((message) => message.type === 'runs' && message.runs.some((item) => item.beforeReset === true), 10_000);
    driver.send({ type: 'reset' });
    const marked = await history;
    expect(marked.type === 'runs' && marked.runs).toEqual([
      expect.objectContaining({ run: 1, pid: running?.pid, state: 'exited', code: 7, beforeReset: true }),
    ]);
    // The new host numbers processes from the start again (the driver's may take the program's old pid): the program's is gone.
    await viewer.waitFor(() => [...viewer.replica.processes.values()].every((item) => !item.name.startsWith('wait_stdin [pid ')), 10_000);
    driver.socket.close();
    child.kill('SIGINT');
    expect(await exited).toBe(7);
    viewer.socket.close();
  });
});
