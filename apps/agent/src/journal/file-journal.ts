import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../server/logger.ts';
import { eventsEntryText, type JournalEntry, type JournalSink } from './entries.ts';

/** Journals stop growing past this size (a runaway session must not fill the disk). */
export const JOURNAL_LIMIT_BYTES = 512 * 1024 * 1024;

/** Appends entries to `<dir>/pagelens-<time>-<pid>.ndjson`, one JSON object per line. */
export function openFileJournal(dir: string, log: Logger, limitBytes = JOURNAL_LIMIT_BYTES): JournalSink {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const path = join(dir, `pagelens-${stamp}-${process.pid}.ndjson`);
  const stream: WriteStream = createWriteStream(path, { flags: 'a', mode: 0o600 });
  stream.on('error', (error) => log.warn(`journal ${path}: ${error.message}; journaling stopped`));
  let written = 0;
  let full = false;
  // The lines of one turn of the event loop go to the stream as one write: a stream write (and a
  // Buffer) per line, two or three per call, made journaling cost about 1.5 times the CPU per call.
  let lines: string[] = [];
  const writeLines = (): void => {
    if (lines.length > 0 && !stream.destroyed) stream.write(lines.join(''));
    lines = [];
  };
  const append = (text: string): void => {
    const line = `${text}\n`;
    written += Buffer.byteLength(line);
    if (written > limitBytes) {
      full = true;
      log.warn(`journal ${path} reached ${limitBytes} bytes; journaling stopped for this run`);
      return;
    }
    if (lines.length === 0) setImmediate(writeLines);
    lines.push(line);
  };
  return {
    path,
    write(entry: JournalEntry) {
      if (full || stream.destroyed) return;
      let text: string;
      try {
        text = JSON.stringify(entry);
      } catch (error) {
        // A value JSON cannot write (a BigInt, a cycle, nesting deeper than the stack: client messages
        // are bounded where they are parsed) must not fail the call being journaled. A journal missing
        // an entry would not replay, so journaling stops.
        full = true;
        log.warn(
          `journal ${path}: cannot record a ${entry.type} entry (${error instanceof Error ? error.message : String(error)}); journaling stopped`,
        );
        return;
      }
      append(text);
    },
    writeEvents(eventArrays: readonly string[]) {
      if (!full && !stream.destroyed && eventArrays.length > 0) append(eventsEntryText(eventArrays));
    },
    close: () => {
      writeLines();
      return new Promise((resolve) => stream.end(() => resolve()));
    },
  };
}
