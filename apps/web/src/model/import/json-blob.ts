/** Text gathered before it becomes a Blob of its own (in characters). */
const PIECE = 8 * 1024 * 1024;

/**
 * JSON text in parts as one Blob, made piece by piece: the text of a long export (GBs for a 10 M-entry
 * trace) is handed to the browser's blob store as it is written, so the heap holds one piece at a
 * time rather than every part until the end.
 */
export function jsonBlob(parts: Iterable<string>): Blob {
  const pieces: Blob[] = [];
  let pending: string[] = [];
  let size = 0;
  for (const part of parts) {
    pending.push(part);
    size += part.length;
    if (size >= PIECE) {
      pieces.push(new Blob(pending));
      pending = [];
      size = 0;
    }
  }
  return new Blob([...pieces, ...pending], { type: 'application/json' });
}
