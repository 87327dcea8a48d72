import { describe, expect, it } from 'vitest';
import {
  ACL_ERROR_INVALID_PARAM,
  ACL_ERROR_RT_CONTEXT_NULL,
  ACL_ERROR_RT_NO_PERMISSION,
  ACL_ERROR_RT_PARAM_INVALID,
} from '../../src/acl/errors.ts';
import { invokeCall } from '../../src/acl/invoke.ts';
import { devicePools } from '../../src/model/pools.ts';
import { planTeardown } from '../../src/model/teardown-plan.ts';
import { SimHost } from '../../src/sim/sim-host.ts';
import { SimRuntime } from '../../src/sim/sim-runtime.ts';
import { toHex } from '../../src/units/hex.ts';
import { addressOf, need, otherProcess, POLICY, session } from './harness.ts';

const MiB = 1024 * 1024;

/** An exporter with a 4 MiB allocation and its key, and an importer on the same host. */
async function exported(flags = 0) {
  const s = await session();
  const importer = await otherProcess(s.host, 'importer');
  const baseline = devicePools(s.device);
  const devPtr = need((await s.rt.aclrtMalloc({ size: 4 * MiB, policy: POLICY.ACL_MEM_MALLOC_HUGE_FIRST })).devPtr, 'devPtr');
  const made = await s.rt.aclrtIpcMemGetExportKey({ devPtr, size: 4 * MiB, len: 65, flags });
  expect(made.ret).toBe(0);
  return { ...s, importer, devPtr, baseline, key: need(made.key, 'key') };
}

describe('IP: IPC of device memory', () => {
  it('IP-1: a 64-character key for an allocation; NULL, size 0, len 0, a short len and bad flags are refused', async () => {
    const { rt, devPtr, key, host } = await exported();
    expect(key).toHaveLength(64);
    expect(host.state.ipcKeys.get(key)).toMatchObject({ pid: rt.pid, size: 4 * MiB, flags: 0, pids: [] });
    expect((await rt.aclrtIpcMemGetExportKey({ devPtr: '0x0', size: 4096, len: 65, flags: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    for (const args of [
      { size: 0, len: 65, flags: 0 },
      { size: 4096, len: 0, flags: 0 },
      { size: 4096, len: 64, flags: 0 },
      { size: 4096, len: 65, flags: 2 },
    ]) {
      expect((await rt.aclrtIpcMemGetExportKey({ devPtr, ...args })).ret, JSON.stringify(args)).toBe(ACL_ERROR_RT_PARAM_INVALID);
    }
    expect((await rt.aclrtIpcMemGetExportKey({ devPtr: toHex(addressOf(devPtr) + 4096), size: 4096, len: 65, flags: 0 })).ret).toBe(
      ACL_ERROR_INVALID_PARAM,
    );
    const bare = new SimRuntime(new SimHost());
    expect((await bare.aclrtIpcMemGetExportKey({ devPtr, size: 4096, len: 65, flags: 0 })).ret).toBe(ACL_ERROR_RT_CONTEXT_NULL);
  });

  it('IP-2: an importer off the allow-list is refused until the exporter adds its pid; flag 1 needs no list', async () => {
    const { rt, importer, key } = await exported();
    expect((await importer.aclrtIpcMemImportByKey({ key, flags: 0 })).ret).toBe(ACL_ERROR_RT_NO_PERMISSION);
    expect((await importer.aclrtIpcMemSetImportPid({ key, pid: [importer.pid], num: 1 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtIpcMemSetImportPid({ key, pid: [importer.pid], num: 1 })).ret).toBe(0);
    expect((await importer.aclrtIpcMemImportByKey({ key, flags: 0 })).ret).toBe(0);
    const open = await exported(1);
    expect((await open.importer.aclrtIpcMemImportByKey({ key: open.key, flags: 0 })).ret).toBe(0);
  });

  it('IP-3: the import is an address of the importer for the same pages: no new pages, copies read the allocation', async () => {
    const { host, rt, importer, key, device } = await exported(1);
    const pools = devicePools(device);
    const imported = await importer.aclrtIpcMemImportByKey({ key, flags: 0 });
    expect(imported.ret).toBe(0);
    expect(devicePools(device)).toEqual(pools);
    const remote = need(imported.devPtr, 'devPtr');
    const local = need((await importer.aclrtMallocHost({ size: MiB })).hostPtr, 'local');
    expect((await importer.aclrtMemcpy({ dst: local, destMax: MiB, src: remote, count: MiB, kind: 2 })).ret).toBe(0);
    expect(
      (await importer.aclrtMemcpy({ dst: local, destMax: MiB, src: toHex(addressOf(remote) + 4 * MiB - 1), count: 2, kind: 2 })).ret,
    ).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await rt.aclrtIpcMemImportByKey({ key, flags: 0 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect((await importer.aclrtIpcMemImportByKey({ key: 'no-such-key', flags: 0 })).ret).toBe(ACL_ERROR_RT_PARAM_INVALID);
    expect([...host.state.ipcImports.values()].map((item) => [item.pid, item.size])).toEqual([[importer.pid, 4 * MiB]]);
  });

  it('IP-4: importers and the exporter each close; freeing the memory ends its keys; teardown closes before it frees', async () => {
    const { host, rt, importer, key, devPtr, device, baseline } = await exported(1);
    const remote = need((await importer.aclrtIpcMemImportByKey({ key, flags: 0 })).devPtr, 'remote');
    const local = need((await importer.aclrtMallocHost({ size: MiB })).hostPtr, 'local');
    expect((await importer.aclrtIpcMemClose({ key })).ret).toBe(0);
    expect(host.state.ipcImports.size).toBe(0);
    expect((await importer.aclrtIpcMemClose({ key })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    expect(host.state.ipcKeys.has(key)).toBe(true);
    // A second import, then the exporter frees the memory: the key goes, the import reads freed memory.
    const again = need((await importer.aclrtIpcMemImportByKey({ key, flags: 0 })).devPtr, 'again');
    expect(again).toBe(remote);
    expect((await rt.aclrtFree({ devPtr })).ret).toBe(0);
    expect(host.state.ipcKeys.size).toBe(0);
    expect((await importer.aclrtMemcpy({ dst: local, destMax: MiB, src: again, count: MiB, kind: 2 })).ret).toBe(ACL_ERROR_INVALID_PARAM);
    for (const runtime of [importer, rt]) {
      for (const call of planTeardown(host.state, runtime.pid)) expect((await invokeCall(runtime, call)).ret, call.fn).toBe(0);
    }
    expect([host.state.ipcImports.size, host.state.ipcKeys.size]).toEqual([0, 0]);
    expect(devicePools(device)).toEqual(baseline);
  });
});
