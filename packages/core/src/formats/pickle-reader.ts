import { FormatError } from './format-error.ts';
import { MAX_DEPTH_LIMIT, Memo, metaDepth, metaShared, metaSlot, packMeta } from './pickle-memo.ts';
import { opcodeName, refusalOf } from './pickle-opcodes.ts';
import { type TraceSink, TraceStream } from './pickle-trace-stream.ts';
import {
  decodeLong,
  dictKey,
  globalName,
  isDict,
  kindOf,
  latin1,
  length8,
  type PickleValue,
  setKey,
  stackGlobalName,
} from './pickle-values.ts';
import { decodeUtf8 } from './utf8.ts';

/**
 * A restricted pickle reader (protocols 2–5) that never executes or resolves anything: it accepts
 * only the data opcodes of pickle-opcodes.ts and builds plain values from them.
 *
 * - Integers are exact: a `number` when the value is a safe integer (|v| < 2^53), a `bigint`
 *   otherwise (LONG1/LONG4 of any width up to `maxLongBytes`). Nothing is rounded.
 * - Dicts become plain objects with string keys (int, bool and None keys as their Python `str`;
 *   other keys are refused); lists, tuples, sets and frozensets become arrays; str a string,
 *   bytes and bytearray a Uint8Array (a copy), float a number, None null.
 * - Input arrives in chunks (`push`), so a worker can feed a File stream, report progress
 *   (`bytesRead`) and cancel (stop pushing). A declared length is checked against `maxItemBytes`
 *   and, when the total size is known, against the bytes that remain: a hostile length is an
 *   error, never an allocation. Bytes are copied only to join an item that spans two chunks.
 * - Nesting depth is bounded (`maxDepth`), and so is the memo's use: a container taken from the
 *   memo may not be changed, and a container still open on the stack that a value above it holds
 *   through the memo may not be changed either. CPython's pickler writes such a reference when two
 *   values share one object before the first is placed — torch's snapshots share one empty
 *   `frames` list between a segment and its blocks — but never changes a container after it was
 *   shared. Refusing those changes makes cycles, and structures whose depth hides behind shared
 *   references, impossible.
 *
 * Why not npm's `pickleparser` (0.2.1, the most used JS unpickler), measured on this machine
 * (2 shared cores, 2026-12-01) against the same generated 38.7 MB torch_npu snapshot: it parsed in
 * 13.3–13.9 s (2.8–2.9 MB/s), this reader in 3.6–5.8 s (6.7–10.6 MB/s) in the same runs; and it is
 * wrong or unsafe for this format — LONG1 −2^40 (an int64 stream) reads as 280375465082880, 2^53 + 1
 * as 2^53, a 9-byte int throws; GLOBAL os.system + REDUCE is accepted (a placeholder function
 * object); 200,000 nested lists parse, and the result overflows the stack of JSON.stringify.
 */
export interface PickleLimits {
  /** Deepest container nesting accepted (a snapshot needs about 8). Default 64; at most 2^19 − 1 (pickle-memo.ts). */
  readonly maxDepth?: number;
  /** Longest str/bytes item in bytes. Default 64 MiB. */
  readonly maxItemBytes?: number;
  /** Widest LONG1/LONG4 integer in bytes. Default 64 (a 512-bit integer). */
  readonly maxLongBytes?: number;
}

export interface PickleReaderOptions extends PickleLimits {
  /** The whole input's size in bytes when known (a File's size): lengths are checked against it. */
  readonly totalBytes?: number;
  /**
   * For a snapshot: its trace entries go here, batch by batch, and leave the tree (pickle-trace-stream.ts),
   * so `device_traces` ends up holding empty lists and memory does not grow with the trace.
   */
  readonly traceSink?: TraceSink;
}

const DEFAULT_MAX_DEPTH = 64;
const DEFAULT_MAX_ITEM = 64 * 1024 * 1024;
const DEFAULT_MAX_LONG = 64;
const HIGHEST_PROTOCOL = 5;

/**
 * Stack slot tags: a fresh value; one from the memo (BINGET/DUP) that must not be changed; or
 * (OPEN_REF − s) a memo reference to the fresh container at slot s. Placed into s itself it would
 * close a cycle; placed into a container above s, it freezes s (see `holds`): anything above s may
 * end up inside it.
 */
