import type { Lesson } from './lesson.ts';
import { copies, eventsOf } from './world.ts';

/** Lesson 5: pageable copies stage through a bounce buffer; pinned ones go straight to DMA (HM-1 … HM-3). */
export const PINNED_COPIES: Lesson = {
  id: 'pinned-copies',
  title: { en: 'Pinned versus pageable copies', zh: '锁页内存与Pageable内存拷贝' },
  summary: {
    en: 'The same host-to-device copy from malloc memory and from aclrtMallocHost memory: staging, speed, and who waits.',
    zh: '分别从malloc内存与aclrtMallocHost内存做同样的H2D拷贝：中转、速度以及谁在等待。',
  },
  startsFrom: 'pageable-vs-pinned',
  steps: [
    {
      id: 'staged',
      scenario: 'pageable-vs-pinned',
      goal: {
        en: 'Copy host to device from pageable (malloc) memory and see it staged.',
        zh: '从Pageable（malloc）内存向Device拷贝，观察它经过中转。',
      },
      hints: [
        {
          en: 'Step the scenario "Pageable versus pinned copies" (n) to its first aclrtMemcpy, then look at the Host & copies view (4).',
          zh: '单步执行场景“Pageable内存与锁页内存拷贝对比”（n）到第一个aclrtMemcpy，然后查看“Host 内存与拷贝”视图（4）。',
        },
      ],
      explanation: {
        en: 'Pageable memory can be swapped out, so the runtime first copies it into a staging buffer, chunk by chunk, then DMAs it (HM-1); the timeline shows the stages. Its speed is modeled at 0.3–1.0 × pinned, with jitter (CP-3).',
        zh: 'Pageable内存可能被换出，因此运行时先把它分块拷进中转缓冲区，再做DMA（HM-1）；时间线上能看到这些分块。其速度按锁页内存的0.3–1.0倍建模，并带有抖动（CP-3）。',
      },
      rules: ['HM-1', 'CP-3'],
      met: (world) => copies(world).some((copy) => copy.path === 'pageable-staged' && copy.stages > 0),
    },
    {
      id: 'pinned',
      scenario: 'pageable-vs-pinned',
      goal: {
        en: 'Copy the same number of bytes from pinned (aclrtMallocHost) memory.',
        zh: '从锁页（aclrtMallocHost）内存拷贝同样多的字节。',
      },
      hints: [{ en: 'The next line of the scenario does it; compare the two bars.', zh: '场景的下一行就是它；比较两条拷贝条。' }],
      explanation: {
        en: 'Pinned memory is page-locked, so the DMA reads it directly (HM-2), modeled at 0.85 × the link peak on this profile (CP-3); no staging chunks.',
        zh: '锁页内存不会被换出，DMA可以直接读取（HM-2），在此产品配置下按链路峰值的0.85倍建模（CP-3）；没有中转分块。',
      },
      rules: ['HM-2', 'CP-3'],
      met: (world) => {
        const staged = new Set(
          copies(world)
            .filter((copy) => copy.path === 'pageable-staged')
            .map((copy) => copy.bytes),
        );
        return copies(world).some((copy) => copy.path === 'pinned' && staged.has(copy.bytes));
      },
    },
    {
      id: 'async-pinned',
      scenario: 'pageable-vs-pinned',
      goal: {
        en: 'Copy with aclrtMemcpyAsync from pinned memory: the call returns at once.',
        zh: '用aclrtMemcpyAsync从锁页内存拷贝：调用立即返回。',
      },
      hints: [{ en: 'Keep stepping: the first aclrtMemcpyAsync of the scenario.', zh: '继续单步执行：场景中的第一个aclrtMemcpyAsync。' }],
      explanation: {
        en: 'From pinned memory the copy is truly asynchronous: it is queued on the stream and the host goes on, so copy and compute can overlap; aclrtSynchronizeStream waits for it (HM-3, CP-4).',
        zh: '从锁页内存拷贝是真正的异步：拷贝排入Stream后Host继续执行，拷贝与计算可以重叠；aclrtSynchronizeStream会等待它完成（HM-3、CP-4）。',
      },
      rules: ['HM-3', 'CP-4'],
      met: (world) => copies(world).some((copy) => copy.fn === 'aclrtMemcpyAsync' && copy.path === 'pinned' && copy.mode === 'async'),
    },
    {
      id: 'async-pageable',
      scenario: 'pageable-vs-pinned',
      goal: {
        en: 'Copy with aclrtMemcpyAsync from pageable memory: the host waits for the whole copy.',
        zh: '用aclrtMemcpyAsync从Pageable内存拷贝：Host要等整个拷贝完成。',
      },
      hints: [
        {
          en: 'The second aclrtMemcpyAsync of the scenario; the log shows how long the call took.',
          zh: '场景中的第二个aclrtMemcpyAsync；日志显示该调用耗时多久。',
        },
      ],
      explanation: {
        en: 'aclrtMemcpyAsync with a pageable host side returns only after the copy completes (HM-3): "async" in name only. Register the buffer or use aclrtMallocHost to overlap (HM-5, HM-2).',
        zh: 'Host侧为Pageable内存时，aclrtMemcpyAsync要等拷贝完成才返回（HM-3）：徒有“异步”之名。要实现重叠，请注册该缓冲区或改用aclrtMallocHost（HM-5、HM-2）。',
      },
      rules: ['HM-3', 'HM-5', 'HM-2'],
      met: (world) => copies(world).some((copy) => copy.fn === 'aclrtMemcpyAsync' && copy.mode === 'async-blocking'),
    },
  ],
};

