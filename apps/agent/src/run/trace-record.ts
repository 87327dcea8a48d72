import { type AclFunctionName, isAclFunctionName } from '@pagelens/core';

/*
 * What trace mode observed of one program: each intercepted call as the real library answered
 * it (the interposer's records, delivered asynchronously), and how many records were dropped
 * because the ring was full or the agent could not be reached. Observed, not simulated: each call
 * also goes to `observe`, which makes it model events of the traced process (trace-events.ts).
 */

export interface TracedCall {
  readonly index: number;
  readonly fn: string;
  readonly thread: number;
  readonly ret: number;
  readonly durationNs: number;
  readonly site: number;
  /** One word per catalogue parameter, in order (trace-gen.ts). */
  readonly words: readonly bigint[];
}

export class TraceRecord {
  readonly calls: TracedCall[] = [];
  readonly counts = new Map<string, number>();
  readonly threads = new Set<number>();
  /** What the interposer reported at exit; undefined when it never said (it crashed or was killed). */
  dropped: number | undefined;
  #malformed = 0;
  #errors = 0;
  readonly #observe: ((call: TracedCall, fn: AclFunctionName) => void) | undefined;

  constructor(observe?: (call: TracedCall, fn: AclFunctionName) => void) {
    this.#observe = observe;
  }

  /** One line from the interposer: "T fn tid ret start duration site words…" or "D dropped". */
  line(text: string): void {
    const parts = text.split(' ');
    if (parts[0] === 'D' && parts.length === 2) {
      this.dropped = Number(parts[1]);
      return;
    }
    if (parts[0] !== 'T' || parts.length < 7 || !isAclFunctionName(parts[1] ?? '')) {
      this.#malformed += 1;
      return;
    }
    const [, fn = '', tid = '0', ret = '0', , duration = '0', site = '0', ...words] = parts;
    const call: TracedCall = {
      index: this.calls.length + 1,
      fn,
      thread: Number(tid),
      ret: Number(ret),
      durationNs: Number(duration),
      site: Number(site),
      words: words.map((word) => BigInt(word)),
    };
    this.calls.push(call);
    this.counts.set(fn, (this.counts.get(fn) ?? 0) + 1);
    this.threads.add(call.thread);
    if (call.ret !== 0) this.#errors += 1;
    if (isAclFunctionName(fn)) this.#observe?.(call, fn);
  }

  get errorCount(): number {
    return this.#errors;
  }

  get malformed(): number {
    return this.#malformed;
  }

  errors(): TracedCall[] {
    return this.calls.filter((call) => call.ret !== 0);
  }
}
