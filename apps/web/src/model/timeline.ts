import { cloneHostState, decodeSnapshot, type HostState, type MemoryEvent, reduce, type Snapshot } from '@pagelens/core';
import { StoryIndex } from './timeline-index.ts';

/** The longest array V8 makes in fast elements when given its length. */
const FAST_ARRAY_LENGTH = 32 * 1024 * 1024;

/** How far apart the cached replay checkpoints are, in events. */
export const CHECKPOINT_EVERY = 5000;
const MAX_CHECKPOINTS = 40;

/** Options for the history a timeline keeps (the defaults suit a browser tab; tests use small ones). */
export interface HistoryLimits {
  /** Events kept for time travel; older ones are folded into the base state. */
  readonly keep: number;
  /** Events past `keep` before folding, so that folding happens in batches rather than per event. */
  readonly slack: number;
  /**
   * A recording appended whole (an imported file): keep the state after every this many events as
   * it is appended, for good (keyframes), so a jump anywhere replays at most this many events. The
   * replay checkpoints are only made where replays pass and at most MAX_CHECKPOINTS are kept: the
   * first step back from the end of a 10 M-event file replayed all of it (0.6 s).
   */
  readonly keyframeEvery?: number;
}

/**
 * 200,000–250,000 events: hours of interactive use, or a fill of 100,000 allocations, in roughly
 * 60 MB. A sustained stream (200,000 events/s) would otherwise grow the tab without bound, and a
 * larger history costs the garbage collector time on every major collection.
 */
export const DEFAULT_HISTORY: HistoryLimits = { keep: 200_000, slack: 50_000 };

/** The first position in ascending `values` holding a value ≥ `value`. */
function lowerBound(values: readonly number[], value: number): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if ((values[mid] ?? 0) < value) low = mid + 1;
    else high = mid;
  }
  return low;
}

type Base = { readonly seq: number; readonly snapshot: Snapshot } | { readonly seq: number; readonly state: HostState };

/**
 * The client's whole picture of a host: a base state, the events after it, the live state, and the
 * state at any earlier seq for time travel. Live events cost one reduce each; going back in time
 * replays from the nearest cached checkpoint (checkpoints are made while replaying, so scrubbing stays
 * cheap without slowing the live stream). Past `history.keep + history.slack` events the oldest
 * `slack` are folded into the base state, so memory stays bounded however long the stream runs.
 */
export class Timeline {
  readonly #history: HistoryLimits;
  /** The state before the first held event: decoded from the snapshot only when first needed. */
  #base: Base;
  #events: MemoryEvent[] = [];
  #live: HostState;
  #checkpoints: { index: number; state: HostState }[] = [];
  /** States kept while appending (HistoryLimits.keyframeEvery), by index, ascending. */
  #keyframes: { index: number; state: HostState }[] = [];
  #lastReplay = 0;
  #cursor: { seq: number; state: HostState } | undefined;
  readonly #stories = new StoryIndex();
  /** Events dropped from the front so far: an event's ordinal is its index plus this. */
  #dropped = 0;
  #calls: number[] = [];
  /**
   * Calls of this host (since its last reset) before the first held event: the agent's history cap
   * (told in its `history` message) and this timeline's own folds. The first call held is call
   * `callsBefore + 1`.
   */
  callsBefore = 0;

  constructor(snapshot: Snapshot, history: HistoryLimits = DEFAULT_HISTORY) {
    this.#history = history;
    this.#base = { seq: snapshot.seq, snapshot };
    this.#live = decodeSnapshot(snapshot);
  }

  /** Forget everything: the host was replaced (or the client resynced). */
  reset(snapshot: Snapshot): void {
    this.#base = { seq: snapshot.seq, snapshot };
    this.#live = decodeSnapshot(snapshot);
    this.#events = [];
    this.#checkpoints = [];
    this.#keyframes = [];
    this.#cursor = undefined;
    this.#stories.clear();
    this.#dropped = 0;
    this.#calls = [];
    this.callsBefore = 0;
  }

  get live(): HostState {
    return this.#live;
  }

