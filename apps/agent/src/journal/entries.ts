import { MemoryEventSchema } from '@pagelens/core';
import { z } from 'zod';

export const JOURNAL_VERSION = 1;

/** What a journal's header and reset entries record of the backend (its BackendConfig), to rebuild the same host. */
export const Config = z.object({
  backend: z.string(),
  profile: z.string(),
  /** The profile itself when it came from a file, so a replay does not need the file. */
  profileJson: z.unknown().optional(),
  devices: z.number().int().min(1).max(16),
  seed: z.number().int().nonnegative(),
});
export type Config = z.infer<typeof Config>;

/**
 * One line of a journal (ndjson). A journal is the whole story of one host, from start or reset.
 * The agent writes `JournalEntry` values and replay reads them back through this schema.
 */
export const JournalEntrySchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('header'), version: z.literal(JOURNAL_VERSION), created: z.string(), config: Config }),
  z.object({ type: z.literal('reset'), config: Config }),
  z.object({ type: z.literal('session'), session: z.string(), action: z.enum(['open', 'resume', 'takeover', 'detach', 'teardown']) }),
  z.object({ type: z.literal('process'), session: z.string(), process: z.number().int(), pid: z.number().int(), name: z.string() }),
  z.object({
    type: z.literal('call'),
    session: z.string(),
    process: z.number().int(),
    id: z.number().int(),
    fn: z.string(),
    args: z.record(z.string(), z.unknown()),
    source: z.enum(['client', 'teardown']),
  }),
  z.object({
    type: z.literal('result'),
    session: z.string(),
    id: z.number().int(),
    ret: z.number().int(),
    out: z.record(z.string(), z.unknown()).optional(),
    message: z.string().optional(),
  }),
  z.object({ type: z.literal('events'), events: z.array(MemoryEventSchema) }),
]);
export type JournalEntry = z.infer<typeof JournalEntrySchema>;

export interface JournalSink {
  write(entry: JournalEntry): void;
  /**
   * Appends the `events` entry for events already serialized as JSON arrays (the event frames
   * sent to clients carry them): the line `write({type: 'events', events})` would append, without
   * serializing every event a second time.
   */
  writeEvents(eventArrays: readonly string[]): void;
  close(): Promise<void>;
  /** Where the journal is written; undefined when nothing is recorded. */
  readonly path: string | undefined;
}

export const noJournal: JournalSink = { write: () => {}, writeEvents: () => {}, close: async () => {}, path: undefined };

/** The `events` entry, as `JSON.stringify({type: 'events', events})` writes it, from the JSON arrays of consecutive parts of `events`. */
export function eventsEntryText(eventArrays: readonly string[]): string {
  return `{"type":"events","events":[${eventArrays.map((array) => array.slice(1, -1)).join(',')}]}`;
}
