import { ACL_ERROR_RT_MEMORY_ALLOCATION } from '../acl/errors.ts';
import type { AllocEvent } from '../model/events.ts';
import type { DeviceProfile } from '../profiles/profile.ts';
import type { Lesson, LessonWorld } from './lesson.ts';
import { allocs, deviceOf, mallocCalls } from './world.ts';

/** Lesson 3: free memory is not free huge pages (DM-4, DM-5, DM-15). */
export const FRAGMENTATION: Lesson = {
  id: 'fragmentation',
  title: { en: 'Fragmentation: free memory, no huge page', zh: '碎片化：有空闲内存，却没有大页' },
  summary: {
    en: 'HUGE_FIRST falls back when the huge pages run out, HUGE_ONLY fails, and it can fail while plenty of memory is still free.',
    zh: '大页用尽时HUGE_FIRST会回退，HUGE_ONLY会失败，而且在仍有大量空闲内存时它也可能失败。',
  },
  startsFrom: 'huge-first-fallback',
  steps: [
    {
      id: 'fallback',
      scenario: 'huge-first-fallback',
      goal: {
        en: 'Take every free huge page, then allocate with HUGE_FIRST so that it falls back to normal pages.',
        zh: '占满所有空闲大页，然后用HUGE_FIRST分配，使它回退到普通页。',
      },
      hints: [
        {
          en: 'The scenario "HUGE_FIRST falls back, HUGE_ONLY fails" fills the huge pool first: step it with n and watch the pools.',
          zh: '场景“HUGE_FIRST回退与HUGE_ONLY失败”会先占满大页池：按n单步执行并观察内存池。',
        },
      ],
      explanation: {
        en: 'With no 2 MiB frame free, HUGE_FIRST takes 4 KiB pages instead and records the fallback (DM-4); aclrtGetMemInfo shows the huge pool empty (DM-15).',
        zh: '没有空闲的2 MiB帧时，HUGE_FIRST改用4 KiB页并记录这次回退（DM-4）；aclrtGetMemInfo显示大页池已空（DM-15）。',
      },
      rules: ['DM-4', 'DM-15'],
      met: (world) => allocs(world, { policy: 'HUGE_FIRST' }).some((a) => a.fallback !== undefined),
    },
    {
      id: 'huge-only-fails',
      scenario: 'huge-first-fallback',
      goal: {
        en: 'Allocate with HUGE_ONLY while no huge page is free: it fails with 207001.',
        zh: '在没有空闲大页时以HUGE_ONLY分配：它以207001失败。',
      },
      hints: [{ en: 'Keep stepping the scenario to its HUGE_ONLY call.', zh: '继续单步执行场景，直到HUGE_ONLY调用。' }],
      explanation: {
        en: 'HUGE_ONLY has no fallback: ACL_ERROR_RT_MEMORY_ALLOCATION (207001), the early failure the guide recommends it for (DM-5, DM-14).',
        zh: 'HUGE_ONLY没有回退：返回ACL_ERROR_RT_MEMORY_ALLOCATION（207001），这正是指南推荐用它“尽早失败”的原因（DM-5、DM-14）。',
      },
      rules: ['DM-5', 'DM-14'],
      met: (world) => mallocCalls(world, 'HUGE_ONLY').some((call) => call.ret === ACL_ERROR_RT_MEMORY_ALLOCATION),
    },
    {
      id: 'fragmented',
      scenario: 'huge-first-fallback',
      goal: {
        en: 'Make HUGE_ONLY fail while at least as much memory as it asked for is still free.',
        zh: '让HUGE_ONLY在空闲内存不少于其申请量时仍然失败。',
      },
      hints: [
        {
          en: 'A huge page needs a whole free 2 MiB frame. Split several frames with small NORMAL_ONLY buffers before the scenario fills the huge pool.',
          zh: '一个大页需要一整个空闲的2 MiB帧。在场景占满大页池之前，先用小的NORMAL_ONLY缓冲区拆开若干帧。',
        },
        {
          en: 'Actions ▸ Malloc: 1 MiB, NORMAL_ONLY, count 8. Then run the scenario again (r).',
          zh: '“操作 ▸ 分配”：1 MiB，NORMAL_ONLY，数量8。然后再次运行场景（r）。',
        },
      ],
      explanation: {
        en: 'Each 1 MiB NORMAL_ONLY buffer (257 pages after padding) splits a frame of its own and leaves 255 pages free in it. Those pages count as free memory (DM-15), but a huge page needs a whole free frame: HUGE_ONLY fails with megabytes free, and the log’s reasons for the call say how much was free in all (DM-5, DM-11). Where pages land is modeled: the driver does not publish it.',
        zh: '每个1 MiB的NORMAL_ONLY缓冲区（补齐后257页）单独拆开一个帧，并在其中留下255个空闲页。这些页计入空闲内存（DM-15），但大页需要一整个空闲帧：HUGE_ONLY在仍有数MB空闲时失败，日志中该调用的原因会写明当时总共有多少空闲（DM-5、DM-11）。页的放置位置是建模结果：驱动并未公开。',
      },
      rules: ['DM-15', 'DM-5', 'DM-11'],
      met: (world) =>
        mallocCalls(world, 'HUGE_ONLY').some(
          (call) => call.ret === ACL_ERROR_RT_MEMORY_ALLOCATION && (call.reasons ?? []).some((reason) => reason.code === 'fragmented'),
        ),
    },
  ],
};

