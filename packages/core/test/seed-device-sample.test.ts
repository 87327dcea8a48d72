import { describe, expect, it } from 'vitest';
import { aclrtMemcpyKind, aclrtMemMallocPolicy } from '../src/acl/enums.ts';
import { devicePools } from '../src/model/pools.ts';
import { SimHost } from '../src/sim/sim-host.ts';
import { SimRuntime } from '../src/sim/sim-runtime.ts';

const HUGE_FIRST = aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE_FIRST;
const { ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST } = aclrtMemcpyKind.byName;

/** The seed's device-memory sample (16 floats × 3 buffers, HUGE_FIRST), step by step. */
describe('seed sample: Device memory', () => {
  it('pads each 64-byte request to 96 B in one 4 KiB normal page and returns every pool to baseline (DM-3, DM-4, DM-11)', async () => {
    const host = new SimHost();
    const rt = new SimRuntime(host);
    const device = host.state.devices[0];
    if (device === undefined) throw new Error('no device');
    const baseline = devicePools(device);
    const bytes = 16 * 4;

    // STEP 1
    expect((await rt.aclInit({ configPath: null })).ret).toBe(0);
    expect((await rt.aclrtSetDevice({ deviceId: 0 })).ret).toBe(0);
    const { ret: streamRet, stream } = await rt.aclrtCreateStream({});
    expect(streamRet).toBe(0);
    // STEP 2
    const hostA = (await rt.aclrtMallocHost({ size: bytes })).hostPtr;
    const hostB = (await rt.aclrtMallocHost({ size: bytes })).hostPtr;
    const hostOut = (await rt.aclrtMallocHost({ size: bytes })).hostPtr;
    // STEP 3
    const deviceA = (await rt.aclrtMalloc({ size: bytes, policy: HUGE_FIRST })).devPtr;
    const deviceB = (await rt.aclrtMalloc({ size: bytes, policy: HUGE_FIRST })).devPtr;
    const deviceOut = (await rt.aclrtMalloc({ size: bytes, policy: HUGE_FIRST })).devPtr;
    for (const ptr of [hostA, hostB, hostOut, deviceA, deviceB, deviceOut, stream]) expect(ptr).toMatch(/^0x[0-9a-f]+$/);
    const allocations = [...host.state.allocations.values()];
    expect(allocations.map((a) => [a.padded, a.pageClass, a.pages, a.pageSize])).toEqual([
      [96, 'normal', 1, 4096],
      [96, 'normal', 1, 4096],
      [96, 'normal', 1, 4096],
    ]);
    expect(device.frames.normalPagesUsed).toBe(3);
    expect(device.frames.splitFrames).toBe(1);
    // STEP 4 and STEP 6
    if (
      hostA === undefined ||
      hostB === undefined ||
      hostOut === undefined ||
      deviceA === undefined ||
      deviceB === undefined ||
      deviceOut === undefined
    )
      throw new Error('missing pointer');
    expect((await rt.aclrtMemcpy({ dst: deviceA, destMax: bytes, src: hostA, count: bytes, kind: ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    expect((await rt.aclrtMemcpy({ dst: deviceB, destMax: bytes, src: hostB, count: bytes, kind: ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    expect(
      (await rt.aclrtMemcpy({ dst: hostOut, destMax: bytes, src: deviceOut, count: bytes, kind: ACL_MEMCPY_DEVICE_TO_HOST })).ret,
    ).toBe(0);
    expect(host.state.copies.map((c) => c.path)).toEqual(['pinned', 'pinned', 'pinned']);
    // STEP 8
    for (const devPtr of [deviceA, deviceB, deviceOut]) expect((await rt.aclrtFree({ devPtr })).ret).toBe(0);
    for (const hostPtr of [hostA, hostB, hostOut]) expect((await rt.aclrtFreeHost({ hostPtr })).ret).toBe(0);
    if (stream === undefined) throw new Error('no stream');
    expect((await rt.aclrtDestroyStream({ stream })).ret).toBe(0);
    expect((await rt.aclrtResetDevice({ deviceId: 0 })).ret).toBe(0);
    expect((await rt.aclFinalize({})).ret).toBe(0);
    expect(devicePools(device)).toEqual(baseline);
    expect(host.state.allocations.size + host.state.hostBuffers.size + host.state.streams.size).toBe(0);
  });
});
