import { ASCEND_910B2, SimHost, SimRuntime } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { liveKeys } from './live-objects.ts';

const MiB = 1024 * 1024;

describe('liveKeys', () => {
  it('IP-2 … IP-4: offers the keys each IPC call may name, newest first', async () => {
    const host = new SimHost({ devices: [ASCEND_910B2] });
    const [exporter, importer] = [new SimRuntime(host, 'exporter'), new SimRuntime(host, 'importer')];
    for (const rt of [exporter, importer]) {
      await rt.aclInit({ configPath: null });
      await rt.aclrtSetDevice({ deviceId: 0 });
    }
    const devPtr = (await exporter.aclrtMalloc({ size: 4 * MiB, policy: 0 })).devPtr ?? '0x0';
    const first = (await exporter.aclrtIpcMemGetExportKey({ devPtr, size: MiB, len: 65, flags: 1 })).key ?? '';
    const second = (await exporter.aclrtIpcMemGetExportKey({ devPtr, size: MiB, len: 65, flags: 1 })).key ?? '';
    expect((await importer.aclrtIpcMemImportByKey({ key: first, flags: 0 })).ret).toBe(0);
    const allocation = [...host.state.allocations.values()][0]?.id;
    const keysOf = (fn: string, pid: number) => liveKeys(host.state, fn, pid).map((item) => [item.key, item.imported]);
    // The exporter sets pids on and closes its own keys; it cannot import them.
    expect(keysOf('aclrtIpcMemSetImportPid', exporter.pid)).toEqual([
      [second, false],
      [first, false],
    ]);
    expect(keysOf('aclrtIpcMemImportByKey', exporter.pid)).toEqual([]);
    expect(keysOf('aclrtIpcMemClose', exporter.pid)).toHaveLength(2);
    // The importer imports others' keys and closes what it imported.
    expect(keysOf('aclrtIpcMemImportByKey', importer.pid)).toHaveLength(2);
    expect(keysOf('aclrtIpcMemClose', importer.pid)).toEqual([[first, true]]);
    expect(keysOf('aclrtIpcMemSetImportPid', importer.pid)).toEqual([]);
    expect(liveKeys(host.state, 'aclrtIpcMemClose', importer.pid)[0]).toMatchObject({ allocation, pid: exporter.pid });
    expect(liveKeys(host.state, 'aclrtMalloc', exporter.pid)).toEqual([]);
    expect(liveKeys(host.state, 'aclrtIpcMemClose', undefined)).toEqual([]);
  });
});
