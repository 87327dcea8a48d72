/**
 * Where things are in the source and what PageLens has to say about them. Lines and columns are
 * 1-based and count UTF-16 code units, as editors do for the BMP text of the samples.
 */

/** A range of the original source (offsets before any preprocessing), with its start as line:column. */
export interface Span {
  readonly from: number;
  readonly to: number;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
}

export type DiagnosticKind =
  /** The text is not C that @lezer/cpp can parse. */
  | 'syntax'
  /** Valid C that the interpreter does not run (switch, goto, struct definitions…). */
  | 'unsupported'
  /** A name that is neither declared, an ACL constant nor an input; `name` says which. */
  | 'undeclared'
  | 'type'
  /** A catalogue function called with the wrong number of arguments. */
  | 'arity'
  | 'redeclared'
  | 'entry'
  /** A `...` line of a sample: code the document leaves out. */
  | 'placeholder'
  /** A preprocessor line or a macro PageLens reads but does not expand. */
  | 'preprocessor';

export interface Diagnostic {
  readonly severity: 'error' | 'warning' | 'note';
  readonly kind: DiagnosticKind;
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  /** For 'undeclared': the identifier, so a UI can offer to add it as an input. */
  readonly name?: string;
}

/** Maps offsets of one text to line:column. */
export class LineIndex {
  readonly #starts: number[] = [0];

  constructor(text: string) {
    for (let i = 0; i < text.length; i += 1) if (text.charCodeAt(i) === 10) this.#starts.push(i + 1);
  }

  get lineCount(): number {
    return this.#starts.length;
  }

  lineOf(offset: number): number {
    let low = 0;
    let high = this.#starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.#starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  }

  position(offset: number): { line: number; column: number } {
    const line = this.lineOf(offset);
    return { line, column: offset - (this.#starts[line - 1] ?? 0) + 1 };
  }

  span(from: number, to: number): Span {
    const { line, column } = this.position(from);
    return { from, to, line, column, endLine: this.lineOf(Math.max(from, to - 1)) };
  }
}

export function diagnostic(severity: Diagnostic['severity'], kind: DiagnosticKind, span: Span, message: string, name?: string): Diagnostic {
  const base = { severity, kind, message, line: span.line, column: span.column, endLine: span.endLine };
  return name === undefined ? base : { ...base, name };
}
