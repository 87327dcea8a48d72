import { z } from 'zod';
import { MemoryEventSchema, SnapshotSchema } from './event-schemas.ts';

const seq = z.number().int().nonnegative().safe();
const count = z.number().int().nonnegative().safe();

/**
 * The session's history, for a client that asked for it (`hello.history`): sent right after each
 * snapshot it gets (join, resync, reset). The agent holds the events from `from` (exclusive, the seq
 * of the base state) to `to` (the snapshot's seq, inclusive); `events` of them will follow in pages.
 * `callsBefore` counts the calls since the host's last reset that the agent no longer holds (its
 * history cap): the first call held is call `callsBefore + 1`. A new `history` replaces any history
 * still arriving.
 */
export const HistoryMessage = z.strictObject({
  type: z.literal('history'),
  from: seq,
  to: seq,
  events: count,
  callsBefore: count,
});
export type HistoryMessage = z.infer<typeof HistoryMessage>;

/** The state at seq `seq`, the start of the history announced (sent packed to clients that pack snapshots). */
export const HistoryBaseMessage = z.strictObject({
  type: z.literal('historyBase'),
  seq,
  snapshot: SnapshotSchema,
});
export type HistoryBaseMessage = z.infer<typeof HistoryBaseMessage>;

/** Consecutive history events `from`…`to` (inclusive); pages come oldest first and end at the announced `to`. */
export const HistoryPageMessage = z.strictObject({
  type: z.literal('historyPage'),
  from: seq,
  to: seq,
  events: z.array(MemoryEventSchema),
});
export type HistoryPageMessage = z.infer<typeof HistoryPageMessage>;
