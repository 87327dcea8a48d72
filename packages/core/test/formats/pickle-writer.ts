/**
 * Test-only pickle writer, so fixtures are made from data the test holds and are reproducible.
 * It writes what CPython's pickler writes for plain data (written from the opcode definitions of
 * pickle-opcodes.ts, not from CPython's code): memo entries for every str and container, batches
 * of 1,000 items per APPENDS/SETITEMS, protocol 4+ framing and MEMOIZE, protocol 2–3 BINPUT.
 * Equal strings share one memo entry, as interned dict keys do in CPython.
 */
export type Py = null | boolean | number | bigint | string | Uint8Array | Py[] | PyTuple | PyFloat | { readonly [key: string]: Py };

export class PyTuple {
  constructor(readonly items: readonly Py[]) {}
}
export class PyFloat {
  constructor(readonly value: number) {}
}
export const tuple = (...items: Py[]): PyTuple => new PyTuple(items);
export const float = (value: number): PyFloat => new PyFloat(value);

export interface WriteOptions {
  readonly protocol?: 2 | 3 | 4 | 5;
  /** Bytes per FRAME for protocol 4+ (CPython uses 64 KiB). */
  readonly frameBytes?: number;
}

class Bytes {
  private buf = new Uint8Array(1024);
  length = 0;

  private room(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
  }

  byte(...values: number[]): void {
    this.room(values.length);
    for (const v of values) {
      this.buf[this.length] = v & 0xff;
      this.length += 1;
    }
  }

  u16(v: number): void {
    this.byte(v, v >> 8);
  }

  u32(v: number): void {
    this.byte(v, v >>> 8, v >>> 16, v >>> 24);
  }

  raw(bytes: Uint8Array): void {
    this.room(bytes.length);
    this.buf.set(bytes, this.length);
    this.length += bytes.length;
  }

  done(): Uint8Array {
    return this.buf.slice(0, this.length);
  }

  reset(): void {
    this.length = 0;
  }
}

const encoder = new TextEncoder();

/** Minimal two's complement little-endian bytes of an int (CPython's encode_long). */
export function longBytes(value: bigint): number[] {
  if (value === 0n) return [];
  const bytes: number[] = [];
  let v = value;
  for (;;) {
    bytes.push(Number(v & 0xffn));
    v >>= 8n;
    const last = bytes[bytes.length - 1] ?? 0;
    if ((v === 0n && (last & 0x80) === 0) || (v === -1n && (last & 0x80) !== 0)) break;
  }
  return bytes;
}

