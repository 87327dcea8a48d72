import { type MemoryEvent, MiB } from '@pagelens/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AclBackend } from '../../src/backends/acl/acl-backend.ts';
import { freshDouble, readLog } from './support/acl-double.ts';

// Each backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/*
 * F1: a call that blocks runs on the native thread, so the event loop keeps turning. The double's
 * copy sleeps (ACL_DOUBLE_COPY_DELAY_MS); a 10 ms interval timer must keep firing meanwhile. The
 * sleep is 300 ms rather than 200 so that a heavily loaded CI machine (timers starved by other
 * processes) still delivers 15 ticks; with the loop held, at most one tick could fire.
 */

type CopyEvent = Extract<MemoryEvent, { kind: 'copy' }>;

let backend: AclBackend;
let log: string;

beforeAll(async () => {
  const double = freshDouble();
  log = double.log;
  process.env.ACL_DOUBLE_LOG = log;
  backend = await AclBackend.open({ aclLib: double.lib, allowMutations: true, sampleMs: 0, env: {} });
});

afterAll(async () => {
  await backend.close();
  delete process.env.ACL_DOUBLE_LOG;
  delete process.env.ACL_DOUBLE_COPY_DELAY_MS;
});

describe('the event loop during a blocking call', () => {
  it('a 10 ms timer fires on time while a 300 ms copy of 2 MiB runs', async () => {
    const runtime = backend.openProcess('copy').runtime;
    await runtime.aclrtSetDevice({ deviceId: 0 });
    const dev = await runtime.aclrtMalloc({ size: 2 * MiB, policy: 0 });
    const host = await runtime.aclrtMallocHost({ size: 2 * MiB });
    const dst = dev.devPtr ?? '0x0';
    const src = host.hostPtr ?? '0x0';
    process.env.ACL_DOUBLE_COPY_DELAY_MS = '300';
    const durations: number[] = [];
    const copies: CopyEvent[] = [];
    const stop = backend.subscribe((events) => {
      for (const event of events) {
        if (event.kind === 'call' && event.fn === 'aclrtMemcpy') durations.push(event.durationNs);
        if (event.kind === 'copy') copies.push(event);
      }
    });
    const ticks: number[] = [];
    const timer = setInterval(() => ticks.push(performance.now()), 10);
    const started = performance.now();
    const result = await runtime.aclrtMemcpy({ dst, destMax: 2 * MiB, src, count: 2 * MiB, kind: 1 });
    const elapsed = performance.now() - started;
    clearInterval(timer);
    delete process.env.ACL_DOUBLE_COPY_DELAY_MS;
    stop();
    expect(result).toEqual({ ret: 0 });
    // The call event carries the wall-clock time spent inside the C call.
    expect(durations).toHaveLength(1);
    expect(durations[0]).toBeGreaterThanOrEqual(295e6);
    expect(elapsed).toBeGreaterThanOrEqual(295);
    expect(ticks.length).toBeGreaterThanOrEqual(15);
    const gaps = ticks.slice(1).map((t, i) => t - (ticks[i] ?? t));
    // No gap near the copy's 300 ms: the loop was never held (slack for a loaded CI machine).
    expect(Math.max(...gaps)).toBeLessThan(100);
    // It ran on another thread, which first made the session's context current there (V14).
    const calls = readLog(log);
    const index = calls.findLastIndex((c) => c.fn === 'aclrtMemcpy');
    const copy = calls[index];
    const malloc = calls.find((c) => c.fn === 'aclrtMalloc');
    expect(copy?.tid).not.toBe(malloc?.tid);
    expect(calls[index - 1]).toMatchObject({ fn: 'aclrtSetCurrentContext', tid: copy?.tid, ret: 0 });
    // The copy on the timeline is the C call itself, not the session's wait with the thread hop around it.
    const [event] = copies;
    const inside = durations[0] ?? 0;
    expect(copies).toHaveLength(1);
    expect(event?.end).toBe((event?.start ?? 0) + inside);
    expect(event?.submit).toBe(event?.start);
    expect(event?.bytesPerSec).toBeCloseTo(((2 * MiB) / inside) * 1e9, 3);
  });

  it('a copy of 1 MiB or less stays on the calling thread (it cannot block for long)', async () => {
    const runtime = backend.openProcess('small').runtime;
    await runtime.aclrtSetDevice({ deviceId: 0 });
    const dev = await runtime.aclrtMalloc({ size: MiB, policy: 0 });
    const host = await runtime.aclrtMallocHost({ size: MiB });
    await runtime.aclrtMemcpy({ dst: dev.devPtr ?? '0x0', destMax: MiB, src: host.hostPtr ?? '0x0', count: MiB, kind: 1 });
    const calls = readLog(log);
    const copy = calls.filter((c) => c.fn === 'aclrtMemcpy').at(-1);
    expect(copy?.tid).toBe(calls.filter((c) => c.fn === 'aclrtMalloc').at(-1)?.tid);
  });
});
