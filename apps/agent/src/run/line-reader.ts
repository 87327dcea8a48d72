/*
 * The run socket's byte stream as lines. A program's call arrives as one chunk holding one whole
 * line nearly always: it is then decoded straight from the chunk, with no copy and no string
 * decoder in between (setEncoding's decoder and the string buffer it fed were measurable per call).
 * A newline byte never occurs inside a multi-byte UTF-8 character, so decoding whole lines is exact.
 */

const NEWLINE = 0x0a;
const EMPTY = Buffer.alloc(0);

export class LineReader {
  #chunk: Buffer = EMPTY;
  #at = 0;
  /** A line that began in an earlier chunk and ended in the latest one, decoded. */
  #carried: string | undefined;

  push(chunk: Buffer): void {
    const rest = this.#chunk.length - this.#at;
    if (rest === 0) {
      this.#chunk = chunk;
      this.#at = 0;
      return;
    }
    const newline = chunk.indexOf(NEWLINE);
    if (newline < 0) {
      this.#chunk = Buffer.concat([this.#chunk.subarray(this.#at), chunk]);
      this.#at = 0;
      return;
    }
    // Only the line that was waiting for its end is copied; the rest is read in place.
    this.#carried = Buffer.concat([this.#chunk.subarray(this.#at), chunk.subarray(0, newline)]).toString('utf8');
    this.#chunk = chunk;
    this.#at = newline + 1;
  }

  /** The next whole line (without its newline), or undefined until more bytes come. */
  next(): string | undefined {
    const carried = this.#carried;
    if (carried !== undefined) {
      this.#carried = undefined;
      return carried;
    }
    const newline = this.#chunk.indexOf(NEWLINE, this.#at);
    if (newline < 0) return undefined;
    const line = this.#chunk.toString('utf8', this.#at, newline);
    this.#at = newline + 1;
    return line;
  }

  /** How many bytes wait with no newline among them (0 while a whole line is waiting). */
  get unendedBytes(): number {
    if (this.#carried !== undefined || this.#chunk.indexOf(NEWLINE, this.#at) >= 0) return 0;
    return this.#chunk.length - this.#at;
  }
}
