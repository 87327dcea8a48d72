import { cloneHostState, encodeSnapshot, type HostState, type MemoryEvent, packSnapshot, reduce } from '@pagelens/core';

/**
 * How much history the agent holds for clients that join late. Events in JSON bytes, as sent; each
 * page also counts PAGE_OVERHEAD_BYTES, so many tiny pages cannot hold more memory than the cap says.
 * The event objects are held beside their JSON (for folding), about as much memory again.
 */
export interface HistoryCaps {
  /** Events held at most; past it the oldest pages are folded into the base state. */
  readonly events: number;
  /** JSON bytes held at most (pages' frames, overhead included). */
  readonly bytes: number;
  /** Events in one page at most. */
  readonly pageEvents: number;
  /** JSON bytes in one page at most (a single larger batch from the fan-out stays one page). */
  readonly pageBytes: number;
}

/**
 * 100,000 events or 32 MiB: thousands of interactive calls, a workshop's whole session. A fill of
 * 100,000 allocations (200,000 events) keeps its last half and a base state before it. The web keeps
 * 200,000 events (DEFAULT_HISTORY in apps/web), so a client holds everything the agent sends.
 */
export const DEFAULT_HISTORY_CAPS: HistoryCaps = {
  events: 100_000,
  bytes: 32 * 1024 * 1024,
  pageEvents: 2000,
  pageBytes: 256 * 1024,
};

/** What a page costs beside its frame's bytes (its record and the frame's own header), counted in the cap. */
export const PAGE_OVERHEAD_BYTES = 256;

/**
 * One sealed page of events `from`…`to`. Its `historyPage` message is made the first time a client
 * needs it, then shared by every client (a host nobody joins late costs no copying).
 */
export interface HistoryPage {
  readonly from: number;
  readonly to: number;
  readonly count: number;
  /** Call events among them (the UI numbers calls from the host's reset). */
  readonly calls: number;
  /** JSON bytes of its events, as the caps count them. */
  readonly bytes: number;
  /**
   * The events themselves (the backend made them; held here, not copied), so that folding a page
   * into the base costs its reduces only: parsing the JSON back cost six times as much.
   */
  readonly events: readonly MemoryEvent[];
  /** JSON arrays of events, as the fan-out made them; dropped once the frame is made. */
  arrays: string[] | undefined;
  frame: Buffer | undefined;
}

/** The page's `historyPage` message as bytes, made once. */
export function pageFrame(page: HistoryPage): Buffer {
  if (page.frame === undefined) {
    // Each array is "[…]"; their insides, joined by commas, are one array.
    const inner = (page.arrays ?? []).map((array) => array.slice(1, -1)).filter((part) => part !== '');
    page.frame = Buffer.from(`{"type":"historyPage","from":${page.from},"to":${page.to},"events":[${inner.join(',')}]}`);
    page.arrays = undefined;
  }
  return page.frame;
}

/** What a joining client is told: the base seq, the last seq, how many events and calls before. */
export interface HistoryPlan {
  readonly from: number;
  readonly to: number;
  readonly events: number;
  readonly callsBefore: number;
}

interface OpenPage {
  from: number;
  to: number;
  count: number;
  calls: number;
  /** JSON bytes of its arrays (their lengths: events are ASCII but for strings a client sent). */
  bytes: number;
  readonly arrays: string[];
  readonly events: MemoryEvent[];
}

/**
 * The current host's history since its last reset, for clients that join late (or reconnect): a base
 * state, then the events after it in sealed pages. Within the caps the base is the state right after
 * the reset; past them the oldest pages are folded into it (one page at a time, so a fold costs at
 * most one page of reduces) and `callsBefore` counts the calls folded away. Pages are serialized
 * once and sent as they are to every client.
 */
export class SessionHistory {
  readonly #caps: HistoryCaps;
  #base: HostState;
  #callsBefore = 0;
  #pages: HistoryPage[] = [];
  #open: OpenPage | undefined;
  #events = 0;
  #bytes = 0;
  #lastSeq: number;
  #baseTexts = new Map<boolean, Buffer>();
  /** Bumped by every reset: a client paging an older generation starts over. */
  generation = 0;

