import { type CallEvent, errorName, type MemoryEvent } from '@pagelens/core';
import { callSignature } from './arg-format.ts';

/** What the log shows: one function or all, successes/failures/one error code, and free text. */
export interface CallFilter {
  /** '' for every function. */
  readonly fn: string;
  /** 'all', 'ok', 'error', or one error name such as 'ACL_ERROR_RT_MEMORY_ALLOCATION'. */
  readonly result: string;
  readonly text: string;
}

export const NO_FILTER: CallFilter = { fn: '', result: 'all', text: '' };

export function isFiltering(filter: CallFilter): boolean {
  return filter.fn !== '' || filter.result !== 'all' || filter.text.trim() !== '';
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
  if (filter.fn !== '' && call.fn !== filter.fn) return false;
  if (filter.result === 'ok' && call.ret !== 0) return false;
  if (filter.result === 'error' && call.ret === 0) return false;
  if (filter.result !== 'all' && filter.result !== 'ok' && filter.result !== 'error' && errorName(call.ret) !== filter.result) return false;
  const words = filter.text.trim().toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = searchText(call);
  return words.every((word) => haystack.includes(word));
}

function filterKey(filter: CallFilter): string {
  return `${filter.fn}\u0000${filter.result}\u0000${filter.text.trim().toLowerCase()}`;
}

/**
 * The positions (into `calls`) that pass a filter, kept up to date incrementally: while only new
 * calls arrive it looks at the new ones alone, so a live log of 100,000 calls stays cheap. A new
 * filter, or a history that was replaced (another `events` array), starts over.
 */
export class FilteredCalls {
  #key = '';
  #events: readonly MemoryEvent[] | undefined;
  #scanned = 0;
  #positions: number[] = [];
  /** Bumped whenever the list changes, for React memo keys. */
  revision = 0;

  update(events: readonly MemoryEvent[], calls: readonly number[], filter: CallFilter): readonly number[] {
    const key = filterKey(filter);
    if (key !== this.#key || events !== this.#events || calls.length < this.#scanned) {
      this.#key = key;
      this.#events = events;
      this.#scanned = 0;
      this.#positions = [];
      this.revision += 1;
    }
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
 * The functions and error names that occur, for the filter menus (sorted, each once). Kept
 * incrementally like `FilteredCalls`: only new calls are looked at; the lists change identity
 * only when a new name appears.
 */
export class CallChoices {
  #events: readonly MemoryEvent[] | undefined;
  #scanned = 0;
  #fns = new Set<string>();
  #errors = new Set<string>();
  #result: { fns: readonly string[]; errors: readonly string[] } = { fns: [], errors: [] };

  update(
    events: readonly MemoryEvent[],
    calls: readonly number[],
  ): { readonly fns: readonly string[]; readonly errors: readonly string[] } {
    if (events !== this.#events || calls.length < this.#scanned) {
      this.#events = events;
      this.#scanned = 0;
      this.#fns = new Set();
      this.#errors = new Set();
      this.#result = { fns: [], errors: [] };
    }
    let changed = false;
    for (let position = this.#scanned; position < calls.length; position += 1) {
      const event = events[calls[position] ?? -1];
      if (event?.kind !== 'call') continue;
      if (!this.#fns.has(event.fn)) {
        this.#fns.add(event.fn);
        changed = true;
      }
      const error = event.ret === 0 ? undefined : errorName(event.ret);
      if (error !== undefined && !this.#errors.has(error)) {
        this.#errors.add(error);
        changed = true;
      }
    }
    this.#scanned = calls.length;
    if (changed) this.#result = { fns: [...this.#fns].sort(), errors: [...this.#errors].sort() };
    return this.#result;
  }
}
