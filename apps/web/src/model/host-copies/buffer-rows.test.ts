import { createHostState, type HostBuffer } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { copyScene } from '../../../test/host-copies-scene.ts';
import { bufferAt, bufferRow, kernelRefusesMallocRegister, processBuffers, registrationFlagNames, vaRelation } from './buffer-rows.ts';

function buffer(over: Partial<HostBuffer>): HostBuffer {
  return { id: 1, pid: 7, fn: 'malloc', addr: 0x7f00_0000_0000, size: 4096, memory: 'pageable', vaFlag: false, createdSeq: 1, ...over };
}

const registration = (devPtr: number, mapped = true) => ({
  fn: 'aclrtHostRegisterV2',
  device: 0,
  flags: 0x1000_0002,
  pinned: true,
  mapped,
  devPtr,
  vaConsistent: false,
});

describe('host buffer rows', () => {
  it('HM-6: the device VA equals the host VA only for mapped aclrtMallocHostWithCfg VA_FLAG = 1 memory', () => {
    const host = 0x7000_0000_0000;
    const withCfg = bufferRow(
      buffer({
        fn: 'aclrtMallocHostWithCfg',
        memory: 'pinned',
        vaFlag: true,
        addr: host,
        registration: { ...registration(host), vaConsistent: true },
      }),
    );
    expect([withCfg.va, withCfg.expectSameVa, withCfg.agreesWithHm6]).toEqual(['same', true, true]);
    const plain = bufferRow(buffer({ fn: 'aclrtMallocHost', memory: 'pinned', addr: host, registration: registration(0xc00_0000_0000) }));
    expect([plain.va, plain.expectSameVa, plain.agreesWithHm6]).toEqual(['differs', false, true]);
  });

  it('HM-6: a report that contradicts the rule is flagged (a same VA for plain malloc memory)', () => {
    const host = 0x7f00_0000_0000;
    const odd = bufferRow(buffer({ addr: host, registration: registration(host) }));
    expect([odd.va, odd.agreesWithHm6]).toEqual(['same', false]);
    const missing = bufferRow(
      buffer({ fn: 'aclrtMallocHostWithCfg', memory: 'pinned', vaFlag: true, addr: host, registration: registration(host + 4096) }),
    );
    expect([missing.va, missing.agreesWithHm6]).toEqual(['differs', false]);
  });

  it('a registration without MAPPED has no device pointer; an unregistered buffer has no relation', () => {
    expect(vaRelation(buffer({ registration: registration(0, false) }))).toBe('unmapped');
    expect(vaRelation(buffer({}))).toBe('none');
    expect(bufferRow(buffer({})).registration).toBeUndefined();
  });

  it('HM-5: PINNED registration turns pageable memory into "pinned by registration"', () => {
    expect(bufferRow(buffer({ registration: registration(0x1000) })).memory).toBe('pinned-by-registration');
    expect(bufferRow(buffer({ registration: { ...registration(0x1000), pinned: false } })).memory).toBe('pageable');
    expect(bufferRow(buffer({ memory: 'pinned' })).memory).toBe('pinned');
  });

  it('flags are shown as the C names of the enum the registering call takes', () => {
    expect(registrationFlagNames('aclrtHostRegisterV2', 0x1000_0002)).toEqual(['ACL_HOST_REG_MAPPED', 'ACL_HOST_REG_PINNED']);
    expect(registrationFlagNames('aclrtHostRegisterV2', 0x2)).toEqual(['ACL_HOST_REG_MAPPED']);
    // aclrtHostRegister takes an aclrtHostRegisterType, where MAPPED is 0.
    expect(registrationFlagNames('aclrtHostRegister', 0)).toEqual(['ACL_HOST_REGISTER_MAPPED']);
    expect(registrationFlagNames('aclrtHostRegister', 0x40)).toEqual(['0x40']);
  });

  it('HM-5: kernels 5.10 and older refuse to register malloc memory', () => {
    expect(kernelRefusesMallocRegister('5.10.0')).toBe(true);
    expect(kernelRefusesMallocRegister('4.19.90')).toBe(true);
    expect(kernelRefusesMallocRegister('5.15.0')).toBe(false);
    expect(kernelRefusesMallocRegister('6.1')).toBe(false);
  });

  it('groups live buffers per process in address order, with pageable / pinned totals, from a simulated scene', async () => {
    const scene = await copyScene();
    const groups = processBuffers(scene.host.state);
    expect(groups.map((g) => g.pid)).toEqual([scene.pid]);
    const [group] = groups;
    const rows = group?.rows ?? [];
    expect(rows.map((r) => r.addr)).toEqual([...rows.map((r) => r.addr)].sort((a, b) => a - b));
    expect(rows.map((r) => [r.fn, r.memory, r.va])).toEqual([
      ['aclrtMallocHost', 'pinned', 'none'],
      ['aclrtMallocHostWithCfg', 'pinned', 'same'],
      ['malloc', 'pageable', 'none'],
      ['malloc', 'pinned-by-registration', 'differs'],
    ]);
    const MiB = 1024 * 1024;
    expect([group?.pageableBytes, group?.pinnedBytes, group?.registered]).toEqual([64 * MiB, (64 + 2 + 2) * MiB, 2]);
    expect(processBuffers(createHostState([]))).toEqual([]);
  });

  it('finds the buffer holding an address, of that process only', async () => {
    const scene = await copyScene();
    const state = scene.host.state;
    const pinned = [...state.hostBuffers.values()].find((b) => b.fn === 'aclrtMallocHost');
    expect(bufferAt(state, scene.pid, (pinned?.addr ?? 0) + 100)?.id).toBe(pinned?.id);
    expect(bufferAt(state, scene.pid + 1, (pinned?.addr ?? 0) + 100)).toBeUndefined();
    expect(bufferAt(state, scene.pid, 16)).toBeUndefined();
  });
});
