import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { DEVICE_SETUP, type Scenario } from './scenario.ts';

const CODE = `// The same two sizes under four allocators and policies, side by side.
// aclrtPointerGetAttributes reports the page size each buffer got (DM-11).
int main(void)
{
    const size_t sizes[2] = {1024 * 1024, 3 * 1024 * 1024};  // 1 MiB and 3 MiB
    void* ptrs[8] = {};
    uint32_t pageSizes[8] = {};
    aclrtPtrAttributes attrs = {};

    for (int i = 0; i < 2; ++i) {
        size_t size = sizes[i];
        // HUGE_FIRST pads 1 MiB to 1,048,608 B: above 1 MiB, so a 2 MiB huge page (DM-3, DM-4)
        aclrtMalloc(&ptrs[4 * i], size, ACL_MEM_MALLOC_HUGE_FIRST);
        // HUGE_ONLY: 2 MiB huge pages, or 207001 when none are left (DM-5)
        aclrtMalloc(&ptrs[4 * i + 1], size, ACL_MEM_MALLOC_HUGE_ONLY);
        // NORMAL_ONLY: 4 KiB pages whatever the size (DM-6)
        aclrtMalloc(&ptrs[4 * i + 2], size, ACL_MEM_MALLOC_NORMAL_ONLY);
        // aclrtMallocAlign32 adds no padding: 1 MiB stays at 1 MiB, so normal pages (DM-3, DM-4)
        aclrtMallocAlign32(&ptrs[4 * i + 3], size, ACL_MEM_MALLOC_HUGE_FIRST);
    }

    for (int j = 0; j < 8; ++j) {
        aclrtPointerGetAttributes(ptrs[j], &attrs);
        pageSizes[j] = attrs.pageSize;
    }

    for (int k = 0; k < 8; ++k) (void)aclrtFree(ptrs[k]);
    return 0;
}`;

export const POLICIES: Scenario = {
  id: 'policies',
  title: { en: 'Page policies side by side', zh: '内存页策略对比' },
  description: {
    en: 'HUGE_FIRST, HUGE_ONLY, NORMAL_ONLY and aclrtMallocAlign32 on 1 MiB and 3 MiB. The 32-byte padding of aclrtMalloc pushes 1 MiB over the HUGE_FIRST threshold, so it takes a 2 MiB huge page; aclrtMallocAlign32 of the same size stays on 4 KiB pages.',
    zh: '在1 MiB和3 MiB上对比HUGE_FIRST、HUGE_ONLY、NORMAL_ONLY和aclrtMallocAlign32。aclrtMalloc的32字节补齐使1 MiB超过HUGE_FIRST的阈值，因而占用一个2 MiB大页；同样大小的aclrtMallocAlign32仍使用4 KiB普通页。',
  },
  code: CODE,
  inputs: [],
  setup: DEVICE_SETUP,
  // Fresh: HUGE_ONLY and the padded 1 MiB need free 2 MiB frames, which leftovers may have taken.
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: true },
  origin: 'pagelens',
  rules: ['DM-3', 'DM-4', 'DM-5', 'DM-6', 'DM-11'],
};
