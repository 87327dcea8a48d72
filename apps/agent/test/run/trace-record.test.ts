import { ASCEND_910B2, type CallEvent, type MemoryEvent, SimHost } from '@pagelens/core';
import { describe, expect, it } from 'vitest';
import { formatTraceSummary } from '../../src/run/check-summary.ts';
import { TraceEvents } from '../../src/run/trace-events.ts';
import { MAX_KEPT_ERRORS, MAX_RECORD_CHARS, TraceRecord } from '../../src/run/trace-record.ts';

/*
 * Trace records as the interposer writes them ("T fn tid ret start duration site words…", words
 * in 0x hex), fed to the agent's decoder directly: hostile ones are refused whole under a code,
 * and counts of 2^53 or more stay exact. No program, no double: the records are written here.
 */

const hex = (value: bigint) => `0x${value.toString(16)}`;
const T = (fn: string, words: readonly (bigint | string)[], { tid = 77, ret = 0 } = {}) =>
  ['T', fn, tid, ret, 1000, 250, '0x401000', ...words.map((word) => (typeof word === 'bigint' ? hex(word) : word))].join(' ');

/** A simulator host with one traced process, its events collected. */
function traced() {
  const host = new SimHost({ devices: [ASCEND_910B2, ASCEND_910B2] });
  const pid = host.addProcess('traced');
  const events: MemoryEvent[] = [];
  host.subscribe((batch) => events.push(...batch));
  const observer = new TraceEvents({ simHost: host }, pid);
  const record = new TraceRecord((call, fn) => observer.record(call, fn));
  const calls = () => events.filter((event): event is CallEvent => event.kind === 'call');
  return { host, pid, events, record, calls, observer };
}

