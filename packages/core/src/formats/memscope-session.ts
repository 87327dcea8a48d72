import type { PageClass } from '../model/events.ts';
import { buildAddressMap, type RecordedRange, toModelAddress } from './address-map.ts';
import { type CsvFileReader, type MemScopeEvent, memScopeEventReader } from './ascend-csv.ts';
import { NO_FRAMES, PinnedHostRows } from './memscope-host.ts';
import type { PickleDict } from './pickle-values.ts';
import { type Block, type MemorySnapshot, type Segment, type StackFrames, traceEntry } from './snapshot-types.ts';
import { NO_STACK, StackInterner } from './stack-table.ts';
import { TraceColumns } from './trace-columns.ts';
import { encodeUtf8 } from './utf8.ts';

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
  /**
   * Event Type HOST that is not pinned: a CPU tensor's data, pageable memory no ACL call made. Pinned
   * HOST rows (`pinned:true` in Attr) become the model's pinned host buffers.
   */
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
  /** HAL allocations whose page size the file recorded (page_type), and those whose pages PageLens models. */
  readonly halPagesRecorded: number;
  readonly halPagesModeled: number;
  /** Pinned host MALLOC and FREE rows, which became host buffers (MemorySnapshot.hostTraces). */
  readonly pinnedHostRows: number;
  /**
   * HAL MALLOC rows with `alloc_type:create`: physical handles (halMemCreate, what aclrtMallocPhysical
   * makes), whose Ptr is the handle, not a device address. msMemScope writes `create` when the
   * driver call carries no allocation flag (csrc/analysis/dump.cpp, DumpMemoryEvent, at 7807ecf).
   */
  readonly halHandles: number;
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

interface DeviceLog {
  readonly trace: TraceColumns;
  /** Live HAL allocations (with the page size recorded, if any) and framework blocks (with their stacks), by address. */
  readonly hal: Map<bigint, { size: number; pageClass: PageClass | undefined }>;
  readonly blocks: Map<bigint, { size: number; frames: StackFrames }>;
  /** Per framework alloc, its index in `trace` and its line, to check at the end that it lies in a HAL range. */
  readonly blockAllocs: number[];
  /** Trace index of a HAL allocation → its `page_type`. */
  readonly pageClasses: Map<number, PageClass>;
}

/**
 * A HAL MALLOC's `Attr` page_type, which msMemScope reads from the driver's allocation flags (bit 17
 * huge, bit 31 giant; Ascend/msmemscope `csrc/event_trace/event_report.cpp` GetMemPageType, written
 * as normal / huge / giant by `csrc/analysis/dump.cpp`): PageLens's page classes by the same names.
 */
function recordedPageClass(value: string | undefined): PageClass | undefined {
  return value === 'normal' || value === 'huge' || value === 'giant' ? value : undefined;
}

/** One distinct stack text: its frames and its id in the dump's StackInterner. */
interface Stack {
  readonly frames: StackFrames;
  readonly id: number;
}

export interface MemScopeDump extends MemScopeConversion {
  readonly kind: 'memscope_dump';
  /** Rows of the file (the .db's table), every one, placed or not. */
  readonly rows: number;
  /** Rows by `Device Id` (null: none given) and by `Event`, as written: `pagelens stats` prints these. */
  readonly byDevice: ReadonlyMap<number | null, Readonly<Record<string, number>>>;
}

/**
 * The dump turned into the model row by row as it is read, so only the model is held: the trace
 * as columns (trace-columns.ts) with one stack id per distinct stack text, and the allocations and
 * blocks live at the moment. At 1 M rows the rows as objects held some 500 MB of a worker's heap.
 *
 * Times are µs from the earliest row. Rows are written in ID order, which need not be time order
 * across threads, so the earliest is known only at the end: each entry holds its ns after the first
 * row until then (an exact integer in a double for 104 days), and `finish` moves the origin.
 */
export class MemScopeConverter {
  readonly #stacks = new StackInterner();
  readonly #stackOf = new Map<string, Stack>();
  readonly #devices: DeviceLog[] = [];
  readonly #unplaced: Partial<Record<MemScopeUnplaced, { count: number; firstLine: number }>> = {};
  readonly #byDevice = new Map<number | null, Record<string, number>>();
  #first: bigint | undefined;
  /** The earliest row's ns after the first row's (≤ 0). */
  #earliest = 0;
  #rows = 0;
  #halRows = 0;
  #blockRows = 0;
  /** HAL allocations without a page_type PageLens reads: their pages are modeled. */
  #halPagesModeled = 0;
  #halPagesRecorded = 0;
  /** Pinned host memory (memscope-host.ts). */
  readonly #host = new PinnedHostRows();
  #halHandles = 0;

