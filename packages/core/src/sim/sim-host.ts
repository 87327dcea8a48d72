import type { CallEvent, EventBody, MemoryEvent, Provenance } from '../model/events.ts';
import { reduce } from '../model/reduce.ts';
import { createHostState, type HostState } from '../model/state.ts';
import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { type DeviceProfile, SIMULATED_DEVICES } from '../profiles/profile.ts';
import { OPAQUE_BASE, OPAQUE_STRIDE, SHAREABLE_BASE } from './layout.ts';
import { ProcessSpace } from './process-space.ts';
import { Rng } from './rng.ts';

export interface SimHostOptions {
  /** One profile per device; default one Ascend910B2. */
  readonly devices?: readonly DeviceProfile[];
  /** Seed of the simulator's randomness (pageable copy jitter); default 1. */
  readonly seed?: number;
}

/** Make a call fail on purpose: the next call of `fn` (or the `nth` call overall) answers `ret` and changes nothing. */
export interface FailureInjection {
  readonly ret: number;
  readonly fn?: string;
  /** 1-based index among all calls of the host. */
  readonly nth?: number;
  readonly message?: string;
}

export type EventListener = (events: readonly MemoryEvent[]) => void;

/** What `emit` adds to an operation's event body. */
interface Stamp {
  seq?: number;
  t?: number;
  provenance?: Provenance;
  call?: number;
}

function isStamped(event: EventBody & Stamp): event is MemoryEvent {
  return event.seq !== undefined && event.t !== undefined && event.provenance !== undefined;
}

/**
 * One simulated Ascend host: its devices, its processes and their shared virtual clock. Every
 * change goes through `emit`, which stamps the event, reduces it into `state` and hands it to the
 * subscribers once the call that caused it has finished. Deterministic for a given seed.
 */
export class SimHost {
  readonly state: HostState;
  readonly rng: Rng;
  readonly spaces = new Map<number, ProcessSpace>();
  /** When each (device, direction) link is next free, for copy timing (sim-private). */
  readonly linkFreeAt = new Map<string, number>();
  /** The last word aclrtValueWrite queued at each device address, and when it lands (CP-12; sim-private). */
  readonly valueWords = new Map<number, { readonly value: bigint; readonly at: number }>();
  readonly #listeners = new Set<EventListener>();
  /** Effects emitted since the last flush; one array, reused (emptied at each flush). */
  readonly #effects: MemoryEvent[] = [];
  #currentCall = 0;
  #nextSeq = 1;
  #nextId = 1;
  #nextPid = 4001;
  #nextOpaque = 1;
  #nextShareable = 1;
  #calls = 0;
  #failures: FailureInjection[] = [];
  /** The OS thread of an interposed program whose call runs now (`pagelens run`): its call event names it. */
  callThread: number | undefined = undefined;

  constructor(options: SimHostOptions = {}) {
    const devices = options.devices ?? [ASCEND_910B2];
    const { min, max } = SIMULATED_DEVICES;
    if (devices.length < min || devices.length > max)
      throw new RangeError(`a simulated host has ${min} to ${max} devices, not ${devices.length}`);
    this.state = createHostState(devices);
    this.rng = new Rng(options.seed ?? 1);
  }

  get deviceCount(): number {
    return this.state.devices.length;
  }

  subscribe(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Registers a simulated process; returns its pid. */
  addProcess(name: string): number {
    const pid = this.#nextPid;
    this.#nextPid += 1;
    this.spaces.set(pid, new ProcessSpace(this.deviceCount));
    this.emit({ kind: 'process', pid, name });
    this.#flush();
    return pid;
  }

  /**
   * Stamps, applies and queues one state change. Only simulator operations call this. A hot
   * operation may hand over its body with placeholder stamp fields already in place (seq, t,
   * provenance, call, at the end), so that stamping fills fields instead of adding them.
   * `provenance` is "observed" only for what a traced program's real runtime did (`pagelens run --trace`).
   */
  emit(body: EventBody | MemoryEvent, provenance: Provenance = 'simulated'): MemoryEvent {
    // Stamped in place, field by field: operations hand over fresh objects, and copying every field (or
    // Object.assign) costs more than the change itself. The fields land in the order they always had.
    const event: EventBody & Stamp = body;
    event.seq = this.#nextSeq;
    event.t = this.state.time;
    event.provenance = provenance;
    if (this.#currentCall !== 0) event.call = this.#currentCall;
    else if (event.call !== undefined) throw new Error('emit: an event placed in a call outside any call');
    if (!isStamped(event)) throw new Error('emit: an event left unstamped');
    this.#nextSeq += 1;
    reduce(this.state, event);
    this.#effects.push(event);
    return event;
  }

  /** Reserves the seq of a call's own event; its effects follow it. */
  beginCall(): number {
    this.#calls += 1;
    this.#currentCall = this.#nextSeq;
    this.#nextSeq += 1;
    return this.#currentCall;
  }

  /** Applies the call event and hands [call, ...effects] to the subscribers. */
  endCall(event: CallEvent): void {
    this.#currentCall = 0;
    if (this.callThread !== undefined) Object.assign(event, { thread: this.callThread });
    // The call event carries the earliest seq; the state already holds its effects, so only the cursor moves.
    if (event.t > this.state.time) this.state.time = event.t;
    if (this.state.seq < event.seq) this.state.seq = event.seq;
    this.#flush(event);
  }

  /** Hands the queued events, after `call` when given, to the subscribers as one fresh array; nothing is built for nobody. */
  #flush(call?: CallEvent): void {
    const effects = this.#effects;
    const batch: MemoryEvent[] | undefined =
      this.#listeners.size === 0 || (call === undefined && effects.length === 0)
        ? undefined
        : call === undefined
          ? [...effects]
          : [call, ...effects];
    // Emptied before the listeners run, so a listener that calls the runtime starts a clean batch.
    // (pop: a call has few effects, and assigning `length` is a slow path in V8.)
    while (effects.length > 0) effects.pop();
    if (batch === undefined) return;
    for (const listener of this.#listeners) listener(batch);
  }

  injectFailure(failure: FailureInjection): void {
    this.#failures.push(failure);
  }

  /** The injected failure that applies to this call, consumed. */
  takeFailure(fn: string): FailureInjection | undefined {
    if (this.#failures.length === 0) return undefined;
    const index = this.#failures.findIndex((f) => (f.nth === undefined || f.nth === this.#calls) && (f.fn === undefined || f.fn === fn));
    if (index === -1) return undefined;
    const [failure] = this.#failures.splice(index, 1);
    return failure;
  }

  /** Object ids are unique for the life of the host. */
  newId(): number {
    const id = this.#nextId;
    this.#nextId += 1;
    return id;
  }

  /** A fresh value for an opaque runtime object (stream, memory handle). */
  newOpaque(): number {
    const value = OPAQUE_BASE + this.#nextOpaque * OPAQUE_STRIDE;
    this.#nextOpaque += 1;
    return value;
  }

  newShareable(): number {
    const value = SHAREABLE_BASE + this.#nextShareable;
    this.#nextShareable += 1;
    return value;
  }
}
