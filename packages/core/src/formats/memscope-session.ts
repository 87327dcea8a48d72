import { buildAddressMap, type RecordedRange, toModelAddress } from './address-map.ts';
import type { MemScopeDump, MemScopeEvent } from './ascend-csv.ts';
import type { PickleDict } from './pickle-values.ts';
import type { Block, MemorySnapshot, Segment, StackFrames, TraceEntry } from './snapshot-types.ts';

/**
 * msMemScope's `memscope_dump_*.csv` as the trace of a snapshot, so it becomes a recorded session
 * through the same importSnapshot as a pickle (issue 16). Facts (Ascend/msmemscope
 * `docs/zh/output_file_spec.md`): a block's life is one `Ptr` from its MALLOC to the next FREE;
 * MALLOC/FREE carry `Event Type` HAL (the driver's device memory), PTA, PTA_WORKSPACE, MindSpore,
 * ATB (a framework's allocator handing out pieces of that memory) or HOST; `Attr` has `size`.
 *
 * So HAL rows become segment_alloc / segment_free (device allocations, whose pages PageLens models)
 * and the framework rows become block alloc / free_completed inside them. Everything else is counted
 * by why it was not placed (MEMSCOPE_UNPLACED), never dropped silently.
 */

/** Why a row of the dump is not a change of device memory in the model; one entry per reason. */
export const MEMSCOPE_UNPLACED = [
  /** SYSTEM, ACCESS, OP_LAUNCH, KERNEL_LAUNCH, MSTX, SNAPSHOT: no memory changes hands. */
  'not-malloc-free',
  /** Event Type HOST: host memory, and the page map shows device memory. */
  'host',
  /** No device number in `Device Id` (N/A, CPU). */
  'no-device',
  /** A MALLOC/FREE type the file spec does not list. */
  'unknown-type',
  /** A MALLOC with no `size` in `Attr`, or a FREE whose size neither it nor a MALLOC gives. */
  'no-size',
  /** No address in `Ptr` or `Attr` addr. */
  'no-address',
  /** A framework block (PTA, ATB, …) at an address no HAL allocation of the file covers: in the log, not on the page map. */
  'outside-hal',
  /** A FREE of an address that was not allocated since the recording began: shown in the log, changing nothing. */
  'free-unknown',
] as const;
export type MemScopeUnplaced = (typeof MEMSCOPE_UNPLACED)[number];

export interface MemScopeConversion {
  readonly snapshot: MemorySnapshot;
  /** Per reason: how many rows, and the line of the first (to find it in the file). */
  readonly unplaced: Readonly<Partial<Record<MemScopeUnplaced, { count: number; firstLine: number }>>>;
  /** Rows by `Event` as written (MALLOC 120, ACCESS 3, …). */
  readonly events: Readonly<Record<string, number>>;
  readonly halRows: number;
  readonly blockRows: number;
}

const BLOCK_TYPES = new Set(['PTA', 'PTA_WORKSPACE', 'MindSpore', 'ATB']);
const MiB = 1024 * 1024;

/** `file.py(12): name`, `file.py:12 name`, `File "file.py", line 12, in name`; otherwise the whole text as the file. */
function frameOf(text: string): PickleDict {
  const paren = /^(.*)\((\d+)\)\s*:?\s*(.*)$/.exec(text);
  if (paren) return { filename: paren[1] ?? '', line: Number(paren[2]), name: paren[3] ?? '' };
  const python = /^File "(.*)", line (\d+), in (.*)$/.exec(text);
  if (python) return { filename: python[1] ?? '', line: Number(python[2]), name: python[3] ?? '' };
  const colon = /^(.*?):(\d+)\s+(.*)$/.exec(text);
  if (colon) return { filename: colon[1] ?? '', line: Number(colon[2]), name: colon[3] ?? '' };
  return { filename: text, line: 0, name: '' };
}

/** The Python stack as written, one frame per line (or `;`/`|`-separated), kept in the file's order. */
export function memScopeFrames(stack: string): StackFrames {
  const trimmed = stack.trim();
  if (trimmed === '' || trimmed === 'N/A') return [];
  return trimmed
    .split(/\r?\n|;|\|/)
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(frameOf);
}

function addressOf(event: MemScopeEvent): bigint | undefined {
  if (event.ptr !== undefined) return event.ptr;
  const addr = event.attr.addr?.trim() ?? '';
  return /^(0x[0-9a-f]+|\d+)$/i.test(addr) ? BigInt(addr) : undefined;
}

class Counter {
  readonly unplaced: Partial<Record<MemScopeUnplaced, { count: number; firstLine: number }>> = {};
  readonly events: Record<string, number> = {};

  skip(reason: MemScopeUnplaced, line: number): void {
    const seen = this.unplaced[reason];
    if (seen === undefined) this.unplaced[reason] = { count: 1, firstLine: line };
    else seen.count += 1;
  }
}

interface DeviceLog {
  readonly trace: TraceEntry[];
  /** Live HAL allocations and framework blocks: address → size, stack. */
  readonly hal: Map<bigint, number>;
  readonly blocks: Map<bigint, { size: number; frames: StackFrames }>;
  /** Index in `trace` of each framework alloc, with its line, to check it lies in a HAL range afterwards. */
  readonly blockEntries: { index: number; line: number }[];
}

