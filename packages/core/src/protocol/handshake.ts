import { z } from 'zod';
import { CodedTextSchema } from './event-schemas.ts';

/** Who is on the other end: one driver may call; viewers only watch. */
export const Role = z.enum(['driver', 'viewer']);
export type Role = z.infer<typeof Role>;

/** First message from a client. `protocol` is checked against PROTOCOL_VERSION by the agent. */
export const Hello = z.strictObject({
  type: z.literal('hello'),
  protocol: z.number().int().nonnegative(),
  role: Role,
  /** The resume token of an earlier driver session, to take it back after a reconnect. */
  resume: z.string().min(1).max(128).exactOptional(),
  /** Free text the agent may show to other participants (for example "trainer laptop"). */
  client: z.string().max(64).exactOptional(),
  /**
   * The form of the snapshots this client wants: `rows` (the default, one object per row) or
   * `packed` (each table in columns, packed-snapshot.ts; a fifth of the bytes for a large snapshot).
   */
  snapshots: z.enum(['rows', 'packed']).exactOptional(),
  /**
   * True: after each snapshot, also send the session's history (`history`, `historyBase`,
   * `historyPage`), so that time travel and the log reach back before this client joined.
   */
  history: z.boolean().exactOptional(),
});
export type Hello = z.infer<typeof Hello>;

/** Facts about one device as the backend reports it. */
export const DeviceInfo = z.strictObject({
  id: z.number().int().nonnegative(),
  /** Name of the PageLens device profile in use (for example "Ascend910B2"). */
  profile: z.string(),
  socName: z.string(),
  capabilities: z.array(z.string()),
});
export type DeviceInfo = z.infer<typeof DeviceInfo>;

export const HostInfo = z.strictObject({
  /**
   * "simulated" for the simulator; "observed" when the data come from a real runtime; "modeled" for
   * a recorded file opened in the explorer (its calls recorded, its frames PageLens's model).
   */
  provenance: z.enum(['simulated', 'observed', 'modeled']),
  hostname: z.string(),
  kernelVersion: z.string(),
  hostPageSize: z.number().int().positive(),
  /** Anything the user must know about where the data come from (for example a test double). */
  note: z.string().exactOptional(),
  /** The note's parts as codes and values (texts/table.ts), for the client's language; `note` joins their English with "; ". */
  noteParts: z.array(CodedTextSchema).max(16).exactOptional(),
});
export type HostInfo = z.infer<typeof HostInfo>;

/** The agent's answer to a valid hello. */
export const Welcome = z.strictObject({
  type: z.literal('welcome'),
  protocol: z.number().int().nonnegative(),
  sessionId: z.string(),
  role: Role,
  /** Present for drivers: send it as `hello.resume` to get this session back after a reconnect. */
  resumeToken: z.string().exactOptional(),
  backend: z.string(),
  host: HostInfo,
  devices: z.array(DeviceInfo),
  /** The ACL functions this backend can run (an older CANN may lack some). */
  functions: z.array(z.string()),
  /** Per-session limits the agent enforces. */
  limits: z.strictObject({
    deviceBytes: z.number().int().nonnegative(),
    pinnedHostBytes: z.number().int().nonnegative(),
    pageableHostBytes: z.number().int().nonnegative(),
    liveObjects: z.number().int().nonnegative(),
    callsPerSecond: z.number().int().nonnegative(),
  }),
  /** The sequence number of the last event included in the snapshot that follows. */
  seq: z.number().int().nonnegative(),
});
export type Welcome = z.infer<typeof Welcome>;

/**
 * After a host reset, to everyone, before the reset snapshot: the new host's facts as the welcome
 * gives them (another profile or device count changes the devices, the host note, the page size).
 */
export const HostMessage = z.strictObject({
  type: z.literal('host'),
  host: HostInfo,
  devices: z.array(DeviceInfo),
});
export type HostMessage = z.infer<typeof HostMessage>;
