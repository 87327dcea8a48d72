/**
 * A file PageLens cannot read: damaged, truncated, hostile or of another kind. The message says
 * what was expected and where it broke (a byte offset for binary files, a line for CSV), in words a
 * person can act on. Readers throw it; the entry points (`openMemoryFile`) turn it into a value.
 */
export class FormatError extends Error {
  override readonly name = 'FormatError';
  /** Byte offset (pickle) or 1-based line number (CSV) where the problem was found, when known. */
  readonly at: number | undefined;

  constructor(message: string, at?: number) {
    super(message);
    this.at = at;
  }
}
