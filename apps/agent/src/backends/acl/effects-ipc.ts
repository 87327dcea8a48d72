import type { EffectContext } from './effects-context.ts';

/*
 * IPC of device memory (IP-1 … IP-4) as the replica records it. The acl backend is one OS process:
 * it exports keys of its own allocations and closes them; an import succeeds only for a key another
 * process exported, and then only a key PageLens saw exported (in another session's process of the
 * same agent) has pages the replica knows.
 */

/** IP-1: allocation at `addr` may be imported by `key` (its first `size` bytes). */
export function recordIpcExport(context: EffectContext, addr: number, size: number, flags: number, key: string): void {
  const id = context.process.allocByAddr.get(addr);
  if (id === undefined) {
    context.notes.push(`0x${addr.toString(16)} was not allocated through PageLens; the IPC key is recorded nowhere`);
    return;
  }
  context.emit({ kind: 'ipcExport', pid: context.pid, key, id, size, flags });
}

/** IP-2: the allow-list grows by `pids`. */
export function recordIpcPids(context: EffectContext, key: string, pids: readonly number[]): void {
  const target = context.state.ipcKeys.get(key);
  if (target === undefined) {
    context.notes.push('the IPC key was not exported through PageLens; its allow-list is recorded nowhere');
    return;
  }
  context.emit({ kind: 'ipcPids', key, pids: [...target.pids, ...pids] });
}

/** IP-3: the exported pages reached at `addr` in this process (no pages of its own). */
export function recordIpcImport(context: EffectContext, key: string, addr: number): void {
  const target = context.state.ipcKeys.get(key);
  const source = target === undefined ? undefined : context.state.allocations.get(target.allocation);
  if (target === undefined || source === undefined) {
    context.notes.push('the memory was exported by a process PageLens does not observe; the import is recorded nowhere');
    return;
  }
  context.emit({
    kind: 'ipcImport',
    pid: context.pid,
    id: context.host.newId(),
    key,
    source: source.id,
    addr,
    size: target.size,
    device: source.device,
  });
}

/** IP-4: this process's imports of `key` end, and the key, if this process exported it. */
export function recordIpcClose(context: EffectContext, key: string, modeled = false): void {
  const exported = context.state.ipcKeys.get(key)?.pid === context.pid;
  const imported = [...context.state.ipcImports.values()].some((item) => item.pid === context.pid && item.key === key);
  if (!exported && !imported) {
    context.notes.push('the IPC key was neither exported nor imported through PageLens; nothing recorded');
    return;
  }
  context.emit({ kind: 'ipcClose', pid: context.pid, key }, modeled);
}

/**
 * IP-4: freeing an allocation ends its keys, as the simulator's free does (importers keep addresses
 * that now reach freed memory). The runtime reports nothing of it: modeled.
 */
export function endKeysOf(context: EffectContext, allocation: number): void {
  if (context.state.ipcKeys.size === 0) return;
  for (const key of [...context.state.ipcKeys.values()]) {
    if (key.allocation === allocation) context.emit({ kind: 'ipcClose', pid: key.pid, key: key.key }, true);
  }
}

/** IP-4: a reset or aclFinalize closes this process's imports on the device and the keys it exported there (modeled). */
export function closeKeysOnDevice(context: EffectContext, device: number | undefined): void {
  const { state, pid } = context;
  if (state.ipcKeys.size === 0 && state.ipcImports.size === 0) return;
  const on = (d: number | undefined): boolean => d !== undefined && (device === undefined || d === device);
  const keys = new Set<string>();
  for (const item of state.ipcImports.values()) if (item.pid === pid && on(item.device)) keys.add(item.key);
  for (const key of state.ipcKeys.values()) if (key.pid === pid && on(state.allocations.get(key.allocation)?.device)) keys.add(key.key);
  for (const key of keys) context.emit({ kind: 'ipcClose', pid, key }, true);
}
