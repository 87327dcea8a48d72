import type { HostState, PageClass } from '@pagelens/core';

/** An allocation or a physical memory on one device, as the backend recorded it (page class and count, no frames). */
export interface DeviceObjectRow {
  readonly kind: 'allocation' | 'physical';
  readonly id: number;
  readonly fn: string;
  readonly size: number;
  readonly pageClass: PageClass;
  readonly pageSize: number;
  readonly pages: number;
}

export interface DeviceObjects {
  /** The newest first, at most `limit`. */
  readonly rows: readonly DeviceObjectRow[];
  readonly total: number;
}

/** The newest `limit` values of a map on `device` and how many there are; maps iterate in creation order. */
function newestOn<T extends { readonly device: number }>(map: ReadonlyMap<number, T>, device: number, limit: number) {
  const found: T[] = [];
  let total = 0;
  for (const value of map.values()) {
    if (value.device !== device) continue;
    total += 1;
    found.push(value);
    // Only references are kept, trimmed now and then: 100,000 allocations stay cheap.
    if (found.length >= limit * 4) found.splice(0, found.length - limit);
  }
  return { found: found.slice(-limit), total };
}

/** The device memory objects on `device`, newest first. */
export function deviceObjects(state: HostState, device: number, limit: number): DeviceObjects {
  const allocations = newestOn(state.allocations, device, limit);
  const physical = newestOn(state.physical, device, limit);
  const rows: DeviceObjectRow[] = [
    ...allocations.found.map((a) => ({
      kind: 'allocation' as const,
      id: a.id,
      fn: a.fn,
      size: a.size,
      pageClass: a.pageClass,
      pageSize: a.pageSize,
      pages: a.pages,
    })),
    ...physical.found.map((m) => ({
      kind: 'physical' as const,
      id: m.id,
      fn: 'aclrtMallocPhysical',
      size: m.size,
      pageClass: m.pageClass,
      pageSize: m.pageSize,
      pages: m.pages,
    })),
  ];
  // Ids grow with time across every kind of object: newest first.
  rows.sort((a, b) => b.id - a.id);
  return { rows: rows.slice(0, limit), total: allocations.total + physical.total };
}
