import type { CallEvent, MemoryEvent } from '../model/events.ts';
import { TRACE_ACTIONS, type TraceAction } from './snapshot-types.ts';

/**
 * The `call` events of a snapshot's trace entries, one typed array per field, and the events that
 * read them (TraceCall). A recorded job holds millions of entries: as plain objects each cost about
 * 300 bytes (the event, its args, two address texts), here about 60, and the columns reach the page
 * by transfer instead of a structured clone. The events are the same to every reader: their fields
 * are getters over the columns, their args made when asked.
 */

const PID = 1;
const U64_END = 1n << 64n;
const HAS_MODEL_ADDR = 1;
const HAS_POOL = 2;
const HAS_TIME = 4;

/** A recorded address as text, exact at any size: 0x…, or -0x… for the negative ints a pickle may hold. */
export const hexAddress = (value: bigint): string => (value < 0n ? `-0x${(-value).toString(16)}` : `0x${value.toString(16)}`);

/**
 * A trace entry call's args, written once for both kinds of event: addr, size, stream, device,
 * then modelAddr, pool_id and time_us when recorded, in that order.
 */
export function traceCallArgs(
  fields: Pick<TraceCallFields, 'addr' | 'size' | 'stream' | 'device' | 'modelAddr' | 'poolId' | 'timeUs'>,
): Record<string, unknown> {
  const args: Record<string, unknown> = {
    addr: hexAddress(fields.addr),
    size: fields.size,
    stream: fields.stream,
    device: fields.device,
  };
  if (fields.modelAddr !== undefined) args.modelAddr = `0x${fields.modelAddr.toString(16)}`;
  if (fields.poolId !== undefined) args.pool_id = fields.poolId;
  if (fields.timeUs !== undefined) args.time_us = fields.timeUs;
  return args;
}

/** What an entry's call records, as snapshot-session.ts hands it over. */
export interface TraceCallFields {
  readonly seq: number;
  readonly t: number;
  readonly action: TraceAction;
  readonly device: number;
  readonly addr: bigint;
  readonly size: number;
  readonly stream: string;
  readonly modelAddr: number | undefined;
  readonly poolId: string | undefined;
  readonly timeUs: number | undefined;
}

/** The columns as they cross to the page: typed arrays to transfer, and the two texts tables. */
export interface TraceCallParts {
  readonly length: number;
  readonly seq: Uint32Array;
  readonly t: Float64Array;
  readonly action: Uint8Array;
  readonly device: Uint8Array;
  readonly flags: Uint8Array;
  readonly addr: BigUint64Array;
  readonly modelAddr: Float64Array;
  readonly size: Float64Array;
  readonly timeUs: Float64Array;
  readonly stream: Uint32Array;
  readonly pool: Uint32Array;
  readonly streams: readonly string[];
  readonly pools: readonly string[];
}

type Columns = Omit<TraceCallParts, 'length' | 'streams' | 'pools'>;

function allocate(capacity: number): Columns {
  return {
    seq: new Uint32Array(capacity),
    t: new Float64Array(capacity),
    action: new Uint8Array(capacity),
    device: new Uint8Array(capacity),
    flags: new Uint8Array(capacity),
    addr: new BigUint64Array(capacity),
    modelAddr: new Float64Array(capacity),
    size: new Float64Array(capacity),
    timeUs: new Float64Array(capacity),
    stream: new Uint32Array(capacity),
    pool: new Uint32Array(capacity),
  };
}

const COLUMN_NAMES = Object.keys(allocate(0)) as (keyof Columns)[];

/** The position of `value` in `table`, appended (and noted in `index`) the first time it is seen. */
export function intern<T>(table: T[], index: Map<T, number>, value: T): number {
  let at = index.get(value);
  if (at === undefined) {
    at = table.length;
    table.push(value);
    index.set(value, at);
  }
  return at;
}

