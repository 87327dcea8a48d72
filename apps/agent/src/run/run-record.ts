import type { Leak } from './leaks.ts';

/*
 * What one program did through the interposer, for the --check summary: calls per function, the
 * calls that failed, the functions outside the catalogue it called, and for every object a call
 * made, which call made it (the leak report names it).
 */

export interface CallSite {
  /** 1-based, in the order the agent received the program's calls. */
  readonly index: number;
  readonly fn: string;
  /** The calling host thread (Linux tid). */
  readonly thread: number;
  /** The return address in the caller: resolved to a source line when the program has debug info. */
  readonly site: number;
}

export interface CallError extends CallSite {
  readonly ret: number;
  readonly message?: string;
}

/** An object the program never released itself: the device reset released it (LT-2). */
export interface ReleasedAtReset extends Leak {
  readonly releasedBy: CallSite;
}

export class RunRecord {
  readonly calls = new Map<string, number>();
  readonly releasedAtReset: ReleasedAtReset[] = [];
  readonly errors: CallError[] = [];
  readonly notModeledCalls = new Map<string, CallSite>();
  readonly #creators = new Map<string, CallSite>();
  #index = 0;

  nextIndex(): number {
    this.#index += 1;
    return this.#index;
  }

  get total(): number {
    return this.#index;
  }

  call(site: CallSite, ret: number, message: string | undefined): void {
    this.calls.set(site.fn, (this.calls.get(site.fn) ?? 0) + 1);
    if (ret !== 0) this.errors.push(message === undefined ? { ...site, ret } : { ...site, ret, message });
  }

  notModeled(site: CallSite): void {
    this.calls.set(site.fn, (this.calls.get(site.fn) ?? 0) + 1);
    if (!this.notModeledCalls.has(site.fn)) this.notModeledCalls.set(site.fn, site);
  }

  /** `key` is the releasing call and the value it takes: "aclrtFree:0x100000000000". */
  created(key: string, site: CallSite): void {
    this.#creators.set(key, site);
  }

  creator(key: string): CallSite | undefined {
    return this.#creators.get(key);
  }
}
