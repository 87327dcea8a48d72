import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { aclrtMemcpyKind } from '../src/acl/enums.ts';
import { devicePools } from '../src/model/pools.ts';
import { SEED_DEVICE_MEMORY } from '../src/scenarios/seed-device-memory.ts';
import { SEED_HOST_REGISTER } from '../src/scenarios/seed-host-register.ts';
import { SEED_PINNED_MEMORY } from '../src/scenarios/seed-pinned-memory.ts';
import { SEED_VMM } from '../src/scenarios/seed-vmm.ts';
import { MiB } from '../src/units/bytes.ts';
import { harness, lineOf, shown } from './interp-helpers.ts';

const SEED_FILE = '/work/shared/seed/000_33a71ac4eacb3de7.txt';
const SEEDS = [SEED_DEVICE_MEMORY, SEED_PINNED_MEMORY, SEED_HOST_REGISTER, SEED_VMM];

function scenarioHarness(scenario: (typeof SEEDS)[number]) {
  return harness(scenario.code, { inputs: scenario.inputs, setup: scenario.setup });
}

describe('seed samples are verbatim', () => {
  it('keeps each sample byte for byte (checksums taken from the seed document)', () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    expect(SEEDS.map((s) => [s.id, sha(s.code)])).toEqual([
      ['seed-device-memory', '79751735c7c3efe94ccf1fdd2abd6733e18d0d13b65bae1059bdac4bc8e5dfd2'],
      ['seed-pinned-memory', '386f79120d73d0718f3451b2e6927960ea70b8960a3dd783454d84e805ad39d8'],
      ['seed-host-register', 'd8ae9512295c1c5e50dd2ebb18113ff0dfaa6da98eefa44350c2f2c4adafafa9'],
      ['seed-vmm', '9ce4f3e91a2f8531a3bb2c4ba89d3f40a2664b7a2298c6681605b9dc0afcc6a1'],
    ]);
  });

  it.skipIf(!existsSync(SEED_FILE))('finds each sample in the seed document', () => {
    const seed = readFileSync(SEED_FILE, 'utf8');
    for (const scenario of SEEDS) expect(seed.includes(scenario.code), scenario.id).toBe(true);
  });
});

