import { z } from 'zod';
import type { MemoryEvent } from '../model/events.ts';
import type { Snapshot } from '../model/snapshot.ts';
import { DeviceProfile } from '../profiles/profile.ts';

/**
 * Wire schemas of events and snapshots. They mirror the TypeScript types of model/events.ts and
 * model/snapshot.ts; the compile-time checks at the end of this file fail if the two drift apart.
 * Addresses and handle values are exact integers below 2^53, not hex: events are data for the
 * reducer, not C arguments.
 */
const int = z.number().int().safe();
const count = int.nonnegative();
const addr = count;
const id = count;
const seq = count;

const Provenance = z.enum(['observed', 'simulated', 'modeled']);
const PageClass = z.enum(['normal', 'huge', 'giant']);
const Reason = z.strictObject({
  code: z.string().max(64),
  rules: z.array(z.string().max(16)).max(16),
  values: z.record(z.string(), z.union([z.number(), z.string().max(200)])).exactOptional(),
});
const Runs = z.array(count).max(1 << 22);
const Fallback = z.strictObject({ from: PageClass, needed: count, free: count });
const JsonRecord = z.record(z.string(), z.unknown());

const base = { seq, t: count, provenance: Provenance, call: seq.exactOptional() };
const placement = { pageClass: PageClass, pageSize: count, pages: count, runs: Runs };
const Grant = z.strictObject({ device: count, flags: count });
const Pool = z.strictObject({ free: count, total: count });

const CallEvent = z.strictObject({
  ...base,
  kind: z.literal('call'),
  pid: count,
  fn: z.string().max(64),
  args: JsonRecord,
  ret: int,
  out: JsonRecord.exactOptional(),
  message: z.string().max(2000).exactOptional(),
  reasons: z.array(Reason).max(32).exactOptional(),
  durationNs: count,
  injected: z.boolean().exactOptional(),
});

const PoolSampleEvent = z.strictObject({
  ...base,
  kind: z.literal('poolSample'),
  device: count,
  pools: z.strictObject({ normal: Pool, huge: Pool, giant: Pool, all: Pool }),
  ownBytes: count.exactOptional(),
});

export const MemoryEventSchema = z.discriminatedUnion('kind', [
  CallEvent,
  z.strictObject({ ...base, kind: z.literal('process'), pid: count, name: z.string().max(64) }),
  z.strictObject({ ...base, kind: z.enum(['init', 'finalize']), pid: count }),
  z.strictObject({ ...base, kind: z.enum(['deviceSet', 'deviceReset']), pid: count, device: count, refs: count }),
  z.strictObject({ ...base, kind: z.literal('streamCreate'), pid: count, device: count, id, handle: addr, isDefault: z.boolean() }),
  z.strictObject({ ...base, kind: z.literal('streamDestroy'), id }),
  z.strictObject({ ...base, kind: z.literal('sync'), pid: count, stream: id.exactOptional(), device: count.exactOptional(), until: count }),
  z.strictObject({
    ...base,
    ...placement,
    kind: z.literal('alloc'),
    pid: count,
    device: count,
    id,
    fn: z.string().max(64),
    addr,
    size: count,
    padded: count,
    policy: count,
    p2p: z.boolean(),
    fallback: Fallback.exactOptional(),
  }),
  z.strictObject({ ...base, kind: z.literal('free'), id }),
  z.strictObject({
    ...base,
    ...placement,
    kind: z.literal('physAlloc'),
    pid: count,
    device: count,
    id,
    handle: addr,
    size: count,
    memAttr: count,
  }),
  z.strictObject({ ...base, kind: z.literal('physFree'), id, deferred: z.boolean() }),
  z.strictObject({ ...base, kind: z.literal('physRelease'), id }),
  z.strictObject({ ...base, kind: z.literal('reserve'), pid: count, device: count, id, addr, size: count, flags: count }),
  z.strictObject({ ...base, kind: z.literal('release'), id }),
  z.strictObject({ ...base, kind: z.literal('map'), pid: count, id, reservation: id, handle: id, addr, size: count, device: count }),
  z.strictObject({ ...base, kind: z.literal('unmap'), id }),
  z.strictObject({ ...base, kind: z.literal('setAccess'), id, access: z.array(Grant).max(64) }),
  z.strictObject({
    ...base,
    kind: z.literal('hostAlloc'),
    pid: count,
    id,
    fn: z.string().max(64),
    addr,
    size: count,
    memory: z.enum(['pageable', 'pinned']),
    vaFlag: z.boolean(),
  }),
  z.strictObject({ ...base, kind: z.literal('hostFree'), id }),
  z.strictObject({
    ...base,
    kind: z.literal('hostRegister'),
    id,
    fn: z.string().max(64),
    device: count,
    flags: count,
    pinned: z.boolean(),
    mapped: z.boolean(),
    devPtr: addr,
    vaConsistent: z.boolean(),
  }),
  z.strictObject({ ...base, kind: z.literal('hostUnregister'), id }),
  z.strictObject({
    ...base,
    kind: z.literal('copy'),
    pid: count,
    id,
    fn: z.string().max(64),
    memcpyKind: count,
    dst: addr,
    src: addr,
    bytes: count,
    device: count,
    stream: id.exactOptional(),
    mode: z.enum(['sync', 'async', 'async-blocking']),
    path: z.enum(['pinned', 'pageable-staged', 'device', 'host', 'peer']),
    submit: count,
    start: count,
    end: count,
    bytesPerSec: z.number().positive(),
    stages: count,
    reasons: z.array(Reason).max(32),
  }),
  z.strictObject({ ...base, kind: z.literal('memset'), pid: count, addr, count, value: int, device: count }),
  z.strictObject({ ...base, kind: z.literal('export'), id, shareable: addr, flags: count }),
  z.strictObject({ ...base, kind: z.literal('import'), pid: count, id, source: id, handle: addr, shareable: addr, device: count }),
  z.strictObject({ ...base, kind: z.literal('sharePids'), shareable: addr, pids: z.array(int).max(1024) }),
  z.strictObject({ ...base, kind: z.literal('peerAccess'), pid: count, device: count, peer: count }),
  PoolSampleEvent,
]);

