import { type DeviceState, devicePools, FRAME_BYTES, type HostState, type PoolFigures, usedBytes } from '@pagelens/core';

/**
 * Why a pool's memory is no longer available to its page kind (bytes), on the simulator's modeled
 * split (DM-15), where every pool draws on the same frames: pages of this kind, memory other page
 * kinds hold, and free memory this kind cannot use (free 4 KiB pages inside split frames for huge
 * pages; free frames inside a partly used 1 GiB block for giant pages). The three add up to `used`.
 */
export interface PoolBreakdown {
  readonly own: number;
  readonly otherKinds: number;
  readonly stranded: number;
}

export type PoolKind = 'normal' | 'huge' | 'giant';

/** One pool as the overview draws it: used = total − free, i.e. no longer available to this page kind. */
export interface PoolBar {
  readonly used: number;
  readonly free: number;
  readonly total: number;
  /** Fraction used, 0…1 (0 when the pool is empty or absent). */
  readonly fraction: number;
  /** On the simulator: what `used` is made of. Absent for the runtime's own readings, which do not say. */
  readonly breakdown?: PoolBreakdown;
}

export interface DeviceSummary {
  readonly id: number;
  readonly pools: { readonly normal: PoolBar; readonly huge: PoolBar; readonly giant: PoolBar };
  /** 'observed' when the pools come from the runtime's last aclrtGetMemInfo sample; else the simulator's modeled split (DM-15). */
  readonly poolSource: 'observed' | 'modeled';
  readonly objects: { readonly allocations: number; readonly physical: number; readonly reservations: number; readonly mappings: number };
}

export function poolBar(figures: PoolFigures): PoolBar {
  const total = Math.max(0, figures.total);
  const free = Math.min(total, Math.max(0, figures.free));
  return { used: total - free, free, total, fraction: total === 0 ? 0 : (total - free) / total };
}

/** Bytes held in pages of one kind on the device's frames. */
function ownBytes(device: DeviceState, kind: PoolKind): number {
  const { frames, profile } = device;
  switch (kind) {
    case 'normal':
      return frames.normalPagesUsed * profile.normalPageSize;
    case 'huge':
      return frames.hugeFrames * FRAME_BYTES;
    case 'giant':
      return frames.giantFrames * FRAME_BYTES;
  }
}

/** What the modeled `used` of a pool consists of (see PoolBreakdown). */
export function poolBreakdown(device: DeviceState, kind: PoolKind, bar: PoolBar): PoolBreakdown {
  const own = Math.min(bar.used, ownBytes(device, kind));
  const otherKinds = Math.min(bar.used - own, Math.max(0, usedBytes(device) - own));
  return { own, otherKinds, stranded: Math.max(0, bar.used - own - otherKinds) };
}

function countOn<T extends { readonly device: number }>(map: ReadonlyMap<number, T>, device: number, single: boolean): number {
  if (single) return map.size;
  let count = 0;
  for (const value of map.values()) if (value.device === device) count += 1;
  return count;
}

/** Pools and live object counts for one device at the cursor. */
export function summarizeDevice(state: HostState, device: DeviceState): DeviceSummary {
  const sample = device.lastSample;
  const pools = sample?.pools ?? devicePools(device);
  // With one device every object is on it: no need to walk 100,000 allocations per update.
  const single = state.devices.length === 1;
  return {
    id: device.id,
    pools: {
      normal: explained(device, 'normal', poolBar(pools.normal), sample === undefined),
      huge: explained(device, 'huge', poolBar(pools.huge), sample === undefined),
      giant: explained(device, 'giant', poolBar(pools.giant), sample === undefined),
    },
    poolSource: sample === undefined ? 'modeled' : 'observed',
    objects: {
      allocations: countOn(state.allocations, device.id, single),
      physical: countOn(state.physical, device.id, single),
      reservations: countOn(state.reservations, device.id, single),
      mappings: countOn(state.mappings, device.id, single),
    },
  };
}

function explained(device: DeviceState, kind: PoolKind, bar: PoolBar, modeled: boolean): PoolBar {
  return modeled && bar.total > 0 ? { ...bar, breakdown: poolBreakdown(device, kind, bar) } : bar;
}
