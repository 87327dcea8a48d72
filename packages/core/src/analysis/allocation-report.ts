import type { Reason } from '../model/events.ts';
import { explainReasons } from '../model/reasons.ts';
import type { DeviceAllocation, PhysicalMemory } from '../model/state.ts';
import { ptesFor } from './pte.ts';

/** What one allocation costs and why (DM-3, DM-4, DM-11, PT-1). */
export interface AllocationReport {
  readonly requested: number;
  readonly padded: number;
  readonly pageClass: DeviceAllocation['pageClass'];
  readonly pageSize: number;
  readonly pages: number;
  /** Bytes of device memory the allocation holds: whole pages (DM-11). */
  readonly occupied: number;
  /** occupied − requested. */
  readonly waste: number;
  /** Leaf page-table entries mapping it (PT-1). */
  readonly ptes: number;
  readonly reasons: readonly Reason[];
  readonly rules: readonly string[];
  /** The decision as one English sentence with its rule IDs. */
  readonly decision: string;
}

export function reportAllocation(allocation: DeviceAllocation | PhysicalMemory): AllocationReport {
  const requested = allocation.size;
  const padded = 'padded' in allocation ? allocation.padded : allocation.size;
  const occupied = allocation.pages * allocation.pageSize;
  const rules = [...new Set(allocation.reasons.flatMap((reason) => reason.rules))].sort();
  return {
    requested,
    padded,
    pageClass: allocation.pageClass,
    pageSize: allocation.pageSize,
    pages: allocation.pages,
    occupied,
    waste: occupied - requested,
    ptes: ptesFor(occupied, allocation.pageSize),
    reasons: allocation.reasons,
    rules,
    decision: explainReasons(allocation.reasons),
  };
}
