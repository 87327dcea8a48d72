import type { SyntaxNode } from '@lezer/common';
import type { Expr, Stmt } from './ast.ts';
import type { CType, StructType } from './c-type-model.ts';
import { type Diagnostic, type DiagnosticKind, diagnostic, type LineIndex, type Span } from './diagnostics.ts';
import { foreignLibraryOf } from './foreign-libraries.ts';
import { MODULE_STAND_IN } from './preprocess.ts';

/** Thrown inside the parser to abandon one statement; `parse` turns it into a diagnostic and goes on. */
export class ParseFailure extends Error {
  readonly diagnostic: Diagnostic;
  constructor(d: Diagnostic) {
    super(d.message);
    this.diagnostic = d;
  }
}

/** Tokens @lezer/cpp names that carry no meaning once the tree has its shape. */
const PUNCTUATION = new Set([
  ...['(', ')', '[', ']', '{', '}', ',', ';', ':', '<', '>', '::', 'LineComment', 'BlockComment'],
  ...['sizeof', 'if', 'else', 'while', 'do', 'for', 'return', 'break', 'continue'],
]);

/** What the tree walkers share: the parsed text and the way back to the user's source. */
export class ParseContext {
  readonly text: string;
  readonly #origin: (offset: number) => number;
  readonly #lines: LineIndex;
  /** Offsets in `text` where a kernel launch's name starts → its config argument count. */
  readonly launches: ReadonlyMap<number, number>;
  readonly notes: Diagnostic[] = [];
  readonly statementLines = new Set<number>();
  /** Types the code defines (structs, classes, typedefs, `using T = …`), by name; shared with derived contexts. */
  types: Map<string, CType> = new Map();
  /** The namespaces around the code being read: `memory` inside `namespace memory { … }`. */
  namespace: readonly string[] = [];
  /** Every namespace met so far, qualified (`a`, `a::b`): `int a::f() {…}` defines a function of one. */
  readonly namespaces = new Set<string>();
  /** `const`/`constexpr` integers whose values fold at compile time, for array sizes (const-fold.ts). */
  readonly constants = new Map<string, bigint>();
  /** Declarations a type definition brings (an enum's constants), for the parser to put before the item that defined them. */
  pendingDecls: Stmt[] = [];
  /** Classes and structs whose definition stopped (an out-of-scope member): name → where and why, so their uses say so. */
  failedTypes = new Map<string, { readonly line: number; readonly reason: string }>();
  /** Member functions a class declares `static` (`Pool::Instance`): they run without an object. */
  staticMethods = new Set<string>();
  /** Member functions defined in a class body, for the parser to convert once the class is complete. */
  pendingMethods: { readonly ctx: ParseContext; readonly owner: StructType; readonly node: SyntaxNode }[] = [];
  /** Reads an expression (parse-expr's convertExpr), set by the parser: types need it for enumerator values. */
  convertValue: (node: SyntaxNode) => Expr = () => {
    throw new Error('ParseContext.convertValue is not set');
  };

  constructor(text: string, origin: (offset: number) => number, lines: LineIndex, launches: ReadonlyMap<number, number>) {
    this.text = text;
    this.#origin = origin;
    this.#lines = lines;
    this.launches = launches;
  }

  /** A context for a second text whose offset 0 stands at `shift` in this one. */
  derive(text: string, shift: number): ParseContext {
    const derived = new ParseContext(text, (offset) => this.#origin(offset + shift), this.#lines, new Map());
    derived.types = this.types;
    derived.failedTypes = this.failedTypes;
    derived.pendingMethods = this.pendingMethods;
    derived.staticMethods = this.staticMethods;
    derived.convertValue = this.convertValue;
    return derived;
  }

  span(node: { from: number; to: number }): Span {
    return this.#lines.span(this.#origin(node.from), this.#origin(node.to));
  }

  slice(node: { from: number; to: number }): string {
    const text = this.text.slice(node.from, node.to);
    return text.includes(MODULE_STAND_IN) ? text.replaceAll(MODULE_STAND_IN, 'module') : text;
  }

  fail(node: { from: number; to: number }, kind: DiagnosticKind, message: string): never {
    throw new ParseFailure(diagnostic('error', kind, this.span(node), message));
  }

  unsupported(node: SyntaxNode, what: string): never {
    return this.fail(node, 'unsupported', `${what}: not supported. ${SUPPORTED}`);
  }

  /**
   * A construct the playground leaves to `pagelens run` (issue 15): the message names it, its line
   * and column, and where to run such a program instead.
   */
  outOfScope(node: { from: number; to: number }, what: string): never {
    const span = this.span(node);
    return this.fail(node, 'unsupported', outOfScopeMessage(what, span.line, span.column));
  }

  /**
   * A use of `name` (a member function `Foo::Bar`, a variable of type Foo) when Foo's own definition
   * stopped: the message points at that definition instead of calling Foo undefined.
   */
  failIfTypeFailed(node: { from: number; to: number }, name: string, use: string): void {
    const failed = this.failedTypes.get(name);
    if (failed === undefined) return;
    const at = this.span(node);
    this.fail(
      node,
      'unsupported',
      `${use} at line ${at.line}, column ${at.column}: the definition of ${name} at line ${failed.line} is outside what the playground runs (${failed.reason}), so its uses are too: build the program and run it with \`pagelens run\`, which records the memory calls of the real process`,
    );
  }

  note(node: { from: number; to: number }, kind: DiagnosticKind, message: string, severity: Diagnostic['severity'] = 'note'): void {
    this.notes.push(diagnostic(severity, kind, this.span(node), message));
  }
}

export function outOfScopeMessage(what: string, line: number, column: number): string {
  return `${what} at line ${line}, column ${column} is outside what the playground runs: build the program and run it with \`pagelens run\`, which records the memory calls of the real process`;
}

/** A type neither C, ACL nor the code's own: a header or another library defines it (ggml_backend_t, C_Status, at::Tensor). */
export function unknownTypeMessage(name: string, line: number, column: number): string {
  const library = foreignLibraryOf(name);
  if (library !== undefined)
    return `the type "${name}" at line ${line}, column ${column} is another library's, ${library}: its headers define it, and the playground runs only the code given, not that library; build the program and run it with \`pagelens run\`, which records the memory calls of the real process`;
  return `unknown type "${name}" at line ${line}, column ${column}: not a C or ACL type, and the code does not define it (a header or another library does): define it above its first use, or build the program and run it with \`pagelens run\`, which records the memory calls of the real process`;
}

export const SUPPORTED =
  'PageLens runs declarations, expressions, calls, if/else, switch, for, while, do/while, break, continue and return, classes with member functions, inside functions or as a plain list of statements.';

/** The children that matter: no punctuation or comments. */
export function kids(node: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let child = node.firstChild; child !== null; child = child.nextSibling) {
    if (!PUNCTUATION.has(child.name)) out.push(child);
  }
  return out;
}

export function child(node: SyntaxNode, name: string): SyntaxNode | undefined {
  return kids(node).find((c) => c.name === name);
}

export function hasQualifier(node: SyntaxNode, name: string): boolean {
  for (let c = node.firstChild; c !== null; c = c.nextSibling) if (c.name === name) return true;
  return false;
}