export class TraceCalls {
  #columns: Columns;
  #length = 0;
  #sealed = false;
  readonly #streams: string[];
  readonly #pools: string[];
  readonly #streamIndex = new Map<string, number>();
  readonly #poolIndex = new Map<string, number>();

  /** `capacity`: the entries expected (it grows past them if needed). */
  constructor(capacity: number) {
    this.#columns = allocate(Math.max(16, capacity));
    this.#streams = [];
    this.#pools = [];
  }

  /** The columns the worker sent, read in place. */
  static from(parts: TraceCallParts): TraceCalls {
    const calls = new TraceCalls(0);
    calls.#columns = parts;
    calls.#length = parts.length;
    // A loop, not push(...texts): a hostile file can name more streams than a call takes arguments.
    for (const text of parts.streams) calls.#streams.push(text);
    for (const text of parts.pools) calls.#pools.push(text);
    return calls;
  }

  get length(): number {
    return this.#length;
  }

  /**
   * True when the columns hold these fields exactly: an address past 64 bits (a pickle's int may be
   * any size) or an unknown action stays a plain event.
   */
  static fits(fields: TraceCallFields): boolean {
    const inU64 = (value: bigint) => value >= 0n && value < U64_END;
    return (
      inU64(fields.addr) &&
      (fields.modelAddr === undefined || Number.isSafeInteger(fields.modelAddr)) &&
      Number.isInteger(fields.device) &&
      fields.device >= 0 &&
      fields.device < 256 &&
      Number.isInteger(fields.seq) &&
      fields.seq > 0 &&
      fields.seq < 2 ** 32 &&
      TRACE_ACTIONS.includes(fields.action)
    );
  }

  /** Appends one call (TraceCalls.fits must hold) and returns its event. */
  push(fields: TraceCallFields): TraceCall {
    return new TraceCall(this, this.append(fields));
  }

