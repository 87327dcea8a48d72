import type { AclRuntime } from '../acl/runtime.ts';
import { formatInteger } from '../units/bytes.ts';
import type { CallExpr, Expr, FunctionDef } from './ast.ts';
import type { Span } from './diagnostics.ts';
import { InterpError } from './exec-errors.ts';
import type { Cell, RefTarget, Value } from './values.ts';

export type BindingKind = 'local' | 'param' | 'global' | 'input';

export interface Binding {
  readonly name: string;
  readonly cell: Cell;
  readonly isConst: boolean;
  readonly kind: BindingKind;
}

/** A block's variables; lookups walk outwards through `parent`. */
export class Scope {
  readonly vars = new Map<string, Binding>();
  readonly parent: Scope | undefined;
  /** Run in reverse order when the block ends: heap memory of its vectors, host memory backing its objects. */
  readonly cleanups: ((span: Span) => Promise<void>)[] = [];

  constructor(parent?: Scope) {
    this.parent = parent;
  }

  lookup(name: string): Binding | undefined {
    for (let scope: Scope | undefined = this; scope !== undefined; scope = scope.parent) {
      const found = scope.vars.get(name);
      if (found !== undefined) return found;
    }
    return undefined;
  }
}

export interface Frame {
  readonly name: string;
  /** The innermost scope of the statement running in this frame. */
  scope: Scope;
  /** The object a member function runs on (`this`). */
  readonly self?: Cell;
  /** The function returns a reference (`const T& Get()`): its return statement names an object. */
  readonly returnsRef?: boolean;
}

export interface CallRecord {
  readonly fn: string;
  readonly ret: number;
  readonly retName: string;
  readonly message?: string;
  /**
   * A failure that only an earlier run on the same host causes (aclInit answering
   * ACL_ERROR_REPEAT_INITIALIZE in a process an earlier run initialised): logged, explained by a
   * note on its line, and never counted as an ACL error of the code.
   */
  readonly benign?: string;
}

/** Where the interpreter reports what happens on each line; the execution driver keeps the marks. */
export interface MarkSink {
  executed(span: Span): void;
  call(span: Span, record: CallRecord): void;
  note(span: Span, text: string): void;
  warning(span: Span, text: string): void;
}

/**
 * Runs a call expression: a function of the program (through the statements), the `AclRuntime`,
 * or a call PageLens does not model. The evaluator sits below all three, so it reaches them through
 * the Machine instead of importing them; the driver passes `callExpression` of calls.ts.
 */
export type CallHandler = (m: Machine, call: CallExpr, scope: Scope) => Promise<Value>;

/**
 * Runs the member function `fn` on the object in `self` with the arguments `args` (evaluated in
 * `scope`); `label` names the object in messages. calls.ts's `callMember`, passed in as `CallHandler` is.
 */
export type MemberHandler = (
  m: Machine,
  fn: FunctionDef,
  self: Cell,
  args: readonly Expr[],
  scope: Scope,
  span: Span,
  label: string,
) => Promise<Value>;

export interface Gate {
  /** Awaited before each statement: where stepping pauses. `depth` counts active user function calls. */
  beforeStatement(span: Span, depth: number): Promise<void> | undefined;
  /** Awaited every YIELD_EVERY statements, to let a UI breathe during a long run. */
  readonly yieldControl?: () => Promise<void>;
}

/** Statements between two calls of Gate.yieldControl. */
export const YIELD_EVERY = 2000;

/** The default for `stepLimit`: statements one execution may run before it stops as a runaway loop. */
export const DEFAULT_STEP_LIMIT = 100_000;
/** User function calls nested deeper than this stop the run. */
export const MAX_CALL_DEPTH = 256;

/** The state of one running program: scopes, frames, counters, and the seams to the runtime and the driver. */
export class Machine {
  readonly runtime: AclRuntime;
  readonly functions: ReadonlyMap<string, FunctionDef>;
  readonly globals: Scope;
  readonly frames: Frame[] = [];
  readonly gate: Gate;
  readonly stepLimit: number;
  marks: MarkSink;
  steps = 0;
  /** Set once this execution's aclInit succeeded (or was answered as in a fresh process). */
  initialized = false;
  /** How many opaque handles not-modeled model-execution calls (aclmdlCreateDesc…) have handed out. */
  opaqueHandles = 0;
  /** Text printed by printf/puts, in order. */
  readonly output: string[] = [];
  readonly #targets = new WeakMap<object, RefTarget>();
  /** The scope each declared object (its cell, or an array's element list) belongs to, so its host memory ends with it. */
  readonly owners = new WeakMap<object, Scope>();
  /** Host memory backing an object whose address the code gave the runtime (host-memory.ts). */
  readonly backing = new Map<RefTarget, bigint>();
  /** Objects of the code's structs and classes made by `new`, by the address malloc gave them, so `p->f` reaches their members. */
  readonly heapObjects = new Map<bigint, Cell>();
  readonly #calls: CallHandler;
  readonly member: MemberHandler;

  constructor(
    runtime: AclRuntime,
    functions: ReadonlyMap<string, FunctionDef>,
    calls: CallHandler,
    member: MemberHandler,
    globals: Scope,
    gate: Gate,
    marks: MarkSink,
    stepLimit: number,
  ) {
    this.runtime = runtime;
    this.functions = functions;
    this.#calls = calls;
    this.member = member;
    this.globals = globals;
    this.gate = gate;
    this.marks = marks;
    this.stepLimit = stepLimit;
  }

  get depth(): number {
    return this.frames.length;
  }

  /** Counts a statement against the step limit, marks its line and lets the driver pause. */
  async enter(span: Span): Promise<void> {
    this.steps += 1;
    if (this.steps > this.stepLimit) {
      throw new InterpError(
        'step-limit',
        `stopped after ${formatInteger(this.stepLimit)} statements, the step limit: is there a loop that never ends? Raise stepLimit to run longer`,
        span,
      );
    }
    this.marks.executed(span);
    if (this.steps % YIELD_EVERY === 0 && this.gate.yieldControl !== undefined) await this.gate.yieldControl();
    const pause = this.gate.beforeStatement(span, this.depth);
    if (pause !== undefined) await pause;
  }

  /** Ends a block: its cleanups run, the last registered first (C++ destroys in reverse order). */
  async leave(scope: Scope, span: Span): Promise<void> {
    for (let cleanup = scope.cleanups.pop(); cleanup !== undefined; cleanup = scope.cleanups.pop()) await cleanup(span);
  }

  call(call: CallExpr, scope: Scope): Promise<Value> {
    return this.#calls(this, call, scope);
  }

  /** One RefTarget per object, so `&x == &x` holds and pointers show the variable's name. */
  targetOf(key: object, make: () => RefTarget): RefTarget {
    const known = this.#targets.get(key);
    if (known !== undefined) return known;
    const target = make();
    this.#targets.set(key, target);
    return target;
  }

  declare(scope: Scope, name: string, cell: Cell, isConst: boolean, kind: BindingKind, span: Span): Binding {
    if (scope.vars.has(name)) throw new InterpError('type', `"${name}" is already declared in this scope`, span);
    const binding = { name, cell, isConst, kind };
    scope.vars.set(name, binding);
    if (!this.owners.has(cell)) this.owners.set(cell, scope);
    if (cell.value.k === 'array' && !this.owners.has(cell.value.items)) this.owners.set(cell.value.items, scope);
    return binding;
  }
}
