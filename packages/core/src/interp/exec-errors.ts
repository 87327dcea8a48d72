import type { Span } from './diagnostics.ts';

export type ExecErrorKind =
  /** A name that is neither declared, an ACL constant nor an input. */
  | 'undeclared'
  /** A value of the wrong type (a struct where a size is expected, an int assigned to a pointer…). */
  | 'type'
  /** More statements than the step limit allows. */
  | 'step-limit'
  /** C that is undefined behaviour (division by zero, out-of-bounds index, too-deep recursion). */
  | 'runtime'
  | 'unsupported'
  /** A scenario input whose value cannot be read. */
  | 'input'
  /** No function to run, or one that does not exist. */
  | 'entry'
  /** A JavaScript exception inside PageLens itself, or from the runtime. */
  | 'internal';

/** Why an execution stopped; a value a UI shows on the line. */
export interface ExecError {
  readonly kind: ExecErrorKind;
  readonly message: string;
  /** 0 when the error is not about a line (entry, input, internal). */
  readonly line: number;
  readonly column: number;
  /** For 'undeclared': the identifier, so a UI can offer to add it as an input. */
  readonly name?: string;
  /** True when the line is in the scenario's setup rather than its code. */
  readonly inSetup?: boolean;
}

/** Thrown inside the interpreter; the execution driver turns it into an `ExecError`. */
export class InterpError extends Error {
  readonly kind: ExecErrorKind;
  readonly span: Span | undefined;
  readonly ident: string | undefined;

  constructor(kind: ExecErrorKind, message: string, span?: Span, ident?: string) {
    super(message);
    this.kind = kind;
    this.span = span;
    this.ident = ident;
  }
}

export function undeclaredMessage(name: string): string {
  return `"${name}" is not declared: declare it in the code, or add it as an input of the scenario`;
}
