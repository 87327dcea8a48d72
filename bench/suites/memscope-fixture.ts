import { createHash } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, renameSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A generated msMemScope `memscope_dump_*.csv` for the CSV benchmark (issue 16), written with the
 * columns and Attr keys of Ascend/msmemscope's output_file_spec (shared/reference/formats.md):
 * per device a few HAL allocations (the driver's memory, Attr with page_type) and PTA blocks placed
 * inside them (Attr allocation_id, addr, size, owner, total, used), their FREEs, and the rows that
 * change no memory (OP_LAUNCH, KERNEL_LAUNCH, ACCESS, MSTX). MALLOC rows carry a Python stack of
 * 3–8 frames, one line each inside a quoted field, drawn from a pool as a training loop repeats its
 * stacks; some carry a C stack too, which PageLens does not read.
 *
 * The file is kept in the temp directory under a name made of the options and this file's text,
 * as formats-fixture.ts keeps the snapshot.
 */
export interface DumpOptions {
  readonly rows: number;
  readonly devices: number;
  /** Distinct Python stacks the MALLOC rows draw from. */
  readonly stackPool: number;
  /** Live framework blocks per device the generator keeps near. */
  readonly liveTarget: number;
}

export interface DumpFile {
  readonly path: string;
  readonly bytes: number;
  readonly rows: number;
}

const HEADER = 'ID,Event,Event Type,Name,Timestamp(ns),Process Id,Thread Id,Device Id,Ptr,Attr,Call Stack(Python),Call Stack(C)';
const HAL_SEGMENTS = 32;
const HAL_SIZE = 32 * 1024 * 1024;
const SLOT = 64 * 1024;
const SLOTS = HAL_SEGMENTS * (HAL_SIZE / SLOT);
const BASE = 0x12c000000000n;
const FUNCTIONS = ['forward', '_call_impl', '_wrapped_call_impl', 'step', 'train_one_epoch', 'main', 'backward', 'attention', 'mlp'];
const OPS = ['aten::add', 'aten::mm', 'aten::empty_strided', 'aten::copy_', 'npu::npu_fusion_attention', 'aten::layer_norm'];

/** mulberry32: the same file from the same options. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function stacks(options: DumpOptions, next: () => number): string[] {
  const files = ['train.py', 'trainer/loop.py', 'models/llama/modeling_llama.py', 'torch/nn/modules/module.py', 'torch_npu/utils/_step.py'];
  const frame = (): string => {
    const file = files[Math.floor(next() * files.length)] ?? 'train.py';
    return `/home/user/project/${file}(${1 + Math.floor(next() * 2000)}): ${FUNCTIONS[Math.floor(next() * FUNCTIONS.length)]}`;
  };
  return Array.from({ length: options.stackPool }, () => Array.from({ length: 3 + Math.floor(next() * 6) }, frame).join('\n'));
}

function* rows(options: DumpOptions): Generator<string> {
  const next = random(16);
  const pool = stacks(options, next);
  const cStack = 'libtorch_npu.so(_ZN6at_npu6native11NPUCachingAllocator6mallocEv+0x1a4)\nlibascendcl.so(aclrtMalloc+0x3c)';
  let time = 1732000000000000000n;
  let id = 0;
  let allocation = 0;
  const live = Array.from({ length: options.devices }, () => new Map<number, { id: number; size: number }>());
  const row = (event: string, type: string, name: string, device: number, ptr: string, attr: string, py = '', c = ''): string => {
    id += 1;
    time += BigInt(200 + Math.floor(next() * 4800));
    return `${id},${event},${type},${name},${time},4242,${4243 + device},${device},${ptr},${attr},${py === '' ? '' : `"${py}"`},${c === '' ? '' : `"${c}"`}`;
  };
  for (let device = 0; device < options.devices; device += 1) {
    for (let segment = 0; segment < HAL_SEGMENTS; segment += 1) {
      const addr = `0x${(BASE + BigInt(device) * 0x100000000n + BigInt(segment * HAL_SIZE)).toString(16)}`;
      yield row('MALLOC', 'HAL', 'N/A', device, addr, `"{addr:${addr},size:${HAL_SIZE},page_type:huge,alloc_type:normal}"`);
    }
  }
  let used = 0;
  while (id < options.rows) {
    const device = Math.floor(next() * options.devices);
    const blocks = live[device] ?? new Map<number, { id: number; size: number }>();
    const pick = next();
    if (pick < 0.2) {
      const op = OPS[Math.floor(next() * OPS.length)] ?? 'aten::add';
      yield row(next() < 0.55 ? 'OP_LAUNCH' : 'KERNEL_LAUNCH', 'N/A', op, device, 'N/A', '{}');
      continue;
    }
    if (pick < 0.21) {
      yield row(next() < 0.5 ? 'ACCESS' : 'MSTX', next() < 0.5 ? 'READ' : 'Mark', 'N/A', device, 'N/A', '{}');
      continue;
    }
    const slot = Math.floor(next() * SLOTS);
    const addr = `0x${(BASE + BigInt(device) * 0x100000000n + BigInt(slot * SLOT)).toString(16)}`;
    const held = blocks.get(slot);
    const type = next() < 0.05 ? 'PTA_WORKSPACE' : 'PTA';
    if (held !== undefined && (blocks.size >= options.liveTarget || next() < 0.5)) {
      blocks.delete(slot);
      used -= held.size;
      yield row(
        'FREE',
        type,
        'N/A',
        device,
        addr,
        `"{allocation_id:${held.id},addr:${addr},size:${held.size},total:${HAL_SIZE * HAL_SEGMENTS},used:${used}}"`,
      );
    } else if (held === undefined && blocks.size < options.liveTarget * 1.2) {
      allocation += 1;
      const size = 512 * (1 + Math.floor(next() * (SLOT / 512)));
      blocks.set(slot, { id: allocation, size });
      used += size;
      const py = pool[Math.floor(next() * next() * pool.length)] ?? '';
      yield row(
        'MALLOC',
        type,
        'N/A',
        device,
        addr,
        `"{allocation_id:${allocation},addr:${addr},size:${size},owner:PTA@model,total:${HAL_SIZE * HAL_SEGMENTS},used:${used}}"`,
        py,
        next() < 0.3 ? cStack : '',
      );
    }
  }
}

const SELF = fileURLToPath(import.meta.url);

export function memScopeDumpFile(options: DumpOptions): DumpFile {
  const hash = createHash('sha256').update(JSON.stringify(options)).update(readFileSync(SELF)).digest('hex').slice(0, 16);
  const path = join(tmpdir(), `pagelens-bench-memscope_dump_${hash}.csv`);
  if (existsSync(path)) return { path, bytes: statSync(path).size, rows: options.rows };
  const partial = `${path}.${process.pid}.partial`;
  const fd = openSync(partial, 'w');
  try {
    writeSync(fd, `${HEADER}\r\n`);
    let batch: string[] = [];
    for (const line of rows(options)) {
      batch.push(line);
      if (batch.length === 10_000) {
        writeSync(fd, `${batch.join('\r\n')}\r\n`);
        batch = [];
      }
    }
    if (batch.length > 0) writeSync(fd, `${batch.join('\r\n')}\r\n`);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, path);
  return { path, bytes: statSync(path).size, rows: options.rows };
}
