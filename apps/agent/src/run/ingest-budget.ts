/*
 * How much of a core the agent spends on one traced program's records. Each record costs the agent
 * about 2 µs (decoding it and turning it into model events, measured by bench/suites/run.ts), so a
 * program making a million calls a second would need two cores just to be observed; on a machine
 * whose cores the program itself uses, that CPU is taken from the program. So the agent reads a
 * traced program's socket only while it has budget: past it the socket pauses, the program's
 * reporter thread waits in send(), its ring fills, and further records are counted as dropped in
 * the program (the calling threads never wait: trace mode's rule). A token bucket: credit accrues
 * at `share` ms of work per ms of wall time, up to `burstMs`, so a short burst of calls is read in
 * full and only a sustained flood is thinned.
 */

/** The share of one core the agent gives one traced program's records, sustained. */
export const TRACE_INGEST_SHARE = 0.1;
/** The work (ms) a traced program may ask of the agent at once before the share applies. */
export const TRACE_INGEST_BURST_MS = 50;

export class IngestBudget {
  readonly #share: number;
  readonly #burst: number;
  readonly #now: () => number;
  #credit: number;
  #at: number;

  constructor(share = TRACE_INGEST_SHARE, burstMs = TRACE_INGEST_BURST_MS, now: () => number = () => performance.now()) {
    this.#share = share;
    this.#burst = burstMs;
    this.#now = now;
    this.#credit = burstMs;
    this.#at = now();
  }

  /** Charges `ms` of work; how long (ms) to pause before reading more, 0 while credit remains. */
  spend(ms: number): number {
    const now = this.#now();
    this.#credit = Math.min(this.#burst, this.#credit + (now - this.#at) * this.#share) - ms;
    this.#at = now;
    return this.#credit >= 0 ? 0 : -this.#credit / this.#share;
  }
}
