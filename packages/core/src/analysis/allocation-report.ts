import type { Reason } from '../model/events.ts';
import { allocationReasons } from '../model/malloc-policy.ts';
import { explainReasons, sortRules } from '../model/reasons.ts';
import type { DeviceAllocation, PhysicalMemory } from '../model/state.ts';
import type { DeviceProfile } from '../profiles/profile.ts';
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

/** A device allocation's or a physical handle's cost, with the decision rebuilt from its facts on `profile`. */
export function reportAllocation(allocation: DeviceAllocation | PhysicalMemory, profile: DeviceProfile): AllocationReport {
  const requested = allocation.size;
  const padded = 'padded' in allocation ? allocation.padded : allocation.size;
  const occupied = allocation.pages * allocation.pageSize;
  const reasons = 'padded' in allocation ? allocationReasons(allocation, profile) : [];
  const rules = sortRules(reasons.flatMap((reason) => reason.rules));
  return {
    requested,
    padded,
    pageClass: allocation.pageClass,
    pageSize: allocation.pageSize,
    pages: allocation.pages,
    occupied,
    waste: occupied - requested,
    ptes: ptesFor(occupied, allocation.pageSize),
    reasons,
    rules,
    decision: explainReasons(reasons),
  };
}
