import { ACL_ERROR_RT_NO_PERMISSION, ACL_ERROR_RT_PARAM_INVALID } from '../acl/errors.ts';
import type { IpcKey } from '../model/state.ts';
import { alignUp, MiB } from '../units/bytes.ts';
import { toHex } from '../units/hex.ts';
import { address, currentDevice, done, fail, invalid, isResult, type Op, ok, type SimContext } from './context.ts';
import { deviceOfAddress } from './layout.ts';

/*
 * IPC of device memory (IP-1 … IP-4, runtime-api.md §7): the non-VMM way another process reaches
 * aclrtMalloc memory. The exporter names an allocation by a key; another process imports the key
 * and gets a device address of its own for the same pages (no new pages: the allocation keeps
 * them); each process closes the key when done.
 */

/** The key's length with its NUL: the guide fixes `len` at 65. */
export const IPC_KEY_LENGTH = 65;
/** An imported range takes device VA in whole 2 MiB blocks (modeled). */
const IMPORT_VA_BLOCK = 2 * MiB;

function keyOf(context: SimContext, key: string | null): IpcKey | undefined {
  return key === null ? undefined : context.state.ipcKeys.get(key);
}

/** IP-1: a key for the first `size` bytes of an allocation; flags 1 turns the allow-list off. */
export const aclrtIpcMemGetExportKey: Op<'aclrtIpcMemGetExportKey'> = (context, { devPtr, size, len, flags }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (address(devPtr) === 0) return invalid('devPtr is NULL (IP-1)');
  if (size === 0 || len === 0 || flags > 1) {
    return fail(
      ACL_ERROR_RT_PARAM_INVALID,
      `size and len must be above 0 and flags 0 or 1 (size ${size}, len ${len}, flags ${flags}) (IP-1)`,
    );
  }
  if (len < IPC_KEY_LENGTH)
    return fail(ACL_ERROR_RT_PARAM_INVALID, `len ${len} is too short: the key takes ${IPC_KEY_LENGTH} bytes with its NUL (IP-1)`);
  const id = context.process.allocByAddr.get(address(devPtr));
  const allocation = id === undefined ? undefined : context.state.allocations.get(id);
  if (allocation === undefined) return invalid(`devPtr ${devPtr} is not the start of a live device allocation of this process (IP-1)`);
  if (size > allocation.size) return invalid(`size ${size} is larger than the ${allocation.size}-byte allocation (IP-1)`);
  // 64 characters, like the runtime's keys; unique on the host (modeled text).
  const key = `pagelens-ipc-${context.pid}-${allocation.id}-${context.host.newId()}`.padEnd(IPC_KEY_LENGTH - 1, '0');
  context.emit({ kind: 'ipcExport', pid: context.pid, key, id: allocation.id, size, flags });
  return ok({ key });
};

/** IP-2: the processes that may import the key, added to its allow-list by the exporter. */
export const aclrtIpcMemSetImportPid: Op<'aclrtIpcMemSetImportPid'> = (context, { key, pid, num }) => {
  if (key === null) return invalid('key is NULL (IP-2)');
  const target = keyOf(context, key);
  if (target === undefined || target.pid !== context.pid) return invalid(`"${key.slice(0, 80)}" is not a key this process exported (IP-2)`);
  if (num === 0 || num > pid.length) return invalid(`num ${num} must be between 1 and the ${pid.length} pids given (IP-2)`);
  context.emit({ kind: 'ipcPids', key: target.key, pids: [...target.pids, ...pid.slice(0, num)] });
  return done();
};

/** IP-3: another process reaches the exported memory at an address of its own. */
export const aclrtIpcMemImportByKey: Op<'aclrtIpcMemImportByKey'> = (context, { key, flags }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (key === null) return invalid('key is NULL (IP-3)');
  if (flags > 1) return fail(ACL_ERROR_RT_PARAM_INVALID, `flags must be 0 or 1, not ${flags} (IP-3)`);
  const target = keyOf(context, key);
  if (target === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, `"${key.slice(0, 80)}" is not a live IPC key on this host (IP-3)`);
  if (target.pid === context.pid) return invalid('the exporting process cannot import its own key; import it in another process (IP-3)');
  if (target.flags === 0 && !target.pids.includes(context.pid)) {
    return fail(
      ACL_ERROR_RT_NO_PERMISSION,
      `pid ${context.pid} is not on the key's allow-list: the exporter must call aclrtIpcMemSetImportPid (IP-2)`,
    );
  }
  const source = context.state.allocations.get(target.allocation);
  if (source === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, 'the exported memory is gone: its exporter freed it (IP-4)');
  const addr = context.space.deviceVa[device.id]?.take(alignUp(target.size, IMPORT_VA_BLOCK), IMPORT_VA_BLOCK);
  if (addr === undefined)
    return fail(ACL_ERROR_RT_PARAM_INVALID, `no device address range of ${target.size} bytes is free in this process`);
  context.emit({
    kind: 'ipcImport',
    pid: context.pid,
    id: context.host.newId(),
    key: target.key,
    source: source.id,
    addr,
    size: target.size,
    device: source.device,
  });
  return ok({ devPtr: toHex(addr) });
};

/** IP-4: an importer's close ends its imports of the key; the exporter's ends the key (importers should close first). */
export const aclrtIpcMemClose: Op<'aclrtIpcMemClose'> = (context, { key }) => {
  if (key === null) return invalid('key is NULL (IP-4)');
  const imports = [...context.state.ipcImports.values()].filter((item) => item.pid === context.pid && item.key === key);
  const target = keyOf(context, key);
  if (imports.length === 0 && target?.pid !== context.pid)
    return invalid(`"${key.slice(0, 80)}" is neither imported nor exported by this process (IP-4)`);
  closeKey(context, key);
  return done();
};

/** Ends this process's imports of `key` (giving their addresses back) and, if it exported it, the key. */
export function closeKey(context: SimContext, key: string): void {
  for (const item of context.state.ipcImports.values()) {
    if (item.pid === context.pid && item.key === key) {
      // The import's VA came from the window of the device current at the import: the address tells which.
      const window = deviceOfAddress(item.addr, context.state.devices.length);
      if (window >= 0) context.space.deviceVa[window]?.release(item.addr, alignUp(item.size, IMPORT_VA_BLOCK));
    }
  }
  context.emit({ kind: 'ipcClose', pid: context.pid, key });
}
