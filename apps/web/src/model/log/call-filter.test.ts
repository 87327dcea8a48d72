import type { CallEvent, MemoryEvent } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { CallChoices, FilteredCalls, isFiltering, matchesFilter, NO_FILTER } from './call-filter.ts';

let seq = 0;
function call(fn: string, args: Record<string, unknown>, ret = 0, message?: string): CallEvent {
  seq += 1;
  return {
    kind: 'call',
    seq,
    t: 0,
    provenance: 'simulated',
    pid: 1,
    fn,
    args,
    ret,
    durationNs: 0,
    ...(message === undefined ? {} : { message }),
  };
}

const malloc = call('aclrtMalloc', { size: 2 * 1024 * 1024, policy: 2 });
const failed = call('aclrtMalloc', { size: 0, policy: 1 }, 100000, 'size must be greater than 0 (DM-2)');
const oom = call('aclrtMalloc', { size: 1 << 30, policy: 1 }, 207001, 'not enough huge pages');
const free = call('aclrtFree', { devPtr: '0x100000000000' });

describe('matchesFilter', () => {
  it('filters by function, by success or failure and by one error name', () => {
    expect(matchesFilter(free, { ...NO_FILTER, fn: 'aclrtMalloc' })).toBe(false);
    expect(matchesFilter(malloc, { ...NO_FILTER, fn: 'aclrtMalloc' })).toBe(true);
    expect(matchesFilter(malloc, { ...NO_FILTER, result: 'error' })).toBe(false);
    expect(matchesFilter(failed, { ...NO_FILTER, result: 'error' })).toBe(true);
    expect(matchesFilter(failed, { ...NO_FILTER, result: 'ok' })).toBe(false);
    expect(matchesFilter(oom, { ...NO_FILTER, result: 'ACL_ERROR_RT_MEMORY_ALLOCATION' })).toBe(true);
    expect(matchesFilter(failed, { ...NO_FILTER, result: 'ACL_ERROR_RT_MEMORY_ALLOCATION' })).toBe(false);
  });

  it('matches every word of the text against what the row shows and the raw values', () => {
    expect(matchesFilter(malloc, { ...NO_FILTER, text: 'normal_only' })).toBe(true);
    expect(matchesFilter(malloc, { ...NO_FILTER, text: '2 mib' })).toBe(true);
    expect(matchesFilter(failed, { ...NO_FILTER, text: 'DM-2 greater' })).toBe(true);
    expect(matchesFilter(failed, { ...NO_FILTER, text: 'DM-2 huge_first' })).toBe(false);
    expect(matchesFilter(free, { ...NO_FILTER, text: '0x100000000000' })).toBe(true);
    expect(matchesFilter(oom, { ...NO_FILTER, text: '207001' })).toBe(true);
  });

  it('keeps one process’s calls (the processes panel’s filter)', () => {
    const other: CallEvent = { ...malloc, seq: 99, pid: 2 };
    expect(matchesFilter(other, { ...NO_FILTER, pid: 2 })).toBe(true);
    expect(matchesFilter(malloc, { ...NO_FILTER, pid: 2 })).toBe(false);
    expect(isFiltering({ ...NO_FILTER, pid: 2 })).toBe(true);
  });

  it('keeps only the seqs of an imported session’s stack filter', () => {
    const stack = { text: 'forward', seqs: new Set([malloc.seq]) };
    expect(matchesFilter(malloc, { ...NO_FILTER, stack })).toBe(true);
    expect(matchesFilter(free, { ...NO_FILTER, stack })).toBe(false);
    expect(isFiltering({ ...NO_FILTER, stack })).toBe(true);
    // A new set is a new filter: FilteredCalls starts over rather than keeping the old positions.
    const events = [malloc, free];
    const filtered = new FilteredCalls();
    expect(filtered.update(events, [0, 1], { ...NO_FILTER, stack })).toEqual([0]);
    expect(filtered.update(events, [0, 1], { ...NO_FILTER, stack: { text: 'forward', seqs: new Set([free.seq]) } })).toEqual([1]);
  });

  it('knows when nothing is filtered', () => {
    expect(isFiltering(NO_FILTER)).toBe(false);
    expect(isFiltering({ ...NO_FILTER, text: '  ' })).toBe(false);
    expect(isFiltering({ ...NO_FILTER, result: 'ok' })).toBe(true);
  });
});

describe('FilteredCalls', () => {
  const process: MemoryEvent = { kind: 'process', seq: 100, t: 0, provenance: 'simulated', pid: 1, name: 'app' };
  const events: MemoryEvent[] = [process, malloc, failed, oom, free];
  const calls = [1, 2, 3, 4];

  it('keeps the matching positions and looks only at new calls as they arrive', () => {
    const filtered = new FilteredCalls();
    const errors = { ...NO_FILTER, result: 'error' };
    expect([...filtered.update(events, calls.slice(0, 2), errors)]).toEqual([1]);
    const revision = filtered.revision;
    expect([...filtered.update(events, calls, errors)]).toEqual([1, 2]);
    expect(filtered.revision).toBeGreaterThan(revision);
    expect([...filtered.update(events, calls, NO_FILTER)]).toEqual([0, 1, 2, 3]);
  });

  it('starts over when the history is replaced', () => {
    const filtered = new FilteredCalls();
    expect(filtered.update(events, calls, NO_FILTER)).toHaveLength(4);
    const replaced: MemoryEvent[] = [free];
    expect([...filtered.update(replaced, [0], NO_FILTER)]).toEqual([0]);
  });
});

describe('CallChoices', () => {
  it('lists functions and error names once, sorted, changing identity only when a new one appears', () => {
    const choices = new CallChoices();
    const events: MemoryEvent[] = [malloc, free, failed, oom];
    const first = choices.update(events, [0, 1]);
    expect(first).toEqual({ fns: ['aclrtFree', 'aclrtMalloc'], errors: [] });
    expect(choices.update(events, [0, 1])).toBe(first);
    expect(choices.update(events, [0, 1, 2, 3]).errors).toEqual(['ACL_ERROR_INVALID_PARAM', 'ACL_ERROR_RT_MEMORY_ALLOCATION']);
  });
});
