import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentMessage } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { TestClient } from '../support/ws-client.ts';
import { BIN, compilers, pagelens, TEST_ENV, transcript } from './support.ts';

/* `pagelens run --agent URL`: a program shown by an agent that is already serving, found through its program socket. */

const SOURCE = fileURLToPath(new URL('./live/wait_stdin.c', import.meta.url));

describe('pagelens run --agent', () => {
  it('runs a program against a serving agent: its viewers see the process live, and its exit status reaches the processes list', async () => {
    const flags = (await pagelens(['flags'])).stdout.trim().split(/\s+/);
    const program = join(mkdtempSync(join(tmpdir(), 'pagelens-agent-url-')), 'wait_stdin');
    execFileSync(compilers().c, [...flags, SOURCE, '-o', program], { stdio: 'pipe' });
    const agent = spawn(process.execPath, [BIN, '--port', '0', '--no-journal'], { env: TEST_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    const agentOut = transcript(agent.stdout);
    const stopped = new Promise<number | null>((resolve) => agent.on('close', (code) => resolve(code)));
    const url = await agentOut.printed(/Open: (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([0-9a-f]+))/);
    await agentOut.printed(/Programs: pagelens run --agent/);
    const viewer = await TestClient.connect(Number(url[2]), url[3] ?? '');
    await viewer.hello('viewer');

    const run = spawn(process.execPath, [BIN, 'run', '--', program], {
      env: { ...TEST_ENV, PAGELENS_AGENT: url[1] },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const runOut = transcript(run.stdout);
    const ran = new Promise<number | null>((resolve) => run.on('close', (code) => resolve(code)));
    await runOut.printed(/allocated 0x[0-9a-f]+/);
    const process_ = () => [...viewer.replica.processes.values()].find((item) => item.name.startsWith('wait_stdin [pid '));
    await viewer.waitFor(() => [...viewer.replica.allocations.values()].some((item) => item.pid === process_()?.pid), 10_000);
    run.stdin.end('go\n');
    expect(await ran).toBe(7);
    const exited = (message: AgentMessage) =>
      message.type === 'runs' && message.runs.some((item) => item.pid === process_()?.pid && item.state === 'exited' && item.code === 7);
    await viewer.waitFor(exited, 10_000);
    expect([...viewer.replica.allocations.values()].filter((item) => item.pid === process_()?.pid)).toEqual([]);
    viewer.socket.close();
    agent.kill('SIGINT');
    expect(await stopped).toBe(0);
  });

  it('says clearly when the agent is unreachable, refuses the token, or is not on this machine', async () => {
    const none = await pagelens(['run', '--agent', 'http://127.0.0.1:9/?token=abc', '--', 'true']);
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/cannot reach the PageLens agent at http:\/\/127\.0\.0\.1:9\/\?token=abc: no agent is listening there/);
    const remote = await pagelens(['run', '--agent', 'http://10.0.0.7:7300/?token=abc', '--', 'true']);
    expect(remote.stderr).toContain('must run on this machine (127.0.0.1 or localhost), not 10.0.0.7');
    const agent = spawn(process.execPath, [BIN, '--port', '0', '--no-journal'], { env: TEST_ENV, stdio: ['ignore', 'pipe', 'pipe'] });
    const stopped = new Promise<number | null>((resolve) => agent.on('close', (code) => resolve(code)));
    const url = await transcript(agent.stdout).printed(/Open: http:\/\/127\.0\.0\.1:(\d+)\//);
    const wrong = await pagelens(['run', '--agent', `http://127.0.0.1:${url[1]}/?token=0000`, '--', 'true']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('refused the token in the URL');
    agent.kill('SIGINT');
    expect(await stopped).toBe(0);
  });
});