const FRESH = -1;
const SHARED = -2;
const OPEN_REF = -3;

const EMPTY = new Uint8Array(0);

export class PickleReader {
  private readonly maxDepth: number;
  private readonly maxItemBytes: number;
  private readonly maxLongBytes: number;
  private readonly totalBytes: number | undefined;

  private buf: Uint8Array = EMPTY;
  private view: DataView = new DataView(EMPTY.buffer);
  /** Next byte to read in `buf`; `base` is the input offset of buf[0]. */
  private pos = 0;
  private base = 0;
  private received = 0;
  /** Chunks held back until `need` bytes (from `pos`) are there. */
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private need = 0;
  /** What the opcode waiting for bytes is reading, for the truncation message. */
  private waiting = '';

  private readonly stack: PickleValue[] = [];
  /** Per stack slot: container depth (0 for scalars). */
  private readonly depths: number[] = [];
  /** Per stack slot: FRESH, SHARED, or the memo index of a fresh container stored there. */
  private readonly tags: number[] = [];
  private readonly marks: number[] = [];
  private readonly memo = new Memo();
  /** Memo indices of containers still open on the stack that a container above them holds: they may not change. */
  private readonly held = new Set<number>();
  private readonly trace: TraceStream | undefined;
  private protocol = 0;
  private finished = false;
  private result: PickleValue = null;

  /** How many memo chunks trace streaming has settled (pickle-memo.ts): what a test of the memo's size reads. */
  get settledMemoChunks(): number {
    return this.memo.settledChunks;
  }

  constructor(options: PickleReaderOptions = {}) {
    this.maxDepth = Math.min(options.maxDepth ?? DEFAULT_MAX_DEPTH, MAX_DEPTH_LIMIT);
    this.maxItemBytes = options.maxItemBytes ?? DEFAULT_MAX_ITEM;
    this.maxLongBytes = options.maxLongBytes ?? DEFAULT_MAX_LONG;
    this.totalBytes = options.totalBytes;
    this.trace = options.traceSink === undefined ? undefined : new TraceStream(options.traceSink);
  }

  /** Input bytes handed to the reader so far. */
  get bytesRead(): number {
    return this.received;
  }

  /** True once STOP was read; later input is ignored. */
  get done(): boolean {
    return this.finished;
  }

  /** Feeds the next chunk; throws FormatError at the first problem. */
  push(chunk: Uint8Array): void {
    if (this.finished || chunk.length === 0) return;
    this.received += chunk.length;
    const tail = this.buf.length - this.pos;
    const available = tail + this.pendingBytes + chunk.length;
    if (available < this.need) {
      this.pending.push(chunk);
      this.pendingBytes += chunk.length;
      return;
    }
    if (tail === 0 && this.pending.length === 0) {
      this.base += this.buf.length;
      this.buf = chunk;
    } else {
      const joined = new Uint8Array(available);
      joined.set(this.buf.subarray(this.pos), 0);
      let at = tail;
      for (const part of this.pending) {
        joined.set(part, at);
        at += part.length;
      }
      joined.set(chunk, at);
      this.base += this.pos;
      this.buf = joined;
      this.pending = [];
      this.pendingBytes = 0;
    }
    this.pos = 0;
    this.need = 0;
    this.view = new DataView(this.buf.buffer, this.buf.byteOffset, this.buf.byteLength);
    this.run();
  }

  /** The input has ended: the value, or a FormatError saying where the pickle was cut. */
  end(): PickleValue {
    if (this.finished) return this.result;
    if (this.received === 0) throw new FormatError('the file is empty: expected a pickle (PROTO 2–5 …)', 0);
    const at = this.base + this.pos;
    if (this.need > 0) {
      throw new FormatError(
        `truncated at byte ${this.received}: ${this.waiting} at byte ${at} needs ${this.need} bytes, ${this.received - at} remain`,
        this.received,
      );
    }
    throw new FormatError(`truncated at byte ${this.received}: the pickle ends before its STOP opcode`, this.received);
  }

  private fail(message: string, start: number): never {
    throw new FormatError(`${message} (at byte ${this.base + start})`, this.base + start);
  }

