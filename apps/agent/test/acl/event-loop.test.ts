import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type MemoryEvent, MiB } from '@pagelens/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AclBackend } from '../../src/backends/acl/acl-backend.ts';
import { freshDouble, readLog } from './support/acl-double.ts';

// Each backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/*
 * F1: a call that blocks runs on the native thread, so the event loop keeps turning. Nothing here
 * is timed: the double's copy sleeps 300 ms (ACL_DOUBLE_COPY_DELAY_MS), says it is waiting (it
 * creates <release>.waiting) and waits until <release> exists (ACL_DOUBLE_COPY_RELEASE). Only a
 * JavaScript timer that has seen the marker creates <release>. Had the call held the loop, the
 * timer could not run while the C code waits and the copy would fail with 507000 once the double
 * gave up (RELEASE_MAX_MS), however busy or idle the machine.
 */

const RELEASE_MAX_MS = '30000';

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
  delete process.env.ACL_DOUBLE_COPY_RELEASE;
  delete process.env.ACL_DOUBLE_COPY_RELEASE_MAX_MS;
});

describe('the event loop during a blocking call', () => {
  it('JavaScript runs while a copy of 2 MiB blocks in C, and only JavaScript can let it finish', async () => {
    const runtime = backend.openProcess('copy').runtime;
    await runtime.aclrtSetDevice({ deviceId: 0 });
    const dev = await runtime.aclrtMalloc({ size: 2 * MiB, policy: 0 });
    const host = await runtime.aclrtMallocHost({ size: 2 * MiB });
    const dst = dev.devPtr ?? '0x0';
    const src = host.hostPtr ?? '0x0';
    const dir = mkdtempSync(join(tmpdir(), 'pagelens-release-'));
    const release = join(dir, 'release');
    process.env.ACL_DOUBLE_COPY_DELAY_MS = '300';
    process.env.ACL_DOUBLE_COPY_RELEASE = release;
    process.env.ACL_DOUBLE_COPY_RELEASE_MAX_MS = RELEASE_MAX_MS;
    const durations: number[] = [];
    const copies: CopyEvent[] = [];
    const stop = backend.subscribe((events) => {
      for (const event of events) {
        if (event.kind === 'call' && event.fn === 'aclrtMemcpy') durations.push(event.durationNs);
        if (event.kind === 'copy') copies.push(event);
      }
    });
    let settled = false;
    let releasedWhileBlocked = false;
    const started = performance.now();
    const call = runtime.aclrtMemcpy({ dst, destMax: 2 * MiB, src, count: 2 * MiB, kind: 1 }).finally(() => {
      settled = true;
    });
    // Runs only while the loop turns; releases the copy once the C code says it is inside its wait.
    const watcher = setInterval(() => {
      if (!existsSync(`${release}.waiting`)) return;
      clearInterval(watcher);
      releasedWhileBlocked = !settled;
      writeFileSync(release, '');
    }, 1);
    const result = await call;
    clearInterval(watcher);
    const elapsed = performance.now() - started;
    delete process.env.ACL_DOUBLE_COPY_DELAY_MS;
    delete process.env.ACL_DOUBLE_COPY_RELEASE;
    delete process.env.ACL_DOUBLE_COPY_RELEASE_MAX_MS;
    rmSync(dir, { recursive: true, force: true });
    stop();
    expect(result).toEqual({ ret: 0 });
    expect(releasedWhileBlocked).toBe(true);
    // The call event carries the wall-clock time spent inside the C call (the sleep is a lower bound).
    expect(durations).toHaveLength(1);
    expect(durations[0]).toBeGreaterThanOrEqual(295e6);
    expect(elapsed).toBeGreaterThanOrEqual(295);
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
