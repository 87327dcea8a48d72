import { compile, type Diagnostic, type ExecError, Execution, type StepOutcome, type VariableView } from '@pagelens/core';
import { createStore, type StoreApi } from 'zustand/vanilla';
import { type AgentCall, createAgentRuntime } from './agent-runtime.ts';
import { completedHits, type GutterMark, gutterMarks } from './gutter-model.ts';
import { commandLine, type PlaygroundDoc, type Problem } from './playground-doc.ts';
import { type AnsweredCall, pairCalls, StepSeqMap } from './step-seqs.ts';

/** `idle`: nothing has run since the code last changed. The others are the Execution's states. */
export type RunStatus = 'idle' | 'ready' | 'running' | 'paused' | 'finished' | 'error';
export type Command = 'step' | 'stepOver' | 'runToLine' | 'run';

/** Where the document came from, for the picker and the save button. */
export type DocSource =
  | { readonly kind: 'builtin'; readonly id: string }
  | { readonly kind: 'saved'; readonly id: string }
  | { readonly kind: 'shared' }
  | { readonly kind: 'new' };

/** Which scenario a command line is remembered for; a new or shared document has one slot each. */
function sourceKey(source: DocSource): string {
  return source.kind === 'builtin' || source.kind === 'saved' ? `${source.kind}:${source.id}` : source.kind;
}

export interface RunView {
  readonly status: RunStatus;
  /** The line the execution is paused before (or failed on). */
  readonly line: number | undefined;
  readonly error: ExecError | undefined;
  readonly exitCode: number | undefined;
  /** Statements run so far (counted against the step limit). */
  readonly steps: number;
  readonly command: Command | undefined;
  readonly codeMarks: readonly GutterMark[];
  readonly setupMarks: readonly GutterMark[];
  readonly variables: readonly VariableView[];
  readonly output: readonly string[];
  readonly calls: number;
  readonly aclErrors: number;
  /** A Stop is pending: the run pauses before its next statement. */
  readonly stopping: boolean;
}

/** What happened to the last shared link opened: shown once above the code. */
export type LinkStatus = { readonly ok: true; readonly name: string } | { readonly ok: false; readonly problem: Problem };

export interface PlaygroundState {
  readonly doc: PlaygroundDoc;
  readonly source: DocSource;
  readonly run: RunView;
  readonly link: LinkStatus | undefined;
}

/** What the controller needs from the app: the agent, the replica's last seq, the time cursor. */
export interface PlaygroundHost {
  readonly call: AgentCall;
  lastSeq(): number;
  /** The oldest seq the replica still holds: seqs before it (a host reset) cannot be shown. */
  firstSeq(): number;
  /** Puts the time cursor back on the live state: a step's effects are then visible at once. */
  followLive(): void;
  callsPerSecond(): number;
  /** Lets the browser paint during a long run (a macrotask or an animation frame). */
  yieldControl(): Promise<void>;
  now(): number;
}

const IDLE: RunView = {
  status: 'idle',
  line: undefined,
  error: undefined,
  exitCode: undefined,
  steps: 0,
  command: undefined,
  codeMarks: [],
  setupMarks: [],
  variables: [],
  output: [],
  calls: 0,
  aclErrors: 0,
  stopping: false,
};

/** Progress while running is published at most this often (ms). */
const PROGRESS_EVERY = 100;

/**
 * Drives one playground: holds the document, the `Execution` over an agent-backed runtime, and the
 * step→seq map. It outlives the view (switching tabs keeps a paused run), and publishes plain
 * snapshots to its own small store for the components to render.
 */
export class PlaygroundController {
  readonly store: StoreApi<PlaygroundState>;
  readonly seqs = new StepSeqMap();
  readonly #host: PlaygroundHost;
  #execution: Execution | undefined;
  #diagnostics: { code: readonly Diagnostic[]; setup: readonly Diagnostic[] } = { code: [], setup: [] };
  /** main's command line by scenario (built-in id or saved id), kept for the session. */
  readonly #args = new Map<string, string>();
  #answered: AnsweredCall[] = [];
  #logged = 0;
  #busy = false;
  #stopLines: number[] = [];
  #resetAfterStop = false;
  #lastProgress = 0;

