import { aclrtMemAttr, aclrtMemMallocPolicy } from '../acl/enums.ts';
import { pagesFor } from '../analysis/pte.ts';
import type { PageClass } from '../model/events.ts';
import { type BasePolicyName, pageBytes, planMalloc } from '../model/malloc-policy.ts';
import type { DeviceProfile } from '../profiles/profile.ts';
import { pageClassOfAttr } from '../sim/ops-vmm.ts';
import type { Segment } from './snapshot-types.ts';

/**
 * The ACL calls torch_npu's caching allocator makes for a segment, and the pages they take on a
 * profile: *modeled*, because a snapshot records no page size (formats.md) and the huge pool's
 * state at the time is unknown (a HUGE_FIRST fallback to normal pages cannot be seen). When the
 * file did record the size (Segment.recordedPageClass: msMemScope's HAL page_type), the plan takes
 * it, as the ACL policy that takes only that size, and says so (`recorded`).
 *
 * Source: Ascend/pytorch `torch_npu/csrc/core/npu/NPUCachingAllocator.cpp` at commit
 * 9e73e708ab9350d203475609f36f8a43f6a0c2ab (docs/reference/formats-notes.md has the details):
 * - a non-expandable segment is one `AclrtMallocAlign32(&ptr, size, policy)` of the segment's
 *   size, with `ACL_MEM_MALLOC_HUGE_FIRST`, or `ACL_MEM_MALLOC_HUGE1G_ONLY` for the large pool when
 *   `PYTORCH_NPU_ALLOC_CONF=page_size:1g` is on and CANN/driver support it (`IsMallocPage1GMem`);
 *   when 1 GiB pages fail it falls back to 2 MiB (`AclInterface.cpp` `AclrtMallocAlign32`);
 * - an expandable segment reserves address space (`AclrtReserveMemAddress`) and maps physical
 *   handles of the segment size (2 MiB small pool, 20 MiB large pool by default, 1 GiB with
 *   page_size:1g), each from `AclrtMallocPhysical` with `memAttr` `ACL_HBM_MEM_HUGE`
 *   (`ACL_HBM_MEM_HUGE1G` for 1 GiB handles), mapped by `AclrtMapMem`.
 * The page decisions are the simulator's own: `planMalloc` (DM-3, DM-4, DM-7) and the memAttr's
 * page class (VM-3), so a snapshot's pages follow the same rules as a live session's.
 */
export interface AllocatorModel {
  readonly profile: DeviceProfile;
  /** `PYTORCH_NPU_ALLOC_CONF=page_size:1g` (torch_npu snapshots do not record it). */
  readonly pageSize1g: boolean;
}

export type SegmentCall = 'aclrtMallocAlign32' | 'aclrtMallocPhysical';

const MiB = 1024 * 1024;

/** torch_npu's kSmallSize: a block of at most 1 MiB comes from the small pool (same source as above). */
export const SMALL_BLOCK_BYTES = MiB;

/**
 * An expandable segment's physical handle (segment_size_): 2 MiB in the small pool, 20 MiB in the
 * large (large_segment_size_mb's default), 1 GiB when the handle takes giant pages (page_size:1g).
 */
export function expandableHandleBytes(small: boolean, giant: boolean): number {
  if (giant) return 1024 * MiB;
  return small ? 2 * MiB : 20 * MiB;
}

export interface SegmentPages {
  readonly call: SegmentCall;
  /** aclrtMallocAlign32's policy, or aclrtMallocPhysical's memAttr. */
  readonly policy: BasePolicyName | 'ACL_HBM_MEM_HUGE' | 'ACL_HBM_MEM_HUGE1G';
  /** Bytes the runtime rounds the request to before choosing pages (DM-3; no rounding for physical handles). */
  readonly padded: number;
  readonly pageClass: PageClass;
  readonly pageSize: number;
  readonly pages: number;
  /** pages × pageSize − the segment's total_size (DM-11). */
  readonly wasteBytes: number;
  /** The page class is the one the file recorded (Segment.recordedPageClass), not the model's choice. */
  readonly recorded: boolean;
}

const HUGE_FIRST = aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE_FIRST;
const HUGE1G_ONLY = aclrtMemMallocPolicy.byName.ACL_MEM_MALLOC_HUGE1G_ONLY;

function pagesOf(
  call: SegmentCall,
  policy: SegmentPages['policy'],
  padded: number,
  pageClass: PageClass,
  segment: Segment,
  profile: DeviceProfile,
): SegmentPages {
  const pageSize = pageBytes(pageClass, profile);
  const pages = pagesFor(padded, pageSize);
  return { call, policy, padded, pageClass, pageSize, pages, wasteBytes: pages * pageSize - segment.totalSize, recorded: false };
}

/** The ACL policy that takes exactly the recorded page class, as the driver's flags said it was taken. */
const ONLY_POLICY: Readonly<Record<PageClass, BasePolicyName>> = {
  normal: 'ACL_MEM_MALLOC_NORMAL_ONLY',
  huge: 'ACL_MEM_MALLOC_HUGE_ONLY',
  giant: 'ACL_MEM_MALLOC_HUGE1G_ONLY',
};

export function segmentPages(segment: Segment, model: AllocatorModel): SegmentPages {
  const { profile } = model;
  const giant = model.pageSize1g && segment.segmentType !== 'small' && profile.features.giantPages;
  if (segment.isExpandable) {
    const memAttr = giant ? 'ACL_HBM_MEM_HUGE1G' : 'ACL_HBM_MEM_HUGE';
    const pageClass = pageClassOfAttr(aclrtMemAttr.byName[memAttr]) ?? 'huge';
    return pagesOf('aclrtMallocPhysical', memAttr, segment.totalSize, pageClass, segment, profile);
  }
  if (segment.totalSize === 0) return pagesOf('aclrtMallocAlign32', 'ACL_MEM_MALLOC_HUGE_FIRST', 0, 'normal', segment, profile);
  const recorded = segment.recordedPageClass;
  if (recorded !== undefined) {
    // The page size is known: the policy that takes only it. A profile without that page size (giant
    // pages on a chip that has none) cannot hold it, and the model's choice stands instead.
    const policy = ONLY_POLICY[recorded];
    const plan = planMalloc('aclrtMallocAlign32', segment.totalSize, aclrtMemMallocPolicy.byName[policy], profile, false);
    if (plan.ok && plan.pageClass === recorded) {
      return { ...pagesOf('aclrtMallocAlign32', policy, plan.padded, recorded, segment, profile), recorded: true };
    }
  }
  if (giant) {
    const plan = planMalloc('aclrtMallocAlign32', segment.totalSize, HUGE1G_ONLY, profile, false);
    if (plan.ok) return pagesOf('aclrtMallocAlign32', 'ACL_MEM_MALLOC_HUGE1G_ONLY', plan.padded, plan.pageClass, segment, profile);
  }
  const plan = planMalloc('aclrtMallocAlign32', segment.totalSize, HUGE_FIRST, profile, false);
  if (!plan.ok) throw new Error(`planMalloc refused HUGE_FIRST for ${segment.totalSize} bytes: ${plan.message}`);
  // HUGE_FIRST's fallback to normal pages depends on the huge pool at the time: assumed not taken.
  return pagesOf('aclrtMallocAlign32', 'ACL_MEM_MALLOC_HUGE_FIRST', plan.padded, plan.pageClass, segment, profile);
}
