import type { CType, IntType, StructType } from './c-type-model.ts';
import type { Diagnostic, Span } from './diagnostics.ts';

/**
 * The interpreter's own syntax tree, built from @lezer/cpp's tree by parse.ts. Operator
 * precedence is C's (parse-expr.ts re-associates what the grammar groups differently), and every
 * node carries the span of the original source.
 */

export type BinaryOp = '*' | '/' | '%' | '+' | '-' | '<<' | '>>' | '<' | '<=' | '>' | '>=' | '==' | '!=' | '&' | '^' | '|' | '&&' | '||';
export type AssignOp = '=' | '*=' | '/=' | '%=' | '+=' | '-=' | '<<=' | '>>=' | '&=' | '^=' | '|=';
export type UnaryOp = '-' | '+' | '!' | '~';
export type CastStyle = 'c' | 'static_cast' | 'reinterpret_cast' | 'const_cast';

interface Node {
  readonly span: Span;
}

export type Expr =
  | (Node & { readonly kind: 'int'; readonly value: bigint; readonly type: IntType; readonly text: string })
  | (Node & { readonly kind: 'float'; readonly value: number; readonly single: boolean })
  | (Node & { readonly kind: 'string'; readonly value: string })
  | (Node & { readonly kind: 'null'; readonly text: string })
  | (Node & { readonly kind: 'name'; readonly name: string })
  | (Node & { readonly kind: 'unary'; readonly op: UnaryOp; readonly operand: Expr })
  | (Node & { readonly kind: 'deref'; readonly operand: Expr })
  | (Node & { readonly kind: 'addr'; readonly operand: Expr })
  | (Node & { readonly kind: 'update'; readonly op: '++' | '--'; readonly prefix: boolean; readonly operand: Expr })
  | (Node & { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr })
  | (Node & { readonly kind: 'assign'; readonly op: AssignOp; readonly target: Expr; readonly value: Expr })
  | (Node & { readonly kind: 'cond'; readonly test: Expr; readonly consequent: Expr; readonly alternate: Expr })
  | (Node & { readonly kind: 'comma'; readonly left: Expr; readonly right: Expr })
  | (Node & { readonly kind: 'cast'; readonly type: CType; readonly style: CastStyle; readonly operand: Expr })
  | (Node & { readonly kind: 'sizeofType'; readonly type: CType })
  /** `sizeof(x)` where the grammar cannot tell a type name from a variable: resolved when run. */
  | (Node & { readonly kind: 'sizeofName'; readonly name: string })
  | (Node & { readonly kind: 'sizeofExpr'; readonly operand: Expr })
  | (Node & {
      readonly kind: 'call';
      readonly callee: string;
      readonly calleeSpan: Span;
      readonly args: readonly Expr[];
      /** Kernel launch `callee<<<config>>>(args)`: the first `configCount` args are the launch configuration. */
      readonly launch?: { readonly configCount: number };
    })
  /** `v.size()`, `s->data()`: a member function of a library type (std::vector, std::string). */
  | (Node & {
      readonly kind: 'method';
      readonly target: Expr;
      readonly name: string;
      readonly arrow: boolean;
      readonly args: readonly Expr[];
    })
  /** `new T`, `new T[n]`, `new T(v)`: heap memory of the process, from malloc; `args` go to a class's constructor. */
  | (Node & { readonly kind: 'new'; readonly type: CType; readonly count?: Expr; readonly args?: readonly Expr[] })
  | (Node & { readonly kind: 'delete'; readonly operand: Expr; readonly array: boolean })
  | (Node & { readonly kind: 'index'; readonly target: Expr; readonly index: Expr })
  | (Node & { readonly kind: 'field'; readonly target: Expr; readonly name: string; readonly arrow: boolean })
  | (Node & { readonly kind: 'paren'; readonly inner: Expr })
  | (Node & { readonly kind: 'initList'; readonly items: readonly Expr[] });

export type CallExpr = Extract<Expr, { kind: 'call' }>;

