import type { z } from 'zod';
import { memoryEvent, snapshot } from './event-guards.ts';
import { arrayOf, boolean, count, isObject, oneOf, strict } from './guards.ts';
import type { HistoryBaseMessage, HistoryPageMessage } from './history-messages.ts';
import type { EventsMessage, SnapshotMessage } from './session-messages.ts';

const eventsMessage = strict({ type: oneOf('events'), from: count, to: count, events: arrayOf(memoryEvent) });
const snapshotMessage = strict({ type: oneOf('snapshot'), seq: count, reset: boolean, snapshot });
const historyPage = strict({ type: oneOf('historyPage'), from: count, to: count, events: arrayOf(memoryEvent) });
const historyBase = strict({ type: oneOf('historyBase'), seq: count, snapshot });

export type BulkAgentMessage =
  | z.infer<typeof EventsMessage>
  | z.infer<typeof SnapshotMessage>
  | z.infer<typeof HistoryPageMessage>
  | z.infer<typeof HistoryBaseMessage>;

/**
 * The agent's large messages, event batches and snapshots (live or of the history), checked without zod: true only for a
 * value zod's `AgentMessage` accepts and would return unchanged. Anything else (every other message,
 * and any invalid or unusual one) goes to zod, which accepts or explains exactly as before.
 */
export function isBulkAgentMessage(value: unknown): value is BulkAgentMessage {
  if (!isObject(value)) return false;
  if (value.type === 'events') return eventsMessage(value);
  if (value.type === 'snapshot') return snapshotMessage(value);
  if (value.type === 'historyPage') return historyPage(value);
  if (value.type === 'historyBase') return historyBase(value);
  return false;
}
