import type { Diagnostic, Span } from './diagnostics.ts';
import type { CallRecord, MarkSink } from './machine.ts';

/** What happened on one source line, for a UI to draw in the gutter. */
export interface LineMark {
  /** The line ran at least once. */
  executed: boolean;
  /**
   * How many times the line ran: the count of its most-run statement, so `a(); b();` on one line
   * ran once, and a loop header on one line counts its iterations.
   */
  hits: number;
  /** The most recent calls made on the line (at most MAX_CALLS_PER_LINE), each with its return code. */
  readonly calls: CallRecord[];
  /** All calls made on the line, including those dropped from `calls`. */
  callCount: number;
  /** Placeholders, not-modeled calls and writes: things PageLens skipped on purpose. */
  readonly notes: string[];
  /** Things that are probably mistakes in the C code (indeterminate reads, ACL-looking unknown functions). */
  readonly warnings: string[];
  readonly errors: string[];
}

/** A loop can call a function thousands of times; a line keeps only the latest calls. */
export const MAX_CALLS_PER_LINE = 100;

export interface CallLogEntry extends CallRecord {
  readonly line: number;
  readonly inSetup: boolean;
}

/** Collects marks for one source (the code, or the setup) keyed by line. */
export class Marks implements MarkSink {
  readonly lines = new Map<number, LineMark>();
  readonly #log: CallLogEntry[];
  readonly #inSetup: boolean;
  /** Runs of each statement, keyed by its span (one object per statement of the tree). */
  readonly #statementHits = new Map<Span, number>();

  constructor(log: CallLogEntry[], inSetup: boolean) {
    this.#log = log;
    this.#inSetup = inSetup;
  }

  at(line: number): LineMark {
    let mark = this.lines.get(line);
    if (mark === undefined) {
      mark = { executed: false, hits: 0, calls: [], callCount: 0, notes: [], warnings: [], errors: [] };
      this.lines.set(line, mark);
    }
    return mark;
  }

  executed(span: Span): void {
    const mark = this.at(span.line);
    mark.executed = true;
    const hits = (this.#statementHits.get(span) ?? 0) + 1;
    this.#statementHits.set(span, hits);
    mark.hits = Math.max(mark.hits, hits);
  }

  call(span: Span, record: CallRecord): void {
    const mark = this.at(span.line);
    if (record.benign !== undefined) {
      // Logged (a UI pairs the log with the runtime's answers), but the line shows a note, not an error.
      this.#log.push({ ...record, line: span.line, inSetup: this.#inSetup });
      this.note(span, record.benign);
      return;
    }
    mark.calls.push(record);
    mark.callCount += 1;
    if (mark.calls.length > MAX_CALLS_PER_LINE) mark.calls.shift();
    this.#log.push({ ...record, line: span.line, inSetup: this.#inSetup });
  }

  note(span: Span, text: string): void {
    const notes = this.at(span.line).notes;
    if (!notes.includes(text)) notes.push(text);
  }

  warning(span: Span, text: string): void {
    const warnings = this.at(span.line).warnings;
    if (!warnings.includes(text)) warnings.push(text);
  }

  error(line: number, text: string): void {
    this.at(line).errors.push(text);
  }

  /** Compile-time notes (placeholders, preprocessor lines) shown before anything runs. */
  addDiagnostics(diagnostics: readonly Diagnostic[]): void {
    for (const d of diagnostics) {
      const mark = this.at(d.line);
      const list = d.severity === 'error' ? mark.errors : d.severity === 'warning' ? mark.warnings : mark.notes;
      if (!list.includes(d.message)) list.push(d.message);
    }
  }
}