  /** Not enough bytes for the opcode at `start`: wait for `need` bytes, unless the input cannot hold them. */
  private suspend(start: number, need: number, what: string): false {
    const at = this.base + start;
    if (this.totalBytes !== undefined && at + need > this.totalBytes) {
      throw new FormatError(
        `truncated at byte ${this.totalBytes}: ${what} at byte ${at} needs ${need} bytes, ${this.totalBytes - at} remain`,
        this.totalBytes,
      );
    }
    this.pos = start;
    this.need = need;
    this.waiting = what;
    return false;
  }

  private checkLength(length: number, start: number, what: string): void {
    if (length > this.maxItemBytes) {
      this.fail(`${what} declares ${length} bytes, more than the ${this.maxItemBytes}-byte limit for one item`, start);
    }
  }

  private push1(value: PickleValue, depth: number): void {
    this.stack.push(value);
    this.depths.push(depth);
    this.tags.push(FRESH);
  }

  private popMark(start: number, what: string): number {
    const mark = this.marks.pop();
    if (mark === undefined) this.fail(`${what} without a MARK before it`, start);
    return mark;
  }

  /** Closes the memo entry of a container that now sits inside another, and answers its depth. */
  private settle(slot: number): number {
    const tag = this.tags[slot] ?? FRESH;
    if (tag >= 0) {
      this.memo.close(tag);
      this.held.delete(tag);
    }
    return this.depths[slot] ?? 0;
  }

