import type { AclRuntime } from '../acl/runtime.ts';
import type { FunctionDef, Program, Stmt } from './ast.ts';
import { argvValue, DEFAULT_PROGRAM_NAME, declareLibraryGlobals } from './c-library.ts';
import { callExpression, callMember } from './calls.ts';
import { compile, resolveEntry } from './compile.ts';
import { convert } from './convert.ts';
import type { Span } from './diagnostics.ts';
import { type ExecError, InterpError } from './exec-errors.ts';
import { closingSpan } from './host-memory.ts';
import type { InputDecl } from './inputs.ts';
import { DEFAULT_STEP_LIMIT, type Frame, type Gate, Machine, Scope } from './machine.ts';
import { type CallLogEntry, type LineMark, Marks } from './marks.ts';
import { prepare } from './prepare.ts';
import { runFunction, runGlobals, runScript } from './run-stmt.ts';
import { calledNames, declaredNames, leftToTheCode } from './setup-plan.ts';
import { intValue, newCell, type Value } from './values.ts';
import { listVariables, type VariableView } from './variables.ts';

export type ExecState = 'ready' | 'running' | 'paused' | 'finished' | 'error';

export interface ExecutionOptions {
  readonly inputs?: readonly InputDecl[];
  /** C statements run first through the same runtime (aclInit, aclrtSetDevice(0), aclrtCreateStream(&stream)…); they may use the inputs. */
  readonly setup?: string;
  /** The function to run; see resolveEntry. */
  readonly entry?: string;
  /**
   * The command line `main(int argc, char** argv)` sees: argv[0] and the arguments after it, as a
   * shell would split them. Default: the program's name alone (DEFAULT_PROGRAM_NAME), no arguments.
   */
  readonly argv?: readonly string[];
  /** Statements one execution may run; default DEFAULT_STEP_LIMIT (100,000). */
  readonly stepLimit?: number;
  /** Lines where run(), runToLine() and the steps also pause. */
  readonly breakpoints?: Iterable<number>;
  /**
   * Awaited every YIELD_EVERY statements while running, so a long run() does not hold the
   * browser's main thread: a UI passes `() => new Promise((resolve) => setTimeout(resolve))`.
   * Core injects no timer of its own.
   */
  readonly yieldControl?: () => Promise<void>;
}

export interface StepOutcome {
  readonly state: ExecState;
  /** The line of the statement the execution is paused before. */
  readonly line: number | undefined;
  readonly error?: ExecError;
  /** The entry's return value once finished, when it returns an integer. */
  readonly exitCode?: number;
}

type Mode =
  | { readonly k: 'step' }
  | { readonly k: 'over' | 'out'; readonly depth: number }
  | { readonly k: 'line'; readonly line: number }
  | { readonly k: 'run' };

/**
 * Runs a compiled program step by step against an `AclRuntime`. Each statement is a step; a
 * control statement's header is its own step, and a single-statement body on the header's line
 * (`if (p) (void)aclrtFree(p);`) runs within it. The first step runs the setup and stops before
 * the first statement of the code. Only one step may be in flight at a time.
 */
export class Execution {
  readonly program: Program;
  readonly lineMarks: ReadonlyMap<number, LineMark>;
  readonly setupMarks: ReadonlyMap<number, LineMark>;
  /** Every runtime call in order, with its line. */
  readonly calls: readonly CallLogEntry[];
  readonly breakpoints: Set<number>;
  readonly #options: ExecutionOptions;
  readonly #machine: Machine;
  readonly #marks: Marks;
  readonly #setupMarks: Marks;
  readonly #inputs = new Scope();
  #state: ExecState = 'ready';
  #line: number | undefined;
  #error: ExecError | undefined;
  #exitCode: number | undefined;
  #mode: Mode = { k: 'step' };
  #inSetup = false;
  #lastFrame: Frame | undefined;
  #resume: (() => void) | undefined;
  #settle: ((outcome: StepOutcome) => void) | undefined;

  constructor(program: Program, runtime: AclRuntime, options: ExecutionOptions = {}) {
    this.program = program;
    this.#options = options;
    const log: CallLogEntry[] = [];
    this.calls = log;
    this.#marks = new Marks(log, false);
    this.#setupMarks = new Marks(log, true);
    this.lineMarks = this.#marks.lines;
    this.setupMarks = this.#setupMarks.lines;
    this.breakpoints = new Set(options.breakpoints ?? []);
    const gate: Gate = {
      beforeStatement: (span, depth) => this.#beforeStatement(span, depth),
      ...(options.yieldControl === undefined ? {} : { yieldControl: options.yieldControl }),
    };
    this.#machine = new Machine(
      runtime,
      program.functions,
      callExpression,
      callMember,
      new Scope(this.#inputs),
      gate,
      this.#marks,
      options.stepLimit ?? DEFAULT_STEP_LIMIT,
    );
    this.#marks.addDiagnostics(program.notes);
    this.#prepare();
  }

