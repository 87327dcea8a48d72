import { PAGE_CLASSES } from '../analysis/page-size.ts';
import { coverageByClass, ptesFor } from '../analysis/pte.ts';
import type { PageClass } from '../model/events.ts';
import { type AllocatorModel, type SegmentCall, segmentPages } from './segment-pages.ts';
import type { MemorySnapshot, Segment, TraceAction } from './snapshot-types.ts';
import { actionAt } from './trace-columns.ts';
import type { TraceSummary } from './trace-summary.ts';

/**
 * `pagelens stats`: a summary of a snapshot's final state (issue 16). Recorded figures are sums of
 * the file's own fields; `pages` is modeled (segment-pages.ts) and says so.
 */
export interface DeviceStats {
  readonly device: number;
  readonly segments: number;
  /** Σ total_size of the device's segments. */
  readonly reservedBytes: number;
  /** Σ allocated_size. */
  readonly allocatedBytes: number;
  /** Σ active_size. */
  readonly activeBytes: number;
  readonly blocks: number;
  readonly expandableSegments: number;
  /** Entries in the device's trace. */
  readonly traceEvents: number;
  /** Entries per action; every action is listed, 0 when absent. */
  readonly actions: Readonly<Record<TraceAction, number>>;
}

export interface ClassPages {
  readonly pages: number;
  readonly bytes: number;
  /** Leaf page-table entries (PT-1: one per page). */
  readonly ptes: number;
  /** Bytes the profile's (assumed, PT-3) TLB of this class translates without a walk. */
  readonly tlbReachBytes: number;
}

export interface DevicePages {
  readonly device: number;
  readonly byClass: Readonly<Record<PageClass, ClassPages>>;
  /** Σ pages × page size. */
  readonly occupiedBytes: number;
  /** occupiedBytes − reservedBytes: page rounding and the runtime's padding (DM-3, DM-11). */
  readonly wasteBytes: number;
  readonly ptes: number;
  /** PT-3 combined coverage of the reserved bytes by the assumed TLB, 0…1. */
  readonly tlbCoverage: number;
  /** ACL calls the segments were made with (segment-pages.ts). */
  readonly calls: Readonly<Record<SegmentCall, number>>;
  /** Segments whose page size the file recorded (msMemScope's HAL page_type) rather than the model chose. */
  readonly recordedSegments: number;
}

export interface PageStats {
  readonly modeled: true;
  readonly profile: string;
  readonly pageSize1g: boolean;
  readonly basis: string;
  readonly devices: readonly DevicePages[];
}

/**
 * Pinned host memory the file recorded: PyTorch's `host_segments` / `host_traces`
 * (record_pinned_host_memory) or msMemScope's pinned HOST rows. Recorded figures, no pages.
 */
export interface HostStats {
  /** Host segments of the final state. */
  readonly segments: number;
  /** Σ total_size of those segments. */
  readonly reservedBytes: number;
  /** Entries in the host trace. */
  readonly traceEvents: number;
  readonly actions: Readonly<Record<TraceAction, number>>;
}

export interface SnapshotStats {
  readonly format: MemorySnapshot['format'];
  readonly formatEvidence: string;
  readonly devices: readonly DeviceStats[];
  readonly pages: PageStats;
  /** Absent when the file recorded no pinned host memory. */
  readonly host?: HostStats;
}

/** A count per action; the type makes a new TRACE_ACTIONS entry a compile error here until it is added. */
export function noActions(): Record<TraceAction, number> {
  return {
    alloc: 0,
    free_requested: 0,
    free_completed: 0,
    segment_alloc: 0,
    segment_free: 0,
    segment_map: 0,
    segment_unmap: 0,
    snapshot: 0,
    oom: 0,
    workspace_snapshot: 0,
  };
}

/** What stats reads of a device's trace: its entries, or their counts from a summarised read (trace-summary.ts). */
interface TraceCounts {
  readonly entries: number;
  readonly actions: Readonly<Record<TraceAction, number>>;
}

function countsOf(snapshot: MemorySnapshot, summary: TraceSummary | undefined): TraceCounts[] {
  if (summary !== undefined) return summary.devices.map((device) => ({ entries: device.entries, actions: device.actions }));
  return snapshot.deviceTraces.map((trace) => {
    const actions = noActions();
    for (let i = 0; i < trace.length; i += 1) {
      const action = actionAt(trace, i);
      if (action !== undefined) actions[action] += 1;
    }
    return { entries: trace.length, actions };
  });
}

/**
 * Devices listed: every device with a segment or a trace entry, in index order. `summary`: the
 * trace was summarised as it was read (its lists are empty), and these are its counts.
 */
