import type { EventBody, ProcessState } from '@pagelens/core';

/*
 * CX-1: the current device and context belong to the calling host thread. The model's process
 * holds one pair (PageLens models one host thread per simulated process); a traced program has
 * many threads, each reported by its Linux tid. ThreadCurrents keeps each thread's own pair and
 * lends it to the process for the length of that thread's call, so the effects of aclrtMalloc,
 * aclrtCreateStream, a NULL stream or aclrtSynchronizeDevice read the calling thread's device and
 * context, and aclrtSetDevice or aclrtSetCurrentContext on one thread leaves the others' alone.
 */

interface Current {
  readonly device: number;
  readonly context: number;
}

/** A thread the trace has not seen yet has no current context until it sets one (CX-1). */
const NONE: Current = { device: -1, context: -1 };

/** The event kinds whose reduction changes a process's current device or context (model/reduce.ts). */
const CHANGES_CURRENT: ReadonlySet<EventBody['kind']> = new Set(['deviceSet', 'deviceReset', 'contextCurrent', 'contextDestroy']);

export function changesCurrent(body: EventBody): boolean {
  return CHANGES_CURRENT.has(body.kind);
}

export class ThreadCurrents {
  readonly #threads = new Map<number, Current>();

  /** The thread's pair as the model holds it for `thread` now. */
  of(thread: number): Current {
    return this.#threads.get(thread) ?? NONE;
  }

  get threads(): number {
    return this.#threads.size;
  }

  /**
   * Runs `call` with the process's current pair set to `thread`'s, then keeps what the call made
   * of it for that thread. The process keeps the calling thread's pair when the call changed it
   * (its events then say so to every replica), and gets back the pair it had otherwise, so the
   * agent's state stays the one a replica builds from the events. (After a reset or a destroy on
   * one thread, a replica that reduced it against another thread's pair may hold that one.)
   */
  during<T>(process: ProcessState, thread: number, call: (changed: () => void) => T): T {
    const shown: Current = { device: process.currentDevice, context: process.currentContext };
    const mine = this.of(thread);
    process.currentDevice = mine.device;
    process.currentContext = mine.context;
    let changed = false;
    try {
      return call(() => {
        changed = true;
      });
    } finally {
      this.#threads.set(thread, { device: process.currentDevice, context: process.currentContext });
      if (!changed) {
        process.currentDevice = shown.device;
        process.currentContext = shown.context;
      }
    }
  }
}
