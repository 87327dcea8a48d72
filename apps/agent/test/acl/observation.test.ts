import { GiB, MiB, type PoolSampleEvent } from '@pagelens/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AclBackend } from '../../src/backends/acl/acl-backend.ts';
import { freshDouble } from './support/acl-double.ts';

// Each backend starts a native thread that compiles its TypeScript: slow on a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

/*
 * What the backend observes (DM-15): which pool served each allocation, from the double's pools.
 * The double applies the RULES.md rounding, so the deltas mean something; this is observed from
 * the double, not from hardware.
 */

const opened: AclBackend[] = [];

async function session(env: Record<string, string> = {}, allowMutations = true, sampleMs = 0) {
  Object.assign(process.env, env);
  const backend = await AclBackend.open({ aclLib: freshDouble().lib, allowMutations, sampleMs, env: {} });
  opened.push(backend);
  const runtime = backend.openProcess('observer').runtime;
  return { backend, runtime };
}

afterEach(async () => {
  for (const backend of opened.splice(0)) await backend.close();
  delete process.env.ACL_DOUBLE_HUGE_MB;
});

describe('which pool served an allocation', () => {
  it('DM-4: aclrtMalloc(1 MiB) pads past 1 MiB and takes a huge page; aclrtMallocAlign32(1 MiB) takes normal pages', async () => {
    const { backend, runtime } = await session();
    await runtime.aclrtSetDevice({ deviceId: 0 });
    await runtime.aclrtMalloc({ size: MiB, policy: 0 });
    await runtime.aclrtMallocAlign32({ size: MiB, policy: 0 });
    const [padded, aligned] = backend.state().allocations.values();
    expect(padded).toMatchObject({ padded: MiB + 32, pageClass: 'huge', pageSize: 2 * MiB, pages: 1, runs: [] });
    expect(aligned).toMatchObject({ padded: MiB, pageClass: 'normal', pageSize: 4096, pages: 256, runs: [] });
  });

  it('DM-4: a HUGE_FIRST fallback to normal pages is visible, with what the huge pool held', async () => {
    const { backend, runtime } = await session({ ACL_DOUBLE_HUGE_MB: '4' });
    await runtime.aclrtSetDevice({ deviceId: 0 });
    expect(await runtime.aclrtMalloc({ size: 8 * MiB, policy: 0 })).toMatchObject({ ret: 0 });
    const [allocation] = backend.state().allocations.values();
    expect(allocation).toMatchObject({
      pageClass: 'normal',
      pages: (8 * MiB + 4096) / 4096,
      fallback: { from: 'huge', needed: 5, free: 2 },
    });
    // DM-5: HUGE_ONLY has nowhere to fall back to.
    expect(await runtime.aclrtMalloc({ size: 8 * MiB, policy: 1 })).toMatchObject({ ret: 207001 });
  });

  it('aclrtMallocPhysical: the memAttr’s pool, observed; frames never claimed', async () => {
    const { backend, runtime } = await session();
    await runtime.aclrtSetDevice({ deviceId: 0 });
    const prop = { handleType: 0, allocationType: 0, memAttr: 4, location: { id: 0, type: 1 }, reserve: 0 };
    await runtime.aclrtMallocPhysical({ size: 4 * MiB, prop, flags: 0 });
    const [memory] = backend.state().physical.values();
    expect(memory).toMatchObject({ pageClass: 'huge', pages: 2, runs: [] });
    expect(backend.state().devices[0]?.frames.free.count).toBe(backend.state().devices[0]?.frames.count);
  });

  it('each allocation and free is followed by a poolSample with the bytes this agent holds', async () => {
    const { backend, runtime } = await session();
    const samples: PoolSampleEvent[] = [];
    backend.subscribe((batch) => {
      for (const event of batch) if (event.kind === 'poolSample') samples.push(event);
    });
    await runtime.aclrtSetDevice({ deviceId: 0 });
    // The device was never read: opening it reads it at once (the views show observed pools from the start).
    expect(samples).toHaveLength(1);
    expect(samples[0]).toMatchObject({ provenance: 'observed', device: 0, ownBytes: 0, pools: { huge: { free: 48 * GiB } } });
    const { devPtr } = await runtime.aclrtMalloc({ size: 3 * MiB, policy: 0 });
    await runtime.aclrtFree({ devPtr: devPtr ?? '0x0' });
    expect(samples.map((s) => s.ownBytes)).toEqual([0, 4 * MiB, 0]);
    expect(samples[1]).toMatchObject({ provenance: 'observed', device: 0, pools: { huge: { total: 48 * GiB, free: 48 * GiB - 4 * MiB } } });
    // A device already read is not read again by a second aclrtSetDevice: the sampler keeps it current.
    await runtime.aclrtSetDevice({ deviceId: 0 });
    expect(samples).toHaveLength(3);
  });
});

describe('the sampler', () => {
  it('read-only: opens one context per device and samples every device at start', async () => {
    const { backend } = await session({}, false, 1000);
    const samples = [...backend.state().devices].map((device) => device.lastSample);
    expect(samples.map((s) => s?.device)).toEqual([0, 1]);
    expect(samples[0]).toMatchObject({ provenance: 'observed', ownBytes: 0, pools: { all: { total: 64 * GiB } } });
  });

  it('with mutations allowed: samples only the devices the session holds (it borrows their contexts)', async () => {
    const { backend, runtime } = await session({}, true, 20);
    expect(backend.state().devices.map((d) => d.lastSample)).toEqual([undefined, undefined]);
    await runtime.aclrtSetDevice({ deviceId: 1 });
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(backend.state().devices[0]?.lastSample).toBeUndefined();
    expect(backend.state().devices[1]?.lastSample).toMatchObject({ device: 1, ownBytes: 0 });
  });
});
