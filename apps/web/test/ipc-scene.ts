import { ASCEND_910B2, type DeviceAllocation, type Hex, SimHost, SimRuntime } from '@pagelens/core';

const MiB = 1024 * 1024;

export interface IpcScene {
  readonly host: SimHost;
  readonly exporter: SimRuntime;
  readonly importer: SimRuntime;
  /** The exporter's device pointer. */
  readonly devPtr: Hex;
  /** The IPC key the exporter wrote. */
  readonly key: string;
  /** Where the import landed in the importer's address space. */
  readonly addr: number;
  /** The exported allocation. */
  readonly source: DeviceAllocation | undefined;
}

/**
 * Two processes on one 910B2, each with device 0 set: the exporter allocates 4 MiB, exports it
 * under an IPC key open to any process, and the importer imports it (IP-1, IP-3).
 */
export async function ipcScene(): Promise<IpcScene> {
  const host = new SimHost({ devices: [ASCEND_910B2] });
  const [exporter, importer] = [new SimRuntime(host, 'exporter'), new SimRuntime(host, 'importer')];
  for (const rt of [exporter, importer]) {
    await rt.aclInit({ configPath: null });
    await rt.aclrtSetDevice({ deviceId: 0 });
  }
  const devPtr = (await exporter.aclrtMalloc({ size: 4 * MiB, policy: 0 })).devPtr ?? '0x0';
  const key = (await exporter.aclrtIpcMemGetExportKey({ devPtr, size: 4 * MiB, len: 65, flags: 1 })).key ?? '';
  const addr = Number.parseInt((await importer.aclrtIpcMemImportByKey({ key, flags: 0 })).devPtr ?? '0x0', 16);
  return { host, exporter, importer, devPtr, key, addr, source: [...host.state.allocations.values()][0] };
}
