import { closeSync, existsSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A torch_npu-shaped snapshot with a trace of any length, written straight as pickle opcodes
 * (protocol 4, as CPython's pickler writes a dict of lists: MEMOIZE after each container, MARK …
 * APPENDS batches of 1,000), so a 10 M-entry file (≈1.7 GB) takes a minute rather than the hour the
 * object-building fixtures (snapshot-fixtures.ts) would. One device, one 2 GiB segment whose 200,000
 * frames are the pool every entry's 56-frame stack refers to (LONG_BINGET), and a trace that
 * allocates blocks in the segment and frees them, keeping about 2,000 live.
 */
export interface LongTrace {
  readonly path: string;
  readonly bytes: number;
  readonly entries: number;
}

const FRAMES = 200_000;
const DEPTH = 56;
const LIVE = 2000;
const BLOCK = 512 * 1024;
const SEGMENT = 2 * 1024 * 1024 * 1024;
const BASE = 0x12c0_0000_0000;

class Out {
  private buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
  private at = 0;
  written = 0;
  memo = 0;
  constructor(private readonly fd: number) {}

  private room(n: number): void {
    if (this.at + n <= this.buffer.length) return;
    writeSync(this.fd, this.buffer, 0, this.at);
    this.written += this.at;
    this.at = 0;
  }
  op(...bytes: number[]): void {
    this.room(bytes.length);
    for (const b of bytes) this.buffer[this.at++] = b;
  }
  u32(value: number): void {
    this.room(4);
    this.buffer.writeUInt32LE(value >>> 0, this.at);
    this.at += 4;
  }
  /** MEMOIZE, answering the index it took. */
  memoize(): number {
    this.op(0x94);
    this.memo += 1;
    return this.memo - 1;
  }
  get(index: number): void {
    if (index < 256) this.op(0x68, index);
    else {
      this.op(0x6a);
      this.u32(index);
    }
  }
  str(text: string): number {
    const bytes = Buffer.from(text, 'utf8');
    this.op(0x8c, bytes.length);
    this.room(bytes.length);
    bytes.copy(this.buffer, this.at);
    this.at += bytes.length;
    return this.memoize();
  }
  int(value: number): void {
    if (value >= 0 && value < 2 ** 31) {
      this.op(0x4a);
      this.u32(value);
      return;
    }
    // LONG1 of 8 bytes, little-endian two's complement (addresses).
    this.op(0x8a, 8);
    this.room(8);
    this.buffer.writeBigInt64LE(BigInt(value), this.at);
    this.at += 8;
  }
  end(): void {
    writeSync(this.fd, this.buffer, 0, this.at);
    this.written += this.at;
  }
}

export function longTraceFile(entries: number): LongTrace {
  const path = join(tmpdir(), `pagelens-bench-long-trace-${entries}.pickle`);
  if (existsSync(path)) return { path, bytes: statSync(path).size, entries };
  const partial = `${path}.${process.pid}.partial`;
  const fd = openSync(partial, 'w');
  const out = new Out(fd);
  const key = new Map<string, number>();
  const name = (text: string): void => {
    const known = key.get(text);
    if (known === undefined) key.set(text, out.str(text));
    else out.get(known);
  };
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  out.op(0x80, 4, 0x7d);
  out.memoize();
  out.op(0x28);
  name('segments');
  out.op(0x5d);
  out.memoize();
  // The one segment: its frames list defines the frame pool.
  out.op(0x7d);
  out.memoize();
  out.op(0x28);
  for (const [field, value] of [
    ['device', 0],
    ['address', BASE],
    ['total_size', SEGMENT],
    ['allocated_size', 0],
    ['active_size', 0],
    ['requested_size', 0],
    ['stream', 0],
  ] as const) {
    name(field);
    out.int(value);
  }
  name('segment_type');
  name('large');
  name('is_expandable');
  out.op(0x89);
  name('blocks');
  out.op(0x5d);
  out.memoize();
  name('frames');
  out.op(0x5d);
  out.memoize();
  const frames: number[] = [];
  for (let batch = 0; batch < FRAMES; batch += 1000) {
    out.op(0x28);
    for (let i = batch; i < batch + 1000; i += 1) {
      out.op(0x7d);
      frames.push(out.memoize());
      out.op(0x28);
      name('filename');
      out.str(`/home/user/project/model/layers/block_${i % 977}.py`);
      name('line');
      out.int(i % 4000);
      name('name');
      out.str(`forward_${i}`);
      out.op(0x75);
    }
    out.op(0x65);
  }
  out.op(0x75, 0x61); // the segment's SETITEMS; APPEND it to segments
  name('device_traces');
  out.op(0x5d);
  out.memoize();
  out.op(0x5d);
  out.memoize();
  const live: number[] = [];
  let next = 0;
  const entry = (action: string, slot: number): void => {
    out.op(0x7d);
    out.memoize();
    out.op(0x28);
    name('action');
    name(action);
    name('addr');
    out.int(BASE + slot * BLOCK);
    name('size');
    out.int(BLOCK);
    name('stream');
    out.int(0);
    name('frames');
    out.op(0x5d);
    out.memoize();
    out.op(0x28);
    for (let f = 0; f < DEPTH; f += 1) out.get(frames[random(FRAMES)] ?? 0);
    out.op(0x65, 0x75);
  };
  let written = 0;
  while (written < entries) {
    out.op(0x28);
    for (let i = 0; i < 1000 && written < entries; i += 1, written += 1) {
      if (live.length < LIVE || (random(2) === 0 && live.length < SEGMENT / BLOCK - 1)) {
        const slot = next % (SEGMENT / BLOCK);
        next += 1;
        live.push(slot);
        entry('alloc', slot);
      } else {
        const slot = live.shift() ?? 0;
        entry('free_completed', slot);
      }
    }
    out.op(0x65);
  }
  // Device 0's list into device_traces; the top dict's SETITEMS; STOP.
  out.op(0x61, 0x75, 0x2e);
  out.end();
  closeSync(fd);
  renameSync(partial, path);
  return { path, bytes: statSync(path).size, entries };
}
