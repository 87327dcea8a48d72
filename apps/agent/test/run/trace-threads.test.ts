import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readLog } from '../acl/support/acl-double.ts';
import { startTraced } from './traced-session.ts';

/*
 * CX-1 in trace mode: the current device and context are the calling thread's. The program's two
 * threads take turns (traced_threads.c); the C test double stands in for CANN and keeps a current
 * context per thread itself (TEST DOUBLE, not hardware). The agent's model of the traced process
 * must put each thread's allocation and stream on that thread's device and context.
 */

const SOURCE = fileURLToPath(new URL('./trace/traced_threads.c', import.meta.url));

describe('pagelens run --trace, per-thread current context', () => {
  it("aclrtSetDevice and aclrtCreateContext on one thread do not move another thread's allocations or streams", async () => {
    const { double, child, exited, stdout, stderr, viewer, pid, calls } = await startTraced(SOURCE, 'traced_threads', {
      devices: 2,
      libs: ['-lpthread'],
    });
    await stdout.printed(/traced_threads: ready/);
    const streams = () => [...viewer.replica.streams.values()].filter((item) => item.pid === pid && !item.isDefault);
    // The reporter thread delivers asynchronously: wait for B's stream, the last call before "ready".
    await viewer.waitFor(() => streams().length === 2, 20_000);
    await viewer.waitFor(() => calls().length === 8, 20_000);

    const logged = readLog(double.log);
    const tidOf = (fn: string, index = 0) => logged.filter((line) => line.fn === fn)[index]?.tid;
    const [a, b] = [tidOf('aclrtSetDevice', 0), tidOf('aclrtSetDevice', 1)];
    expect(a).not.toBe(b);
    expect(calls().map((call) => [call.fn, call.thread === a ? 'A' : call.thread === b ? 'B' : 'main', call.ret])).toEqual([
      ['aclInit', 'main', 0],
      ['aclrtSetDevice', 'A', 0],
      ['aclrtSetDevice', 'B', 0],
      ['aclrtCreateContext', 'B', 0],
      ['aclrtMalloc', 'A', 0],
      ['aclrtCreateStream', 'A', 0],
      ['aclrtMalloc', 'B', 0],
      ['aclrtCreateStream', 'B', 0],
    ]);
    const allocations = [...viewer.replica.allocations.values()].filter((item) => item.pid === pid);
    expect(allocations.map((item) => [item.size, item.device])).toEqual([
      [1 << 20, 0],
      [3 << 20, 1],
    ]);
    // A's stream is on its device's default context; B's on the context B created, not the default one of device 1.
    const contexts = [...viewer.replica.contexts.values()].filter((item) => item.pid === pid);
    const created = contexts.find((item) => !item.isDefault);
    const primary0 = contexts.find((item) => item.isDefault && item.device === 0);
    expect(created?.device).toBe(1);
    expect(streams().map((item) => [item.device, item.context])).toEqual([
      [0, primary0?.id],
      [1, created?.id],
    ]);

    const ended = stderr.printed(/traced process \d+ exited with code 0/);
    const done = stdout.printed(/traced_threads: (done|failed)/);
    child.stdin.end('go\n');
    expect((await done)[1]).toBe('done');
    await ended;
    // Teardown on each thread, in its own context: everything of the process is gone, no call failed.
    await viewer.waitFor(() => [...viewer.replica.allocations.values()].every((item) => item.pid !== pid), 20_000);
    expect(readLog(double.log).filter((line) => line.ret !== 0)).toEqual([]);
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    viewer.socket.close();
  });
});