  take(event: MemScopeEvent): void {
    this.#rows += 1;
    const key = event.device ?? null;
    let counts = this.#byDevice.get(key);
    if (counts === undefined) {
      counts = {};
      this.#byDevice.set(key, counts);
    }
    counts[event.event] = (counts[event.event] ?? 0) + 1;
    this.#first ??= event.timestampNs;
    const ns = Number(event.timestampNs - this.#first);
    if (ns < this.#earliest) this.#earliest = ns;
    const unplaced = this.#place(event, ns);
    if (unplaced !== undefined) this.#skip(unplaced, event.line);
  }

  /** Puts a MALLOC or FREE row into the model; otherwise says why it was not placed. */
  #place(event: MemScopeEvent, ns: number): MemScopeUnplaced | undefined {
    if (event.event !== 'MALLOC' && event.event !== 'FREE') return 'not-malloc-free';
    const hal = event.eventType === 'HAL';
    if (event.eventType === 'HOST' || event.eventType === 'HOST_PINNED')
      return this.#host.place(event, addressOf(event), ns, () => this.#stack(event.pythonStack).frames);
    if (!hal && !BLOCK_TYPES.has(event.eventType)) return 'unknown-type';
    if (event.device === undefined) return 'no-device';
    const address = addressOf(event);
    if (address === undefined) return 'no-address';
    const log = this.#logOf(event.device);
    if (event.event === 'MALLOC') {
      if (event.size === undefined) return 'no-size';
      const stack = this.#stack(event.pythonStack);
      if (hal) {
        const pageClass = recordedPageClass(event.attr.page_type?.trim());
        if (pageClass !== undefined) {
          log.pageClasses.set(log.trace.length, pageClass);
          this.#halPagesRecorded += 1;
        } else {
          this.#halPagesModeled += 1;
        }
        log.hal.set(address, { size: event.size, pageClass });
        this.#halRows += 1;
        if (event.attr.alloc_type?.trim() === 'create') this.#halHandles += 1;
      } else {
        log.blocks.set(address, { size: event.size, frames: stack.frames });
        log.blockAllocs.push(log.trace.length, event.line);
        this.#blockRows += 1;
      }
      log.trace.pushInterned(traceEntry(hal ? 'segment_alloc' : 'alloc', address, event.size, ns, stack.frames), stack.id);
      return undefined;
    }
    if (hal) {
      const allocation = log.hal.get(address);
      if (allocation === undefined) return 'free-unknown';
      log.hal.delete(address);
      this.#halRows += 1;
      // The pages given back are the ones taken: an export's page counters fall by the same class.
      if (allocation.pageClass !== undefined) log.pageClasses.set(log.trace.length, allocation.pageClass);
      log.trace.pushInterned(traceEntry('segment_free', address, allocation.size, ns, NO_FRAMES), NO_STACK);
      return undefined;
    }
    const block = log.blocks.get(address);
    if (block === undefined) return 'free-unknown';
    log.blocks.delete(address);
    this.#blockRows += 1;
    // A framework FREE gives the block back at once (the file records no pending stage): requested and completed together.
    log.trace.pushInterned(traceEntry('free_requested', address, block.size, ns, NO_FRAMES), NO_STACK);
    log.trace.pushInterned(traceEntry('free_completed', address, block.size, ns, NO_FRAMES), NO_STACK);
    return undefined;
  }

  /** The dump as a snapshot, after the last row. */
  finish(): MemScopeDump {
    const earliest = this.#earliest;
    // Exact: both are integers below 2^53, so this is the row's ns after the earliest, as a bigint subtraction gives it.
    const retime = (ns: number): number => (ns - earliest) / 1000;
    for (const log of this.#devices) log.trace.retime(retime);
    const host = this.#host.finish(retime);
    this.#devices.forEach((log, device) => {
      const ranges: RecordedRange[] = [];
      for (let i = 0; i < log.trace.length; i += 1) {
        if (log.trace.actionAt(i) !== 'segment_alloc') continue;
        const item = log.trace.bareAt(i);
        if (item !== undefined) ranges.push({ start: item.addr, size: item.size });
      }
      const map = buildAddressMap(device, ranges);
      for (let k = 0; k < log.blockAllocs.length; k += 2) {
        const item = log.trace.bareAt(log.blockAllocs[k] ?? -1);
        if (item !== undefined && toModelAddress(map, item.addr) === undefined) this.#skip('outside-hal', log.blockAllocs[k + 1] ?? 0);
      }
    });
    const events: Record<string, number> = {};
    for (const counts of this.#byDevice.values()) {
      for (const [name, count] of Object.entries(counts)) events[name] = (events[name] ?? 0) + count;
    }
    const halRows = this.#halRows;
    const blockRows = this.#blockRows;
    const snapshot: MemorySnapshot = {
      kind: 'snapshot',
      format: 'unknown',
      formatEvidence:
        `msMemScope dump: ${rowCount(halRows, 'HAL')} as device allocations, ${rowCount(blockRows, 'framework')} as blocks` +
        (this.#host.rows > 0 ? `, ${rowCount(this.#host.rows, 'pinned host')} as host buffers` : ''),
      segments: finalSegments(this.#devices),
      deviceTraces: this.#devices.map((log) => log.trace),
      allocatorSettings: undefined,
      hostSegments: host.hostSegments,
      hostTraces: host.hostTraces,
      otherKeys: [],
      recordedPageClasses: this.#devices.map((log) => log.pageClasses),
    };
    return {
      kind: 'memscope_dump',
      rows: this.#rows,
      byDevice: this.#byDevice,
      snapshot,
      unplaced: this.#unplaced,
      events,
      halRows,
      blockRows,
      halPagesRecorded: this.#halPagesRecorded,
      halPagesModeled: this.#halPagesModeled,
      pinnedHostRows: this.#host.rows,
      halHandles: this.#halHandles,
    };
  }

  #skip(reason: MemScopeUnplaced, line: number): void {
    const seen = this.#unplaced[reason];
    if (seen === undefined) this.#unplaced[reason] = { count: 1, firstLine: line };
    else seen.count += 1;
  }

  #logOf(device: number): DeviceLog {
    for (let d = this.#devices.length; d <= device; d += 1) {
      this.#devices.push({
        trace: new TraceColumns(this.#stacks),
        hal: new Map(),
        blocks: new Map(),
        blockAllocs: [],
        pageClasses: new Map(),
      });
    }
    return this.#devices[device] as DeviceLog;
  }

  /** Stacks repeat: one frames list and one interned id per distinct stack text. */
  #stack(text: string): Stack {
    let stack = this.#stackOf.get(text);
    if (stack === undefined) {
      const frames = memScopeFrames(text);
      stack = { frames, id: this.#stacks.add(frames) };
      this.#stackOf.set(text, stack);
    }
    return stack;
  }
}

