import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from '../server/logger.ts';
import type { JournalEntry, JournalSink } from './entries.ts';

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
  return {
    path,
    write(entry: JournalEntry) {
      if (full || stream.destroyed) return;
      const line = `${JSON.stringify(entry)}\n`;
      written += Buffer.byteLength(line);
      if (written > limitBytes) {
        full = true;
        log.warn(`journal ${path} reached ${limitBytes} bytes; journaling stopped for this run`);
        return;
      }
      stream.write(line);
    },
    close: () => new Promise((resolve) => stream.end(() => resolve())),
  };
}