  constructor(state: HostState, caps: HistoryCaps = DEFAULT_HISTORY_CAPS) {
    this.#caps = caps;
    this.#base = cloneHostState(state);
    this.#lastSeq = state.seq;
  }

  /** A fresh host: forget everything; `state` (copied) is the new base. */
  reset(state: HostState): void {
    this.#base = cloneHostState(state);
    this.#baseTexts.clear();
    this.#callsBefore = 0;
    this.#pages = [];
    this.#open = undefined;
    this.#events = 0;
    this.#bytes = 0;
    this.#lastSeq = state.seq;
    this.generation += 1;
  }

  get lastSeq(): number {
    return this.#lastSeq;
  }

  get baseSeq(): number {
    return this.#base.seq;
  }

  /** Events and bytes held now (bytes as the caps count them). */
  get size(): { readonly events: number; readonly bytes: number; readonly pages: number } {
    return { events: this.#events, bytes: this.#bytes, pages: this.#pages.length + (this.#open === undefined ? 0 : 1) };
  }

  /**
   * Consecutive events after the last held, with their JSON array (made once by the fan-out for the
   * clients and the journal). A batch that does not come after the last held is of a host being
   * replaced (sent while a reset was under way; the reset then clears the history) and is left out.
   */
  record(events: readonly MemoryEvent[], array: string): void {
    const first = events[0];
    const last = events[events.length - 1];
    if (first === undefined || last === undefined) return;
    if (first.seq <= this.#lastSeq) return;
    let calls = 0;
    for (const event of events) if (event.kind === 'call') calls += 1;
    const open = this.#open;
    if (open !== undefined && (open.count + events.length > this.#caps.pageEvents || open.bytes + array.length > this.#caps.pageBytes)) {
      this.#seal();
    }
    const page = this.#open ?? { from: first.seq, to: first.seq, count: 0, calls: 0, bytes: 0, arrays: [], events: [] };
    this.#open = page;
    page.to = last.seq;
    page.count += events.length;
    page.calls += calls;
    page.bytes += array.length;
    page.arrays.push(array);
    for (const event of events) page.events.push(event);
    this.#events += events.length;
    this.#bytes += array.length;
    this.#lastSeq = last.seq;
    this.#fit();
  }

  #seal(): void {
    const open = this.#open;
    if (open === undefined) return;
    this.#open = undefined;
    this.#bytes += PAGE_OVERHEAD_BYTES;
    this.#pages.push({ ...open, frame: undefined });
  }

  /** Folds the oldest pages into the base until the caps hold. */
  #fit(): void {
    while (this.#events > this.#caps.events || this.#bytes > this.#caps.bytes) {
      if (this.#pages.length === 0) this.#seal();
      const page = this.#pages.shift();
      if (page === undefined) return;
      for (const event of page.events) reduce(this.#base, event);
      this.#baseTexts.clear();
      this.#callsBefore += page.calls;
      this.#events -= page.count;
      this.#bytes -= page.bytes + PAGE_OVERHEAD_BYTES;
    }
  }

  /** What a client joining now gets; seals the open page so every event held is in a shared page. */
  plan(): HistoryPlan {
    this.#seal();
    return { from: this.#base.seq, to: this.#lastSeq, events: this.#events, callsBefore: this.#callsBefore };
  }

  /**
   * The page that starts right after `seq`, where a client that has everything up to `seq` goes on;
   * undefined when there is none yet, or when a fold took it (`seq` is before the base).
   */
  pageAfter(seq: number): HistoryPage | undefined {
    if (seq < this.#base.seq) return undefined;
    const pages = this.#pages;
    let low = 0;
    let high = pages.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((pages[mid]?.to ?? 0) <= seq) low = mid + 1;
      else high = mid;
    }
    return pages[low];
  }

  /** The `historyBase` message for the base held now, made once per base and form. */
  baseFrame(packed: boolean): Buffer {
    let frame = this.#baseTexts.get(packed);
    if (frame === undefined) {
      const snapshot = encodeSnapshot(this.#base);
      const seq = this.#base.seq;
      frame = Buffer.from(
        JSON.stringify(packed ? { type: 'historyBase', seq, packed: packSnapshot(snapshot) } : { type: 'historyBase', seq, snapshot }),
      );
      this.#baseTexts.set(packed, frame);
    }
    return frame;
  }
}