export interface Declarator {
  readonly name: string;
  /** Absent for `auto` (and object-like #define): the initialiser's type. */
  readonly type?: CType;
  readonly init?: Expr;
  readonly span: Span;
  readonly isConst: boolean;
  /** `T& r = x`: the name is another name for the object `x` designates. */
  readonly ref?: boolean;
  /** `std::vector<T> v(n)`: constructor arguments. */
  readonly ctorArgs?: readonly Expr[];
}

export type Stmt =
  | (Node & { readonly kind: 'decl'; readonly declarators: readonly Declarator[] })
  | (Node & { readonly kind: 'expr'; readonly expr: Expr })
  | (Node & { readonly kind: 'if'; readonly test: Expr; readonly consequent: Stmt; readonly alternate?: Stmt })
  | (Node & { readonly kind: 'while'; readonly test: Expr; readonly body: Stmt })
  | (Node & { readonly kind: 'do'; readonly body: Stmt; readonly test: Expr })
  | (Node & { readonly kind: 'for'; readonly init?: Stmt; readonly test?: Expr; readonly update?: Expr; readonly body: Stmt })
  /** `for (auto& x : range)`: over an array or a std::vector. */
  | (Node & { readonly kind: 'rangeFor'; readonly item: Declarator; readonly range: Expr; readonly body: Stmt })
  | (Node & { readonly kind: 'block'; readonly body: readonly Stmt[] })
  | (Node & { readonly kind: 'return'; readonly value?: Expr })
  /**
   * `switch (test) { case 1: …; default: … }`: the body's statements in order, flattened, and where
   * each label points into them; control falls through from one label's statements to the next.
   */
  | (Node & {
      readonly kind: 'switch';
      readonly test: Expr;
      readonly body: readonly Stmt[];
      /** `value` is absent for `default`. */
      readonly labels: readonly { readonly at: number; readonly value?: Expr; readonly span: Span }[];
    })
  | (Node & { readonly kind: 'break' })
  | (Node & { readonly kind: 'continue' })
  | (Node & { readonly kind: 'empty' });

export interface Param {
  readonly name: string;
  readonly type: CType;
  /** `T& p`, `const T& p`: bound to the caller's object. */
  readonly ref?: boolean;
  /** `const char* configPath = nullptr`: the default argument, evaluated at each call that leaves it out. */
  readonly default?: Expr;
}

/** `: stream_(nullptr), deviceId_(id)` of a constructor: a member and what it starts with. */
export interface MemberInit {
  readonly name: string;
  readonly args: readonly Expr[];
  readonly span: Span;
}

export interface FunctionDef {
  /** A member function is named `Class::Name` (`Class::Class` constructs, `Class::~Class` destroys). */
  readonly name: string;
  readonly returnType: CType;
  readonly params: readonly Param[];
  readonly body: Stmt;
  readonly span: Span;
  /** The class of a member function: its calls run on an object, whose members the body names directly. */
  readonly owner?: StructType;
  /** A `static` member function: no object. */
  readonly isStatic?: boolean;
  /** A constructor's member initialisers, run before its body. */
  readonly inits?: readonly MemberInit[];
  /** `T& f()`, `const T& f()`: returns the object its return statement names (read by the caller as its value). */
  readonly returnsRef?: boolean;
}

/** A compiled snippet: what `compile` hands to `Execution`. */
export interface Program {
  readonly source: string;
  readonly functions: ReadonlyMap<string, FunctionDef>;
  /**
   * Top-level statements: the globals of a file of functions, or the whole snippet when it has
   * statements outside any function (a fragment such as the seed's pinned-memory sample).
   */
  readonly topLevel: readonly Stmt[];
  /** True when top-level statements are code to run (a fragment), not only global declarations. */
  readonly isScript: boolean;
  /** The function to run when none is chosen: `main`, else the only function. */
  readonly defaultEntry?: string;
  /** Notes and warnings found while compiling (placeholders, skipped preprocessor lines). */
  readonly notes: readonly Diagnostic[];
  /** Syntax errors and unsupported constructs: a program with any cannot run. */
  readonly errors: readonly Diagnostic[];
  /** Lines that hold the start of a statement: where a UI can run to. */
  readonly statementLines: readonly number[];
}
