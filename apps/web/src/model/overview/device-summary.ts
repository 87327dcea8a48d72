import { type DeviceState, devicePools, type HostState, type PoolFigures } from '@pagelens/core';

/** One pool as the overview draws it: used = total − free. */
export interface PoolBar {
  readonly used: number;
  readonly free: number;
  readonly total: number;
  /** Fraction used, 0…1 (0 when the pool is empty or absent). */
  readonly fraction: number;
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
    pools: { normal: poolBar(pools.normal), huge: poolBar(pools.huge), giant: poolBar(pools.giant) },
    poolSource: sample === undefined ? 'modeled' : 'observed',
    objects: {
      allocations: countOn(state.allocations, device.id, single),
      physical: countOn(state.physical, device.id, single),
      reservations: countOn(state.reservations, device.id, single),
      mappings: countOn(state.mappings, device.id, single),
    },
  };
}