  get state(): ExecState {
    return this.#state;
  }
  /** The line paused before, or where the error happened. */
  get currentLine(): number | undefined {
    return this.#line;
  }
  get error(): ExecError | undefined {
    return this.#error;
  }
  get exitCode(): number | undefined {
    return this.#exitCode;
  }
  /** Text printed by printf and puts. */
  get output(): readonly string[] {
    return this.#machine.output;
  }
  /** Calls that answered an ACL error, the setup's included; answers only an earlier run caused (CallRecord.benign) are not. */
  get aclErrors(): number {
    return this.calls.reduce((count, call) => count + (call.ret === 0 || call.benign !== undefined ? 0 : 1), 0);
  }
  /** Statements run so far, counted against the step limit. */
  get steps(): number {
    return this.#machine.steps;
  }

  /** Runs to the next statement, entering user-defined functions. */
  step(): Promise<StepOutcome> {
    return this.#advance({ k: 'step' });
  }
  /** Runs to the next statement of this function (or its caller), running calls to user-defined functions whole. */
  stepOver(): Promise<StepOutcome> {
    return this.#advance({ k: 'over', depth: this.#machine.depth });
  }
  /** Runs until the current user-defined function returns. */
  stepOut(): Promise<StepOutcome> {
    return this.#advance({ k: 'out', depth: this.#machine.depth });
  }
  /** Runs until a statement on `line` (or the first statement line after it) is about to run, or to the end. */
  runToLine(line: number): Promise<StepOutcome> {
    const target = this.program.statementLines.find((l) => l >= line) ?? line;
    return this.#advance({ k: 'line', line: target });
  }
  /** Runs to the end, or to a breakpoint. */
  run(): Promise<StepOutcome> {
    return this.#advance({ k: 'run' });
  }