  constructor(host: PlaygroundHost, doc: PlaygroundDoc, source: DocSource) {
    this.#host = host;
    this.store = createStore<PlaygroundState>()(() => ({ doc, source, run: IDLE, link: undefined }));
  }

  get state(): PlaygroundState {
    return this.store.getState();
  }

  /** Code, inputs and setup can change only while nothing is paused or running. */
  get editable(): boolean {
    const status = this.state.run.status;
    return status !== 'running' && status !== 'paused';
  }

  /** Replaces the document (picker, saved, shared link). Refused while a run is paused or running: reset first. */
  open(doc: PlaygroundDoc, source: DocSource): boolean {
    if (!this.editable) return false;
    this.#discard();
    // A built-in or saved scenario opened again gets back the command line it was last run with in this session.
    const remembered = doc.args === undefined ? this.#args.get(sourceKey(source)) : undefined;
    this.store.setState({ doc: remembered === undefined ? doc : { ...doc, args: remembered }, source, link: undefined });
    return true;
  }

  /** An edit of the current document; it forgets the finished run whose marks no longer match the code. */
  edit(change: Partial<PlaygroundDoc>): boolean {
    if (!this.editable) return false;
    if (change.args !== undefined) this.#args.set(sourceKey(this.state.source), change.args);
    const doc = { ...this.state.doc, ...change };
    if (this.state.run.status !== 'idle') this.#discard();
    this.store.setState({ doc });
    return true;
  }

  /** Chooses the function to run (undefined: main, or the only function). */
  setEntry(entry: string | undefined): boolean {
    if (entry !== undefined) return this.edit({ entry });
    const { entry: _dropped, ...rest } = this.state.doc;
    if (!this.editable) return false;
    if (this.state.run.status !== 'idle') this.#discard();
    this.store.setState({ doc: rest });
    return true;
  }

  /** Marks the document as saved under `id` (after the user saved it). */
  setSource(source: DocSource): void {
    this.store.setState({ source });
  }

  setLink(link: LinkStatus | undefined): void {
    this.store.setState({ link });
  }

  step(): Promise<void> {
    return this.#command('step', (ex) => ex.step());
  }

  stepOver(): Promise<void> {
    return this.#command('stepOver', (ex) => ex.stepOver());
  }

  runToLine(line: number): Promise<void> {
    return this.#command('runToLine', (ex) => ex.runToLine(line));
  }

  run(): Promise<void> {
    return this.#command('run', (ex) => ex.run());
  }

