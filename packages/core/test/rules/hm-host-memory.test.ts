import { describe, expect, it } from 'vitest';
import { ACL_HOST_REG, aclrtMallocAttrType, aclrtMemcpyKind, aclrtMemLocationType } from '../../src/acl/enums.ts';
import {
  ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED,
  ACL_ERROR_HOST_MEMORY_NOT_REGISTERED,
  ACL_ERROR_INVALID_PARAM,
  ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
} from '../../src/acl/errors.ts';
import type { aclrtMallocConfig } from '../../src/acl/structs.ts';
import type { CallEvent, CopyEvent } from '../../src/model/events.ts';
import { ASCEND_310P3, ASCEND_910B2 } from '../../src/profiles/builtin.ts';
import { PINNED_HOST_BASE, PINNED_HOST_SIZE } from '../../src/sim/layout.ts';
import { type Hex, toHex } from '../../src/units/hex.ts';
import { addressOf, codes, hostBufferAt, need, POLICY, profileFrom, session } from './harness.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const REG = ACL_HOST_REG.byName;
const PINNED_MAPPED = REG.ACL_HOST_REG_PINNED | REG.ACL_HOST_REG_MAPPED;
const ATTR = aclrtMallocAttrType.byName;
const LOCATION = aclrtMemLocationType.byName;
const { ACL_MEMCPY_HOST_TO_DEVICE, ACL_MEMCPY_DEVICE_TO_HOST } = aclrtMemcpyKind.byName;

const OLD_KERNEL = '{"extends":"Ascend910B2","name":"Old","host":{"kernelVersion":"5.10.0"}}';

function cfg(...attrs: { attr: number; value: { moduleId?: number; deviceId?: number; vaFlag?: number } }[]): aclrtMallocConfig {
  return { attrs, numAttrs: attrs.length };
}

