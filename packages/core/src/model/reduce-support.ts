import type { MemoryEvent } from './events.ts';
import type { HostState, ProcessState } from './state.ts';

/*
 * What every case of the reducer uses: the object an event names, or a ReduceError that says
 * which one is missing.
 */

export function processOf(state: HostState, event: MemoryEvent, pid: number): ProcessState {
  return need(state.processes.get(pid), event, 'process', pid);
}

export function deviceOf(state: HostState, event: MemoryEvent, id: number) {
  return need(state.devices[id], event, 'device', id);
}

/** A bug or a corrupt event stream: reduce never guesses. */
export class ReduceError extends Error {
  constructor(event: MemoryEvent, problem: string) {
    super(`event ${event.seq} (${event.kind}): ${problem}`);
    this.name = 'ReduceError';
  }
}

/** The object `what` `id` names; its name is spelled out only when it is missing (every event passes here). */
export function need<T>(value: T | undefined, event: MemoryEvent, what: string, id: number): T {
  if (value === undefined) throw new ReduceError(event, `unknown ${what} ${id}`);
  return value;
}
