import { type Hex, type HostState, toHex } from '@pagelens/core';
import type { PickKind } from './form-spec.ts';

/** The selectable kinds of the app's selection slice that live objects map to. */
export type SelectKind = 'allocation' | 'handle' | 'reservation' | 'mapping' | 'host' | 'stream' | 'context' | 'event';

/** One live object a pointer or handle parameter may name. */
export interface LiveObject {
  readonly pick: PickKind;
  readonly select: SelectKind;
  readonly id: number;
  /** What the parameter receives: the address, or the handle value, as "0x…". */
  readonly value: Hex;
  readonly size?: number;
  readonly device?: number;
  /** The function that made it (an ACL identifier, shown untranslated). */
  readonly tag: string;
  /** Host buffers: pinned (MallocHost, or registered PINNED) or pageable (HM-1, HM-2, HM-5). */
  readonly memory?: 'pinned' | 'pageable';
  readonly registered?: boolean;
  readonly createdSeq: number;
}

/**
 * The process this client drives: the agent names a session's first process "session <id>"; when
 * that name is missing (another backend), the pid of this client's last call tells.
 */
export function ownPid(state: HostState, sessionId: string | undefined, lastCallPid: number | undefined): number | undefined {
  if (sessionId !== undefined) {
    for (const process of state.processes.values()) if (process.name === `session ${sessionId}`) return process.pid;
  }
  return lastCallPid !== undefined && state.processes.has(lastCallPid) ? lastCallPid : undefined;
}

/** The device the process calls on now, or -1 before its first aclrtSetDevice (LT-2). */
export function currentDeviceOf(state: HostState, pid: number | undefined): number {
  if (pid === undefined) return -1;
  return state.processes.get(pid)?.currentDevice ?? -1;
}

const mine = (pid: number | undefined, owner: number): boolean => pid === undefined || pid === owner;

/**
 * The newest `limit` values of a map owned by `pid`. Maps iterate in insertion order and ids only
 * grow, so the newest are last: only references are gathered, and only `limit` objects are built,
 * which keeps this cheap with 100,000 live allocations.
 */
function newest<T extends { readonly pid: number }>(
  map: ReadonlyMap<number, T>,
  pid: number | undefined,
  limit: number,
  keep: (item: T) => boolean = () => true,
): T[] {
  const found: T[] = [];
  for (const item of map.values()) if (mine(pid, item.pid) && keep(item)) found.push(item);
  return found.slice(-limit).reverse();
}