/** A memscope_dump CSV read as it arrives, each row into the model as it completes. */
export function memScopeDumpReader(file = 'memscope_dump.csv'): CsvFileReader<MemScopeDump> {
  const converter = new MemScopeConverter();
  return memScopeEventReader(
    file,
    (event) => converter.take(event),
    () => converter.finish(),
  );
}

/** A dump held whole as text (tests, small files). */
export function readMemScopeDump(text: string, file = 'memscope_dump.csv'): MemScopeDump {
  const reader = memScopeDumpReader(file);
  reader.push(encodeUtf8(text));
  return reader.end();
}

/** Events already read (tests; a caller holding rows), into the model. */
export function memScopeToSnapshot(events: Iterable<MemScopeEvent>): MemScopeDump {
  const converter = new MemScopeConverter();
  for (const event of events) converter.take(event);
  return converter.finish();
}

/** `n` rows of a kind, in English: "1 HAL row", "80,000 framework rows". */
const rowCount = (n: number, kind: string): string => `${n.toLocaleString('en-US')} ${kind} ${n === 1 ? 'row' : 'rows'}`;

/** The HAL allocations live at the end, each with the framework blocks inside it: the "final state" a snapshot would carry. */
function finalSegments(devices: readonly DeviceLog[]): Segment[] {
  const segments: Segment[] = [];
  devices.forEach((log, device) => {
    const starts = [...log.hal.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const address of starts) {
      const { size, pageClass } = log.hal.get(address) ?? { size: 0, pageClass: undefined };
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
        ...(pageClass === undefined ? {} : { recordedPageClass: pageClass }),
      });
    }
  });
  return segments;
}
