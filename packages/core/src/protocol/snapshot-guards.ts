import type { z } from 'zod';
import { DeviceProfile } from '../profiles/profile.ts';
import { poolSampleEvent } from './event-guards.ts';
import type { SnapshotSchema } from './event-schemas.ts';
import {
  arrayOf,
  boolean,
  count,
  type Fields,
  type Guard,
  integer,
  isObject,
  oneOf,
  positive,
  recordOf,
  strict,
  text,
  tuple,
} from './guards.ts';

/**
 * `SnapshotSchema` of event-schemas.ts as guards, field for field. The tables of objects (100,000
 * allocations and more) are what costs; device profiles, at most 16, are left to their zod schema,
 * whose cross-field refinements are not worth repeating.
 */
const seq = count;
const id = count;
const addr = count;

const pageClass = oneOf('normal', 'huge', 'giant');
const placement: Fields = { pageClass, pageSize: count, pages: count, runs: arrayOf(count, 1 << 22) };
const objectBase: Fields = { id, createdSeq: seq };
const grant = strict({ device: count, flags: count });
const hostMemory = oneOf('pageable', 'pinned');

/** zod checks a profile; an own `__proto__` key in its `sources`, which zod would strip, is left to zod (see recordOf). */
const profile: Guard = (value) => isObject(value) && recordOf(text())(value.sources) && DeviceProfile.safeParse(value).success;
const device = strict({ profile, peers: arrayOf(count) }, { lastSample: poolSampleEvent });
const process = strict({
  pid: count,
  name: text(),
  initialized: boolean,
  currentDevice: integer,
  deviceRefs: arrayOf(tuple(count, count)),
});
const allocation = strict(
  {
    ...objectBase,
    ...placement,
    pid: count,
    device: count,
    fn: text(),
    addr,
    size: count,
    padded: count,
    policy: count,
    p2p: boolean,
  },
  { fallback: strict({ from: pageClass, needed: count, free: count }) },
);
const physical = strict({ ...objectBase, ...placement, device: count, size: count, memAttr: count });
const handle = strict(
  { ...objectBase, pid: count, device: count, handle: addr, memory: id, mappings: count, freed: boolean },
  { importedFrom: id },
);
const reservation = strict({ ...objectBase, pid: count, device: count, addr, size: count, flags: count });
const mapping = strict({
  ...objectBase,
  pid: count,
  reservation: id,
  handle: id,
  device: count,
  addr,
  size: count,
  access: arrayOf(grant),
});
const registration = strict({
  fn: text(),
  device: count,
  flags: count,
  pinned: boolean,
  mapped: boolean,
  devPtr: addr,
  vaConsistent: boolean,
});
const hostBuffer = strict(
  { ...objectBase, pid: count, fn: text(), addr, size: count, memory: hostMemory, vaFlag: boolean },
  { registration },
);
const stream = strict({ id, pid: count, device: count, handle: addr, isDefault: boolean, busyUntil: count });
const share = strict({ shareable: addr, handle: id, pid: count, flags: count, pids: arrayOf(integer) });
const copy = strict(
  {
    seq,
    id,
    pid: count,
    fn: text(),
    memcpyKind: count,
    dst: addr,
    src: addr,
    bytes: count,
    device: count,
    mode: oneOf('sync', 'async', 'async-blocking'),
    path: oneOf('pinned', 'pageable-staged', 'device', 'host', 'peer'),
    submit: count,
    start: count,
    end: count,
    bytesPerSec: positive,
    stages: count,
  },
  { stream: id },
);

/** `SnapshotSchema`. */
export const snapshot: Guard = strict({
  seq,
  time: count,
  devices: arrayOf(device, 16, 1),
  processes: arrayOf(process),
  allocations: arrayOf(allocation),
  physical: arrayOf(physical),
  handles: arrayOf(handle),
  reservations: arrayOf(reservation),
  mappings: arrayOf(mapping),
  hostBuffers: arrayOf(hostBuffer),
  streams: arrayOf(stream),
  shares: arrayOf(share),
  copies: arrayOf(copy),
});

export type WireSnapshot = z.infer<typeof SnapshotSchema>;

/** Whether zod's `SnapshotSchema` would accept `value` (and return a value equal to it). */
export function isSnapshot(value: unknown): value is WireSnapshot {
  return snapshot(value);
}
