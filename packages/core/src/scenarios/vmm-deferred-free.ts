import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { DEVICE_SETUP, type Scenario } from './scenario.ts';

const CODE = `// aclrtFreePhysical on a handle that is still mapped: the memory waits for the unmap (VM-8).
void DeferredFree()
{
    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    prop.memAttr = ACL_HBM_MEM_HUGE;
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    size_t granularity = 0;
    aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity);
    const size_t size = 2 * granularity;

    aclrtDrvMemHandle handle = nullptr;
    aclrtMallocPhysical(&handle, size, &prop, 0);
    void* virPtr = nullptr;
    aclrtReserveMemAddress(&virPtr, size, 0, nullptr, 0);
    aclrtMapMem(virPtr, size, 0, handle, 0);

    // The handle goes now; its 2 huge pages stay while the mapping uses them
    aclrtFreePhysical(handle);
    aclrtMemset(virPtr, size, 0, size);

    // A mapped reservation cannot be released: unmap first
    aclError ret = aclrtReleaseMemAddress(virPtr);
    aclrtUnmapMem(virPtr);             // the physical memory is released here
    ret = aclrtReleaseMemAddress(virPtr);
}`;

export const VMM_DEFERRED_FREE: Scenario = {
  id: 'vmm-deferred-free',
  title: { en: 'VMM: freeing a mapped handle', zh: '虚拟内存：释放仍在映射中的handle' },
  description: {
    en: 'aclrtFreePhysical succeeds on a handle that is still mapped, but the physical pages stay until aclrtUnmapMem; aclrtReleaseMemAddress fails while the range is mapped.',
    zh: '对仍在映射中的handle调用aclrtFreePhysical会成功，但物理页要到aclrtUnmapMem时才释放；地址范围仍被映射时aclrtReleaseMemAddress会失败。',
  },
  code: CODE,
  inputs: [],
  setup: DEVICE_SETUP,
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: false },
  origin: 'pagelens',
  rules: ['VM-2', 'VM-4', 'VM-5', 'VM-6', 'VM-8'],
};