function collect(state: HostState, pick: PickKind, pid: number | undefined, limit: number): LiveObject[] {
  switch (pick) {
    case 'allocation':
      return newest(state.allocations, pid, limit).map((a) => ({
        pick,
        select: 'allocation',
        id: a.id,
        value: toHex(a.addr),
        size: a.size,
        device: a.device,
        tag: a.fn,
        createdSeq: a.createdSeq,
      }));
    case 'mapping':
      return newest(state.mappings, pid, limit).map((m) => ({
        pick,
        select: 'mapping',
        id: m.id,
        value: toHex(m.addr),
        size: m.size,
        device: m.device,
        tag: 'aclrtMapMem',
        createdSeq: m.createdSeq,
      }));
    case 'reservation':
      return newest(state.reservations, pid, limit).map((r) => ({
        pick,
        select: 'reservation',
        id: r.id,
        value: toHex(r.addr),
        size: r.size,
        device: r.device,
        tag: 'aclrtReserveMemAddress',
        createdSeq: r.createdSeq,
      }));
    case 'host':
    case 'pinnedHost':
    case 'pageableHost':
    case 'registered':
      return newest(state.hostBuffers, pid, limit, (b) => {
        if (pick === 'pinnedHost') return b.memory === 'pinned';
        if (pick === 'pageableHost') return b.memory === 'pageable';
        if (pick === 'registered') return b.registration !== undefined;
        return true;
      }).map((b) => ({
        pick,
        select: 'host',
        id: b.id,
        value: toHex(b.addr),
        size: b.size,
        tag: b.fn,
        memory: b.memory === 'pinned' || b.registration?.pinned === true ? 'pinned' : 'pageable',
        registered: b.registration !== undefined,
        createdSeq: b.createdSeq,
      }));
    case 'handle':
      return newest(state.handles, pid, limit, (h) => !h.freed).map((h) => {
        const memory = state.physical.get(h.memory);
        return {
          pick,
          select: 'handle',
          id: h.id,
          value: toHex(h.handle),
          device: h.device,
          tag: h.importedFrom === undefined ? 'aclrtMallocPhysical' : 'aclrtMemImportFromShareableHandle',
          createdSeq: h.createdSeq,
          ...(memory === undefined ? {} : { size: memory.size }),
        };
      });
    case 'stream':
      return newest(state.streams, pid, limit, (s) => !s.isDefault).map((s) => ({
        pick,
        select: 'stream',
        id: s.id,
        value: toHex(s.handle),
        device: s.device,
        tag: 'aclrtCreateStream',
        createdSeq: 0,
      }));
    case 'context':
      return newest(state.contexts, pid, limit).map((c) => ({
        pick,
        select: 'context',
        id: c.id,
        value: toHex(c.handle),
        device: c.device,
        tag: c.isDefault ? 'aclrtSetDevice' : 'aclrtCreateContext',
        createdSeq: c.createdSeq,
      }));
    case 'event':
      return newest(state.aclEvents, pid, limit).map((e) => ({
        pick,
        select: 'event',
        id: e.id,
        value: toHex(e.handle),
        device: e.device,
        tag: e.ex ? 'aclrtCreateEventExWithFlag' : 'aclrtCreateEvent',
        createdSeq: e.createdSeq,
      }));
    case 'share':
      return newest(state.shares, pid, limit).map((share) => ({
        pick,
        select: 'handle',
        id: share.handle,
        value: toHex(share.shareable),
        tag: 'aclrtMemExportToShareableHandle',
        createdSeq: 0,
      }));
  }
}

/**
 * Live objects of the given kinds owned by `pid` (every process's when unknown), newest first,
 * at most `limit` of them: a picker lists a few hundred, a typed hex reaches the rest.
 */
export function liveObjects(state: HostState, picks: readonly PickKind[], pid: number | undefined, limit = 300): LiveObject[] {
  const all = picks.flatMap((pick) => collect(state, pick, pid, limit));
  all.sort((a, b) => b.createdSeq - a.createdSeq || b.id - a.id);
  return all.slice(0, limit);
}

/** One IPC key a `key` parameter may name (IP-1 … IP-4). */
export interface LiveKey {
  readonly key: string;
  /** The exported allocation. */
  readonly allocation: number;
  /** The process that exported it. */
  readonly pid: number;
  /** This process imported it (so aclrtIpcMemClose of it ends the import). */
  readonly imported: boolean;
}

/**
 * The live IPC keys that make sense for `fn`'s key: aclrtIpcMemSetImportPid the keys `pid` exported
 * (IP-2), aclrtIpcMemImportByKey the keys of other processes (IP-3: not its own), aclrtIpcMemClose
 * those it exported or imported (IP-4). Newest first; none for other functions.
 */
export function liveKeys(state: HostState, fn: string, pid: number | undefined, limit = 100): LiveKey[] {
  if (pid === undefined) return [];
  const imported = new Set<string>();
  for (const item of state.ipcImports.values()) if (item.pid === pid) imported.add(item.key);
  const wanted = (key: { readonly key: string; readonly pid: number }): boolean => {
    switch (fn) {
      case 'aclrtIpcMemSetImportPid':
        return key.pid === pid;
      case 'aclrtIpcMemImportByKey':
        return key.pid !== pid;
      case 'aclrtIpcMemClose':
        return key.pid === pid || imported.has(key.key);
      default:
        return false;
    }
  };
  return [...state.ipcKeys.values()]
    .filter(wanted)
    .sort((a, b) => b.createdSeq - a.createdSeq)
    .slice(0, limit)
    .map((key) => ({ key: key.key, allocation: key.allocation, pid: key.pid, imported: imported.has(key.key) }));
}
