import type { z } from 'zod';
import { EVENT_TABLE } from '../model/event-table.ts';
import { SNAPSHOT_SHAPE } from '../model/snapshot-table.ts';
import type { MemoryEventSchema, SnapshotSchema } from './event-schemas.ts';
import type { Guard } from './guards.ts';
import { guardOf, unionGuard } from './shape-guard.ts';

/**
 * The schemas of event-schemas.ts as guards, compiled from the same tables when this module loads,
 * so that a batch of events or a snapshot is checked in well under a microsecond per event or row.
 * The property tests in fast-agent-message.test.ts hold each guard to its schema on every kind.
 */

/** `MemoryEventSchema`. */
export const memoryEvent: Guard = unionGuard('kind', Object.values(EVENT_TABLE));

/** `SnapshotSchema`. */
export const snapshot: Guard = guardOf(SNAPSHOT_SHAPE);

export type WireEvent = z.infer<typeof MemoryEventSchema>;
export type WireSnapshot = z.infer<typeof SnapshotSchema>;

/** Whether zod's `MemoryEventSchema` would accept `value` (and return a value equal to it). */
export function isMemoryEvent(value: unknown): value is WireEvent {
  return memoryEvent(value);
}

/** Whether zod's `SnapshotSchema` would accept `value` (and return a value equal to it). */
export function isSnapshot(value: unknown): value is WireSnapshot {
  return snapshot(value);
}
