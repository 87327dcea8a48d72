import type { MemoryEvent } from '@pagelens/core';
import type { BackendConfig } from '../backends/backend.ts';

export const JOURNAL_VERSION = 1;

/** One line of a journal (ndjson). A journal is the whole story of one host, from start or reset. */
export type JournalEntry =
  | { readonly type: 'header'; readonly version: number; readonly created: string; readonly config: BackendConfig }
  | { readonly type: 'reset'; readonly config: BackendConfig }
  | { readonly type: 'session'; readonly session: string; readonly action: 'open' | 'resume' | 'takeover' | 'detach' | 'teardown' }
  | { readonly type: 'process'; readonly session: string; readonly process: number; readonly pid: number; readonly name: string }
  | {
      readonly type: 'call';
      readonly session: string;
      readonly process: number;
      readonly id: number;
      readonly fn: string;
      readonly args: Readonly<Record<string, unknown>>;
      readonly source: 'client' | 'teardown';
    }
  | {
      readonly type: 'result';
      readonly session: string;
      readonly id: number;
      readonly ret: number;
      readonly out?: Readonly<Record<string, unknown>>;
      readonly message?: string;
    }
  | { readonly type: 'events'; readonly events: readonly MemoryEvent[] };

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
