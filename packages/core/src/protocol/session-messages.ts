import { z } from 'zod';
import { SIMULATED_DEVICES } from '../profiles/profile.ts';
import { CodedTextSchema, MemoryEventSchema, SnapshotSchema } from './event-schemas.ts';

const id = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const seq = z.number().int().nonnegative().safe();

/**
 * call: run one ACL function. `fn` is the exact C name, `args` the input parameters by their C
 * names (enums as identifiers or numbers, pointers as "0x…"). `process` picks one of the
 * session's simulated processes (0, the default, is its own; 1–3 exist for sharing lessons).
 */
export const Call = z.strictObject({
  type: z.literal('call'),
  id,
  fn: z.string().min(1).max(64),
  args: z.record(z.string(), z.unknown()).default({}),
  process: z.number().int().min(0).max(3).exactOptional(),
});
export type Call = z.infer<typeof Call>;

const DEVICE_RANGE = `a simulated host has ${SIMULATED_DEVICES.min} to ${SIMULATED_DEVICES.max} devices`;

/**
 * reset (driver only): tear everything down and start a fresh host, optionally with another profile
 * or device count. With an `id`, a refusal is an error carrying that id, so the page that asked can
 * tell its own reset was refused (a reset that goes ahead answers with a snapshot marked reset).
 */
export const Reset = z.strictObject({
  type: z.literal('reset'),
  id: id.exactOptional(),
  profile: z.string().min(1).max(64).exactOptional(),
  devices: z.number().int(DEVICE_RANGE).min(SIMULATED_DEVICES.min, DEVICE_RANGE).max(SIMULATED_DEVICES.max, DEVICE_RANGE).exactOptional(),
  seed: z.number().int().nonnegative().max(0xffffffff).exactOptional(),
});
export type Reset = z.infer<typeof Reset>;

export const Ping = z.strictObject({ type: z.literal('ping'), id: id.exactOptional() });

/** The answer to a call. `events` lists the seqs of the call event and the changes it caused. */
export const Result = z.strictObject({
  type: z.literal('result'),
  id,
  fn: z.string(),
  ret: z.number().int(),
  retName: z.string(),
  out: z.record(z.string(), z.unknown()).exactOptional(),
  message: z.string().exactOptional(),
  /** The message as a code and values (texts/table.ts), for the client's language. */
  messageCode: CodedTextSchema.exactOptional(),
  events: z.array(seq),
  durationNs: z.number().int().nonnegative(),
});
export type Result = z.infer<typeof Result>;

/** A batch of consecutive events, seq `from` to `to` inclusive. */
export const EventsMessage = z.strictObject({
  type: z.literal('events'),
  from: seq,
  to: seq,
  events: z.array(MemoryEventSchema),
});
export type EventsMessage = z.infer<typeof EventsMessage>;

/** The whole state at `seq`. `reset` tells the client to drop its history: the host was replaced. */
export const SnapshotMessage = z.strictObject({
  type: z.literal('snapshot'),
  seq,
  reset: z.boolean(),
  snapshot: SnapshotSchema,
});
export type SnapshotMessage = z.infer<typeof SnapshotMessage>;

/** The client fell behind and missed events; a snapshot follows. */
export const Resync = z.strictObject({ type: z.literal('resync'), reason: z.string(), skippedFrom: seq, skippedTo: seq });

export const Pong = z.strictObject({ type: z.literal('pong'), id: id.exactOptional(), time: z.number() });

/** `code` names the kind of notice for scripts; `messageCode` is the message as a code and values (texts/table.ts). */
export const Notice = z.strictObject({
  type: z.literal('notice'),
  level: z.enum(['info', 'warn']),
  code: z.string(),
  message: z.string(),
  messageCode: CodedTextSchema.exactOptional(),
});
export type Notice = z.infer<typeof Notice>;

/** Who is watching: sent to everyone when a driver or viewer comes or goes. */
/**
 * The programs `pagelens run` brought to the agent, each one process of the model (`pid`): its OS
 * pid and command line, whether the simulator ran its calls or it was traced against the real
 * library, how it stands, and its counts. Sent whole to every client when it changes and on joining.
 */
export const RunInfo = z.strictObject({
  /** The agent's number for the run, unique while it runs: a host reset starts model pids again, so a pid can come back. */
  run: z.number().int().positive().safe(),
  pid: z.number().int().nonnegative().safe(),
  osPid: z.number().int().nonnegative().safe(),
  command: z.string().max(512),
  mode: z.enum(['simulated', 'traced']),
  /** ended: its connection closed and the agent, not being its parent, has no exit status. */
  state: z.enum(['running', 'exited', 'killed', 'ended']),
  code: z.number().int().min(0).max(255).exactOptional(),
  signal: z.string().min(1).max(16).exactOptional(),
  calls: z.number().int().nonnegative().safe(),
  errors: z.number().int().nonnegative().safe(),
  /** Trace records lost (ring full, agent unreachable); absent while unknown (a traced program reports it at exit). */
  dropped: z.number().int().nonnegative().safe().exactOptional(),
  /** The host was reset after the run began: its process and memory are gone from the model; the run stays listed as history. */
  beforeReset: z.literal(true).exactOptional(),
});
export type RunInfo = z.infer<typeof RunInfo>;

export const RunsMessage = z.strictObject({ type: z.literal('runs'), runs: z.array(RunInfo).max(1024) });
export type RunsMessage = z.infer<typeof RunsMessage>;

export const Presence = z.strictObject({
  type: z.literal('presence'),
  driver: z.boolean(),
  driverWaiting: z.boolean(),
  /** A driver session is being torn down (its driver did not come back in time); a new driver becomes one once it has ended. */
  driverEnding: z.boolean(),
  viewers: z.number().int().nonnegative(),
});
