import type { RunInfo, RunsMessage } from '@pagelens/core';
import type { ExitStatus } from './program-end.ts';

/*
 * The programs this agent has served, for the explorer's processes panel: added when a program's
 * hello arrives, counted as its calls come in, finished when it ends. Every change is announced
 * to the listener at most once per PERIOD_MS (a busy program makes thousands of calls a second;
 * the panel needs its counts, not each call). Runs are named by the registry's own run number:
 * a host reset replaces the model, whose pids then start again, so a model pid can come back.
 * The runs from before a reset stay listed as history, marked, with their memory gone.
 */

export const PERIOD_MS = 250;

/** What a run's counts are read from: its RunRecord (simulated) or TraceRecord (traced). */
export interface RunCounts {
  calls(): number;
  errors(): number;
  /** undefined while unknown. */
  dropped(): number | undefined;
}

interface Run {
  readonly info: Pick<RunInfo, 'run' | 'pid' | 'osPid' | 'command' | 'mode'>;
  readonly counts: RunCounts;
  status: ExitStatus | 'running' | 'ended';
  /** The host was reset since the run began: its process is not in the model any more. */
  beforeReset: boolean;
}

/** Runs kept at most; the oldest ended ones go first (the protocol's list holds 1024). */
export const MAX_RUNS = 1024;

const SIGNALS = /^SIG[A-Z0-9]{1,13}$/;

export class RunRegistry {
  readonly #runs = new Map<number, Run>();
  #nextRun = 1;
  #listener: ((message: RunsMessage) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** The one listener (the hub's broadcast). */
  onChange(listener: (message: RunsMessage) => void): void {
    this.#listener = listener;
  }

  /** A program said hello: its run number, for ended() and finished(). */
  add(info: Omit<Run['info'], 'run'>, counts: RunCounts): number {
    const run = this.#nextRun;
    this.#nextRun += 1;
    this.#runs.set(run, { info: { ...info, run, command: info.command.slice(0, 512) }, counts, status: 'running', beforeReset: false });
    this.#forgetOldest();
    this.touched();
    return run;
  }

  /** The connection closed; the exit status may follow from the program's parent. */
  ended(run: number): void {
    const entry = this.#runs.get(run);
    if (entry !== undefined && entry.status === 'running') entry.status = 'ended';
    this.touched();
  }

  finished(run: number, status: ExitStatus): void {
    const entry = this.#runs.get(run);
    if (entry !== undefined) entry.status = status;
    this.touched();
  }

  /** The run of OS process `osPid`: the newest, since the OS reuses pids once a program has ended. */
  runOf(osPid: number): number | undefined {
    let found: number | undefined;
    for (const entry of this.#runs.values()) if (entry.info.osPid === osPid) found = entry.info.run;
    return found;
  }

  /** The host was reset: every run so far lost its process and memory; they stay listed, marked. */
  hostReset(): void {
    for (const entry of this.#runs.values()) entry.beforeReset = true;
    this.touched();
  }

  #forgetOldest(): void {
    for (const [run, entry] of this.#runs) {
      if (this.#runs.size <= MAX_RUNS) return;
      if (entry.status !== 'running') this.#runs.delete(run);
    }
  }

  /** Something changed: announce it soon (once per period, however many changes). */
  touched(): void {
    if (this.#timer !== undefined || this.#listener === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#listener?.(this.message());
    }, PERIOD_MS);
    this.#timer.unref();
  }

  message(): RunsMessage {
    return { type: 'runs', runs: [...this.#runs.values()].map(describe) };
  }

  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#listener = undefined;
  }
}

function describe(run: Run): RunInfo {
  const dropped = run.counts.dropped();
  const base = {
    ...run.info,
    calls: run.counts.calls(),
    errors: run.counts.errors(),
    ...(dropped === undefined ? {} : { dropped }),
    ...(run.beforeReset ? { beforeReset: true as const } : {}),
  };
  const { status } = run;
  if (status === 'running' || status === 'ended') return { ...base, state: status };
  if (status.signal !== undefined) return { ...base, state: 'killed', ...(SIGNALS.test(status.signal) ? { signal: status.signal } : {}) };
  return { ...base, state: 'exited', code: Math.max(0, Math.min(255, status.code)) };
}
