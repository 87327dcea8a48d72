import { z } from 'zod';
import { codedText, EVENT_TABLE } from '../model/event-table.ts';
import type { MemoryEvent } from '../model/events.ts';
import type { Snapshot } from '../model/snapshot.ts';
import { SNAPSHOT_SHAPE } from '../model/snapshot-table.ts';
import { schemaOf } from './shape-schema.ts';

/**
 * Wire schemas of events and snapshots, made from the event table (model/event-table.ts) and the
 * snapshot rows (model/snapshot-table.ts). The compile-time checks at the end of this file hold them
 * to the TypeScript types of model/events.ts and model/snapshot.ts.
 */
const [first, ...rest] = Object.values(EVENT_TABLE).map((row) => schemaOf(row));
if (first === undefined) throw new Error('the event table has no rows');

export const MemoryEventSchema = z.discriminatedUnion('kind', [first, ...rest]);

export const SnapshotSchema = schemaOf(SNAPSHOT_SHAPE);

/** A text for people as a code and values (texts/table.ts); messages carry it beside their English text. */
export const CodedTextSchema = schemaOf(codedText);

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
