import { accessGrant, allocationFacts, copyFacts, EVENT_TABLE, hostMemoryKind, placement, registrationFacts } from './event-table.ts';
import { addr, arrayOf, boolean, count, deviceProfile, id, int, object, optional, seq, text, tuple } from './shape.ts';

/**
 * The rows of a snapshot (snapshot.ts), in the vocabulary of the event table: the wire schema and
 * the fast guard of a snapshot follow from it (protocol/event-schemas.ts checks at compile time that
 * it describes the model's `Snapshot`). A row holds the facts of the event that made the object,
 * under the same names; its texts are not bounded as an event's are.
 */
const objectBase = { id, createdSeq: seq };

export const SNAPSHOT_SHAPE = object({
  seq,
  time: count,
  devices: arrayOf(object({ profile: deviceProfile, peers: arrayOf(count), lastSample: optional(EVENT_TABLE.poolSample) }), {
    min: 1,
    max: 16,
  }),
  processes: arrayOf(
    object({
      pid: count,
      name: text(),
      initialized: boolean,
      finalized: boolean,
      currentDevice: int,
      currentContext: int,
      deviceRefs: arrayOf(tuple(count, count)),
    }),
  ),
  allocations: arrayOf(object({ ...objectBase, ...placement, pid: count, device: count, fn: text(), ...allocationFacts })),
  physical: arrayOf(object({ ...objectBase, ...placement, device: count, size: count, memAttr: count })),
  handles: arrayOf(
    object({
      ...objectBase,
      pid: count,
      device: count,
      handle: addr,
      memory: id,
      importedFrom: optional(id),
      mappings: count,
      freed: boolean,
      retains: count,
    }),
  ),
  reservations: arrayOf(object({ ...objectBase, pid: count, device: count, addr, size: count, flags: count })),
  mappings: arrayOf(
    object({ ...objectBase, pid: count, reservation: id, handle: id, device: count, addr, size: count, access: arrayOf(accessGrant) }),
  ),
  hostBuffers: arrayOf(
    object({
      ...objectBase,
      pid: count,
      fn: text(),
      addr,
      size: count,
      memory: hostMemoryKind,
      vaFlag: boolean,
      registration: optional(object({ fn: text(), ...registrationFacts })),
    }),
  ),
  streams: arrayOf(
    object({
      id,
      pid: count,
      device: count,
      handle: addr,
      isDefault: boolean,
      context: optional(id),
      busyUntil: count,
      failureMode: count,
    }),
  ),
  contexts: arrayOf(object({ ...objectBase, pid: count, device: count, handle: addr, isDefault: boolean, defaultStream: int })),
  aclEvents: arrayOf(
    object({
      ...objectBase,
      pid: count,
      device: count,
      context: id,
      handle: addr,
      flags: count,
      ex: boolean,
      stream: int,
      at: count,
      recordedSeq: int,
    }),
  ),
  shares: arrayOf(object({ shareable: addr, handle: id, pid: count, flags: count, pids: arrayOf(int) })),
  ipcKeys: arrayOf(object({ key: text(), pid: count, allocation: id, size: count, flags: count, pids: arrayOf(int), createdSeq: seq })),
  ipcImports: arrayOf(object({ ...objectBase, pid: count, key: text(), source: id, addr, size: count, device: count })),
  copies: arrayOf(object({ seq, id, pid: count, fn: text(), ...copyFacts })),
});
