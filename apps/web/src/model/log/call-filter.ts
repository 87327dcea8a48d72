import { type CallEvent, errorName, type MemoryEvent } from '@pagelens/core';
import { callSignature } from './arg-format.ts';
import { lastAtOrBefore } from './effects.ts';
import { droppedCalls, type SeenHistory } from './history-shift.ts';

/** What the log shows: one function or all, successes/failures/one error code, and free text. */
export interface CallFilter {
  /** '' for every function. */
  readonly fn: string;
  /** 'all', 'ok', 'error', or one error name such as 'ACL_ERROR_RT_MEMORY_ALLOCATION'. */
  readonly result: string;
  readonly text: string;
  /** One process's calls only (the processes panel's filter); absent for every process. */
  readonly pid?: number;
  /** An imported session's stack filter: its text, and the seqs of the calls of the blocks whose stack holds it. */
  readonly stack?: { readonly text: string; readonly seqs: ReadonlySet<number> };
}

export const NO_FILTER: CallFilter = { fn: '', result: 'all', text: '' };

export function isFiltering(filter: CallFilter): boolean {
  return filter.fn !== '' || filter.result !== 'all' || filter.text.trim() !== '' || filter.pid !== undefined || filter.stack !== undefined;
}

const searchTexts = new WeakMap<CallEvent, string>();

/**
 * Everything free text can match in a call, lower-cased once per event (events never change):
 * what the row shows (enum names, sizes with units) and the raw values (numbers, hex pointers).
 */
export function searchText(call: CallEvent): string {
  const cached = searchTexts.get(call);
  if (cached !== undefined) return cached;
  const rules = (call.reasons ?? []).flatMap((reason) => reason.rules).join(' ');
  const text = [
    call.seq,
    callSignature(call, { units: 'binary', addresses: 'hex' }),
    errorName(call.ret),
    call.ret,
    call.message ?? '',
    rules,
    JSON.stringify(call.args),
    call.out === undefined ? '' : JSON.stringify(call.out),
  ]
    .join(' ')
    .toLowerCase();
  searchTexts.set(call, text);
  return text;
}

export function matchesFilter(call: CallEvent, filter: CallFilter): boolean {
  if (filter.pid !== undefined && call.pid !== filter.pid) return false;
  if (filter.stack !== undefined && !filter.stack.seqs.has(call.seq)) return false;
  if (filter.fn !== '' && call.fn !== filter.fn) return false;
  if (filter.result === 'ok' && call.ret !== 0) return false;
  if (filter.result === 'error' && call.ret === 0) return false;
  if (filter.result !== 'all' && filter.result !== 'ok' && filter.result !== 'error' && errorName(call.ret) !== filter.result) return false;
  const words = filter.text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = searchText(call);
  return words.every((word) => haystack.includes(word));
}

/** Seq sets get an id each, so a new set (a new file, or new text) is a new filter. */
const setIds = new WeakMap<ReadonlySet<number>, number>();
let lastSetId = 0;
function setId(seqs: ReadonlySet<number>): number {
  let id = setIds.get(seqs);
  if (id === undefined) {
    lastSetId += 1;
    id = lastSetId;
    setIds.set(seqs, id);
  }
  return id;
}

function filterKey(filter: CallFilter): string {
  const stack = filter.stack === undefined ? '' : String(setId(filter.stack.seqs));
  return `${filter.fn}\u0000${filter.result}\u0000${filter.pid ?? ''}\u0000${stack}\u0000${filter.text.trim().toLowerCase()}`;
}

/**
 * The positions (into `calls`) that pass a filter, kept up to date incrementally: while only new
 * calls arrive it looks at the new ones alone, so a live log of 100,000 calls stays cheap. When the
 * timeline folds its oldest events away (new arrays, same events) the positions shift instead of
 * being recomputed. A new filter, or a history that was replaced, starts over.
 */
export class FilteredCalls {
  #key = '';
  #seen: SeenHistory = { events: [], calls: [] };
  #scanned = 0;
  #positions: number[] = [];
  /** Bumped whenever the list changes, for React memo keys. */
  revision = 0;