  /**
   * Running: pause before the next statement (every statement line becomes a breakpoint until the
   * run settles), so Step or Run can go on from there. Paused: end the execution here.
   */
  stop(): void {
    const ex = this.#execution;
    if (ex === undefined) return;
    if (this.#busy) {
      if (this.#stopLines.length > 0) return;
      this.#stopLines = ex.program.statementLines.filter((line) => !ex.breakpoints.has(line));
      for (const line of this.#stopLines) ex.breakpoints.add(line);
      this.#publish({ stopping: true });
      return;
    }
    ex.stop();
    this.#publish();
  }

  /** Forgets the execution (not the host state it made; the view offers a host reset for that). */
  reset(): void {
    if (this.#busy) {
      this.#resetAfterStop = true;
      this.stop();
      return;
    }
    this.#discard();
  }

  /** The seq right after `line` of the code last ran, if it ran and the replica still holds that state. */
  seqAfterLine(line: number): number | undefined {
    const ex = this.#execution;
    if (ex === undefined) return undefined;
    const paused = ex.state === 'paused' ? ex.currentLine : undefined;
    const seq = this.seqs.seqAfter(line, (l) => {
      const mark = ex.lineMarks.get(l);
      return mark?.executed === true && completedHits(mark, l, paused) > 0;
    });
    return seq === undefined || seq < this.#host.firstSeq() ? undefined : seq;
  }

  lineAtSeq(seq: number): number | undefined {
    return this.#execution === undefined ? undefined : this.seqs.lineAt(seq);
  }

  #discard(): void {
    this.#execution = undefined;
    this.#answered = [];
    this.#logged = 0;
    this.#diagnostics = { code: [], setup: [] };
    this.seqs.begin(this.#host.lastSeq());
    this.store.setState({ run: IDLE });
  }

  /** The execution of the current document, created on the first command; undefined when it does not compile. */
  #ensure(): Execution | undefined {
    if (this.#execution !== undefined) return this.#execution;
    const { doc } = this.state;
    const inputs = doc.inputs.map((input) => input.name);
    const compiled = compile(doc.code, { inputs, ...(doc.entry === undefined ? {} : { entry: doc.entry }) });
    const setup = doc.setup.trim() === '' ? undefined : compile(doc.setup, { inputs });
    this.#diagnostics = { code: compiled.diagnostics, setup: setup?.diagnostics ?? [] };
    if (!compiled.ok || (setup !== undefined && !setup.ok)) {
      this.store.setState({ run: { ...IDLE, status: 'idle', codeMarks: gutterMarks(undefined, compiled.diagnostics) } });
      return undefined;
    }
    const runtime = createAgentRuntime({
      call: this.#host.call,
      callsPerSecond: this.#host.callsPerSecond(),
      onOutcome: (fn, outcome) => {
        this.#answered.push({ fn, seq: Math.max(this.#host.lastSeq(), ...outcome.events) });
        this.#progress();
      },
    });
    this.seqs.begin(this.#host.lastSeq());
    this.#execution = new Execution(compiled.program, runtime, {
      inputs: doc.inputs,
      ...(setup === undefined ? {} : { setup: doc.setup }),
      ...(doc.entry === undefined ? {} : { entry: doc.entry }),
      ...(doc.args === undefined || doc.args.trim() === '' ? {} : { argv: commandLine(doc.args).argv }),
      yieldControl: async () => {
        this.#progress();
        await this.#host.yieldControl();
      },
    });
    return this.#execution;
  }

  async #command(command: Command, go: (ex: Execution) => Promise<StepOutcome>): Promise<void> {
    if (this.#busy) return;
    const ex = this.#ensure();
    if (ex === undefined) return;
    const before = { state: ex.state, line: ex.currentLine, seq: this.#host.lastSeq() };
    this.#busy = true;
    this.#host.followLive();
    this.#publish({ status: 'running', command });
    try {
      await go(ex);
    } finally {
      this.#busy = false;
      for (const line of this.#stopLines) ex.breakpoints.delete(line);
      this.#stopLines = [];
    }
    this.seqs.add(pairCalls(ex.calls.slice(this.#logged), this.#answered.splice(0), before.seq));
    this.#logged = ex.calls.length;
    // A step finished the statement it was paused before: the state now is the state after it.
    if ((command === 'step' || command === 'stepOver') && before.state === 'paused' && before.line !== undefined) {
      this.seqs.add([{ line: before.line, seq: this.#host.lastSeq() }]);
    }
    this.#host.followLive();
    if (this.#resetAfterStop) {
      this.#resetAfterStop = false;
      this.#discard();
      return;
    }
    this.#publish();
  }

  #progress(): void {
    const now = this.#host.now();
    if (now - this.#lastProgress < PROGRESS_EVERY) return;
    this.#lastProgress = now;
    this.#publish({ status: 'running' });
  }

  #publish(override: Partial<RunView> = {}): void {
    const ex = this.#execution;
    if (ex === undefined) return;
    const paused = ex.state === 'paused' ? ex.currentLine : undefined;
    const codeMarks = gutterMarks(ex.lineMarks, this.#diagnostics.code, paused);
    const run: RunView = {
      status: this.#busy ? 'running' : ex.state,
      line: ex.currentLine,
      error: ex.error,
      exitCode: ex.exitCode,
      steps: ex.steps,
      command: this.#busy ? this.state.run.command : undefined,
      codeMarks,
      setupMarks: gutterMarks(ex.setupMarks, this.#diagnostics.setup),
      variables: ex.variables(),
      output: [...ex.output],
      calls: ex.calls.length,
      aclErrors: ex.aclErrors,
      stopping: this.#stopLines.length > 0,
      ...override,
    };
    this.store.setState({ run });
  }
}
