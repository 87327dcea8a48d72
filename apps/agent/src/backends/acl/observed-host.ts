import {
  type CallEvent,
  createHostState,
  type DeviceProfile,
  type EventBody,
  type HostState,
  type MemoryEvent,
  type Provenance,
  reduce,
} from '@pagelens/core';

/**
 * The replica of what the ACL backend has observed: every event is stamped here (seq, wall-clock
 * time since the backend started, provenance), reduced into `state`, and handed to subscribers
 * when the call that caused it ends, before the call's promise resolves. Mirrors SimHost's
 * bookkeeping, with wall-clock time instead of a virtual clock.
 */
export class ObservedHost {
  readonly state: HostState;
  readonly #listeners = new Set<(events: readonly MemoryEvent[]) => void>();
  readonly #epoch = process.hrtime.bigint();
  #batch: MemoryEvent[] = [];
  #currentCall = 0;
  #nextSeq = 1;
  #nextId = 1;

  constructor(profiles: readonly DeviceProfile[]) {
    this.state = createHostState(profiles);
  }

  /** Nanoseconds since the backend started (the `t` of observed events). */
  now(): number {
    return Number(process.hrtime.bigint() - this.#epoch);
  }

  /** A process.hrtime reading in ns (from any thread of this process) as backend time, like `now()`. */
  fromMonotonic(monotonicNs: number): number {
    return monotonicNs - Number(this.#epoch);
  }

  subscribe(listener: (events: readonly MemoryEvent[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  newId(): number {
    return this.#nextId++;
  }

  /** Stamps, reduces and queues one change; inside a call it is linked to the call's seq. */
  emit(body: EventBody, provenance: Provenance = 'observed'): MemoryEvent {
    const stamp = { seq: this.#nextSeq, t: this.now(), provenance };
    const event: MemoryEvent = Object.assign(body, this.#currentCall === 0 ? stamp : { ...stamp, call: this.#currentCall });
    this.#nextSeq += 1;
    reduce(this.state, event);
    this.#batch.push(event);
    return event;
  }

  /** Reserves the seq of a call's own event; its effects follow it. */
  beginCall(): number {
    this.#currentCall = this.#nextSeq;
    this.#nextSeq += 1;
    return this.#currentCall;
  }

  /** Puts the call event first, moves the cursor, and delivers [call, ...effects]. */
  endCall(event: CallEvent): void {
    this.#currentCall = 0;
    if (event.t > this.state.time) this.state.time = event.t;
    if (this.state.seq < event.seq) this.state.seq = event.seq;
    this.#batch.unshift(event);
    this.flush();
  }

  /**
   * Ends a call that never reached the runtime (refused, or a bug threw): when it emitted nothing
   * its reserved seq is given back, so refusals leave no gap and no event.
   */
  abandonCall(seq: number): void {
    this.#currentCall = 0;
    if (this.#nextSeq === seq + 1 && this.#batch.length === 0) this.#nextSeq = seq;
    this.flush();
  }

  /** Delivers what was emitted outside any call (pool samples, process events). */
  flush(): void {
    if (this.#batch.length === 0) return;
    const batch = this.#batch;
    this.#batch = [];
    for (const listener of this.#listeners) listener(batch);
  }
}