const objectBase = { id, createdSeq: seq };
const Allocation = z.strictObject({
  ...objectBase,
  ...placement,
  pid: count,
  device: count,
  fn: z.string(),
  addr,
  size: count,
  padded: count,
  policy: count,
  p2p: z.boolean(),
  fallback: Fallback.exactOptional(),
});
const Physical = z.strictObject({ ...objectBase, ...placement, device: count, size: count, memAttr: count });
const Handle = z.strictObject({
  ...objectBase,
  pid: count,
  device: count,
  handle: addr,
  memory: id,
  importedFrom: id.exactOptional(),
  mappings: count,
  freed: z.boolean(),
});
const Registration = z.strictObject({
  fn: z.string(),
  device: count,
  flags: count,
  pinned: z.boolean(),
  mapped: z.boolean(),
  devPtr: addr,
  vaConsistent: z.boolean(),
});

export const SnapshotSchema = z.strictObject({
  seq,
  time: count,
  devices: z
    .array(z.strictObject({ profile: DeviceProfile, peers: z.array(count), lastSample: PoolSampleEvent.exactOptional() }))
    .min(1)
    .max(16),
  processes: z.array(
    z.strictObject({
      pid: count,
      name: z.string(),
      initialized: z.boolean(),
      currentDevice: int,
      deviceRefs: z.array(z.tuple([count, count])),
    }),
  ),
  allocations: z.array(Allocation),
  physical: z.array(Physical),
  handles: z.array(Handle),
  reservations: z.array(z.strictObject({ ...objectBase, pid: count, device: count, addr, size: count, flags: count })),
  mappings: z.array(
    z.strictObject({ ...objectBase, pid: count, reservation: id, handle: id, device: count, addr, size: count, access: z.array(Grant) }),
  ),
  hostBuffers: z.array(
    z.strictObject({
      ...objectBase,
      pid: count,
      fn: z.string(),
      addr,
      size: count,
      memory: z.enum(['pageable', 'pinned']),
      vaFlag: z.boolean(),
      registration: Registration.exactOptional(),
    }),
  ),
  streams: z.array(z.strictObject({ id, pid: count, device: count, handle: addr, isDefault: z.boolean(), busyUntil: count })),
  shares: z.array(z.strictObject({ shareable: addr, handle: id, pid: count, flags: count, pids: z.array(int) })),
  copies: z.array(
    z.strictObject({
      seq,
      id,
      pid: count,
      fn: z.string(),
      memcpyKind: count,
      dst: addr,
      src: addr,
      bytes: count,
      device: count,
      stream: id.exactOptional(),
      mode: z.enum(['sync', 'async', 'async-blocking']),
      path: z.enum(['pinned', 'pageable-staged', 'device', 'host', 'peer']),
      submit: count,
      start: count,
      end: count,
      bytesPerSec: z.number().positive(),
      stages: count,
    }),
  ),
});

// Compile-time proof that the schemas and the model types describe the same values.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
// Readonly and the `| undefined` zod adds to optional fields are not differences in value.
type Plain<T> = T extends readonly (infer U)[]
  ? Plain<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Plain<Exclude<T[K], undefined>> }
    : T;
const eventsMatch: Same<Plain<z.infer<typeof MemoryEventSchema>>, Plain<MemoryEvent>> = true;
const snapshotsMatch: Same<Plain<z.infer<typeof SnapshotSchema>>, Plain<Snapshot>> = true;
export const SCHEMAS_MATCH_MODEL = eventsMatch && snapshotsMatch;