export function writePickle(value: Py, options: WriteOptions = {}): Uint8Array {
  const chunks = writePickleChunks(value, options);
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * The pickle as a list of chunks: PROTO, then (protocol 4+) one chunk per FRAME, each closed at an
 * opcode boundary once it holds `frameBytes`, as CPython's framer does.
 */
export function writePickleChunks(value: Py, options: WriteOptions = {}): Uint8Array[] {
  const protocol = options.protocol ?? 4;
  const framed = protocol >= 4;
  const frame = options.frameBytes ?? 65536;
  const chunks: Uint8Array[] = [new Uint8Array([0x80, protocol])];
  const body = new Bytes();
  const flush = (): void => {
    if (body.length === 0) return;
    const payload = body.done();
    if (framed) {
      const header = new Uint8Array(9);
      header[0] = 0x95;
      new DataView(header.buffer).setUint32(1, payload.length, true);
      chunks.push(header);
    }
    chunks.push(payload);
    body.reset();
  };
  const op = (...values: number[]): void => {
    if (body.length >= frame) flush();
    body.byte(...values);
  };
  const memo = new Map<unknown, number>();
  const strings = new Map<string, number>();
  let next = 0;

  const put = (key: unknown, isString: boolean): void => {
    const index = next;
    next += 1;
    if (isString && typeof key === 'string') strings.set(key, index);
    else memo.set(key, index);
    if (protocol >= 4) op(0x94);
    else if (index < 256) op(0x71, index);
    else {
      op(0x72);
      body.u32(index);
    }
  };
  const get = (index: number): void => {
    if (index < 256) op(0x68, index);
    else {
      op(0x6a);
      body.u32(index);
    }
  };

  const write = (v: Py): void => {
    if (v === null) {
      op(0x4e);
      return;
    }
    if (v === true) {
      op(0x88);
      return;
    }
    if (v === false) {
      op(0x89);
      return;
    }
    if (v instanceof PyFloat) {
      op(0x47);
      const bytes = new Uint8Array(8);
      new DataView(bytes.buffer).setFloat64(0, v.value, false);
      body.raw(bytes);
      return;
    }
    if (typeof v === 'number' && !Number.isInteger(v)) {
      write(float(v));
      return;
    }
    if (typeof v === 'number' || typeof v === 'bigint') {
      const big = BigInt(v);
      if (big >= 0n && big < 256n) {
        op(0x4b, Number(big));
        return;
      }
      if (big >= 0n && big < 65536n) {
        op(0x4d);
        body.u16(Number(big));
        return;
      }
      if (big >= -(2n ** 31n) && big < 2n ** 31n) {
        op(0x4a);
        body.u32(Number(big) >>> 0);
        return;
      }
      const bytes = longBytes(big);
      op(0x8a, bytes.length, ...bytes);
      return;
    }
    if (typeof v === 'string') {
      const seen = strings.get(v);
      if (seen !== undefined) {
        get(seen);
        return;
      }
      const bytes = encoder.encode(v);
      if (protocol >= 4 && bytes.length < 256) op(0x8c, bytes.length);
      else {
        op(0x58);
        body.u32(bytes.length);
      }
      body.raw(bytes);
      put(v, true);
      return;
    }
    const seen = memo.get(v);
    if (seen !== undefined) {
      get(seen);
      return;
    }
    if (v instanceof Uint8Array) {
      if (v.length < 256) op(0x43, v.length);
      else {
        op(0x42);
        body.u32(v.length);
      }
      body.raw(v);
      put(v, false);
      return;
    }
    if (v instanceof PyTuple) {
      const n = v.items.length;
      if (n === 0) op(0x29);
      else if (n <= 3) {
        for (const item of v.items) write(item);
        op(0x84 + n);
      } else {
        op(0x28);
        for (const item of v.items) write(item);
        op(0x74);
      }
      put(v, false);
      return;
    }
    if (Array.isArray(v)) {
      op(0x5d);
      put(v, false);
      for (let at = 0; at < v.length; at += 1000) {
        const batch = v.slice(at, at + 1000);
        if (batch.length === 1) {
          write(batch[0] ?? null);
          op(0x61);
        } else {
          op(0x28);
          for (const item of batch) write(item);
          op(0x65);
        }
      }
      return;
    }
    op(0x7d);
    put(v, false);
    const entries = Object.entries(v);
    for (let at = 0; at < entries.length; at += 1000) {
      const batch = entries.slice(at, at + 1000);
      if (batch.length === 1) {
        write(batch[0]?.[0] ?? null);
        write(batch[0]?.[1] ?? null);
        op(0x73);
      } else {
        op(0x28);
        for (const [key, item] of batch) {
          write(key);
          write(item);
        }
        op(0x75);
      }
    }
  };

  write(value);
  op(0x2e);
  flush();
  return chunks;
}

/** A raw pickle from opcode bytes and strings (each char one byte), for hostile inputs. */
export function rawPickle(...parts: (number | string | readonly number[])[]): Uint8Array {
  const out = new Bytes();
  for (const part of parts) {
    if (typeof part === 'number') out.byte(part);
    else if (typeof part === 'string') for (const char of part) out.byte(char.charCodeAt(0));
    else out.byte(...part);
  }
  return out.done();
}
