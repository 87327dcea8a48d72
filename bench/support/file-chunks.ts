import { closeSync, openSync, readSync } from 'node:fs';

/** The import worker's read size, and the bench's. */
export const FILE_CHUNK = 4 * 1024 * 1024;

/**
 * The file at `path`, chunk by chunk to `each` in order: a new array per chunk, as a File stream
 * hands out, so a reader that keeps a chunk (an item spanning two) may.
 */
export function fileChunks(path: string, each: (chunk: Uint8Array) => void): void {
  const fd = openSync(path, 'r');
  try {
    for (let position = 0; ; ) {
      const buffer = new Uint8Array(FILE_CHUNK);
      const read = readSync(fd, buffer, 0, FILE_CHUNK, position);
      if (read === 0) break;
      each(read === FILE_CHUNK ? buffer : buffer.subarray(0, read));
      position += read;
    }
  } finally {
    closeSync(fd);
  }
}
