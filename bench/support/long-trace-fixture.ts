import { closeSync, existsSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A torch_npu-shaped snapshot with a trace of any length, written straight as pickle opcodes
 * (protocol 4, as CPython's pickler writes a dict of lists: MEMOIZE after each container, MARK …
 * APPENDS batches of 1,000), so a 10 M-entry file (≈3.3 GB) takes half a minute rather than the
 * hour, and the tens of GB of heap, the object-building fixtures (snapshot-fixtures.ts) would. One
 * device, one 2 GiB segment whose 200,000 frames are the pool every entry's 56-frame stack refers
 * to (LONG_BINGET), and a trace that allocates blocks in the segment and frees them, keeping about
 * 2,000 live. The segment is the trace's end: the blocks still live are its blocks, with their
 * alloc entries' stacks, and its allocated size is theirs (a first pass of the same random sequence
 * finds them, since the segments come before the trace).
 *
 * The random sequence repeats every 10,466 draws (its products round in doubles past 2^53), so the
 * trace repeats too, as a training loop's steps do: the 10 M-entry file's 5 M alloc stacks are
 * 6,246 distinct ones (counted 2026-12-03), which the loader keeps once each (core stack-table.ts).
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

/** One trace entry as the plan makes it; the plan hands out the same object each time. */
interface Planned {
  action: 'alloc' | 'free_completed';
  slot: number;
  /** The entry's stack: indices into the frame pool. */
  readonly stack: number[];
}

/** The trace, entry by entry, from one fixed random sequence: each pass over it makes the same entries. */
function* plan(entries: number): Generator<Planned> {
  let seed = 7;
  const random = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    // The high bits: an LCG's low bits repeat with short periods (the lowest alternates).
    return Math.floor((seed / 2 ** 31) * n);
  };
  const live: number[] = [];
  let next = 0;
  const planned: Planned = { action: 'alloc', slot: 0, stack: new Array<number>(DEPTH).fill(0) };
  for (let written = 0; written < entries; written += 1) {
    // Allocations grow less likely as more blocks live, so the count hovers about LIVE. Blocks are
    // freed oldest first, so the live ones are consecutive slots and a new one never lands on one.
    if (live.length === 0 || (random(2 * LIVE) >= live.length && live.length < SEGMENT / BLOCK)) {
      planned.action = 'alloc';
      planned.slot = next % (SEGMENT / BLOCK);
      next += 1;
      live.push(planned.slot);
    } else {
      planned.action = 'free_completed';
      planned.slot = live.shift() ?? 0;
    }
    for (let f = 0; f < DEPTH; f += 1) planned.stack[f] = random(FRAMES);
    yield planned;
  }
}

/** The blocks live at the trace's end, by address, each with its alloc entry's stack. */
function liveAtEnd(entries: number): [slot: number, stack: number[]][] {
  const live = new Map<number, number[]>();
  for (const entry of plan(entries)) {
    if (entry.action === 'alloc') live.set(entry.slot, [...entry.stack]);
    else live.delete(entry.slot);
  }
  return [...live].sort(([a], [b]) => a - b);
}

export function longTraceFile(entries: number): LongTrace {
  // The name changes with what the generator writes (v2: the segment holds the trace's live blocks).
  const path = join(tmpdir(), `pagelens-bench-long-trace-v2-${entries}.pickle`);
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
  const final = liveAtEnd(entries);
  const allocated = final.length * BLOCK;
  const pool: number[] = [];
  /** A frames list of references into the pool (which is written first). */
  const stack = (frames: readonly number[]): void => {
    out.op(0x5d);
    out.memoize();
    out.op(0x28);
    for (const frame of frames) out.get(pool[frame] ?? 0);
    out.op(0x65);
  };
  out.op(0x80, 4, 0x7d);
  out.memoize();
  out.op(0x28);
  name('segments');
  out.op(0x5d);
  out.memoize();
  // The one segment: its frames list defines the frame pool, its blocks are the trace's live ones.
  out.op(0x7d);
  out.memoize();
  out.op(0x28);
  for (const [field, value] of [
    ['device', 0],
    ['address', BASE],
    ['total_size', SEGMENT],
    ['allocated_size', allocated],
    ['active_size', allocated],
    ['requested_size', allocated],
    ['stream', 0],
  ] as const) {
    name(field);
    out.int(value);
  }
  name('segment_type');
  name('large');
  name('is_expandable');
  out.op(0x89);
  name('frames');
  out.op(0x5d);
  out.memoize();
  for (let batch = 0; batch < FRAMES; batch += 1000) {
    out.op(0x28);
    for (let i = batch; i < batch + 1000; i += 1) {
      out.op(0x7d);
      pool.push(out.memoize());
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
  name('blocks');
  out.op(0x5d);
  out.memoize();
  for (let batch = 0; batch < final.length; batch += 1000) {
    out.op(0x28);
    for (const [slot, frames] of final.slice(batch, batch + 1000)) {
      out.op(0x7d);
      out.memoize();
      out.op(0x28);
      name('address');
      out.int(BASE + slot * BLOCK);
      for (const field of ['size', 'requested_size']) {
        name(field);
        out.int(BLOCK);
      }
      name('state');
      name('active_allocated');
      name('frames');
      stack(frames);
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
  let inBatch = 0;
  for (const entry of plan(entries)) {
    if (inBatch === 0) out.op(0x28);
    out.op(0x7d);
    out.memoize();
    out.op(0x28);
    name('action');
    name(entry.action);
    name('addr');
    out.int(BASE + entry.slot * BLOCK);
    name('size');
    out.int(BLOCK);
    name('stream');
    out.int(0);
    name('frames');
    stack(entry.stack);
    out.op(0x75);
    inBatch += 1;
    if (inBatch === 1000) {
      out.op(0x65);
      inBatch = 0;
    }
  }
  if (inBatch > 0) out.op(0x65);
  // Device 0's list into device_traces; the top dict's SETITEMS; STOP.
  out.op(0x61, 0x75, 0x2e);
  out.end();
  closeSync(fd);
  renameSync(partial, path);
  return { path, bytes: statSync(path).size, entries };
}
