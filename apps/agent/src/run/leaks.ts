import { type HostState, toHex } from '@pagelens/core';
import type { HostMap } from './host-map.ts';
import type { CallSite, RunRecord } from './run-record.ts';

/*
 * What a program still held when it ended, read from the simulator's state before the agent
 * reclaims it (LT-3): each object with the call that made it. Pageable buffers the agent modeled
 * for the program's own memory (host-map.ts) are not the program's ACL objects and are not leaks.
 */

export type LeakKind =
  | 'device memory'
  | 'pinned host memory'
  | 'host registration'
  | 'physical handle'
  | 'reservation'
  | 'mapping'
  | 'stream'
  | 'event'
  | 'context';

export interface Leak {
  readonly kind: LeakKind;
  /** The address or handle the program holds, as it sees it. */
  readonly value: string;
  /** Bytes, when the object has a size. */
  readonly size?: number;
  readonly madeBy?: CallSite;
}

export function findLeaks(state: HostState, pid: number, hostMap: HostMap, record: RunRecord): Leak[] {
  const leaks: Leak[] = [];
  const add = (kind: LeakKind, value: number, key: string, size?: number) => {
    const madeBy = record.creator(`${key}:${toHex(value)}`);
    leaks.push({ kind, value: toHex(value), ...(size === undefined ? {} : { size }), ...(madeBy === undefined ? {} : { madeBy }) });
  };
  const mine = <T extends { readonly pid: number }>(items: Iterable<T>): T[] => [...items].filter((item) => item.pid === pid);
  for (const mapping of mine(state.mappings.values())) add('mapping', mapping.addr, 'aclrtUnmapMem', mapping.size);
  for (const reservation of mine(state.reservations.values()))
    add('reservation', reservation.addr, 'aclrtReleaseMemAddress', reservation.size);
  for (const handle of mine(state.handles.values())) if (!handle.freed) add('physical handle', handle.handle, 'aclrtFreePhysical');
  for (const allocation of mine(state.allocations.values())) add('device memory', allocation.addr, 'aclrtFree', allocation.size);
  for (const buffer of mine(state.hostBuffers.values())) {
    const real = hostMap.toReal(buffer.addr) ?? buffer.addr;
    if (buffer.registration !== undefined) add('host registration', real, 'aclrtHostUnregister', buffer.size);
    if (buffer.memory === 'pinned') add('pinned host memory', real, 'aclrtFreeHost', buffer.size);
  }
  for (const stream of mine(state.streams.values())) if (!stream.isDefault) add('stream', stream.handle, 'aclrtDestroyStream');
  for (const event of mine(state.aclEvents.values())) add('event', event.handle, 'aclrtDestroyEvent');
  for (const context of mine(state.contexts.values())) if (!context.isDefault) add('context', context.handle, 'aclrtDestroyContext');
  return leaks;
}