export function snapshotStats(snapshot: MemorySnapshot, model: AllocatorModel, summary?: TraceSummary): SnapshotStats {
  const traces = countsOf(snapshot, summary);
  const ids = new Set<number>();
  for (const segment of snapshot.segments) ids.add(segment.device);
  traces.forEach((trace, device) => {
    if (trace.entries > 0) ids.add(device);
  });
  const order = [...ids].sort((a, b) => a - b);
  const byDevice = new Map<number, Segment[]>(order.map((id) => [id, []]));
  for (const segment of snapshot.segments) byDevice.get(segment.device)?.push(segment);
  const devices = order.map((device) => deviceStats(device, byDevice.get(device) ?? [], traces[device]));
  const pageDevices = order.map((device) => devicePages(device, byDevice.get(device) ?? [], model));
  const recorded = pageDevices.reduce((sum, device) => sum + device.recordedSegments, 0);
  const modeledBasis =
    "torch_npu's caching allocator on this profile: aclrtMallocAlign32 (HUGE_FIRST, or HUGE1G_ONLY with page_size:1g) per segment, " +
    'aclrtMallocPhysical (ACL_HBM_MEM_HUGE) handles for expandable segments; no HUGE_FIRST fallback to normal pages assumed';
  const pages: PageStats = {
    modeled: true,
    profile: model.profile.name,
    pageSize1g: model.pageSize1g,
    basis:
      recorded === 0
        ? modeledBasis
        : `page sizes as the file recorded them for ${recorded} of ${snapshot.segments.length} segments (msMemScope's HAL page_type), ` +
          `placement modeled; the rest: ${modeledBasis}`,
    devices: pageDevices,
  };
  const host = hostStats(snapshot);
  return { format: snapshot.format, formatEvidence: snapshot.formatEvidence, devices, pages, ...(host === undefined ? {} : { host }) };
}

function hostStats(snapshot: MemorySnapshot): HostStats | undefined {
  if (snapshot.hostSegments === undefined && snapshot.hostTraces === undefined) return undefined;
  const segments = snapshot.hostSegments ?? [];
  const actions = noActions();
  for (const entry of snapshot.hostTraces ?? []) actions[entry.action] += 1;
  return {
    segments: segments.length,
    reservedBytes: segments.reduce((sum, segment) => sum + segment.totalSize, 0),
    traceEvents: snapshot.hostTraces?.length ?? 0,
    actions,
  };
}

function deviceStats(device: number, segments: readonly Segment[], trace: TraceCounts | undefined): DeviceStats {
  let reservedBytes = 0;
  let allocatedBytes = 0;
  let activeBytes = 0;
  let blocks = 0;
  let expandableSegments = 0;
  for (const segment of segments) {
    reservedBytes += segment.totalSize;
    allocatedBytes += segment.allocatedSize;
    activeBytes += segment.activeSize;
    blocks += segment.blocks.length;
    if (segment.isExpandable) expandableSegments += 1;
  }
  return {
    device,
    segments: segments.length,
    reservedBytes,
    allocatedBytes,
    activeBytes,
    blocks,
    expandableSegments,
    traceEvents: trace?.entries ?? 0,
    actions: { ...noActions(), ...trace?.actions },
  };
}

function devicePages(device: number, segments: readonly Segment[], model: AllocatorModel): DevicePages {
  const counts: Record<PageClass, { pages: number; bytes: number }> = {
    normal: { pages: 0, bytes: 0 },
    huge: { pages: 0, bytes: 0 },
    giant: { pages: 0, bytes: 0 },
  };
  const calls: Record<SegmentCall, number> = { aclrtMallocAlign32: 0, aclrtMallocPhysical: 0 };
  let recordedSegments = 0;
  let occupiedBytes = 0;
  let reservedBytes = 0;
  for (const segment of segments) {
    const plan = segmentPages(segment, model);
    const entry = counts[plan.pageClass];
    entry.pages += plan.pages;
    entry.bytes += plan.pages * plan.pageSize;
    occupiedBytes += plan.pages * plan.pageSize;
    reservedBytes += segment.totalSize;
    calls[plan.call] += 1;
    if (plan.recorded) recordedSegments += 1;
  }
  const coverage = coverageByClass(
    { normal: counts.normal.bytes, huge: counts.huge.bytes, giant: counts.giant.bytes },
    model.profile.tlb,
    model.profile.normalPageSize,
  );
  const classPages = (pageClass: PageClass): ClassPages => {
    const { pages, bytes } = counts[pageClass];
    return { pages, bytes, ptes: ptesFor(bytes, coverage.byClass[pageClass].pageSize), tlbReachBytes: coverage.byClass[pageClass].reach };
  };
  const byClass = { normal: classPages('normal'), huge: classPages('huge'), giant: classPages('giant') };
  const ptes = PAGE_CLASSES.reduce((sum, pageClass) => sum + byClass[pageClass].ptes, 0);
  return {
    device,
    byClass,
    occupiedBytes,
    wasteBytes: occupiedBytes - reservedBytes,
    ptes,
    tlbCoverage: coverage.combined.coverage,
    calls,
    recordedSegments,
  };
}