describe('seed sample: device memory, step by step', () => {
  const code = SEED_DEVICE_MEMORY.code;

  it('DM-3, DM-4, DM-11: after STEP 3 there are three 96-byte allocations, each one 4 KiB normal page', async () => {
    const { ex, host } = scenarioHarness(SEED_DEVICE_MEMORY);
    const device = host.state.devices[0];
    if (device === undefined) throw new Error('no device');
    const baseline = devicePools(device);
    const step4 = lineOf(code, 'aclrtMemcpy(deviceA');
    expect(await ex.runToLine(lineOf(code, '// STEP 4'))).toEqual({ state: 'paused', line: step4 });
    expect([...host.state.allocations.values()].map((a) => [a.size, a.padded, a.pageClass, a.pages, a.pageSize])).toEqual([
      [64, 96, 'normal', 1, 4096],
      [64, 96, 'normal', 1, 4096],
      [64, 96, 'normal', 1, 4096],
    ]);
    expect(shown(ex, 'bytes')).toBe('64');
    expect(shown(ex, 'deviceA')).toMatch(/^0x[0-9a-f]+$/);

    // STEP 8 done: paused before `return 0;`, every pool is back where it started (LT-3).
    const ret = lineOf(code, 'return 0;');
    expect(await ex.runToLine(ret)).toEqual({ state: 'paused', line: ret });
    expect(devicePools(device)).toEqual(baseline);
    expect(host.state.allocations.size + host.state.hostBuffers.size + host.state.streams.size).toBe(0);
    expect(await ex.run()).toEqual({ state: 'finished', line: undefined, exitCode: 0 });
  });

  it('runs with zero ACL errors and records each return code on its line', async () => {
    const { ex, host } = scenarioHarness(SEED_DEVICE_MEMORY);
    await ex.run();
    expect(ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(ex.calls.map((c) => c.fn)).toEqual([
      'aclInit',
      'aclrtSetDevice',
      'aclrtCreateStream',
      ...Array(3).fill('aclrtMallocHost'),
      ...Array(3).fill('aclrtMalloc'),
      ...Array(3).fill('aclrtMemcpy'),
      ...Array(3).fill('aclrtFree'),
      ...Array(3).fill('aclrtFreeHost'),
      'aclrtDestroyStream',
      'aclrtResetDevice',
      'aclFinalize',
    ]);
    expect(ex.lineMarks.get(lineOf(code, 'aclrtMalloc(&deviceB'))?.calls).toEqual([{ fn: 'aclrtMalloc', ret: 0, retName: 'ACL_SUCCESS' }]);
    expect(host.state.copies.map((c) => [c.memcpyKind, c.bytes, c.path])).toEqual([
      [aclrtMemcpyKind.byName.ACL_MEMCPY_HOST_TO_DEVICE, 64, 'pinned'],
      [aclrtMemcpyKind.byName.ACL_MEMCPY_HOST_TO_DEVICE, 64, 'pinned'],
      [aclrtMemcpyKind.byName.ACL_MEMCPY_DEVICE_TO_HOST, 64, 'pinned'],
    ]);
  });

  it('skips the `...` placeholder with a note and keeps the line numbers', () => {
    const { ex } = scenarioHarness(SEED_DEVICE_MEMORY);
    const placeholder = lineOf(code, '    ...');
    expect(ex.lineMarks.get(placeholder)?.notes).toEqual(['"..." is a placeholder for code the sample leaves out: skipped']);
    expect(ex.lineMarks.get(lineOf(code, '    // ...'))?.notes).toEqual(['"// ..." marks code the sample leaves out']);
  });

  it('steps one statement at a time, the one-line `if (p) (void)aclrtFree(p);` in a single step', async () => {
    const { ex } = scenarioHarness(SEED_DEVICE_MEMORY);
    expect((await ex.step()).line).toBe(lineOf(code, 'int32_t deviceId = 0;'));
    expect((await ex.step()).line).toBe(lineOf(code, 'int64_t N = 16;'));
    const freeA = lineOf(code, 'if (deviceA)');
    await ex.runToLine(freeA);
    expect((await ex.step()).line).toBe(freeA + 1);
    expect(ex.lineMarks.get(freeA)?.calls.map((c) => c.fn)).toEqual(['aclrtFree']);
  });
});

describe('seed fragment: pinned host memory', () => {
  it('HM-2, HM-3: runs with inputs size and stream bound by the setup, zero ACL errors', async () => {
    const { ex, host } = scenarioHarness(SEED_PINNED_MEMORY);
    const first = await ex.step();
    // The setup ran: stream is a real stream now, not NULL.
    expect(first.line).toBe(lineOf(SEED_PINNED_MEMORY.code, 'void *hostPtr = NULL;'));
    expect(shown(ex, 'stream')).toMatch(/^0x[1-9a-f][0-9a-f]*$/);
    expect([...ex.setupMarks.values()].flatMap((m) => m.calls.map((c) => c.fn))).toEqual([
      'aclInit',
      'aclrtSetDevice',
      'aclrtCreateStream',
    ]);
    expect(await ex.run()).toEqual({ state: 'finished', line: undefined });
    expect(ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(host.state.copies.map((c) => [c.bytes, c.mode, c.path])).toEqual([[4 * MiB, 'async', 'pinned']]);
    expect(ex.lineMarks.get(2)?.notes).toEqual(['"......" is a placeholder for code the sample leaves out: skipped']);
  });
});

describe('seed fragment: registering malloc memory', () => {
  it('HM-5: malloc memory is pinned and mapped, gets a device pointer, then is unregistered and freed', async () => {
    const { ex, host } = scenarioHarness(SEED_HOST_REGISTER);
    const code = SEED_HOST_REGISTER.code;
    await ex.runToLine(lineOf(code, 'aclrtHostUnregister(hostPtr);'));
    const [buffer] = [...host.state.hostBuffers.values()];
    expect(buffer?.memory).toBe('pageable');
    expect(buffer?.registration).toMatchObject({ pinned: true, mapped: true, flags: 0x1000_0002 });
    expect(shown(ex, 'devicePtr')).toBe(`0x${buffer?.registration?.devPtr.toString(16)}`);
    expect(await ex.run()).toMatchObject({ state: 'finished' });
    expect(ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    expect(ex.calls.map((c) => c.fn)).toEqual([
      'aclInit',
      'aclrtSetDevice',
      'malloc',
      'aclrtHostRegisterV2',
      'aclrtHostGetDevicePointer',
      'aclrtHostUnregister',
      'free',
    ]);
    expect(host.state.hostBuffers.size).toBe(0);
  });
});

describe('seed sample: virtual memory management', () => {
  const code = SEED_VMM.code;

  it('VM-2 … VM-8: a 2 MiB handle mapped into a 2 MiB reservation, a 2 MiB D2H copy, then unmap → release → free physical', async () => {
    const { ex, host, events } = scenarioHarness(SEED_VMM);
    await ex.runToLine(lineOf(code, '// 5. 设置虚拟内存访问权限'));
    expect(shown(ex, 'granularity')).toBe('2097152 (2 MiB)');
    expect(shown(ex, 'alignedSize')).toBe('2097152 (2 MiB)');
    const [handle] = [...host.state.handles.values()];
    const [reservation] = [...host.state.reservations.values()];
    const [mapping] = [...host.state.mappings.values()];
    expect(handle === undefined ? undefined : host.state.physical.get(handle.memory)?.size).toBe(2 * MiB);
    expect(reservation?.size).toBe(2 * MiB);
    expect(mapping).toMatchObject({ size: 2 * MiB, addr: reservation?.addr, handle: handle?.id, reservation: reservation?.id });

    await ex.runToLine(lineOf(code, 'aclrtFreeHost(hostPtr);'));
    expect(host.state.copies.map((c) => [c.memcpyKind, c.bytes, c.dst === c.src])).toEqual([
      [aclrtMemcpyKind.byName.ACL_MEMCPY_DEVICE_TO_HOST, 2 * MiB, false],
    ]);
    expect(await ex.run()).toEqual({ state: 'finished', line: undefined });
    expect(ex.calls.filter((c) => c.ret !== 0)).toEqual([]);
    const teardown = events.filter((e) => e.kind === 'unmap' || e.kind === 'release' || e.kind === 'physFree' || e.kind === 'physRelease');
    expect(teardown.map((e) => (e.kind === 'physFree' ? `physFree deferred=${e.deferred}` : e.kind))).toEqual([
      'unmap',
      'release',
      'physFree deferred=false',
      'physRelease',
    ]);
    expect(host.state.handles.size + host.state.reservations.size + host.state.mappings.size).toBe(0);
  });

  it('the declared-but-unset `void *virPtr;` shows as uninitialized until aclrtReserveMemAddress writes it', async () => {
    const { ex } = scenarioHarness(SEED_VMM);
    await ex.runToLine(lineOf(code, 'aclrtReserveMemAddress(&virPtr'));
    expect(shown(ex, 'virPtr')).toBe('(uninitialized)');
    await ex.step();
    expect(shown(ex, 'virPtr')).toMatch(/^0x[0-9a-f]+$/);
  });
});