  /** `target` (a stack slot) grows by a child of depth `childDepth`. */
  private deepen(target: number, childDepth: number, start: number): void {
    const depth = childDepth + 1;
    if (depth > (this.depths[target] ?? 0)) {
      if (depth > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`, start);
      this.depths[target] = depth;
      const tag = this.tags[target] ?? FRESH;
      if (tag >= 0) this.memo.deepen(tag, depth);
    }
  }

  /**
   * A value at `slot` goes into the container at `into`: refused when it is a reference to that very
   * container; a reference to an open container below `into` freezes that container.
   */
  private place(slot: number, into: number, start: number, what: string): void {
    const tag = this.tags[slot] ?? FRESH;
    if (tag > OPEN_REF) return;
    const open = OPEN_REF - tag;
    if (into === open) this.fail(`${what} would put a container inside itself (a cycle); a data pickle has none`, start);
    if (into > open) this.holds(open);
  }

  /** A container above `slot` holds the open container there: from now on it may not change, or it could come to hold its holder. */
  private holds(slot: number): void {
    const tag = this.tags[slot] ?? FRESH;
    if (tag >= 0) this.held.add(tag);
  }

  private target(slot: number, start: number, what: string): PickleValue {
    if (slot < 0) this.fail(`${what} with nothing to add to`, start);
    const tag = this.tags[slot] ?? FRESH;
    if (tag === SHARED || tag <= OPEN_REF) {
      this.fail(`${what} changes a container taken from the memo; a data pickle never does (cycles and late changes are refused)`, start);
    }
    if (tag >= 0 && this.held.has(tag)) {
      this.fail(
        `${what} changes a container that a value above it already holds through the memo, which could close a cycle; a data pickle never does`,
        start,
      );
    }
    return this.stack[slot] ?? null;
  }

  /** Pops the stack down to `from` into a new container that will sit at `from`, answering the values and their maximum depth. */
  private popFrom(from: number): { values: PickleValue[]; depth: number } {
    let depth = 0;
    for (let slot = from; slot < this.stack.length; slot += 1) {
      // The new container replaces slot `from`: a reference to an open container below it freezes that one.
      const tag = this.tags[slot] ?? FRESH;
      if (tag <= OPEN_REF && OPEN_REF - tag < from) this.holds(OPEN_REF - tag);
      depth = Math.max(depth, this.settle(slot));
    }
    const values = this.stack.splice(from);
    this.depths.length = from;
    this.tags.length = from;
    return { values, depth };
  }

  private addItems(from: number, start: number, what: string): void {
    const slot = from - 1;
    const container = this.target(slot, start, what);
    if (!Array.isArray(container)) this.fail(`${what} needs a list or set below its MARK, found ${kindOf(container)}`, start);
    const stack = this.stack;
    // A new list takes exactly its items: pushed one by one, a 56-frame stack leaves room for 76.
    const fresh = container.length === 0;
    if (fresh) container.length = stack.length - from;
    for (let i = from; i < stack.length; i += 1) {
      this.place(i, slot, start, what);
      this.deepen(slot, this.settle(i), start);
      if (fresh) container[i - from] = stack[i] ?? null;
      else container.push(stack[i] ?? null);
    }
    stack.length = from;
    this.depths.length = from;
    this.tags.length = from;
    this.trace?.appended(container, this.memo);
  }

  private setItems(from: number, start: number, what: string): void {
    const slot = from - 1;
    const dict = this.target(slot, start, what);
    if (!isDict(dict)) this.fail(`${what} needs a dict below its items, found ${kindOf(dict)}`, start);
    const count = this.stack.length - from;
    if (count % 2 !== 0) this.fail(`${what} has a key without a value`, start);
    const stack = this.stack;
    for (let i = from; i < stack.length; i += 2) {
      this.place(i + 1, slot, start, what);
      this.settle(i);
      this.deepen(slot, this.settle(i + 1), start);
      const key = dictKey(stack[i] ?? null);
      if (key === undefined) this.fail(`${what}: a dict key must be a str, int, bool or None, found ${kindOf(stack[i] ?? null)}`, start);
      setKey(dict, key, stack[i + 1] ?? null);
    }
    stack.length = from;
    this.depths.length = from;
    this.tags.length = from;
  }

  private memoPut(index: number, start: number, what: string): void {
    const top = this.stack.length - 1;
    if (top < 0) this.fail(`${what} with an empty stack`, start);
    const value = this.stack[top] ?? null;
    const depth = this.depths[top] ?? 0;
    const container = typeof value === 'object' && value !== null && !(value instanceof Uint8Array);
    const shared = container || value instanceof Uint8Array ? 1 : 0;
    const tag = this.tags[top] ?? FRESH;
    // A second entry for a container still open would let a reference through it close a cycle.
    if (container && tag >= 0) this.fail(`${what} stores a container the memo already holds; a data pickle stores each once`, start);
    if (container && tag === FRESH) {
      this.tags[top] = index;
      this.memo.put(index, value, packMeta(top, depth, shared));
      if (this.trace !== undefined) {
        this.trace.noteMemo(value, index, top);
        if (Array.isArray(value)) this.trace.noteList(value, top, this.stack, this.marks);
      }
    } else {
      this.memo.put(index, value, packMeta(-1, depth, shared));
    }
  }

  private memoGet(index: number, start: number, what: string): void {
    const value = this.memo.value(index);
    if (value === undefined) this.fail(`${what} ${index} names a memo entry never stored`, start);
    const meta = this.memo.meta(index);
    const open = metaSlot(meta);
    this.stack.push(value);
    this.depths.push(metaDepth(meta));
    this.tags.push(!metaShared(meta) ? FRESH : open >= 0 ? OPEN_REF - open : SHARED);
  }

  /** Reads opcodes while bytes last: false when waiting for more input, true when all was read or STOP reached. */
  private run(): boolean {
    const buf = this.buf;
    const view = this.view;
    const end = buf.length;
    const stack = this.stack;
    let pos = this.pos;
    while (pos < end) {
      const start = pos;
      const code = buf[pos] ?? 0;
      pos += 1;
      switch (code) {
        case 0x80: {
          // PROTO
          if (pos + 1 > end) return this.suspend(start, 2, 'PROTO');
          const protocol = buf[pos] ?? 0;
          if (protocol > HIGHEST_PROTOCOL) this.fail(`pickle protocol ${protocol} is newer than 5, the highest PageLens reads`, start);
          this.protocol = protocol;
          pos += 1;
          break;
        }
        case 0x95: // FRAME: an 8-byte length hint; the reader needs no frames
          if (pos + 8 > end) return this.suspend(start, 9, 'FRAME');
          pos += 8;
          break;
        case 0x2e: {
          // STOP
          if (stack.length !== 1 || this.marks.length !== 0) {
            this.fail(
              `STOP with ${stack.length} values on the stack and ${this.marks.length} open MARKs; expected exactly one value`,
              start,
            );
          }
          this.result = stack[0] ?? null;
          this.finished = true;
          this.pos = pos;
          return true;
        }
        case 0x28: // MARK
          if (this.marks.length >= this.maxDepth) this.fail(`MARKs nested deeper than ${this.maxDepth}`, start);
          this.marks.push(stack.length);
          break;
        case 0x30: // POP
          if (stack.length === 0) this.fail('POP with an empty stack', start);
          if (this.marks.length > 0 && this.marks[this.marks.length - 1] === stack.length) {
            this.marks.pop();
          } else {
            this.settle(stack.length - 1);
            stack.pop();
            this.depths.pop();
            this.tags.pop();
          }
          break;
        case 0x31: // POP_MARK
          this.popFrom(this.popMark(start, 'POP_MARK'));
          break;
        case 0x32: {
          // DUP: the copy shares the value, so both count as taken from the memo
          const top = stack.length - 1;
          if (top < 0) this.fail('DUP with an empty stack', start);
          const value = stack[top] ?? null;
          const shared = typeof value === 'object' && value !== null;
          if (shared) this.tags[top] = SHARED;
          stack.push(value);
          this.depths.push(this.depths[top] ?? 0);
          this.tags.push(shared ? SHARED : FRESH);
          break;
        }
        case 0x4e: // NONE
          this.push1(null, 0);
          break;
        case 0x88: // NEWTRUE
          this.push1(true, 0);
          break;
        case 0x89: // NEWFALSE
          this.push1(false, 0);
          break;
        case 0x4a: // BININT
          if (pos + 4 > end) return this.suspend(start, 5, 'BININT');
          this.push1(view.getInt32(pos, true), 0);
          pos += 4;
          break;
        case 0x4b: // BININT1
          if (pos + 1 > end) return this.suspend(start, 2, 'BININT1');
          this.push1(buf[pos] ?? 0, 0);
          pos += 1;
          break;
        case 0x4d: // BININT2
          if (pos + 2 > end) return this.suspend(start, 3, 'BININT2');
          this.push1(view.getUint16(pos, true), 0);
          pos += 2;
          break;
        case 0x8a: {
          // LONG1
          if (pos + 1 > end) return this.suspend(start, 2, 'LONG1');
          const n = buf[pos] ?? 0;
          if (n > this.maxLongBytes) this.fail(`LONG1 of ${n} bytes is wider than the ${this.maxLongBytes}-byte limit`, start);
          if (pos + 1 + n > end) return this.suspend(start, 2 + n, 'LONG1');
          this.push1(decodeLong(buf, pos + 1, n), 0);
          pos += 1 + n;
          break;
        }
        case 0x8b: {
          // LONG4
          if (pos + 4 > end) return this.suspend(start, 5, 'LONG4');
          const n = view.getInt32(pos, true);
          if (n < 0) this.fail(`LONG4 with a negative length ${n}`, start);
          if (n > this.maxLongBytes) this.fail(`LONG4 of ${n} bytes is wider than the ${this.maxLongBytes}-byte limit`, start);
          if (pos + 4 + n > end) return this.suspend(start, 5 + n, 'LONG4');
          this.push1(decodeLong(buf, pos + 4, n), 0);
          pos += 4 + n;
          break;
        }
        case 0x47: // BINFLOAT (big-endian)
          if (pos + 8 > end) return this.suspend(start, 9, 'BINFLOAT');
          this.push1(view.getFloat64(pos, false), 0);
          pos += 8;
          break;
        case 0x8c: {
          // SHORT_BINUNICODE
          if (pos + 1 > end) return this.suspend(start, 2, 'SHORT_BINUNICODE');
          const n = buf[pos] ?? 0;
          if (pos + 1 + n > end) return this.suspend(start, 2 + n, 'SHORT_BINUNICODE');
          this.push1(decodeUtf8(buf, pos + 1, pos + 1 + n), 0);
          pos += 1 + n;
          break;
        }
        case 0x58: {
          // BINUNICODE
          if (pos + 4 > end) return this.suspend(start, 5, 'BINUNICODE');
          const n = view.getUint32(pos, true);
          this.checkLength(n, start, 'BINUNICODE');
          if (pos + 4 + n > end) return this.suspend(start, 5 + n, 'BINUNICODE');
          this.push1(decodeUtf8(buf, pos + 4, pos + 4 + n), 0);
          pos += 4 + n;
          break;
        }
        case 0x8d: {
          // BINUNICODE8
          if (pos + 8 > end) return this.suspend(start, 9, 'BINUNICODE8');
          const n = length8(view, pos);
          this.checkLength(n, start, 'BINUNICODE8');
          if (pos + 8 + n > end) return this.suspend(start, 9 + n, 'BINUNICODE8');
          this.push1(decodeUtf8(buf, pos + 8, pos + 8 + n), 0);
          pos += 8 + n;
          break;
        }
        case 0x55: {
          // SHORT_BINSTRING (Python 2 str, read as Latin-1)
          if (pos + 1 > end) return this.suspend(start, 2, 'SHORT_BINSTRING');
          const n = buf[pos] ?? 0;
          if (pos + 1 + n > end) return this.suspend(start, 2 + n, 'SHORT_BINSTRING');
          this.push1(latin1(buf, pos + 1, pos + 1 + n), 0);
          pos += 1 + n;
          break;
        }
        case 0x54: {
          // BINSTRING
          if (pos + 4 > end) return this.suspend(start, 5, 'BINSTRING');
          const n = view.getInt32(pos, true);
          if (n < 0) this.fail(`BINSTRING with a negative length ${n}`, start);
          this.checkLength(n, start, 'BINSTRING');
          if (pos + 4 + n > end) return this.suspend(start, 5 + n, 'BINSTRING');
          this.push1(latin1(buf, pos + 4, pos + 4 + n), 0);
          pos += 4 + n;
          break;
        }
        case 0x43: {
          // SHORT_BINBYTES
          if (pos + 1 > end) return this.suspend(start, 2, 'SHORT_BINBYTES');
          const n = buf[pos] ?? 0;
          if (pos + 1 + n > end) return this.suspend(start, 2 + n, 'SHORT_BINBYTES');
          this.push1(buf.slice(pos + 1, pos + 1 + n), 0);
          pos += 1 + n;
          break;
        }
        case 0x42: {
          // BINBYTES
          if (pos + 4 > end) return this.suspend(start, 5, 'BINBYTES');
          const n = view.getUint32(pos, true);
          this.checkLength(n, start, 'BINBYTES');
          if (pos + 4 + n > end) return this.suspend(start, 5 + n, 'BINBYTES');
          this.push1(buf.slice(pos + 4, pos + 4 + n), 0);
          pos += 4 + n;
          break;
        }
        case 0x8e:
        case 0x96: {
          // BINBYTES8, BYTEARRAY8
          const what = code === 0x8e ? 'BINBYTES8' : 'BYTEARRAY8';
          if (pos + 8 > end) return this.suspend(start, 9, what);
          const n = length8(view, pos);
          this.checkLength(n, start, what);
          if (pos + 8 + n > end) return this.suspend(start, 9 + n, what);
          this.push1(buf.slice(pos + 8, pos + 8 + n), 0);
          pos += 8 + n;
          break;
        }
        case 0x5d: // EMPTY_LIST
        case 0x29: // EMPTY_TUPLE
        case 0x8f: // EMPTY_SET
          this.push1([], 1);
          break;
        case 0x7d: // EMPTY_DICT
          this.push1({}, 1);
          break;
        case 0x85:
        case 0x86:
        case 0x87: {
          // TUPLE1, TUPLE2, TUPLE3
          const n = code - 0x84;
          const from = stack.length - n;
          if (from < (this.marks[this.marks.length - 1] ?? 0)) this.fail(`TUPLE${n} needs ${n} values on the stack`, start);
          const { values, depth } = this.popFrom(from);
          if (depth + 1 > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`, start);
          this.push1(values, depth + 1);
          break;
        }
        case 0x74: // TUPLE
        case 0x6c: // LIST
        case 0x91: {
          // FROZENSET
          const what = opcodeName(code) ?? 'TUPLE';
          const { values, depth } = this.popFrom(this.popMark(start, what));
          if (depth + 1 > this.maxDepth) this.fail(`nesting deeper than ${this.maxDepth} levels`, start);
          this.push1(values, depth + 1);
          break;
        }
        case 0x64: {
          // DICT
          const from = this.popMark(start, 'DICT');
          this.push1({}, 1);
          // The new dict sits below its items: move it there, then fill it as SETITEMS would.
          const dict = stack.pop() ?? null;
          this.depths.pop();
          this.tags.pop();
          stack.splice(from, 0, dict);
          this.depths.splice(from, 0, 1);
          this.tags.splice(from, 0, FRESH);
          this.setItems(from + 1, start, 'DICT');
          break;
        }
        case 0x61: {
          // APPEND
          const slot = stack.length - 2;
          const list = this.target(slot, start, 'APPEND');
          if (!Array.isArray(list)) this.fail(`APPEND needs a list below the value, found ${kindOf(list)}`, start);
          this.place(slot + 1, slot, start, 'APPEND');
          this.deepen(slot, this.settle(slot + 1), start);
          list.push(stack.pop() ?? null);
          this.depths.pop();
          this.tags.pop();
          this.trace?.appended(list, this.memo);
          break;
        }
        case 0x65: // APPENDS
          this.addItems(this.popMark(start, 'APPENDS'), start, 'APPENDS');
          break;
        case 0x90: // ADDITEMS
          this.addItems(this.popMark(start, 'ADDITEMS'), start, 'ADDITEMS');
          break;
        case 0x73: // SETITEM
          if (stack.length < 3) this.fail('SETITEM needs a dict, a key and a value', start);
          this.setItems(stack.length - 2, start, 'SETITEM');
          break;
        case 0x75: // SETITEMS
          this.setItems(this.popMark(start, 'SETITEMS'), start, 'SETITEMS');
          break;
        case 0x71: // BINPUT
          if (pos + 1 > end) return this.suspend(start, 2, 'BINPUT');
          this.memoPut(buf[pos] ?? 0, start, 'BINPUT');
          pos += 1;
          break;
        case 0x72: // LONG_BINPUT
          if (pos + 4 > end) return this.suspend(start, 5, 'LONG_BINPUT');
          this.memoPut(view.getUint32(pos, true), start, 'LONG_BINPUT');
          pos += 4;
          break;
        case 0x94: // MEMOIZE
          this.memoPut(this.memo.length, start, 'MEMOIZE');
          break;
        case 0x68: // BINGET
          if (pos + 1 > end) return this.suspend(start, 2, 'BINGET');
          this.memoGet(buf[pos] ?? 0, start, 'BINGET');
          pos += 1;
          break;
        case 0x6a: // LONG_BINGET
          if (pos + 4 > end) return this.suspend(start, 5, 'LONG_BINGET');
          this.memoGet(view.getUint32(pos, true), start, 'LONG_BINGET');
          pos += 4;
          break;
        case 0x63: // GLOBAL: name what it asked for (text only; nothing is resolved)
          this.fail(`${refusalOf(code)}; it asks for ${globalName(buf, pos, end)}`, start);
          break;
        case 0x93: // STACK_GLOBAL
          this.fail(`${refusalOf(code)}; it asks for ${stackGlobalName(stack)}`, start);
          break;
        default:
          this.fail(start === 0 && this.base === 0 ? `not a pickle: ${refusalOf(code)}` : refusalOf(code), start);
      }
    }
    this.pos = pos;
    return true;
  }

  /**
   * The top-level dict's items known to be complete while the rest is still being read: those a
   * SETITEMS already placed in it, and each key and value pair still on the stack that the next
   * key sits above (a str outside any open MARK, so nothing can be added to that value any more). A
   * snapshot's `segments` come first (PyTorch and torch_npu build the dict in that order), so they
   * are complete long before the trace is read: the segments-first view. The values are the
   * reader's own: read them, never change them.
   */
  completeTopItems(): Map<string, PickleValue> {
    const items = new Map<string, PickleValue>();
    const top = this.stack[0];
    if (this.finished || top === undefined || !isDict(top) || this.marks[0] !== 1) return items;
    for (const key of Object.keys(top)) items.set(key, top[key] ?? null);
    const open = new Set(this.marks);
    // The next key is a str outside any MARK; a value still being filled has a MARK or an item above it
    // (a snapshot's lists hold dicts and lists, never bare strs, so an item is not taken for a key).
    for (let slot = 1; slot + 2 < this.stack.length; slot += 2) {
      const key = this.stack[slot];
      if (typeof key !== 'string' || typeof this.stack[slot + 2] !== 'string' || open.has(slot + 2)) break;
      items.set(key, this.stack[slot + 1] ?? null);
    }
    return items;
  }

  /** The protocol named by the PROTO opcode (0 when there was none). */
  get pickleProtocol(): number {
    return this.protocol;
  }
}

/** Reads a whole pickle held in memory. */
export function readPickle(bytes: Uint8Array, limits: PickleLimits = {}): PickleValue {
  const reader = new PickleReader({ ...limits, totalBytes: bytes.length });
  reader.push(bytes);
  return reader.end();
}
