import { ACL_FUNCTIONS, type AclFunctionName, isAclFunctionName } from '@pagelens/core';
import { structWords, TRACE_WORDS } from './native/trace-words.ts';

/*
 * What trace mode observed of one program: each intercepted call as the real library answered
 * it (the interposer's records, delivered asynchronously), and how many records were dropped
 * because the ring was full or the agent could not be reached. Observed, not simulated: each call
 * also goes to `observe`, which makes it model events of the traced process (trace-events.ts).
 *
 * The records come from a program PageLens does not control: every field is bounded (the line,
 * the word count, each number's digits and its C type's range), and a record past any bound is
 * refused whole and counted under its code, never half read. Only counts and a bounded list of
 * failed calls are kept, so a program making millions of calls costs the agent no more memory.
 */

export interface TracedCall {
  readonly index: number;
  readonly fn: string;
  readonly thread: number;
  readonly ret: number;
  readonly durationNs: number;
  readonly site: number;
  /** One word per catalogue parameter, in order, then the struct fields (trace-words.ts). */
  readonly words: readonly bigint[];
}

/** Why a record was refused: one code per bound, each counted (the --check summary lists them). */
export const TRACE_REFUSALS = {
  'record-too-long': 'a record longer than the longest a catalogue call can make',
  'unknown-kind': 'a record that is neither a call (T) nor the dropped count (D)',
  'unknown-function': 'a call of a function outside the catalogue',
  'word-count': 'more words than the function’s record holds, or too few fields',
  'not-a-number': 'a field that is not a decimal or 0x hexadecimal integer',
  'out-of-range': 'a field outside the range of its C type',
} as const;
export type TraceRefusal = keyof typeof TRACE_REFUSALS;

/** "T fn" and six numbers of at most 21 characters, then TRACE_WORDS words of "0x" and 16 digits: well under 512. */
export const MAX_RECORD_CHARS = 512;
/** Failed calls kept for the summary; the rest are counted. */
export const MAX_KEPT_ERRORS = 1000;

const U64_MAX = 2n ** 64n - 1n;
/** The largest count a JavaScript number holds exactly. */
const EXACT_MAX = 2n ** 53n - 1n;
/** Linux tids are positive and below pid_max (at most 2^22); an int32 bounds them. */
const TID_MAX = 2n ** 31n - 1n;
const INTEGER = /^(?:-?\d{1,20}|0x[0-9a-f]{1,16})$/i;

type Range = readonly [bigint, bigint];
const RANGES = {
  tid: [1n, TID_MAX],
  ret: [-(2n ** 31n), 2n ** 31n - 1n],
  u64: [0n, U64_MAX],
  exact: [0n, EXACT_MAX],
} as const satisfies Record<string, Range>;

class Refused extends Error {
  constructor(readonly code: TraceRefusal) {
    super(code);
  }
}

/** One field as an integer within `range`, or a refusal. */
function integer(text: string | undefined, range: Range): bigint {
  if (text === undefined || !INTEGER.test(text)) throw new Refused('not-a-number');
  const value = BigInt(text);
  if (value < range[0] || value > range[1]) throw new Refused('out-of-range');
  return value;
}

/** The words a function's record carries at most: its parameters and the struct fields read with them (trace-gen.ts). */
function maxWords(fn: AclFunctionName): number {
  const spec = ACL_FUNCTIONS[fn];
  if (spec.returns === 'const char*') return 1;
  return Math.min(TRACE_WORDS, spec.params.length + structWords(fn).length);
}

export class TraceRecord {
  readonly counts = new Map<string, number>();
  readonly threads = new Set<number>();
  /** Refused records by code. */
  readonly refused = new Map<TraceRefusal, number>();
  /** What the interposer reported at exit; undefined when it never said (it crashed or was killed). */
  dropped: number | undefined;
  #total = 0;
  #errorCount = 0;
  readonly #errors: TracedCall[] = [];
  readonly #observe: ((call: TracedCall, fn: AclFunctionName) => void) | undefined;

  constructor(observe?: (call: TracedCall, fn: AclFunctionName) => void) {
    this.#observe = observe;
  }

  /** One line from the interposer: "T fn tid ret start duration site words…" or "D dropped". */
  line(text: string): void {
    try {
      this.#read(text);
    } catch (error) {
      if (!(error instanceof Refused)) throw error;
      this.refused.set(error.code, (this.refused.get(error.code) ?? 0) + 1);
    }
  }

  #read(text: string): void {
    if (text.length > MAX_RECORD_CHARS) throw new Refused('record-too-long');
    const parts = text.split(' ');
    if (parts[0] === 'D') {
      if (parts.length !== 2) throw new Refused('word-count');
      this.dropped = Number(integer(parts[1], RANGES.exact));
      return;
    }
    if (parts[0] !== 'T') throw new Refused('unknown-kind');
    const [, fn = '', tid, ret, start, duration, site, ...words] = parts;
    if (!isAclFunctionName(fn)) throw new Refused('unknown-function');
    if (parts.length < 7 || words.length > maxWords(fn)) throw new Refused('word-count');
    integer(start, RANGES.u64);
    const call: TracedCall = {
      index: this.#total + 1,
      fn,
      thread: Number(integer(tid, RANGES.tid)),
      ret: Number(integer(ret, RANGES.ret)),
      durationNs: Number(integer(duration, RANGES.exact)),
      // A return address: user space is far below 2^53 (a 48-bit VA space).
      site: Number(integer(site, RANGES.exact)),
      words: words.map((word) => integer(word, RANGES.u64)),
    };
    this.#total += 1;
    this.counts.set(fn, (this.counts.get(fn) ?? 0) + 1);
    this.threads.add(call.thread);
    if (call.ret !== 0) {
      this.#errorCount += 1;
      if (this.#errors.length < MAX_KEPT_ERRORS) this.#errors.push(call);
    }
    this.#observe?.(call, fn);
  }

  /** Calls observed (every accepted record). */
  get total(): number {
    return this.#total;
  }

  get errorCount(): number {
    return this.#errorCount;
  }

  /** Records refused, of every code. */
  get malformed(): number {
    let sum = 0;
    for (const count of this.refused.values()) sum += count;
    return sum;
  }

  /** The first MAX_KEPT_ERRORS failed calls; errorCount says how many failed in all. */
  errors(): readonly TracedCall[] {
    return this.#errors;
  }
}
