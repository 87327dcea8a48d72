import { randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type AclCall,
  type AclFunctionName,
  type AclResult,
  type CallReply,
  errorName,
  type MemoryEvent,
  planTeardown,
} from '@pagelens/core';
import type { Backend, BackendProcess } from '../backends/backend.ts';
import type { JournalSink } from '../journal/entries.ts';
import { RateLimiter } from './quotas.ts';
import { SerialQueue } from './serial-queue.ts';

/** At most this many calls of one session may wait in its queue. */
export const MAX_QUEUED_CALLS = 1000;
/** At most this many bytes of call messages may wait in a session's queue (a call may be 1 MiB). */
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
/** Processes a session may use: its own and three more for export/import lessons. */
export const MAX_PROCESSES = 4;

/** Any runtime answer: its code and message (the out-fields are the rest). */
export type RuntimeAnswer = Pick<AclResult<AclFunctionName>, 'ret' | 'message' | 'messageCode'>;

/** The out-fields of a runtime answer: everything but ret and message (and its code). */
function outFields(result: RuntimeAnswer): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(result))
    if (key !== 'ret' && key !== 'message' && key !== 'messageCode') out[key] = Reflect.get(result, key);
  return out;
}

function newResumeToken(): string {
  return randomBytes(24).toString('hex');
}

/**
 * The driver's session: the simulated processes it owns, its serial call queue and its rate limit.
 * It outlives its connection for a grace period so that a reconnecting driver gets it back.
 */
export class DriverSession {
  readonly id: string;
  #resumeToken = newResumeToken();
  readonly rate: RateLimiter;
  #processes: (BackendProcess | undefined)[] = [];
  readonly #queue = new SerialQueue();
  graceTimer: ReturnType<typeof setTimeout> | undefined;
  graceEndsAt = 0;
  /**
   * Its driver did not come back in time and its teardown is running: it holds objects still, but no
   * one can resume or take it; a driver's hello waits until it has ended (hub.ts).
   */
  ending = false;

  constructor(id: string, callsPerSecond: number, now: () => number) {
    this.id = id;
    this.rate = new RateLimiter(callsPerSecond, now);
  }

  /** The token that gets the session back after a reconnect; each welcome carries a fresh one. */
  get resumeToken(): string {
    return this.#resumeToken;
  }

  /** True when `token` is the current resume token (compared in constant time). */
  resumes(token: string): boolean {
    const given = Buffer.from(token);
    const expected = Buffer.from(this.#resumeToken);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Makes the current resume token useless and issues the next one (a token is good for one resume). */
  rotateResumeToken(): void {
    this.#resumeToken = newResumeToken();
  }

  /** The pids of the session's processes (cached: asked on every call for the quota check). */
  pids(): ReadonlySet<number> {
    return this.#pids;
  }

  #pids: ReadonlySet<number> = new Set();

  /** The session's process `index`, opened on first use. */
  process(index: number, backend: Backend, journal: JournalSink): BackendProcess {
    const existing = this.#processes[index];
    if (existing !== undefined) return existing;
    const name = index === 0 ? `session ${this.id}` : `session ${this.id} #${index}`;
    const opened = backend.openProcess(name);
    this.#processes[index] = opened;
    this.#pids = new Set([...this.#pids, opened.pid]);
    journal.write({ type: 'process', session: this.id, process: index, pid: opened.pid, name });
    return opened;
  }

  /** Calls and other tasks waiting in the session's queue or running. */
  get queued(): number {
    return this.#queue.size;
  }

  /** Runs a task after those queued before it; calls of a session never interleave. */
  enqueue<T>(task: () => Promise<T>): Promise<T> {
    return this.#queue.run(task);
  }

  /** Bytes of the call messages waiting or running. */
  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  #queuedBytes = 0;

  /**
   * The same for a task that reports its own outcome (a client's call), without a promise to
   * settle; `bytes` is the size of the message it came in, held against MAX_QUEUED_BYTES until it ends.
   */
  schedule(task: () => Promise<void>, bytes = 0): void {
    this.#queuedBytes += bytes;
    this.#queue.push(async () => {
      try {
        await task();
      } finally {
        this.#queuedBytes -= bytes;
      }
    });
  }

  /** Forgets the processes (after a backend reset replaced the host they lived on). */
  dropProcesses(): void {
    this.#processes = [];
    this.#pids = new Set();
  }

  /** Every call that releases what the session holds, process by process, in RULES.md order. */
  teardownCalls(backend: Backend): { process: number; call: AclCall }[] {
    const calls: { process: number; call: AclCall }[] = [];
    this.#processes.forEach((opened, index) => {
      if (opened === undefined) return;
      for (const call of planTeardown(backend.state(), opened.pid)) calls.push({ process: index, call });
    });
    return calls;
  }
}

/**
 * Picks one call's events out of the event stream: its `call` event (the first from this process
 * for this function once the call has started) and every event that names it as its cause.
 */
export class CallRecorder {
  readonly #pid: number;
  readonly #fn: string;
  readonly seqs: number[] = [];
  #callSeq = -1;
  /** The call's duration as its call event tells it (simulated or observed). */
  durationNs: number | undefined;

  constructor(pid: number, fn: string) {
    this.#pid = pid;
    this.#fn = fn;
  }

  observe(events: readonly MemoryEvent[]): void {
    for (const event of events) {
      if (event.kind === 'call' && this.#callSeq === -1 && event.pid === this.#pid && event.fn === this.#fn) {
        this.#callSeq = event.seq;
        this.durationNs = event.durationNs;
        this.seqs.push(event.seq);
      } else if (this.#callSeq !== -1 && event.call === this.#callSeq) {
        this.seqs.push(event.seq);
      }
    }
  }
}

/**
 * Runs one call through a process and collects the events it caused: while it runs, its recorder
 * sits in `recorders`, which the owner of the event stream feeds.
 */
export async function execute(
  opened: BackendProcess,
  fn: string,
  run: (runtime: BackendProcess['runtime']) => Promise<RuntimeAnswer>,
  recorders: Set<CallRecorder>,
): Promise<CallReply> {
  const recorder = new CallRecorder(opened.pid, fn);
  recorders.add(recorder);
  const started = process.hrtime.bigint();
  try {
    const result = await run(opened.runtime);
    const wallNs = Number(process.hrtime.bigint() - started);
    const reply: CallReply = {
      fn,
      ret: result.ret,
      retName: errorName(result.ret),
      out: outFields(result),
      events: recorder.seqs,
      durationNs: recorder.durationNs ?? wallNs,
    };
    if (result.message === undefined) return reply;
    return result.messageCode === undefined
      ? { ...reply, message: result.message }
      : { ...reply, message: result.message, messageCode: result.messageCode };
  } finally {
    recorders.delete(recorder);
  }
}