  /** The oldest seq time travel can reach. */
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
      if (event.kind === 'call') this.#calls.push(index);
      added += 1;
      const every = this.#history.keyframeEvery;
      if (every !== undefined && (index + 1) % every === 0) this.#keyframes.push({ index: index + 1, state: cloneHostState(this.#live) });
    }
    if (this.#events.length >= this.#history.keep + this.#history.slack) this.#fold(this.#events.length - this.#history.keep);
    return added;
  }

  /**
   * A whole recording, appended to a timeline that holds no events yet: `events` (in seq order) is
   * kept as it is, not copied, and the calls' indices are made at their count. The caller hands the
   * array over and must not change it. At 10 M events the copy and the pushed-to indices were some
   * 100 MB more of the page's heap while a file opened. Falls back to `append` otherwise.
   */
  appendRecording(events: MemoryEvent[]): number {
    const ordered = events.every((event, i) => event.seq > (i === 0 ? this.#live.seq : (events[i - 1]?.seq ?? 0)));
    if (this.#events.length > 0 || !ordered) return this.append(events);
    let calls = 0;
    for (const event of events) if (event.kind === 'call') calls += 1;
    // Made at its length (V8 keeps an array made so in fast elements up to 32 Mi of them).
    const callIndices = calls <= FAST_ARRAY_LENGTH ? new Array<number>(calls) : [];
    let call = 0;
    const every = this.#history.keyframeEvery;
    events.forEach((event, index) => {
      reduce(this.#live, event);
      if (event.kind === 'call') {
        callIndices[call] = index;
        call += 1;
      }
      if (every !== undefined && (index + 1) % every === 0) this.#keyframes.push({ index: index + 1, state: cloneHostState(this.#live) });
    });
    this.#events = events;
    this.#calls = callIndices;
    if (this.#events.length >= this.#history.keep + this.#history.slack) this.#fold(this.#events.length - this.#history.keep);
    return events.length;
  }

  /**
   * Moves the oldest `count` events into the base state and shifts the indices kept by `count`. Costs
   * one reduce per event moved, plus copying the indices of the events and calls still held.
   */
  #fold(count: number): void {
    const base = this.#baseState();
    for (let index = 0; index < count; index += 1) {
      const event = this.#events[index];
      if (event === undefined) continue;
      reduce(base, event);
    }
    this.#base = { seq: base.seq, state: base };
    this.#events = this.#events.slice(count);
    this.#dropped += count;
    const firstCall = lowerBound(this.#calls, count);
    this.callsBefore += firstCall;
    this.#calls = this.#calls.slice(firstCall).map((index) => index - count);
    this.#checkpoints = this.#checkpoints.filter((c) => c.index > count).map((c) => ({ index: c.index - count, state: c.state }));
    this.#keyframes = this.#keyframes.filter((k) => k.index > count).map((k) => ({ index: k.index - count, state: k.state }));
    if (this.#cursor !== undefined && this.#cursor.seq < base.seq) this.#cursor = undefined;
  }

  /** The base state, decoded from the snapshot the first time it is needed. Never handed out. */
  #baseState(): HostState {
    if ('state' in this.#base) return this.#base.state;
    const state = decodeSnapshot(this.#base.snapshot);
    this.#base = { seq: this.#base.seq, state };
    return state;
  }

  /** Index in `events` of the event with this seq, if held. Events are held in seq order. */
  #indexOfSeq(seq: number): number | undefined {
    const index = this.#countUpTo(seq) - 1;
    return this.#events[index]?.seq === seq ? index : undefined;
  }

  /** How many held events have a seq ≤ `seq`. */
  #countUpTo(seq: number): number {
    let low = 0;
    let high = this.#events.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.#events[mid]?.seq ?? 0) <= seq) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  eventAtSeq(seq: number): MemoryEvent | undefined {
    const index = this.#indexOfSeq(seq);
    return index === undefined ? undefined : this.#events[index];
  }

  /** Every event about object `id`, and the calls that caused them, in order. */
  story(id: number): MemoryEvent[] {
    const seen = new Set<number>();
    const story: MemoryEvent[] = [];
    for (const ordinal of this.#stories.ordinalsOf(id, this.#events, this.#dropped)) {
      const event = this.#events[ordinal - this.#dropped];
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
    const end = this.#countUpTo(target);
    let start = 0;
    let state: HostState | undefined;
    for (const kept of [this.#keyframes, this.#checkpoints])
      for (const checkpoint of kept) {
        if (checkpoint.index <= end && checkpoint.index >= start) {
          start = checkpoint.index;
          state = checkpoint.state;
        }
      }
    if (this.#cursor !== undefined) {
      const cursorEnd = this.#indexOfSeq(this.#cursor.seq);
      const cursorIndex = cursorEnd === undefined ? -1 : cursorEnd + 1;
      if (cursorIndex >= start && cursorIndex <= end && this.#cursor.seq <= target) {
        start = cursorIndex;
        state = this.#cursor.state;
      }
    }
    const working = cloneHostState(state ?? this.#baseState());
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
    this.#lastReplay = end - start;
    return working;
  }

  /** Events the last replaying stateAt reduced (what a jump cost). */
  get lastReplay(): number {
    return this.#lastReplay;
  }
}