  /** Appends one call (TraceCalls.fits must hold) and returns its index, making no event. */
  append(fields: TraceCallFields): number {
    if (this.#sealed) throw new Error('TraceCalls.push after parts(): the columns were handed on');
    if (this.#length === this.#columns.seq.length) this.#grow();
    const c = this.#columns;
    const i = this.#length;
    c.seq[i] = fields.seq;
    c.t[i] = fields.t;
    c.action[i] = TRACE_ACTIONS.indexOf(fields.action);
    c.device[i] = fields.device;
    c.addr[i] = fields.addr;
    c.size[i] = fields.size;
    c.stream[i] = intern(this.#streams, this.#streamIndex, fields.stream);
    let flags = 0;
    if (fields.modelAddr !== undefined) {
      flags |= HAS_MODEL_ADDR;
      c.modelAddr[i] = fields.modelAddr;
    }
    if (fields.poolId !== undefined) {
      flags |= HAS_POOL;
      c.pool[i] = intern(this.#pools, this.#poolIndex, fields.poolId);
    }
    if (fields.timeUs !== undefined) {
      flags |= HAS_TIME;
      c.timeUs[i] = fields.timeUs;
    }
    c.flags[i] = flags;
    this.#length += 1;
    return i;
  }

  #grow(): void {
    const next = allocate(this.#columns.seq.length * 2);
    for (const name of COLUMN_NAMES) (next[name] as { set(source: ArrayLike<unknown>): void }).set(this.#columns[name] as never);
    this.#columns = next;
  }

  /**
   * The columns cut to length, for postMessage, and the buffers to transfer. Columns sized for the
   * file's entries (the usual case) go as views of themselves: copying them held a second 55 MB of a
   * 1 M-entry import at its fullest. Only a run that grew far past its length (an eighth spare) is copied.
   * The calls are sealed: a push after parts() throws, since the buffers are no longer this object's.
   */
  parts(): { parts: TraceCallParts; transfer: ArrayBuffer[] } {
    const c = this.#columns;
    const n = this.#length;
    const copy = c.seq.length - n > c.seq.length / 8;
    const cut = Object.fromEntries(
      COLUMN_NAMES.map((name) => [name, copy ? c[name].slice(0, n) : c[name].subarray(0, n)]),
    ) as unknown as Columns;
    this.#sealed = true;
    return {
      parts: { length: n, ...cut, streams: [...this.#streams], pools: [...this.#pools] },
      transfer: COLUMN_NAMES.map((name) => cut[name].buffer as ArrayBuffer),
    };
  }

  seq(i: number): number {
    return this.#columns.seq[i] ?? 0;
  }

  t(i: number): number {
    return this.#columns.t[i] ?? 0;
  }

  action(i: number): TraceAction {
    return TRACE_ACTIONS[this.#columns.action[i] ?? 0] ?? 'alloc';
  }

  /** The call's args (traceCallArgs). */
  args(i: number): Record<string, unknown> {
    const c = this.#columns;
    const flags = c.flags[i] ?? 0;
    return traceCallArgs({
      addr: c.addr[i] ?? 0n,
      size: c.size[i] ?? 0,
      stream: this.#streams[c.stream[i] ?? 0] ?? '',
      device: c.device[i] ?? 0,
      modelAddr: (flags & HAS_MODEL_ADDR) !== 0 ? c.modelAddr[i] : undefined,
      poolId: (flags & HAS_POOL) !== 0 ? this.#pools[c.pool[i] ?? 0] : undefined,
      timeUs: (flags & HAS_TIME) !== 0 ? c.timeUs[i] : undefined,
    });
  }
}

/**
 * One trace entry's `call` event, read from its columns: what a plain event of the same entry holds
 * (pid 1, ret 0, no duration, provenance observed), field for field.
 */
export class TraceCall implements CallEvent {
  readonly #calls: TraceCalls;
  readonly #index: number;

  constructor(calls: TraceCalls, index: number) {
    this.#calls = calls;
    this.#index = index;
  }

  get kind(): 'call' {
    return 'call';
  }

  get pid(): number {
    return PID;
  }

  get fn(): string {
    return this.#calls.action(this.#index);
  }

  get args(): Record<string, unknown> {
    return this.#calls.args(this.#index);
  }

  get ret(): number {
    return 0;
  }

  get durationNs(): number {
    return 0;
  }

  get seq(): number {
    return this.#calls.seq(this.#index);
  }

  get t(): number {
    return this.#calls.t(this.#index);
  }

  get provenance(): 'observed' {
    return 'observed';
  }

  /** The columns this event reads (packEvents sends them once for all). */
  get calls(): TraceCalls {
    return this.#calls;
  }

  /** The plain event, for JSON and for structured comparison. */
  toJSON(): CallEvent {
    return {
      kind: 'call',
      pid: PID,
      fn: this.fn,
      args: this.args,
      ret: 0,
      durationNs: 0,
      seq: this.seq,
      t: this.t,
      provenance: 'observed',
    };
  }
}

/**
 * Events as they cross to the page: the plain ones cloned, the trace calls as their columns.
 * `traceAt[i]` is 1 where the i-th event is the next trace call, 0 where it is the next plain event.
 */
export interface PackedEvents {
  readonly plain: readonly MemoryEvent[];
  readonly traceAt: Uint8Array;
  readonly calls: TraceCallParts | undefined;
}

/** Splits events into plain ones and the columns of their trace calls (which must share one TraceCalls). */
export function packEvents(events: readonly MemoryEvent[]): { packed: PackedEvents; transfer: ArrayBuffer[] } {
  const plain: MemoryEvent[] = [];
  const traceAt = new Uint8Array(events.length);
  let calls: TraceCalls | undefined;
  events.forEach((event, i) => {
    if (event instanceof TraceCall) {
      calls ??= event.calls;
      if (event.calls !== calls) throw new Error('packEvents: trace calls of two sessions');
      traceAt[i] = 1;
    } else plain.push(event);
  });
  const columns = calls?.parts();
  return {
    packed: { plain, traceAt, calls: columns?.parts },
    transfer: [traceAt.buffer, ...(columns?.transfer ?? [])],
  };
}

/**
 * A recording's events as an import makes them: the plain ones as objects, the trace entries' calls
 * only in their columns. The reply to the page is packed from here (`pack`, what packEvents would
 * give), so the worker never holds a TraceCall per entry: 10 M of them and their array were some
 * 300 MB of its heap at the moment the page's copy was being built. `all` makes them when a reader
 * in this thread asks (a test, the CLI), once.
 */
export class RecordedEvents {
  readonly #plain: MemoryEvent[] = [];
  #traceAt: Uint8Array;
  #length = 0;
  readonly #calls: TraceCalls;
  #all: MemoryEvent[] | undefined;
  #packed = false;

  /** `traceEntries`: the trace calls expected (the columns grow past them if needed). */
  constructor(traceEntries: number) {
    this.#calls = new TraceCalls(traceEntries);
    this.#traceAt = new Uint8Array(Math.max(16, traceEntries + 64));
  }

  get length(): number {
    return this.#length;
  }

  /** Appends a plain event. */
  plain(event: MemoryEvent): void {
    this.#mark(0);
    this.#plain.push(event);
  }

  /** Appends a trace entry's call (TraceCalls.fits must hold). */
  traced(fields: TraceCallFields): void {
    this.#mark(1);
    this.#calls.append(fields);
  }

  #mark(traced: 0 | 1): void {
    if (this.#packed) throw new Error('RecordedEvents: appended after pack(), whose columns were handed on');
    if (this.#all !== undefined) throw new Error('RecordedEvents: appended after all was read');
    if (this.#length === this.#traceAt.length) {
      const grown = new Uint8Array(this.#traceAt.length * 2);
      grown.set(this.#traceAt);
      this.#traceAt = grown;
    }
    this.#traceAt[this.#length] = traced;
    this.#length += 1;
  }

  /** Every event, in order, the trace calls as TraceCall over the columns; made on first read. */
  get all(): readonly MemoryEvent[] {
    if (this.#packed) throw new Error('RecordedEvents: read after pack(), whose columns were handed on');
    this.#all ??= this.#unpacked();
    return this.#all;
  }

  #unpacked(): MemoryEvent[] {
    const events = new Array<MemoryEvent>(this.#length);
    let plain = 0;
    let traced = 0;
    for (let i = 0; i < this.#length; i += 1) {
      if (this.#traceAt[i] === 1) {
        events[i] = new TraceCall(this.#calls, traced);
        traced += 1;
      } else {
        const event = this.#plain[plain];
        if (event === undefined) throw new Error(`RecordedEvents: plain event ${plain} is missing`);
        events[i] = event;
        plain += 1;
      }
    }
    return events;
  }

  /** The events as packEvents gives them, and the buffers to transfer; nothing can be read or added after. */
  pack(): { packed: PackedEvents; transfer: ArrayBuffer[] } {
    this.#packed = true;
    const traceAt = this.#traceAt.slice(0, this.#length);
    const calls = this.#calls.length > 0 ? this.#calls.parts() : undefined;
    return {
      packed: { plain: this.#plain, traceAt, calls: calls?.parts },
      transfer: [traceAt.buffer, ...(calls?.transfer ?? [])],
    };
  }
}

/** The events packEvents split, in their order again; trace calls read the columns in place. */
export function unpackEvents(packed: PackedEvents): MemoryEvent[] {
  const calls = packed.calls === undefined ? undefined : TraceCalls.from(packed.calls);
  const events = new Array<MemoryEvent>(packed.traceAt.length);
  let plain = 0;
  let traced = 0;
  for (let i = 0; i < packed.traceAt.length; i += 1) {
    if (packed.traceAt[i] === 1 && calls !== undefined && traced < calls.length) {
      events[i] = new TraceCall(calls, traced);
      traced += 1;
    } else {
      const event = packed.plain[plain];
      if (event === undefined) throw new Error(`unpackEvents: event ${i} is missing`);
      events[i] = event;
      plain += 1;
    }
  }
  return events;
}