  /** Visible variables: the current function's (innermost scope wins), then globals, then inputs. */
  variables(): VariableView[] {
    return listVariables(this.#machine.frames.at(-1) ?? this.#lastFrame, this.#machine.globals);
  }

  /** Stops a paused or ready execution for good. */
  stop(): void {
    if (this.#state === 'running') throw new Error('cannot stop while a step is running; await it first');
    if (this.#state === 'ready' || this.#state === 'paused') {
      this.#state = 'finished';
      this.#resume = undefined;
    }
  }

  #beforeStatement(span: Span, depth: number): Promise<void> | undefined {
    if (this.#inSetup) return undefined;
    const mode = this.#mode;
    const wanted =
      this.breakpoints.has(span.line) ||
      mode.k === 'step' ||
      (mode.k === 'over' && depth <= mode.depth) ||
      (mode.k === 'out' && depth < mode.depth) ||
      (mode.k === 'line' && span.line === mode.line);
    if (!wanted) return undefined;
    this.#state = 'paused';
    this.#line = span.line;
    return new Promise<void>((resolve) => {
      this.#resume = resolve;
      this.#finishStep();
    });
  }

  #outcome(): StepOutcome {
    const base = { state: this.#state, line: this.#state === 'paused' || this.#state === 'error' ? this.#line : undefined };
    const withError = this.#error === undefined ? base : { ...base, error: this.#error };
    return this.#exitCode === undefined ? withError : { ...withError, exitCode: this.#exitCode };
  }

  #finishStep(): void {
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.(this.#outcome());
  }

  #advance(mode: Mode): Promise<StepOutcome> {
    if (this.#state === 'running') return Promise.reject(new Error('the execution is already running: await the previous step first'));
    if (this.#state === 'finished' || this.#state === 'error') return Promise.resolve(this.#outcome());
    this.#mode = mode;
    const wasPaused = this.#state === 'paused';
    this.#state = 'running';
    const done = new Promise<StepOutcome>((resolve) => {
      this.#settle = resolve;
    });
    if (wasPaused) {
      const resume = this.#resume;
      this.#resume = undefined;
      resume?.();
    } else void this.#main();
    return done;
  }

  #fail(error: ExecError): void {
    this.#state = 'error';
    this.#error = error;
    this.#line = error.line === 0 ? this.#line : error.line;
    if (error.line > 0) (error.inSetup === true ? this.#setupMarks : this.#marks).error(error.line, error.message);
  }

  /** Inputs, setup and the static name check: anything wrong here stops the execution before it starts. */
  #prepare(): void {
    const problem = prepare(this.program, this.#options, this.#inputs, this.#setupMarks);
    if (problem !== undefined) this.#fail(problem);
  }

  async #main(): Promise<void> {
    const m = this.#machine;
    try {
      if (this.#options.setup !== undefined) {
        const setup = compile(this.#options.setup, { inputs: [...this.#inputs.vars.keys()] });
        this.#inSetup = true;
        m.marks = this.#setupMarks;
        await runScript(m, this.#setupToRun(setup.program.topLevel), new Scope(this.#inputs), '(setup)');
        this.#inSetup = false;
        m.marks = this.#marks;
      }
      const entry = resolveEntry(this.program, this.#options.entry);
      let result: Value | undefined;
      if (entry.kind === 'script')
        result = await runScript(m, this.program.topLevel, m.globals, '(top level)', (frame) => this.#keep(frame));
      else if (entry.kind === 'function') {
        declareLibraryGlobals(m, this.program.source);
        await runGlobals(m, this.program.topLevel);
        const params = new Scope(m.globals);
        const commandLine = this.#commandLine(entry.fn);
        for (const [index, param] of entry.fn.params.entries()) {
          const fromCommandLine = commandLine?.[index];
          if (fromCommandLine !== undefined) {
            m.declare(params, param.name, { type: param.type, value: fromCommandLine, init: true }, false, 'param', entry.fn.span);
            continue;
          }
          const input = this.#inputs.vars.get(param.name);
          const value =
            input === undefined ? newCell(param.type, true).value : convert(input.cell.value, param.type, entry.fn.span, false, param.name);
          if (input === undefined) m.marks.note(entry.fn.span, `parameter ${param.name} is not an input: it starts as 0`);
          m.declare(params, param.name, { type: param.type, value, init: true }, false, 'param', entry.fn.span);
        }
        result = await runFunction(m, entry.fn, params, entry.fn.span, (frame) => this.#keep(frame));
        await m.leave(m.globals, closingSpan(entry.fn.span));
      }
      if (result?.k === 'int') this.#exitCode = Number(result.v);
      this.#state = 'finished';
      this.#line = undefined;
    } catch (thrown) {
      this.#fail(this.#toError(thrown));
    }
    this.#finishStep();
  }

  /** The setup supplies only what the code lacks: its aclInit and aclrtSetDevice are skipped when the code makes them, and what binds an input the code declares itself. */
  #setupToRun(stmts: readonly Stmt[]): Stmt[] {
    const codeCalls = calledNames(this.program);
    const codeNames = declaredNames(this.program);
    return stmts.filter((stmt) => {
      const why = leftToTheCode(stmt, codeCalls, codeNames);
      if (why === undefined) return true;
      this.#setupMarks.note(stmt.span, `skipped: ${why}, so the setup leaves it to the code`);
      return false;
    });
  }

  /** `main(int argc, char** argv)`: the simulated command line, when the run gives main no inputs of those names. */
  #commandLine(fn: FunctionDef): Value[] | undefined {
    const [count, vector] = fn.params;
    if (fn.name !== 'main' || count?.type.k !== 'int' || vector?.type.k !== 'ptr' || vector.type.to.k !== 'ptr') return undefined;
    if (this.#inputs.vars.has(count.name)) return undefined;
    const argv = this.#options.argv ?? [DEFAULT_PROGRAM_NAME];
    this.#marks.note(
      fn.span,
      `${count.name} and ${vector.name} are the simulated command line: ${argv.map((arg) => JSON.stringify(arg)).join(' ')} (${argv.length} argument${argv.length === 1 ? '' : 's'})`,
    );
    return [intValue(count.type, BigInt(argv.length)), argvValue(argv, vector.type)];
  }

  #keep(frame: Frame): void {
    this.#lastFrame = frame;
  }

  #toError(thrown: unknown): ExecError {
    const inSetup = this.#inSetup;
    if (thrown instanceof InterpError) {
      const line = thrown.span?.line ?? this.#line ?? 0;
      const base = { kind: thrown.kind, message: thrown.message, line, column: thrown.span?.column ?? 0, ...(inSetup ? { inSetup } : {}) };
      return thrown.ident === undefined ? base : { ...base, name: thrown.ident };
    }
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    return { kind: 'internal', message: `internal error: ${message}`, line: this.#line ?? 0, column: 0, ...(inSetup ? { inSetup } : {}) };
  }
}