describe('trace records', () => {
  it.each([
    ['a line past the bound', `${T('aclrtGetDevice', [0n])} ${'9'.repeat(MAX_RECORD_CHARS)}`, 'record-too-long'],
    ['a kind that is neither T nor D', 'X aclrtMalloc 1 0 0 0 0x0', 'unknown-kind'],
    ['a function outside the catalogue', T('cudaMalloc', [0n, 1n]), 'unknown-function'],
    ['a function name made to look like one', T('aclrtMalloc\u0000', [0n, 1n, 0n]), 'unknown-function'],
    ['more words than the function has', T('aclrtSetDevice', [0n, 1n, 2n]), 'word-count'],
    ['too few fields', 'T aclrtSetDevice 77 0 1000', 'word-count'],
    ['a D record with two counts', 'D 1 2', 'word-count'],
    ['a word that is not a number', T('aclrtSetDevice', ['0xZZ']), 'not-a-number'],
    ['a word past 64 bits', T('aclrtSetDevice', ['0x10000000000000000']), 'not-a-number'],
    ['a negative word', T('aclrtSetDevice', ['-1']), 'out-of-range'],
    ['a word of 21 digits', T('aclrtSetDevice', ['1'.repeat(21)]), 'not-a-number'],
    ['a thread id of 0', T('aclrtSetDevice', [0n], { tid: 0 }), 'out-of-range'],
    ['a thread id past int32', T('aclrtSetDevice', [0n], { tid: 2 ** 31 }), 'out-of-range'],
    ['a return code past int32', T('aclrtSetDevice', [0n], { ret: 2 ** 31 }), 'out-of-range'],
    ['an empty field', 'T aclrtSetDevice 77  1000 250 0x401000 0x0', 'not-a-number'],
    ['a dropped count past 2^53', `D ${2n ** 53n}`, 'out-of-range'],
    ['a dropped count that is text', 'D many', 'not-a-number'],
  ])('refuses %s, under its code, and observes nothing of it', (_, line, code) => {
    const { record, calls } = traced();
    record.line(line);
    expect(Object.fromEntries(record.refused)).toEqual({ [code]: 1 });
    expect(record.malformed).toBe(1);
    expect(record.total).toBe(0);
    expect(calls()).toEqual([]);
    expect(record.dropped).toBeUndefined();
  });

  it('counts refusals by code beside accepted records, and reads a well-formed D', () => {
    const { record, calls } = traced();
    record.line(T('aclInit', ['0x0']));
    record.line('garbage');
    record.line('garbage again');
    record.line(T('nope', []));
    record.line(T('aclrtSetDevice', [1n], { ret: -1 }));
    record.line('D 12');
    expect(Object.fromEntries(record.refused)).toEqual({ 'unknown-kind': 2, 'unknown-function': 1 });
    expect(record.total).toBe(2);
    expect(record.errorCount).toBe(1);
    expect(record.dropped).toBe(12);
    expect(calls().map((call) => [call.fn, call.ret, call.thread])).toEqual([
      ['aclInit', 0, 77],
      ['aclrtSetDevice', -1, 77],
    ]);
  });

  it('keeps at most MAX_KEPT_ERRORS failed calls and counts the rest; the --check summary says both, and the refusals', () => {
    const record = new TraceRecord();
    for (let i = 0; i < MAX_KEPT_ERRORS + 5; i += 1) record.line(T('aclrtSetDevice', [0n], { ret: 107001 }));
    record.line('T cudaMalloc 1 0 0 0 0x0');
    expect(record.errorCount).toBe(MAX_KEPT_ERRORS + 5);
    expect(record.errors()).toHaveLength(MAX_KEPT_ERRORS);
    expect(record.total).toBe(MAX_KEPT_ERRORS + 5);
    const summary = formatTraceSummary({ pid: 9, argv: ['app'], record, maps: [], closed: Promise.resolve() }, { code: 0 });
    expect(summary).toContain(`ACL calls observed: ${MAX_KEPT_ERRORS + 5} from 1 thread`);
    expect(summary).toContain(`ACL errors: ${MAX_KEPT_ERRORS + 5}`);
    expect(summary).toContain('  … and 5 more, not listed');
    expect(summary).toContain('Refused records: 1');
    expect(summary).toContain('  unknown-function 1: a call of a function outside the catalogue');
  });

  it('keeps an address and a size of 2^53 or more exact in the call event, and records no state change from them', () => {
    const { record, calls, host, pid } = traced();
    record.line(T('aclInit', ['0x0']));
    record.line(T('aclrtSetDevice', [0n]));
    const high = 2n ** 60n + 0x200000n;
    const huge = 2n ** 54n + 1n;
    // aclrtMalloc(&devPtr, size, policy): an address above 2^53 with an ordinary size, then an ordinary address with a huge size.
    record.line(T('aclrtMalloc', [high, 1n << 20n, 0n]));
    record.line(T('aclrtMalloc', [0x100000200000n, huge, 0n]));
    const [, , wideAddress, wideSize] = calls();
    expect(wideAddress?.out).toEqual({ devPtr: '0x1000000000200000' });
    expect(wideAddress?.args).toEqual({ size: 1 << 20, policy: 0 });
    expect(wideAddress?.message).toContain('devPtr 0x1000000000200000 is 2^53 or more');
    expect(wideSize?.args).toEqual({ size: '0x40000000000001', policy: 0 });
    expect(BigInt(String(wideSize?.args.size))).toBe(huge);
    expect(wideSize?.message).toContain('size = 0x40000000000001: 2^53 or more, shown exactly');
    expect([...host.state.allocations.values()].filter((item) => item.pid === pid)).toEqual([]);
    // Below 2^53 the same call is a number and an allocation, as always.
    record.line(T('aclrtMalloc', [0x100000400000n, 1n << 20n, 0n]));
    const allocations = [...host.state.allocations.values()].filter((item) => item.pid === pid);
    expect(allocations.map((item) => [item.addr, item.size])).toEqual([[0x100000400000, 1 << 20]]);
    // Every event is JSON the browser can read back unchanged: no number past 2^53 was made.
    for (const event of calls()) expect(JSON.parse(JSON.stringify(event))).toEqual(event);
  });

  it('keeps each thread’s current device: aclrtSetDevice on one thread does not move another’s allocation (CX-1)', () => {
    const { record, host, pid } = traced();
    record.line(T('aclInit', ['0x0'], { tid: 1 }));
    record.line(T('aclrtSetDevice', [0n], { tid: 10 }));
    record.line(T('aclrtSetDevice', [1n], { tid: 20 }));
    record.line(T('aclrtMalloc', [0x100000200000n, 1n << 20n, 0n], { tid: 10 }));
    record.line(T('aclrtMalloc', [0x100000600000n, 1n << 20n, 0n], { tid: 20 }));
    const devices = [...host.state.allocations.values()].filter((item) => item.pid === pid).map((item) => item.device);
    expect(devices).toEqual([0, 1]);
  });
});
