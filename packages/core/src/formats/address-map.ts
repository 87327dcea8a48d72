import { DEVICE_VA_WINDOW, deviceWindowBase } from '../sim/layout.ts';
import { FormatError } from './format-error.ts';

/**
 * Recorded device addresses (exact `bigint`s, possibly past 2^53) to the model's addresses (safe
 * integers in the device's 128 GiB window of sim/layout.ts). The model keeps addresses as numbers,
 * so an imported file is placed in the same window a simulated session uses; the recorded address
 * is kept beside it for display.
 *
 * The rule, deterministic for a file: every range a device's segments ever cover (final segments
 * and the trace's segment_alloc/free/map/unmap) is merged into clusters of overlapping or touching
 * ranges. When the clusters, from the lowest start rounded down to 1 GiB to the highest end, fit the
 * window, one offset moves them all (gaps and relative positions are kept: address − low + window
 * base). Otherwise they are packed in recorded order, each cluster starting at the previous end
 * rounded up to 1 GiB (so 1 GiB pages stay alignable and neighbours stay apart); past the window
 * the file cannot be placed and the import says so.
 */
const GiB = 1n << 30n;

export interface Cluster {
  readonly recordedStart: bigint;
  readonly recordedEnd: bigint;
  readonly modelStart: number;
}

export interface AddressMap {
  readonly device: number;
  /** Clusters by recorded start, ascending, disjoint. */
  readonly clusters: readonly Cluster[];
  /** 'shifted': one offset for all; 'packed': clusters moved together (gaps not kept). */
  readonly mode: 'shifted' | 'packed';
}

export interface RecordedRange {
  readonly start: bigint;
  readonly size: number;
}

/** Merges the ranges and lays them out in the device's window. */
export function buildAddressMap(device: number, ranges: readonly RecordedRange[]): AddressMap {
  const sorted = ranges.filter((range) => range.size > 0).sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const merged: { start: bigint; end: bigint }[] = [];
  for (const range of sorted) {
    const end = range.start + BigInt(range.size);
    const last = merged[merged.length - 1];
    if (last !== undefined && range.start <= last.end) {
      if (end > last.end) last.end = end;
    } else merged.push({ start: range.start, end });
  }
  const base = deviceWindowBase(device);
  const window = BigInt(DEVICE_VA_WINDOW);
  const first = merged[0];
  const last = merged[merged.length - 1];
  if (first === undefined || last === undefined) return { device, clusters: [], mode: 'shifted' };
  const low = (first.start / GiB) * GiB;
  if (last.end - low <= window) {
    return {
      device,
      mode: 'shifted',
      clusters: merged.map((c) => ({ recordedStart: c.start, recordedEnd: c.end, modelStart: base + Number(c.start - low) })),
    };
  }
  let next = 0n;
  const clusters: Cluster[] = [];
  for (const c of merged) {
    const offset = c.start % GiB;
    const modelStart = next + offset;
    const modelEnd = modelStart + (c.end - c.start);
    if (modelEnd > window) {
      throw new FormatError(
        `device ${device}: the segments span more than the model's ${Number(window / GiB)} GiB address window even when packed together`,
      );
    }
    clusters.push({ recordedStart: c.start, recordedEnd: c.end, modelStart: base + Number(modelStart) });
    next = ((modelEnd + GiB - 1n) / GiB) * GiB;
  }
  return { device, clusters, mode: 'packed' };
}

/** The model address of a recorded one, or undefined when no cluster holds it. */
export function toModelAddress(map: AddressMap, recorded: bigint): number | undefined {
  const { clusters } = map;
  let low = 0;
  let high = clusters.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const cluster = clusters[mid];
    if (cluster === undefined) break;
    if (recorded < cluster.recordedStart) high = mid - 1;
    else if (recorded >= cluster.recordedEnd) low = mid + 1;
    else return cluster.modelStart + Number(recorded - cluster.recordedStart);
  }
  return undefined;
}

/** The cluster holding a recorded address (the reservation of an expandable segment is its cluster). */
export function clusterOf(map: AddressMap, recorded: bigint): Cluster | undefined {
  for (const cluster of map.clusters) if (recorded >= cluster.recordedStart && recorded < cluster.recordedEnd) return cluster;
  return undefined;
}
