import { statSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { ASCEND_910B2 } from '@pagelens/core';
import { afterEach, describe, expect, it } from 'vitest';
import { SimBackend } from '../../src/backends/sim/sim-backend.ts';
import { endProgram } from '../../src/run/program-end.ts';
import { type ProgramSession, type RunServer, startRunServer } from '../../src/run/run-server.ts';
import { silentLogger } from '../../src/server/logger.ts';

/** A line-at-a-time client of the run socket, as the interposer speaks it. */
function client(path: string) {
  const socket: Socket = connect(path);
  socket.setEncoding('utf8');
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      waiting.shift()?.(line);
    }
  });
  const ask = (line: string) =>
    new Promise<string>((resolve) => {
      waiting.push(resolve);
      socket.write(`${line}\n`);
    });
  const call = (fn: string, args: Record<string, unknown>, thread = 1) => ask(JSON.stringify({ f: fn, t: thread, s: '0x0', a: args }));
  return { socket, ask, call };
}

let server: RunServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start() {
  const backend = new SimBackend(ASCEND_910B2, 1, 1);
  const sessions: ProgramSession[] = [];
  server = await startRunServer({ backend, log: silentLogger, onProgram: (session) => sessions.push(session) });
  return { backend, sessions, server };
}

describe('the run socket', () => {
  it('lives in a private directory: 0700, the socket 0600', async () => {
    const { server } = await start();
    expect(statSync(dirname(server.socketPath)).mode & 0o777).toBe(0o700);
    expect(statSync(server.socketPath).mode & 0o777).toBe(0o600);
  });

  it('refuses a hello without the session token and opens no process', async () => {
    const { server, backend, sessions } = await start();
    const before = backend.state().processes.size;
    const wrong = client(server.socketPath);
    expect(await wrong.ask(JSON.stringify({ hello: 1, pid: 1, token: 'not-the-token', argv: ['x'] }))).toBe('no');
    const noHello = client(server.socketPath);
    expect(await noHello.call('aclrtSetDevice', { deviceId: 0 })).toBe('no');
    expect(backend.state().processes.size).toBe(before);
    expect(sessions).toHaveLength(0);
  });

  it('runs calls as the program’s process, translating its real pinned memory, and reclaims it at the end (LT-3)', async () => {
    const { server, backend, sessions } = await start();
    const program = client(server.socketPath);
    const hello = await program.ask(JSON.stringify({ hello: 1, pid: 4242, token: server.token, argv: ['./app', '--fast'] }));
    expect(hello).toMatch(/^ok \d+$/);
    const pid = Number(hello.split(' ')[1]);
    expect(backend.state().processes.get(pid)?.name).toBe('app [pid 4242]');
    expect(await program.call('aclrtSetDevice', { deviceId: 0 })).toBe('0');
    const malloc = await program.call('aclrtMalloc', { size: 4096, policy: 2 });
    expect(malloc).toMatch(/^0 0x1[0-9a-f]{11}$/);
    const devPtr = malloc.split(' ')[1];
    // The interposer mapped real memory at 0x7f1234560000 before asking; the program gets it back.
    expect(await program.call('aclrtMallocHost', { size: 8192, __real: '0x7f1234560000' })).toBe('0 0x7f1234560000');
    expect(await program.call('aclrtMemcpy', { dst: devPtr, destMax: 4096, src: '0x7f1234560100', count: 4096, kind: 1 })).toBe('0');
    const copy = backend.state().copies.at(-1);
    expect(copy?.bytes).toBe(4096);
    // A buffer of the program's own (std::vector storage): pageable host memory of that process.
    expect(await program.call('aclrtMemcpy', { dst: '0x55aa00001010', destMax: 100, src: devPtr, count: 100, kind: 2 })).toBe('0');
    const pageable = [...backend.state().hostBuffers.values()].filter((buffer) => buffer.pid === pid && buffer.memory === 'pageable');
    expect(pageable).toHaveLength(1);
    // A NULL out-pointer is refused at the acl layer, and recorded.
    expect(await program.call('aclrtCreateStream', { __nullOut: 'stream' })).toBe('100000');
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    if (session === undefined) throw new Error('no session');
    expect(session.bridge.record.errors.map((error) => error.fn)).toEqual(['aclrtCreateStream']);
    program.socket.end();
    await session.closed;
    const end = await endProgram(session, backend, { code: 0 }, silentLogger);
    expect(end.leaks.map((leak) => [leak.kind, leak.value])).toEqual([
      ['device memory', devPtr],
      ['pinned host memory', '0x7f1234560000'],
    ]);
    expect(Object.fromEntries(end.reclaimed)).toEqual({ aclrtFree: 1, aclrtFreeHost: 1, free: 1, aclrtResetDeviceForce: 1 });
    const left = (items: Iterable<{ readonly pid: number }>) => [...items].filter((item) => item.pid === pid).length;
    expect(left(backend.state().allocations.values()) + left(backend.state().hostBuffers.values())).toBe(0);
  });

  it('keeps each host thread’s current context (CX-1 per thread)', async () => {
    const { server, backend } = await start();
    const program = client(server.socketPath);
    const pid = Number((await program.ask(JSON.stringify({ hello: 1, pid: 7, token: server.token, argv: ['t'] }))).split(' ')[1]);
    expect(await program.call('aclrtSetDevice', { deviceId: 0 }, 1)).toBe('0');
    const a = (await program.call('aclrtCreateContext', { deviceId: 0 }, 1)).split(' ')[1];
    const b = (await program.call('aclrtCreateContext', { deviceId: 0 }, 2)).split(' ')[1];
    expect(a).not.toBe(b);
    // Thread 1 made context a current, thread 2 then b: each thread still sees its own.
    expect(await program.call('aclrtGetCurrentContext', {}, 1)).toBe(`0 ${a}`);
    expect(await program.call('aclrtGetCurrentContext', {}, 2)).toBe(`0 ${b}`);
    const stream = (await program.call('aclrtCreateStream', {}, 1)).split(' ')[1];
    const owner = [...backend.state().streams.values()].find((item) => item.pid === pid && `0x${item.handle.toString(16)}` === stream);
    expect(
      backend
        .state()
        .contexts.get(owner?.context ?? -1)
        ?.handle.toString(16),
    ).toBe(a?.slice(2));
  });
});
