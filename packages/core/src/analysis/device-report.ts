import type { PageClass } from '../model/events.ts';
import type { FrameTable } from '../model/frames.ts';
import { type DevicePools, devicePools, usedBytes } from '../model/pools.ts';
import type { DeviceState, HostState } from '../model/state.ts';
import { type CoverageReport, coverageByClass } from './pte.ts';

/** One device at a glance: pools, fragmentation, page-table cost and TLB coverage (DM-15, PT-1, PT-3). */
export interface DeviceReport {
  readonly device: number;
  readonly profile: string;
  readonly pools: DevicePools;
  readonly usedBytes: number;
  readonly frames: { readonly total: number; readonly free: number; readonly huge: number; readonly giant: number; readonly split: number };
  readonly normalPagesUsed: number;
  /** Longest run of contiguous free frames (2 MiB each). */
  readonly largestFreeRun: number;
  /** 1 − largestFreeRun ÷ free frames: 0 when all free memory is one run (modeled placement). */
  readonly fragmentation: number;
  /** Bytes held by live allocations and physical memory, per page class (the working set the TLB sees). */
  readonly workingSet: Readonly<Record<PageClass, number>>;
  readonly liveObjects: number;
  /** PT-3: coverage of that working set by the profile's *assumed* TLB. */
  readonly coverage: CoverageReport;
}

export function largestFreeRun(frames: FrameTable): number {
  let best = 0;
  let frame = frames.free.lowest();
  while (frame !== -1) {
    let end = frame;
    while (end + 1 < frames.count && frames.free.has(end + 1)) end += 1;
    best = Math.max(best, end - frame + 1);
    frame = frames.free.lowest(end + 1);
  }
  return best;
}

export function reportDevice(state: HostState, device: DeviceState): DeviceReport {
  const { frames, profile } = device;
  const workingSet: Record<PageClass, number> = { normal: 0, huge: 0, giant: 0 };
  let liveObjects = 0;
  for (const object of [...state.allocations.values(), ...state.physical.values()]) {
    if (object.device !== device.id) continue;
    workingSet[object.pageClass] += object.pages * object.pageSize;
    liveObjects += 1;
  }
  const run = largestFreeRun(frames);
  return {
    device: device.id,
    profile: profile.name,
    pools: devicePools(device),
    usedBytes: usedBytes(device),
    frames: { total: frames.count, free: frames.free.count, huge: frames.hugeFrames, giant: frames.giantFrames, split: frames.splitFrames },
    normalPagesUsed: frames.normalPagesUsed,
    largestFreeRun: run,
    fragmentation: frames.free.count === 0 ? 0 : 1 - run / frames.free.count,
    workingSet,
    liveObjects,
    coverage: coverageByClass(workingSet, profile.tlb, profile.normalPageSize),
  };
}