function entry(action: TraceEntry['action'], addr: bigint, size: number, timeUs: number, frames: StackFrames): TraceEntry {
  return { action, addr, size, stream: 0n, timeUs, poolId: undefined, deviceFree: undefined, frames };
}

export function memScopeToSnapshot(dump: MemScopeDump): MemScopeConversion {
  const counter = new Counter();
  const devices: DeviceLog[] = [];
  const logOf = (device: number): DeviceLog => {
    for (let d = devices.length; d <= device; d += 1) devices.push({ trace: [], hal: new Map(), blocks: new Map(), blockEntries: [] });
    return devices[device] as DeviceLog;
  };
  // Bigints: Math.min does not take them.
  let t0 = dump.events[0]?.timestampNs ?? 0n;
  for (const event of dump.events) if (event.timestampNs < t0) t0 = event.timestampNs;
  // Stacks repeat: one frame list per distinct stack text, shared by its rows (and interned once by the page).
  const stacks = new Map<string, StackFrames>();
  let halRows = 0;
  let blockRows = 0;
  for (const event of dump.events) {
    counter.events[event.event] = (counter.events[event.event] ?? 0) + 1;
    if (event.event !== 'MALLOC' && event.event !== 'FREE') {
      counter.skip('not-malloc-free', event.line);
      continue;
    }
    const hal = event.eventType === 'HAL';
    if (event.eventType === 'HOST') counter.skip('host', event.line);
    else if (!hal && !BLOCK_TYPES.has(event.eventType)) counter.skip('unknown-type', event.line);
    else if (event.device === undefined) counter.skip('no-device', event.line);
    else {
      const address = addressOf(event);
      if (address === undefined) {
        counter.skip('no-address', event.line);
        continue;
      }
      const log = logOf(event.device);
      const live = hal ? log.hal : log.blocks;
      const timeUs = Number(event.timestampNs - t0) / 1000;
      if (event.event === 'MALLOC') {
        if (event.size === undefined) {
          counter.skip('no-size', event.line);
          continue;
        }
        let frames = stacks.get(event.pythonStack);
        if (frames === undefined) {
          frames = memScopeFrames(event.pythonStack);
          stacks.set(event.pythonStack, frames);
        }
        if (hal) {
          log.hal.set(address, event.size);
          log.trace.push(entry('segment_alloc', address, event.size, timeUs, frames));
          halRows += 1;
        } else {
          log.blocks.set(address, { size: event.size, frames });
          log.blockEntries.push({ index: log.trace.length, line: event.line });
          log.trace.push(entry('alloc', address, event.size, timeUs, frames));
          blockRows += 1;
        }
        continue;
      }
      const known = hal ? log.hal.get(address) : log.blocks.get(address)?.size;
      if (known === undefined) {
        counter.skip('free-unknown', event.line);
        continue;
      }
      live.delete(address);
      // A framework FREE gives the block back at once (the file records no pending stage): requested and completed together.
      if (!hal) log.trace.push(entry('free_requested', address, known, timeUs, []));
      log.trace.push(entry(hal ? 'segment_free' : 'free_completed', address, known, timeUs, []));
      if (hal) halRows += 1;
      else blockRows += 1;
    }
  }
  const segments = finalSegments(devices);
  devices.forEach((log, device) => {
    const ranges: RecordedRange[] = log.trace
      .filter((item) => item.action === 'segment_alloc')
      .map((item) => ({ start: item.addr, size: item.size }));
    const map = buildAddressMap(device, ranges);
    for (const { index, line } of log.blockEntries) {
      const item = log.trace[index];
      if (item !== undefined && toModelAddress(map, item.addr) === undefined) counter.skip('outside-hal', line);
    }
  });
  const snapshot: MemorySnapshot = {
    kind: 'snapshot',
    format: 'unknown',
    formatEvidence: `msMemScope dump: ${halRows.toLocaleString('en-US')} HAL rows as device allocations, ${blockRows.toLocaleString('en-US')} framework rows as blocks`,
    segments,
    deviceTraces: devices.map((log) => log.trace),
    allocatorSettings: undefined,
    hostSegments: undefined,
    hostTraces: undefined,
    otherKeys: [],
  };
  return { snapshot, unplaced: counter.unplaced, events: counter.events, halRows, blockRows };
}

/** The HAL allocations live at the end, each with the framework blocks inside it: the "final state" a snapshot would carry. */
function finalSegments(devices: readonly DeviceLog[]): Segment[] {
  const segments: Segment[] = [];
  devices.forEach((log, device) => {
    const starts = [...log.hal.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const address of starts) {
      const size = log.hal.get(address) ?? 0;
      const end = address + BigInt(size);
      const blocks: Block[] = [];
      for (const [at, block] of log.blocks) {
        if (at >= address && at < end) {
          blocks.push({ address: at, size: block.size, requestedSize: block.size, state: 'active_allocated', frames: block.frames });
        }
      }
      const allocated = blocks.reduce((sum, block) => sum + block.size, 0);
      segments.push({
        device,
        address,
        totalSize: size,
        allocatedSize: allocated,
        activeSize: allocated,
        requestedSize: allocated,
        stream: 0n,
        segmentType: size > MiB ? 'large' : 'small',
        poolId: undefined,
        isExpandable: false,
        frames: [],
        blocks,
      });
    }
  });
  return segments;
}
