import { cloneHostState, decodeSnapshot, type HostState, type MemoryEvent, reduce, type Snapshot } from '@pagelens/core';

/** How far apart the cached replay checkpoints are, in events. */
export const CHECKPOINT_EVERY = 5000;
const MAX_CHECKPOINTS = 40;

/** The object ids an event is about (for an object's story). */
function idsOf(event: MemoryEvent): number[] {
  switch (event.kind) {
    case 'alloc':
    case 'free':
    case 'physAlloc':
    case 'physFree':
    case 'physRelease':
    case 'reserve':
    case 'release':
    case 'unmap':
    case 'setAccess':
    case 'hostAlloc':
    case 'hostFree':
    case 'hostRegister':
    case 'hostUnregister':
    case 'streamCreate':
    case 'streamDestroy':
    case 'export':
      return [event.id];
    case 'map':
      return [event.id, event.reservation, event.handle];
    case 'import':
      return [event.id, event.source];
    case 'copy':
      return event.stream === undefined ? [event.id] : [event.id, event.stream];
    default:
      return [];
  }
}

/**
 * The client's whole picture of a host: a base snapshot, every event after it, the live state, and
 * the state at any earlier seq for time travel. Live events cost one reduce each; going back in
 * time replays from the nearest cached checkpoint, and the checkpoints are made while replaying,
 * so scrubbing back and forth stays cheap without slowing the live stream.
 */
export class Timeline {
  #base: Snapshot;
  #events: MemoryEvent[] = [];
  #live: HostState;
  #checkpoints: { index: number; state: HostState }[] = [];
  #cursor: { seq: number; state: HostState } | undefined;
  readonly #byObject = new Map<number, number[]>();
  readonly #bySeq = new Map<number, number>();
  #calls: number[] = [];

  constructor(snapshot: Snapshot) {
    this.#base = snapshot;
    this.#live = decodeSnapshot(snapshot);
  }

  /** Forget everything: the host was replaced (or the client resynced). */
  reset(snapshot: Snapshot): void {
    this.#base = snapshot;
    this.#live = decodeSnapshot(snapshot);
    this.#events = [];
    this.#checkpoints = [];
    this.#cursor = undefined;
    this.#byObject.clear();
    this.#bySeq.clear();
    this.#calls = [];
  }

  get live(): HostState {
    return this.#live;
  }

  get firstSeq(): number {
    return this.#base.seq;
  }

  get lastSeq(): number {
    return this.#live.seq;
  }

  get events(): readonly MemoryEvent[] {
    return this.#events;
  }

  /** Indices (into `events`) of the call events, oldest first. */
  get calls(): readonly number[] {
    return this.#calls;
  }

  /** Applies new events (older or repeated seqs are ignored); returns how many were new. */
  append(events: readonly MemoryEvent[]): number {
    let added = 0;
    for (const event of events) {
      if (event.seq <= this.#live.seq) continue;
      reduce(this.#live, event);
      const index = this.#events.length;
      this.#events.push(event);
      this.#bySeq.set(event.seq, index);
      if (event.kind === 'call') this.#calls.push(index);
      for (const id of idsOf(event)) {
        const list = this.#byObject.get(id);
        if (list === undefined) this.#byObject.set(id, [index]);
        else list.push(index);
      }
      added += 1;
    }
    return added;
  }

  eventAtSeq(seq: number): MemoryEvent | undefined {
    const index = this.#bySeq.get(seq);
    return index === undefined ? undefined : this.#events[index];
  }

  /** Every event about object `id`, and the calls that caused them, in order. */
  story(id: number): MemoryEvent[] {
    const indices = this.#byObject.get(id) ?? [];
    const seen = new Set<number>();
    const story: MemoryEvent[] = [];
    for (const index of indices) {
      const event = this.#events[index];
      if (event === undefined) continue;
      const call = event.call === undefined ? undefined : this.eventAtSeq(event.call);
      if (call !== undefined && !seen.has(call.seq)) {
        seen.add(call.seq);
        story.push(call);
      }
      if (!seen.has(event.seq)) {
        seen.add(event.seq);
        story.push(event);
      }
    }
    return story;
  }

  /** The state right after event `seq` (clamped to the history held). Do not mutate the result. */
  stateAt(seq: number): HostState {
    if (seq >= this.#live.seq) return this.#live;
    const target = Math.max(seq, this.#base.seq);
    if (this.#cursor?.seq === target) return this.#cursor.state;
    // Events up to `end` (exclusive) are applied at target.
    let end = 0;
    let low = 0;
    let high = this.#events.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.#events[mid]?.seq ?? 0) <= target) low = mid + 1;
      else high = mid;
    }
    end = low;
    let start = 0;
    let state: HostState | undefined;
    for (const checkpoint of this.#checkpoints) {
      if (checkpoint.index <= end && checkpoint.index >= start) {
        start = checkpoint.index;
        state = checkpoint.state;
      }
    }
    if (this.#cursor !== undefined) {
      const cursorEnd = this.#bySeq.get(this.#cursor.seq);
      const cursorIndex = cursorEnd === undefined ? -1 : cursorEnd + 1;
      if (cursorIndex >= start && cursorIndex <= end && this.#cursor.seq <= target) {
        start = cursorIndex;
        state = this.#cursor.state;
      }
    }
    const working = state === undefined ? decodeSnapshot(this.#base) : cloneHostState(state);
    for (let index = start; index < end; index += 1) {
      const event = this.#events[index];
      if (event === undefined) continue;
      reduce(working, event);
      const next = index + 1;
      if (next % CHECKPOINT_EVERY === 0 && !this.#checkpoints.some((c) => c.index === next)) {
        this.#checkpoints.push({ index: next, state: cloneHostState(working) });
        if (this.#checkpoints.length > MAX_CHECKPOINTS) this.#checkpoints.shift();
      }
    }
    working.seq = target;
    this.#cursor = { seq: target, state: working };
    return working;
  }
}
