import type { RunInfo, RunsMessage } from '@pagelens/core';
import type { ExitStatus } from './program-end.ts';

/*
 * The programs this agent has served, for the explorer's processes panel: added when a program's
 * hello arrives, counted as its calls come in, finished when it ends. Every change is announced
 * to the listener at most once per PERIOD_MS (a busy program makes thousands of calls a second;
 * the panel needs its counts, not each call).
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
  readonly info: Pick<RunInfo, 'pid' | 'osPid' | 'command' | 'mode'>;
  readonly counts: RunCounts;
  status: ExitStatus | 'running' | 'ended';
}

const SIGNALS = /^SIG[A-Z0-9]{1,13}$/;

export class RunRegistry {
  readonly #runs = new Map<number, Run>();
  #listener: ((message: RunsMessage) => void) | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** The one listener (the hub's broadcast). */
  onChange(listener: (message: RunsMessage) => void): void {
    this.#listener = listener;
  }

  add(info: Run['info'], counts: RunCounts): void {
    this.#runs.set(info.pid, { info: { ...info, command: info.command.slice(0, 512) }, counts, status: 'running' });
    this.touched();
  }

  /** The connection closed; the exit status may follow from the program's parent. */
  ended(pid: number): void {
    const run = this.#runs.get(pid);
    if (run !== undefined && run.status === 'running') run.status = 'ended';
    this.touched();
  }

  finished(pid: number, status: ExitStatus): void {
    const run = this.#runs.get(pid);
    if (run !== undefined) run.status = status;
    this.touched();
  }

  /** The model process of the run whose OS pid is `osPid`, if the agent has one. */
  pidOf(osPid: number): number | undefined {
    for (const run of this.#runs.values()) if (run.info.osPid === osPid) return run.info.pid;
    return undefined;
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

  /** Forgets every run (the host was reset, their processes are gone). */
  clear(): void {
    this.#runs.clear();
    this.touched();
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
  const base = { ...run.info, calls: run.counts.calls(), errors: run.counts.errors(), ...(dropped === undefined ? {} : { dropped }) };
  const { status } = run;
  if (status === 'running' || status === 'ended') return { ...base, state: status };
  if (status.signal !== undefined) return { ...base, state: 'killed', ...(SIGNALS.test(status.signal) ? { signal: status.signal } : {}) };
  return { ...base, state: 'exited', code: Math.max(0, Math.min(255, status.code)) };
}
