import type { z } from 'zod';
import type { MemoryEventSchema } from './event-schemas.ts';
import {
  arrayOf,
  boolean,
  count,
  type Fields,
  finite,
  type Guard,
  integer,
  oneOf,
  positive,
  recordOf,
  strict,
  text,
  union,
} from './guards.ts';

/**
 * The event schemas of event-schemas.ts as guards, field for field in the same order, so that a
 * batch of events is checked in well under a microsecond per event. Keep the two in step: the
 * property tests in fast-agent-message.test.ts compare them on every kind.
 */
const seq = count;
const id = count;
const addr = count;

const pageClass = oneOf('normal', 'huge', 'giant');
const reason = strict({ code: text(64), rules: arrayOf(text(16), 16) }, { values: recordOf((value) => finite(value) || text(200)(value)) });
const runs = arrayOf(count, 1 << 22);
const fallback = strict({ from: pageClass, needed: count, free: count });
const jsonRecord = recordOf(undefined);
const grant = strict({ device: count, flags: count });
const pool = strict({ free: count, total: count });
const copyMode = oneOf('sync', 'async', 'async-blocking');
const copyPath = oneOf('pinned', 'pageable-staged', 'device', 'host', 'peer');
const reasons = arrayOf(reason, 32);

const base: Fields = { seq, t: count, provenance: oneOf('observed', 'simulated', 'modeled') };
const baseOptional: Fields = { call: seq };
const placement: Fields = { pageClass, pageSize: count, pages: count, runs };

/** The event kinds `names`: the base fields, `kind`, then `fields`, and the ones that may be absent. */
function kind(names: readonly string[], fields: Fields, optional: Fields = {}): Guard {
  return strict({ ...base, kind: oneOf(...names), ...fields }, { ...baseOptional, ...optional });
}

/** The wire form of pool samples, which snapshots also carry as a device's `lastSample`. */
const poolSampleFields: Fields = { device: count, pools: strict({ normal: pool, huge: pool, giant: pool, all: pool }) };
const poolSampleOptional: Fields = { ownBytes: count };

const KINDS: readonly (readonly [readonly string[], Fields, Fields?])[] = [
  [
    ['call'],
    { pid: count, fn: text(64), args: jsonRecord, ret: integer, durationNs: count },
    { out: jsonRecord, message: text(2000), reasons, injected: boolean },
  ],
  [['process'], { pid: count, name: text(64) }],
  [['init', 'finalize'], { pid: count }],
  [['deviceSet', 'deviceReset'], { pid: count, device: count, refs: count }],
  [['streamCreate'], { pid: count, device: count, id, handle: addr, isDefault: boolean }],
  [['streamDestroy'], { id }],
  [['sync'], { pid: count, until: count }, { stream: id, device: count }],
  [
    ['alloc'],
    { ...placement, pid: count, device: count, id, fn: text(64), addr, size: count, padded: count, policy: count, p2p: boolean },
    { fallback },
  ],
  [['free'], { id }],
  [['physAlloc'], { ...placement, pid: count, device: count, id, handle: addr, size: count, memAttr: count }],
  [['physFree'], { id, deferred: boolean }],
  [['physRelease'], { id }],
  [['reserve'], { pid: count, device: count, id, addr, size: count, flags: count }],
  [['release'], { id }],
  [['map'], { pid: count, id, reservation: id, handle: id, addr, size: count, device: count }],
  [['unmap'], { id }],
  [['setAccess'], { id, access: arrayOf(grant, 64) }],
  [['hostAlloc'], { pid: count, id, fn: text(64), addr, size: count, memory: oneOf('pageable', 'pinned'), vaFlag: boolean }],
  [['hostFree'], { id }],
  [
    ['hostRegister'],
    { id, fn: text(64), device: count, flags: count, pinned: boolean, mapped: boolean, devPtr: addr, vaConsistent: boolean },
  ],
  [['hostUnregister'], { id }],
  [
    ['copy'],
    {
      pid: count,
      id,
      fn: text(64),
      memcpyKind: count,
      dst: addr,
      src: addr,
      bytes: count,
      device: count,
      mode: copyMode,
      path: copyPath,
      submit: count,
      start: count,
      end: count,
      bytesPerSec: positive,
      stages: count,
      reasons,
    },
    { stream: id },
  ],
  [['memset'], { pid: count, addr, count, value: integer, device: count }],
  [['export'], { id, shareable: addr, flags: count }],
  [['import'], { pid: count, id, source: id, handle: addr, shareable: addr, device: count }],
  [['sharePids'], { shareable: addr, pids: arrayOf(integer, 1024) }],
  [['peerAccess'], { pid: count, device: count, peer: count }],
  [['poolSample'], poolSampleFields, poolSampleOptional],
];

function byKind(): Map<unknown, Guard> {
  const options = new Map<unknown, Guard>();
  for (const [names, fields, optional] of KINDS) {
    const guard = kind(names, fields, optional);
    for (const name of names) options.set(name, guard);
  }
  return options;
}

/** `PoolSampleEvent` of event-schemas.ts (a snapshot device's `lastSample`). */
export const poolSampleEvent: Guard = kind(['poolSample'], poolSampleFields, poolSampleOptional);

/** `MemoryEventSchema`. */
export const memoryEvent: Guard = union('kind', byKind());

export type WireEvent = z.infer<typeof MemoryEventSchema>;

/** Whether zod's `MemoryEventSchema` would accept `value` (and return a value equal to it). */
export function isMemoryEvent(value: unknown): value is WireEvent {
  return memoryEvent(value);
}
