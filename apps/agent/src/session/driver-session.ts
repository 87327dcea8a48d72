import { randomBytes } from 'node:crypto';
import { type AclCall, type MemoryEvent, planTeardown } from '@pagelens/core';
import type { Backend, BackendProcess } from '../backends/backend.ts';
import type { JournalSink } from '../journal/entries.ts';
import { RateLimiter } from './quotas.ts';

/** At most this many calls of one session may wait in its queue. */
export const MAX_QUEUED_CALLS = 1000;
/** Processes a session may use: its own and three more for export/import lessons. */
export const MAX_PROCESSES = 4;

export interface Executed {
  readonly fn: string;
  readonly ret: number;
  readonly out: Readonly<Record<string, unknown>>;
  readonly message?: string;
  readonly events: readonly number[];
  readonly durationNs: number;
}

/** Splits a runtime answer into ret, message and out-fields. */
/** Any AclResult: the call's code, its message, and its out-fields. */
export interface RawResult {
  readonly ret: number;
  readonly message?: string;
}

function splitResult(result: RawResult): { ret: number; message?: string; out: Record<string, unknown> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(result)) if (key !== 'ret' && key !== 'message') out[key] = value;
  return result.message === undefined ? { ret: result.ret, out } : { ret: result.ret, message: result.message, out };
}

/**
 * The driver's session: the simulated processes it owns, its serial call queue and its rate limit.
 * It outlives its connection for a grace period so that a reconnecting driver gets it back.
 */
export class DriverSession {
  readonly id: string;
  readonly resumeToken = randomBytes(24).toString('hex');
  readonly rate: RateLimiter;
  #processes: (BackendProcess | undefined)[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  queued = 0;
  graceTimer: ReturnType<typeof setTimeout> | undefined;
  graceEndsAt = 0;

  constructor(id: string, callsPerSecond: number, now: () => number) {
    this.id = id;
    this.rate = new RateLimiter(callsPerSecond, now);
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

  /** Runs tasks one after another: calls of a session never interleave. */
  enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.queued += 1;
    const run = this.#queue.then(task, task);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run.finally(() => {
      this.queued -= 1;
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

/** Runs one call through a process and collects the events it caused. */
export async function execute(
  opened: BackendProcess,
  fn: string,
  run: (runtime: BackendProcess['runtime']) => Promise<RawResult>,
  subscribeEvents: (listener: (events: readonly MemoryEvent[]) => void) => () => void,
): Promise<Executed> {
  const seqs: number[] = [];
  let callSeq = -1;
  let durationNs: number | undefined;
  const stop = subscribeEvents((events) => {
    for (const event of events) {
      if (event.kind === 'call' && callSeq === -1 && event.pid === opened.pid && event.fn === fn) {
        callSeq = event.seq;
        durationNs = event.durationNs;
        seqs.push(event.seq);
      } else if (callSeq !== -1 && event.call === callSeq) {
        seqs.push(event.seq);
      }
    }
  });
  const started = process.hrtime.bigint();
  try {
    const result = await run(opened.runtime);
    const wallNs = Number(process.hrtime.bigint() - started);
    const { ret, message, out } = splitResult(result);
    return { fn, ret, out, events: seqs, durationNs: durationNs ?? wallNs, ...(message === undefined ? {} : { message }) };
  } finally {
    stop();
  }
}
