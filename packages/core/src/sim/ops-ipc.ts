import { ACL_ERROR_RT_NO_PERMISSION, ACL_ERROR_RT_PARAM_INVALID } from '../acl/errors.ts';
import type { IpcKey } from '../model/state.ts';
import { text } from '../texts/table.ts';
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
  if (address(devPtr) === 0) return invalid(text('null-arg-rule', { name: 'devPtr', rule: 'IP-1' }));
  if (size === 0 || len === 0 || flags > 1) {
    return fail(ACL_ERROR_RT_PARAM_INVALID, text('ipc-export-args', { size, len, flags }));
  }
  if (len < IPC_KEY_LENGTH) return fail(ACL_ERROR_RT_PARAM_INVALID, text('ipc-key-len', { len, needed: IPC_KEY_LENGTH }));
  const id = context.process.allocByAddr.get(address(devPtr));
  const allocation = id === undefined ? undefined : context.state.allocations.get(id);
  if (allocation === undefined) return invalid(text('ipc-export-not-live', { devPtr }));
  if (size > allocation.size) return invalid(text('ipc-export-size', { size, allocation: allocation.size }));
  // 64 characters, like the runtime's keys; unique on the host (modeled text).
  const key = `pagelens-ipc-${context.pid}-${allocation.id}-${context.host.newId()}`.padEnd(IPC_KEY_LENGTH - 1, '0');
  context.emit({ kind: 'ipcExport', pid: context.pid, key, id: allocation.id, size, flags });
  return ok({ key });
};

/** IP-2: the processes that may import the key, added to its allow-list by the exporter. */
export const aclrtIpcMemSetImportPid: Op<'aclrtIpcMemSetImportPid'> = (context, { key, pid, num }) => {
  if (key === null) return invalid(text('null-arg-rule', { name: 'key', rule: 'IP-2' }));
  const target = keyOf(context, key);
  if (target === undefined || target.pid !== context.pid) return invalid(text('ipc-key-not-exported', { key: key.slice(0, 80) }));
  if (num === 0 || num > pid.length) return invalid(text('pid-count-rule', { name: 'num', value: num, given: pid.length, rule: 'IP-2' }));
  context.emit({ kind: 'ipcPids', key: target.key, pids: [...target.pids, ...pid.slice(0, num)] });
  return done();
};

/** IP-3: another process reaches the exported memory at an address of its own. */
export const aclrtIpcMemImportByKey: Op<'aclrtIpcMemImportByKey'> = (context, { key, flags }) => {
  const device = currentDevice(context);
  if (isResult(device)) return device;
  if (key === null) return invalid(text('null-arg-rule', { name: 'key', rule: 'IP-3' }));
  if (flags > 1) return fail(ACL_ERROR_RT_PARAM_INVALID, text('ipc-import-flags', { flags }));
  const target = keyOf(context, key);
  if (target === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, text('ipc-key-not-live', { key: key.slice(0, 80) }));
  if (target.pid === context.pid) return invalid(text('ipc-import-own'));
  if (target.flags === 0 && !target.pids.includes(context.pid)) {
    return fail(ACL_ERROR_RT_NO_PERMISSION, text('ipc-not-allowed', { pid: context.pid }));
  }
  const source = context.state.allocations.get(target.allocation);
  if (source === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, text('ipc-export-gone'));
  const addr = context.space.deviceVa[device.id]?.take(alignUp(target.size, IMPORT_VA_BLOCK), IMPORT_VA_BLOCK);
  if (addr === undefined) return fail(ACL_ERROR_RT_PARAM_INVALID, text('ipc-import-va-full', { size: target.size }));
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
  if (key === null) return invalid(text('null-arg-rule', { name: 'key', rule: 'IP-4' }));
  const imports = [...context.state.ipcImports.values()].filter((item) => item.pid === context.pid && item.key === key);
  const target = keyOf(context, key);
  if (imports.length === 0 && target?.pid !== context.pid) return invalid(text('ipc-key-unknown', { key: key.slice(0, 80) }));
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