describe('HM: host memory', () => {
  it('HM-1: a copy from malloc memory is staged through a bounce buffer in 2 MiB chunks, then DMA', async () => {
    const { host, rt } = await session();
    const src = need((await rt.malloc({ size: 5 * MiB })).ptr, 'ptr');
    expect(hostBufferAt(host, src).memory).toBe('pageable');
    const dst = need((await rt.aclrtMallocAlign32({ size: 5 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'devPtr');
    expect((await rt.aclrtMemcpy({ dst, destMax: 5 * MiB, src, count: 5 * MiB, kind: ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    const copy = need(host.state.copies.at(-1), 'copy');
    // ceil(5 MiB / 2 MiB) = 3 staging chunks.
    expect([copy.path, copy.stages]).toEqual(['pageable-staged', 3]);
  });

  it('HM-2: aclrtMallocHost gives pinned memory starting 64-byte aligned, in the pinned window', async () => {
    const { host, rt } = await session();
    for (const size of [1, 63, 64, 65, 4097, 3 * MiB + 5]) {
      const result = await rt.aclrtMallocHost({ size });
      expect(result.ret).toBe(0);
      const addr = addressOf(result.hostPtr);
      expect(addr % 64, `size ${size}`).toBe(0);
      expect(addr >= PINNED_HOST_BASE && addr + size <= PINNED_HOST_BASE + PINNED_HOST_SIZE).toBe(true);
      expect(hostBufferAt(host, result.hostPtr).memory).toBe('pinned');
    }
    expect((await rt.aclrtMallocHost({ size: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it('HM-2: pinned memory copies by DMA straight from the buffer; aclrtFreeHost frees it, and only it', async () => {
    const { host, rt } = await session();
    const hostPtr = need((await rt.aclrtMallocHost({ size: 4 * MiB })).hostPtr, 'hostPtr');
    const pageable = need((await rt.malloc({ size: 4 * MiB })).ptr, 'ptr');
    const dst = need((await rt.aclrtMallocAlign32({ size: 4 * MiB, policy: 0 })).devPtr, 'devPtr');
    expect((await rt.aclrtMemcpy({ dst, destMax: 4 * MiB, src: hostPtr, count: 4 * MiB, kind: ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    expect(host.state.copies.map((c) => [c.path, c.stages])).toEqual([['pinned', 0]]);
    expect((await rt.aclrtFreeHost({ hostPtr: pageable })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtFreeHost({ hostPtr: '0x0' })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.free({ ptr: hostPtr })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtFreeHost({ hostPtr: toHex(addressOf(hostPtr) + 64) })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(host.state.hostBuffers.size).toBe(2);
    expect((await rt.aclrtFreeHost({ hostPtr })).ret).toBe(0);
    expect((await rt.aclrtFreeHost({ hostPtr })).ret).toBe(ACL_ERROR_INVALID_PARAM);
  });

  it('HM-3: aclrtMemcpyAsync from pinned memory returns at once; from pageable memory it returns only when the copy is done', async () => {
    const { host, rt, events } = await session();
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const pinned = need((await rt.aclrtMallocHost({ size: 16 * MiB })).hostPtr, 'pinned');
    const pageable = need((await rt.malloc({ size: 16 * MiB })).ptr, 'pageable');
    const dst = need((await rt.aclrtMallocAlign32({ size: 16 * MiB, policy: 0 })).devPtr, 'devPtr');
    const lastCall = (): CallEvent =>
      need(
        [...events].reverse().find((e): e is CallEvent => e.kind === 'call'),
        'call',
      );

    const t0 = host.state.time;
    const args = { dst, destMax: 16 * MiB, count: 16 * MiB, kind: ACL_MEMCPY_HOST_TO_DEVICE, stream };
    expect((await rt.aclrtMemcpyAsync({ ...args, src: pinned })).ret).toBe(0);
    const truly = need(host.state.copies.at(-1), 'copy');
    expect(truly.mode).toBe('async');
    expect(host.state.time).toBe(t0);
    expect(lastCall().durationNs).toBe(0);
    expect(truly.end).toBeGreaterThan(t0);

    expect((await rt.aclrtMemcpyAsync({ ...args, src: pageable })).ret).toBe(0);
    const blocking = need(host.state.copies.at(-1), 'copy');
    expect(blocking.mode).toBe('async-blocking');
    const copyEvent = need(
      events.findLast((e): e is CopyEvent => e.kind === 'copy'),
      'copy event',
    );
    expect(codes(copyEvent)).toContain('copy-blocks');
    // It waited for the pinned copy ahead of it on the stream, then for its own bytes.
    expect(blocking.start).toBe(truly.end);
    expect(host.state.time).toBe(blocking.end);
    expect(lastCall().durationNs).toBe(blocking.end - t0);
  });

  it('HM-3: an asynchronous host-to-host copy with a pageable side also returns only when it is done', async () => {
    const { host, rt } = await session();
    const stream = need((await rt.aclrtCreateStream({})).stream, 'stream');
    const pinned = need((await rt.aclrtMallocHost({ size: 16 * MiB })).hostPtr, 'pinned');
    const pinned2 = need((await rt.aclrtMallocHost({ size: 16 * MiB })).hostPtr, 'pinned2');
    const pageable = need((await rt.malloc({ size: 16 * MiB })).ptr, 'pageable');
    const args = { destMax: 16 * MiB, count: 16 * MiB, kind: aclrtMemcpyKind.byName.ACL_MEMCPY_HOST_TO_HOST, stream };
    const t0 = host.state.time;
    expect((await rt.aclrtMemcpyAsync({ ...args, dst: pinned2, src: pinned })).ret).toBe(0);
    expect([need(host.state.copies.at(-1), 'copy').mode, host.state.time]).toEqual(['async', t0]);
    for (const [dst, src] of [
      [pinned, pageable],
      [pageable, pinned],
    ]) {
      expect((await rt.aclrtMemcpyAsync({ ...args, dst: need(dst, 'dst'), src: need(src, 'src') })).ret).toBe(0);
      const copy = need(host.state.copies.at(-1), 'copy');
      expect(copy.mode).toBe('async-blocking');
      expect(host.state.time).toBe(copy.end);
    }
  });

  it('HM-4: aclrtMallocHostWithCfg reads MODULE_ID, DEVICE_ID and VA_FLAG', async () => {
    const { host, rt } = await session();
    const ok = await rt.aclrtMallocHostWithCfg({
      size: 4096,
      cfg: cfg(
        { attr: ATTR.ACL_RT_MEM_ATTR_MODULE_ID, value: { moduleId: 33 } },
        { attr: ATTR.ACL_RT_MEM_ATTR_DEVICE_ID, value: { deviceId: 0 } },
        { attr: ATTR.ACL_RT_MEM_ATTR_VA_FLAG, value: { vaFlag: 1 } },
      ),
    });
    expect(ok.ret).toBe(0);
    expect([hostBufferAt(host, ok.ptr).memory, hostBufferAt(host, ok.ptr).vaFlag]).toEqual(['pinned', true]);
    const plain = await rt.aclrtMallocHostWithCfg({ size: 4096, cfg: null });
    expect(hostBufferAt(host, plain.ptr).vaFlag).toBe(false);
    const refused: [string, aclrtMallocConfig][] = [
      ['DEVICE_ID of another device', cfg({ attr: ATTR.ACL_RT_MEM_ATTR_DEVICE_ID, value: { deviceId: 1 } })],
      ['VA_FLAG 2', cfg({ attr: ATTR.ACL_RT_MEM_ATTR_VA_FLAG, value: { vaFlag: 2 } })],
      ['attribute type 7', cfg({ attr: 7, value: {} })],
      ['numAttrs past the array', { attrs: [{ attr: ATTR.ACL_RT_MEM_ATTR_MODULE_ID, value: { moduleId: 33 } }], numAttrs: 2 }],
    ];
    for (const [what, config] of refused) {
      expect((await rt.aclrtMallocHostWithCfg({ size: 4096, cfg: config })).ret, what).toBe(ACL_ERROR_INVALID_PARAM);
    }
    expect(host.state.hostBuffers.size).toBe(2);
  });

  it('HM-4: VA_FLAG is A2/A3 only: Ascend310P3 → 207000', async () => {
    const { rt } = await session([ASCEND_310P3]);
    const vaFlag = cfg({ attr: ATTR.ACL_RT_MEM_ATTR_VA_FLAG, value: { vaFlag: 1 } });
    expect((await rt.aclrtMallocHostWithCfg({ size: 4096, cfg: vaFlag })).ret).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    expect((await rt.aclrtMallocHostWithCfg({ size: 4096, cfg: null })).ret).toBe(0);
  });

  it('HM-5: aclrtHostRegisterV2(PINNED | MAPPED = 0x10000002) turns malloc memory into pinned, device-mapped memory', async () => {
    const { host, rt } = await session();
    expect(PINNED_MAPPED).toBe(0x10000002);
    const ptr = need((await rt.malloc({ size: 8 * KiB })).ptr, 'ptr');
    expect(addressOf(ptr) % 4096).toBe(0);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
    expect(hostBufferAt(host, ptr).registration).toMatchObject({ pinned: true, mapped: true, device: 0, flags: PINNED_MAPPED });
    const devPtr = await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 });
    expect(devPtr.ret).toBe(0);
    // Copies from it are now DMA from pinned memory (no staging).
    const dst = need((await rt.aclrtMalloc({ size: 8 * KiB, policy: 0 })).devPtr, 'dst');
    expect((await rt.aclrtMemcpy({ dst, destMax: 8 * KiB, src: ptr, count: 8 * KiB, kind: ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    expect(host.state.copies.at(-1)?.path).toBe('pinned');
    // Unregister before free.
    expect((await rt.aclrtHostUnregister({ ptr })).ret).toBe(0);
    expect(hostBufferAt(host, ptr).registration).toBeUndefined();
    expect((await rt.free({ ptr })).ret).toBe(0);
  });

  it('HM-5: on a host kernel ≤ 5.10, registering malloc memory fails; aclrtMallocHost memory still registers', async () => {
    const old = profileFrom(OLD_KERNEL);
    expect(old.host.kernelVersion).toBe('5.10.0');
    const { host, rt } = await session([old]);
    const ptr = need((await rt.malloc({ size: 8 * KiB })).ptr, 'ptr');
    for (const flag of [PINNED_MAPPED, REG.ACL_HOST_REG_PINNED, REG.ACL_HOST_REG_MAPPED]) {
      expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag })).ret, `flag 0x${flag.toString(16)}`).toBe(
        ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
      );
    }
    expect((await rt.aclrtHostRegister({ ptr, size: 8 * KiB, type: 0 })).ret).toBe(ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    expect(hostBufferAt(host, ptr).registration).toBeUndefined();
    const pinned = need((await rt.aclrtMallocHost({ size: 8 * KiB })).hostPtr, 'pinned');
    expect((await rt.aclrtHostRegisterV2({ ptr: pinned, size: 8 * KiB, flag: REG.ACL_HOST_REG_MAPPED })).ret).toBe(0);
    // A 5.15 kernel (the default profile) registers malloc memory.
    const modern = await session([ASCEND_910B2]);
    const fine = need((await modern.rt.malloc({ size: 8 * KiB })).ptr, 'ptr');
    expect((await modern.rt.aclrtHostRegisterV2({ ptr: fine, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
  });

  it('HM-5: PINNED on memory that is already pinned (aclrtMallocHost) → 100000; MAPPED alone is fine', async () => {
    const { host, rt } = await session();
    const hostPtr = need((await rt.aclrtMallocHost({ size: 8 * KiB })).hostPtr, 'hostPtr');
    expect((await rt.aclrtHostRegisterV2({ ptr: hostPtr, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtHostRegisterV2({ ptr: hostPtr, size: 8 * KiB, flag: REG.ACL_HOST_REG_PINNED })).ret).toBe(
      ACL_ERROR_INVALID_PARAM,
    );
    expect(hostBufferAt(host, hostPtr).registration).toBeUndefined();
    expect((await rt.aclrtHostRegisterV2({ ptr: hostPtr, size: 8 * KiB, flag: REG.ACL_HOST_REG_MAPPED })).ret).toBe(0);
  });

  it('HM-5: ptr must be 4 KiB-aligned; flag must be PINNED and/or MAPPED', async () => {
    const { host, rt } = await session();
    const ptr = need((await rt.malloc({ size: 16 * KiB })).ptr, 'ptr');
    const inside = (offset: number) => toHex(addressOf(ptr) + offset);
    expect((await rt.aclrtHostRegisterV2({ ptr: inside(64), size: 4 * KiB, flag: PINNED_MAPPED })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtHostRegisterV2({ ptr: inside(2048), size: 4 * KiB, flag: PINNED_MAPPED })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 16 * KiB, flag: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 16 * KiB, flag: 0x1 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 16 * KiB, flag: REG.ACL_HOST_REG_IOMEMORY })).ret).toBe(
      ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
    );
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 32 * KiB, flag: PINNED_MAPPED })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(hostBufferAt(host, ptr).registration).toBeUndefined();
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 16 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
  });

  it('HM-5: registering twice → 507910; unregistering what is not registered → 507911', async () => {
    const { rt } = await session();
    const ptr = need((await rt.malloc({ size: 8 * KiB })).ptr, 'ptr');
    expect((await rt.aclrtHostUnregister({ ptr })).ret).toBe(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    expect((await rt.aclrtHostUnregister({ ptr: '0x12345000' })).ret).toBe(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    expect((await rt.aclrtHostRegister({ ptr, size: 8 * KiB, type: 0 })).ret).toBe(ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED);
    expect((await rt.aclrtHostUnregister({ ptr })).ret).toBe(0);
    expect((await rt.aclrtHostUnregister({ ptr })).ret).toBe(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
  });

  it('HM-5: aclrtHostGetDevicePointer needs flag 0 and memory registered with MAPPED', async () => {
    const { rt } = await session();
    const ptr = need((await rt.malloc({ size: 8 * KiB })).ptr, 'ptr');
    expect((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).ret).toBe(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: REG.ACL_HOST_REG_PINNED })).ret).toBe(0);
    expect((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).ret).toBe(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    expect((await rt.aclrtHostUnregister({ ptr })).ret).toBe(0);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
    expect((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 1 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    const base = await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 });
    const offset = await rt.aclrtHostGetDevicePointer({ pHost: toHex(addressOf(ptr) + 100), flag: 0 });
    expect(addressOf(offset.pDevice) - addressOf(base.pDevice)).toBe(100);
  });

  it('HM-5: a 4 KiB-aligned sub-range of a buffer registers, maps and unregisters at the pointer that was registered', async () => {
    const { rt } = await session();
    const base = need((await rt.malloc({ size: 16 * KiB })).ptr, 'ptr');
    const ptr = toHex(addressOf(base) + 4 * KiB);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
    const start = addressOf((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).pDevice);
    const later = addressOf((await rt.aclrtHostGetDevicePointer({ pHost: toHex(addressOf(ptr) + 4 * KiB), flag: 0 })).pDevice);
    expect(later - start).toBe(4 * KiB);
    expect(start % 4096).toBe(0);
    expect((await rt.aclrtHostUnregister({ ptr })).ret).toBe(0);
    // aclrtHostRegister answers the device address of the pointer it was given; aclrtHostGetDevicePointer agrees.
    const v1 = await rt.aclrtHostRegister({ ptr, size: 8 * KiB, type: 0 });
    expect(v1.ret).toBe(0);
    expect((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).pDevice).toBe(v1.devPtr);
    expect((await rt.aclrtHostUnregister({ ptr })).ret).toBe(0);
    expect((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).ret).toBe(ACL_ERROR_HOST_MEMORY_NOT_REGISTERED);
    // Registering the whole buffer afterwards gets the same device address range back.
    expect((await rt.aclrtHostRegisterV2({ ptr: base, size: 16 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
    const whole = addressOf((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).pDevice);
    expect(whole - addressOf((await rt.aclrtHostGetDevicePointer({ pHost: base, flag: 0 })).pDevice)).toBe(4 * KiB);
  });

  it('HM-6: with VA_FLAG = 1 a registered sub-range is seen by the device at its own host address', async () => {
    const { rt } = await session();
    const vaFlag = cfg({ attr: ATTR.ACL_RT_MEM_ATTR_VA_FLAG, value: { vaFlag: 1 } });
    const base = need((await rt.aclrtMallocHostWithCfg({ size: 16 * KiB, cfg: vaFlag })).ptr, 'base');
    const ptr = toHex(addressOf(base) + 8 * KiB);
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: REG.ACL_HOST_REG_MAPPED })).ret).toBe(0);
    expect((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).pDevice).toBe(ptr);
    expect((await rt.aclrtHostUnregister({ ptr })).ret).toBe(0);
    expect((await rt.aclrtHostRegister({ ptr, size: 8 * KiB, type: 0 })).devPtr).toBe(ptr);
  });

  it('HM-5: freeing memory that is still registered unregisters it and gives its device address range back', async () => {
    const { host, rt } = await session();
    const first = need((await rt.malloc({ size: 8 * KiB })).ptr, 'first');
    expect((await rt.aclrtHostRegisterV2({ ptr: first, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
    const device = need((await rt.aclrtHostGetDevicePointer({ pHost: first, flag: 0 })).pDevice, 'device');
    const freed = await rt.free({ ptr: first });
    expect(freed.ret).toBe(0);
    expect(freed.message).toContain('aclrtHostUnregister');
    expect(need(host.spaces.get(rt.pid), 'space').registered.used).toBe(0);
    const second = need((await rt.malloc({ size: 8 * KiB })).ptr, 'second');
    expect((await rt.aclrtHostRegisterV2({ ptr: second, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
    expect((await rt.aclrtHostGetDevicePointer({ pHost: second, flag: 0 })).pDevice).toBe(device);
    // The same through aclrtFreeHost.
    const pinned = need((await rt.aclrtMallocHost({ size: 8 * KiB })).hostPtr, 'pinned');
    expect((await rt.aclrtHostRegisterV2({ ptr: pinned, size: 8 * KiB, flag: REG.ACL_HOST_REG_MAPPED })).ret).toBe(0);
    expect((await rt.aclrtFreeHost({ hostPtr: pinned })).ret).toBe(0);
    expect(need(host.spaces.get(rt.pid), 'space').registered.used).toBe(8 * KiB);
  });

  it('HM-6: the device VA of registered memory differs from the host VA, unless it came from aclrtMallocHostWithCfg with VA_FLAG = 1', async () => {
    const { rt } = await session();
    const vaFlag = (value: number) => cfg({ attr: ATTR.ACL_RT_MEM_ATTR_VA_FLAG, value: { vaFlag: value } });
    const rows: [string, () => Promise<Hex>, boolean][] = [
      ['malloc + V2 PINNED|MAPPED', async () => need((await rt.malloc({ size: 8 * KiB })).ptr, 'ptr'), false],
      ['aclrtMallocHost + V2 MAPPED', async () => need((await rt.aclrtMallocHost({ size: 8 * KiB })).hostPtr, 'ptr'), false],
      [
        'WithCfg VA_FLAG 0 + V2 MAPPED',
        async () => need((await rt.aclrtMallocHostWithCfg({ size: 8 * KiB, cfg: vaFlag(0) })).ptr, 'ptr'),
        false,
      ],
      [
        'WithCfg VA_FLAG 1 + V2 MAPPED',
        async () => need((await rt.aclrtMallocHostWithCfg({ size: 8 * KiB, cfg: vaFlag(1) })).ptr, 'ptr'),
        true,
      ],
    ];
    for (const [what, allocate, same] of rows) {
      const ptr = await allocate();
      const flag = what.startsWith('malloc') ? PINNED_MAPPED : REG.ACL_HOST_REG_MAPPED;
      expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag })).ret, what).toBe(0);
      const { pDevice } = await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 });
      expect(pDevice === ptr, what).toBe(same);
    }
    // aclrtHostRegister answers the device pointer directly, with the same rule.
    const hostPtr = need((await rt.aclrtMallocHost({ size: 8 * KiB })).hostPtr, 'hostPtr');
    const registered = await rt.aclrtHostRegister({ ptr: hostPtr, size: 8 * KiB, type: 0 });
    expect(registered.ret).toBe(0);
    expect(registered.devPtr).not.toBe(hostPtr);
  });

  it('HM-7: the registered device pointer is for kernels only: aclrtMemcpy and aclrtPointerGetAttributes refuse it', async () => {
    const { rt } = await session();
    const ptr = need((await rt.malloc({ size: 8 * KiB })).ptr, 'ptr');
    expect((await rt.aclrtHostRegisterV2({ ptr, size: 8 * KiB, flag: PINNED_MAPPED })).ret).toBe(0);
    const pDevice = need((await rt.aclrtHostGetDevicePointer({ pHost: ptr, flag: 0 })).pDevice, 'pDevice');
    const dev = need((await rt.aclrtMalloc({ size: 8 * KiB, policy: 0 })).devPtr, 'dev');
    const copy = { destMax: 4 * KiB, count: 4 * KiB };
    const toRegistered = await rt.aclrtMemcpy({ ...copy, dst: pDevice, src: dev, kind: ACL_MEMCPY_DEVICE_TO_HOST });
    expect(toRegistered.ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(toRegistered.message).toContain('HM-7');
    expect((await rt.aclrtMemcpy({ ...copy, dst: dev, src: pDevice, kind: ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtMemcpy({ ...copy, dst: dev, src: pDevice, kind: aclrtMemcpyKind.byName.ACL_MEMCPY_DEFAULT })).ret).toBe(
      ACL_ERROR_INVALID_PARAM,
    );
    expect((await rt.aclrtPointerGetAttributes({ ptr: pDevice })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    // The host pointer itself stays valid for both.
    expect((await rt.aclrtMemcpy({ ...copy, dst: dev, src: ptr, kind: ACL_MEMCPY_HOST_TO_DEVICE })).ret).toBe(0);
    const attributes = await rt.aclrtPointerGetAttributes({ ptr });
    expect(attributes.attributes?.location.type).toBe(LOCATION.ACL_MEM_LOCATION_TYPE_HOST);
  });
});