  update(events: readonly MemoryEvent[], calls: readonly number[], filter: CallFilter): readonly number[] {
    const key = filterKey(filter);
    const next = { events, calls };
    const dropped = events === this.#seen.events ? 0 : droppedCalls(this.#seen, next, this.#scanned);
    if (key !== this.#key || dropped === undefined || calls.length < this.#scanned - dropped) {
      this.#key = key;
      this.#scanned = 0;
      this.#positions = [];
      this.revision += 1;
    } else if (dropped > 0) {
      const kept = lastAtOrBefore(this.#positions, dropped - 1) + 1;
      this.#positions = this.#positions.slice(kept).map((position) => position - dropped);
      this.#scanned = Math.max(0, this.#scanned - dropped);
      this.revision += 1;
    }
    this.#seen = next;
    const before = this.#positions.length;
    const everything = !isFiltering(filter);
    for (let position = this.#scanned; position < calls.length; position += 1) {
      const event = events[calls[position] ?? -1];
      if (event?.kind !== 'call') continue;
      if (everything || matchesFilter(event, filter)) this.#positions.push(position);
    }
    this.#scanned = calls.length;
    if (this.#positions.length !== before) this.revision += 1;
    return this.#positions;
  }
}

/**
 * The functions and error names that occur among the calls held, for the filter menus (sorted,
 * each once). Kept incrementally like `FilteredCalls`: only new calls are looked at, and the calls
 * a fold drops are taken off (names are counted, so one disappears with its last call); the lists
 * change identity only when a name appears or disappears.
 */
export class CallChoices {
  #seen: SeenHistory = { events: [], calls: [] };
  #scanned = 0;
  #fns = new Map<string, number>();
  #errors = new Map<string, number>();
  #result: { fns: readonly string[]; errors: readonly string[] } = { fns: [], errors: [] };

  update(
    events: readonly MemoryEvent[],
    calls: readonly number[],
  ): { readonly fns: readonly string[]; readonly errors: readonly string[] } {
    const next = { events, calls };
    const dropped = events === this.#seen.events ? 0 : droppedCalls(this.#seen, next, this.#scanned);
    let changed = false;
    if (dropped === undefined || calls.length < this.#scanned - dropped) {
      this.#scanned = 0;
      changed = this.#fns.size > 0 || this.#errors.size > 0;
      this.#fns = new Map();
      this.#errors = new Map();
    } else if (dropped > 0) {
      const { events: before, calls: beforeCalls } = this.#seen;
      for (let position = 0; position < Math.min(dropped, this.#scanned); position += 1) {
        const event = before[beforeCalls[position] ?? -1];
        if (event?.kind !== 'call') continue;
        changed = uncount(this.#fns, event.fn) || changed;
        if (event.ret !== 0) changed = uncount(this.#errors, errorName(event.ret)) || changed;
      }
      this.#scanned = Math.max(0, this.#scanned - dropped);
    }
    this.#seen = next;
    for (let position = this.#scanned; position < calls.length; position += 1) {
      const event = events[calls[position] ?? -1];
      if (event?.kind !== 'call') continue;
      changed = count(this.#fns, event.fn) || changed;
      if (event.ret !== 0) changed = count(this.#errors, errorName(event.ret)) || changed;
    }
    this.#scanned = calls.length;
    if (changed) this.#result = { fns: [...this.#fns.keys()].sort(), errors: [...this.#errors.keys()].sort() };
    return this.#result;
  }
}

/** Counts one more `name`; true when it is new. */
function count(counts: Map<string, number>, name: string): boolean {
  const before = counts.get(name) ?? 0;
  counts.set(name, before + 1);
  return before === 0;
}

/** Counts one `name` fewer; true when that was its last. */
function uncount(counts: Map<string, number>, name: string): boolean {
  const after = (counts.get(name) ?? 0) - 1;
  if (after > 0) {
    counts.set(name, after);
    return false;
  }
  counts.delete(name);
  return true;
}
