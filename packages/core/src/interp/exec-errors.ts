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
  // An ACL constant outside the catalogue belongs to a function PageLens does not model (a core limit, an operator's data type).
  if (/^ACL_[A-Z0-9_]+$/.test(name))
    return `"${name}" is not declared: not an ACL constant PageLens models (check its spelling: the catalogue holds the memory API's constants) and the code does not declare it; for another part of the runtime, build the program and run it with \`pagelens run\`, which records the memory calls of the real process`;
  return `"${name}" is not declared: declare it in the code, or add it as an input of the scenario`;
}