/** Bytes the profile's assumed TLB translates for one page class (PT-3). */
function reach(profile: DeviceProfile, pageClass: 'normal' | 'huge'): number {
  const pageSize = pageClass === 'normal' ? profile.normalPageSize : 2 * 1024 * 1024;
  return profile.tlb[pageClass].entries * pageSize;
}

/** Allocations of `pageClass` with what the goal asks of the device's TLB geometry. */
function someAlloc(
  world: LessonWorld,
  pageClass: AllocEvent['pageClass'],
  test: (a: AllocEvent, profile: DeviceProfile) => boolean,
): boolean {
  return allocs(world, { pageClass }).some((a) => {
    const device = deviceOf(world, a.device);
    return device !== undefined && test(a, device.profile);
  });
}

/** Lesson 4: fewer, larger pages, fewer PTEs, more TLB reach (PT-1, PT-3, DM-7). */
export const TLB_REACH: Lesson = {
  id: 'tlb-reach',
  title: { en: 'TLB reach and 1 GiB pages', zh: 'TLB覆盖范围与1 GiB页' },
  summary: {
    en: 'How many page-table entries a buffer costs under each page size, and how much of it an (assumed) TLB covers.',
    zh: '同一缓冲区在不同页大小下需要多少页表项，以及（假定的）TLB能覆盖其中多少。',
  },
  startsFrom: 'policies',
  steps: [
    {
      id: 'normal-overflow',
      goal: {
        en: 'Allocate 64 MiB with NORMAL_ONLY: more 4 KiB pages than the TLB has entries.',
        zh: '以NORMAL_ONLY申请64 MiB：4 KiB页数超过TLB的条目数。',
      },
      hints: [
        {
          en: 'Actions ▸ Malloc: 64 MiB, NORMAL_ONLY; then open the TLB view (3).',
          zh: '“操作 ▸ 分配”：64 MiB，NORMAL_ONLY；然后打开TLB视图（3）。',
        },
      ],
      explanation: {
        en: '64 MiB + 32 B is 16,385 pages of 4 KiB, one PTE each (PT-1). The assumed TLB has 1,024 normal entries: 4 MiB of reach, about 6 % of the buffer (PT-3). Ascend TLB sizes are not published: the geometry is assumed.',
        zh: '64 MiB + 32 B为16,385个4 KiB页，每页一个页表项（PT-1）。假定的TLB有1,024个普通页条目：覆盖4 MiB，约为该缓冲区的6 %（PT-3）。昇腾的TLB大小未公开：此几何参数为假定值。',
      },
      rules: ['PT-1', 'PT-3'],
      met: (world) => someAlloc(world, 'normal', (a, profile) => a.pages > profile.tlb.normal.entries),
    },
    {
      id: 'huge-covers',
      goal: {
        en: 'Allocate the same 64 MiB with HUGE_FIRST: few enough huge pages for the TLB to cover all of it.',
        zh: '以HUGE_FIRST申请同样的64 MiB：大页数量少到TLB能全部覆盖。',
      },
      hints: [{ en: 'Actions ▸ Malloc: 64 MiB, HUGE_FIRST.', zh: '“操作 ▸ 分配”：64 MiB，HUGE_FIRST。' }],
      explanation: {
        en: '33 huge pages, 33 PTEs (PT-1), well inside the assumed 1,024 huge entries with 2 GiB of reach: fully covered (PT-3). The 32 B of padding cost the 33rd page (DM-3, DM-11).',
        zh: '33个大页、33个页表项（PT-1），远少于假定的1,024个大页条目（覆盖2 GiB）：完全覆盖（PT-3）。32 B的补齐多占了第33页（DM-3、DM-11）。',
      },
      rules: ['PT-1', 'PT-3', 'DM-3', 'DM-11'],
      met: (world) =>
        someAlloc(world, 'huge', (a, profile) => a.pages <= profile.tlb.huge.entries && a.pages * a.pageSize > reach(profile, 'normal')),
    },
    {
      id: 'huge-overflow',
      goal: {
        en: 'Allocate 4 GiB with HUGE_ONLY: now even the huge-page TLB runs short.',
        zh: '以HUGE_ONLY申请4 GiB：此时连大页TLB也不够用了。',
      },
      hints: [{ en: 'Actions ▸ Malloc: 4 GiB, HUGE_ONLY.', zh: '“操作 ▸ 分配”：4 GiB，HUGE_ONLY。' }],
      explanation: {
        en: '4 GiB + 32 B takes 2,049 huge pages against 1,024 entries: 2 GiB of reach, about half the buffer (PT-1, PT-3).',
        zh: '4 GiB + 32 B占用2,049个大页，而条目只有1,024个：覆盖2 GiB，约为缓冲区的一半（PT-1、PT-3）。',
      },
      rules: ['PT-1', 'PT-3'],
      met: (world) => someAlloc(world, 'huge', (a, profile) => a.pages > profile.tlb.huge.entries),
    },
    {
      id: 'giant',
      goal: {
        en: 'Allocate 4 GiB with HUGE1G_ONLY: a few 1 GiB pages cover what 2 MiB pages could not.',
        zh: '以HUGE1G_ONLY申请4 GiB：几个1 GiB页就覆盖了2 MiB页覆盖不了的范围。',
      },
      hints: [{ en: 'Actions ▸ Malloc: 4 GiB, HUGE1G_ONLY.', zh: '“操作 ▸ 分配”：4 GiB，HUGE1G_ONLY。' }],
      explanation: {
        en: 'HUGE1G_ONLY adds no padding and rounds to whole GiB (DM-3, DM-7): 4 pages, 4 level-1 block entries (PT-1, PT-2), inside the assumed 64 giant entries (PT-3). Only Atlas A2 and A3 have 1 GiB pages (DM-7).',
        zh: 'HUGE1G_ONLY不加补齐，按整GiB取整（DM-3、DM-7）：4个页、4个一级块表项（PT-1、PT-2），在假定的64个1 GiB页条目之内（PT-3）。只有Atlas A2和A3支持1 GiB页（DM-7）。',
      },
      rules: ['DM-3', 'DM-7', 'PT-1', 'PT-2', 'PT-3'],
      met: (world) =>
        someAlloc(world, 'giant', (a, profile) => a.pages <= profile.tlb.giant.entries && a.pages * a.pageSize > reach(profile, 'huge')),
    },
  ],
};
