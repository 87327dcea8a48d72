import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { DEVICE_SETUP, type Scenario } from './scenario.ts';

const CODE = `// Fill the huge-page pool, then ask for more: HUGE_FIRST falls back, HUGE_ONLY fails.
int main(void)
{
    // A small NORMAL_ONLY buffer splits one 2 MiB frame into 4 KiB pages (DM-6, DM-11)
    void* small = nullptr;
    aclrtMalloc(&small, 4096, ACL_MEM_MALLOC_NORMAL_ONLY);

    // One HUGE_ONLY allocation takes every free 2 MiB frame (DM-5, DM-15);
    // 64 bytes less leaves room for the runtime's padding (DM-3)
    size_t freeHuge = 0;
    size_t totalHuge = 0;
    aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &freeHuge, &totalHuge);
    void* filler = nullptr;
    aclError ret = aclrtMalloc(&filler, freeHuge - 64, ACL_MEM_MALLOC_HUGE_ONLY);
    aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &freeHuge, &totalHuge);

    // 1.5 MiB with HUGE_FIRST wants a huge page; none is left, so it takes normal pages (DM-4)
    void* fallback = nullptr;
    ret = aclrtMalloc(&fallback, 1536 * 1024, ACL_MEM_MALLOC_HUGE_FIRST);

    // HUGE_ONLY has no fallback: ACL_ERROR_RT_MEMORY_ALLOCATION (207001, DM-5)
    void* strict = nullptr;
    ret = aclrtMalloc(&strict, 2 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_ONLY);
    if (ret != ACL_SUCCESS) printf("HUGE_ONLY failed: %d\\n", ret);

    (void)aclrtFree(fallback);
    (void)aclrtFree(filler);
    (void)aclrtFree(small);
    return 0;
}`;

export const HUGE_FIRST_FALLBACK: Scenario = {
  id: 'huge-first-fallback',
  title: { en: 'HUGE_FIRST falls back, HUGE_ONLY fails', zh: 'HUGE_FIRST回退与HUGE_ONLY失败' },
  description: {
    en: 'Once the 2 MiB huge pages are all taken, HUGE_FIRST quietly takes 4 KiB pages instead, while HUGE_ONLY fails with 207001 (ACL_ERROR_RT_MEMORY_ALLOCATION): the early failure the guide recommends it for.',
    zh: '当2 MiB大页全部被占用后，HUGE_FIRST会退回使用4 KiB普通页，而HUGE_ONLY以207001（ACL_ERROR_RT_MEMORY_ALLOCATION）失败：这正是指南推荐它用于“尽早暴露问题”的原因。',
  },
  code: CODE,
  inputs: [],
  setup: DEVICE_SETUP,
  // Fresh: a buffer left from an earlier run can keep the fallback from finding normal pages (207001).
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: true },
  origin: 'pagelens',
  rules: ['DM-3', 'DM-4', 'DM-5', 'DM-6', 'DM-15'],
};