/** Lesson 6: the VMM lifecycle and the deferred free of a mapped handle (VM-2 … VM-8). */
export const VMM_LIFECYCLE: Lesson = {
  id: 'vmm-lifecycle',
  title: { en: 'VMM: reserve, map, unmap and the deferred free', zh: '虚拟内存：预留、映射、解除映射与延迟释放' },
  summary: {
    en: 'Reserve addresses, back them with a physical handle, free the handle while mapped, and see when the memory really goes.',
    zh: '预留地址、用物理handle提供后备内存、在映射中释放handle，并观察内存究竟何时释放。',
  },
  startsFrom: 'vmm-deferred-free',
  steps: [
    {
      id: 'map',
      scenario: 'vmm-deferred-free',
      goal: {
        en: 'Reserve a VA range and map a physical handle into it.',
        zh: '预留一段虚拟地址，并把一个物理handle映射进去。',
      },
      hints: [
        {
          en: 'Step the scenario "VMM: freeing a mapped handle" past aclrtMapMem, or use the VMM wizard (w).',
          zh: '单步执行场景“虚拟内存：释放仍在映射中的handle”越过aclrtMapMem，或使用VMM向导（w）。',
        },
      ],
      explanation: {
        en: 'aclrtMallocPhysical takes pages in multiples of the 2 MiB granularity (VM-2, VM-4); aclrtReserveMemAddress takes only addresses (VM-5); aclrtMapMem binds the whole handle into the reservation (VM-6). The address space view (2) shows both.',
        zh: 'aclrtMallocPhysical按2 MiB粒度的整数倍占用物理页（VM-2、VM-4）；aclrtReserveMemAddress只占用地址（VM-5）；aclrtMapMem把整个handle绑定到预留范围中（VM-6）。地址空间视图（2）会同时显示二者。',
      },
      rules: ['VM-2', 'VM-4', 'VM-5', 'VM-6'],
      met: (world) => eventsOf(world, 'map').length > 0,
    },
    {
      id: 'deferred',
      scenario: 'vmm-deferred-free',
      goal: { en: 'Free the physical handle while it is still mapped.', zh: '在物理handle仍被映射时释放它。' },
      hints: [{ en: 'The next call of the scenario: aclrtFreePhysical.', zh: '场景的下一个调用：aclrtFreePhysical。' }],
      explanation: {
        en: 'The call succeeds and the handle is gone for the program, but its pages stay while the mapping uses them: the free is deferred to the unmap (VM-8). The page map still shows them taken.',
        zh: '调用成功，handle对程序而言已不存在，但只要映射仍在使用，它的物理页就保留：释放被推迟到解除映射时（VM-8）。页面图上它们仍显示为已占用。',
      },
      rules: ['VM-8'],
      met: (world) => eventsOf(world, 'physFree').some((event) => event.deferred),
    },
    {
      id: 'release-refused',
      scenario: 'vmm-deferred-free',
      goal: { en: 'Try to release the reservation while it is mapped.', zh: '在预留范围仍被映射时尝试释放它。' },
      hints: [{ en: 'Step on to the first aclrtReleaseMemAddress.', zh: '继续单步到第一个aclrtReleaseMemAddress。' }],
      explanation: {
        en: 'aclrtReleaseMemAddress fails while any part of the range is mapped; the teardown order is unmap, release, free physical (VM-8).',
        zh: '只要范围内仍有映射，aclrtReleaseMemAddress就会失败；正确的释放顺序是解除映射、释放地址、释放物理内存（VM-8）。',
      },
      rules: ['VM-8'],
      met: (world) => eventsOf(world, 'call').some((call) => call.fn === 'aclrtReleaseMemAddress' && call.ret !== 0),
    },
    {
      id: 'unmap-frees',
      scenario: 'vmm-deferred-free',
      goal: {
        en: 'Unmap the range, and watch the deferred memory go back to the device.',
        zh: '解除映射，观察被延迟释放的内存归还给Device。',
      },
      hints: [{ en: 'The aclrtUnmapMem line; keep an eye on the pools.', zh: 'aclrtUnmapMem这一行；留意内存池的变化。' }],
      explanation: {
        en: 'The unmap ends the last use of the freed handle, so its pages are released now (VM-8): the huge pool grows back.',
        zh: '解除映射结束了已释放handle的最后一次使用，因此它的物理页此时才被释放（VM-8）：大页池随之恢复。',
      },
      rules: ['VM-8'],
      met: (world) => {
        const deferred = eventsOf(world, 'physFree').filter((event) => event.deferred);
        return eventsOf(world, 'physRelease').some((release) => deferred.some((free) => free.id === release.id && free.seq < release.seq));
      },
    },
    {
      id: 'release',
      scenario: 'vmm-deferred-free',
      goal: { en: 'Release the reservation now that nothing is mapped.', zh: '在没有任何映射后释放预留范围。' },
      hints: [{ en: 'The last line of the scenario.', zh: '场景的最后一行。' }],
      explanation: {
        en: 'With the mapping gone the addresses can be given back: aclrtReleaseMemAddress now succeeds, and the lifecycle is complete (VM-8).',
        zh: '映射解除后地址即可归还：aclrtReleaseMemAddress此时成功，生命周期完整结束（VM-8）。',
      },
      rules: ['VM-8'],
      met: (world) => {
        const unmaps = eventsOf(world, 'unmap').map((event) => event.seq);
        return eventsOf(world, 'release').some((release) => unmaps.some((seq) => seq < release.seq));
      },
    },
  ],
};
