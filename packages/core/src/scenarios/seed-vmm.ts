import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { DEVICE_SETUP, type Scenario } from './scenario.ts';

/* Copied verbatim from the seed document (seed/000_33a71ac4eacb3de7.txt, lines 195–249): do not reformat. */
const CODE = `void SampleTest()
{
    // 1. 查询内存申请粒度，并对size做对齐处理
    // 设置要申请的物理内存属性
    aclrtPhysicalMemProp prop = {};
    prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;            // handle类型，当前仅支持 ACL_MEM_HANDLE_TYPE_NONE
    prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;  // 内存分配类型，当前仅支持分配锁页内存
    prop.memAttr = ACL_HBM_MEM_NORMAL;                     // 内存属性，这里申请HBM内存
    prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;     // 内存所在位置，这里申请Device内存，且deviceId为0
    prop.location.id = 0;
    // 查询申请最小内存粒度
    size_t granularity = 0UL;
    aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity);
    // 根据查询到的内存申请粒度做内存对齐，以便节约内存
    const size_t dataSize = 1024 * sizeof(float);
    size_t alignedSize =  ((dataSize + granularity - 1U) / granularity) * granularity;

    // 2. 申请物理内存
    // 获取存放物理内存信息的handle，用于后续申请虚拟内存使用，需要注意的是handle并不能直接当虚拟地址访问
    aclrtDrvMemHandle handle = nullptr;
    aclrtMallocPhysical(&handle, alignedSize, &prop, 0);  // 最后一个flag参数当前默认填0

    // 3. 申请预留虚拟内存
    void *virPtr;
    // virPtr即为申请预留的虚拟地址指针，alignedSize为申请预留的内存大小
    aclrtReserveMemAddress(&virPtr, alignedSize, 0, nullptr, 0);

    // 4. 映射虚拟内存到物理内存上
    // 将申请物理内存时获取的handle与申请预留的虚拟地址空间关联起来
    // 需要注意的是，映射的内存大小alignedSize要与申请物理内存时设置的size大小一致
    aclrtMapMem(virPtr, alignedSize, 0, handle, 0);

    // 5. 设置虚拟内存访问权限
    aclrtMemAccessDesc accessDesc = {};
    accessDesc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
    accessDesc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    accessDesc.location.id = 0;
    aclrtMemSetAccess(virPtr, alignedSize, &accessDesc, 1);

    // 6. 内存访问
    // 这里以Device->Host的内存拷贝为例，展示正常访问映射后的内存地址
    int *hostPtr;
    aclrtMallocHost(reinterpret_cast<void**>(&hostPtr), alignedSize);
    aclrtMemcpy(hostPtr, alignedSize, virPtr, alignedSize, ACL_MEMCPY_DEVICE_TO_HOST);
    aclrtFreeHost(hostPtr);

    // 7. 取消虚拟内存与物理内存的映射
    aclrtUnmapMem(virPtr);

    // 8. 释放虚拟内存
    aclrtReleaseMemAddress(virPtr);

    // 9. 释放物理内存
    aclrtFreePhysical(handle);
}`;

export const SEED_VMM: Scenario = {
  id: 'seed-vmm',
  title: { en: 'Virtual memory management', zh: '虚拟内存管理' },
  description: {
    en: "The guide's VMM sample: query the granularity, round 4 KiB up to it (2 MiB), allocate physical memory, reserve a virtual range, map, grant access, copy device-to-host through the mapping, then unmap, release and free in that order. The sample never calls aclInit: the setup does.",
    zh: '指南中的虚拟内存管理示例：查询申请粒度并把4 KiB对齐到该粒度（2 MiB），申请物理内存、预留虚拟地址、建立映射、设置访问权限，通过映射地址做D2H拷贝，再依次取消映射、释放虚拟地址、释放物理内存。示例本身没有调用aclInit：由setup完成。',
  },
  code: CODE,
  inputs: [],
  setup: DEVICE_SETUP,
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: false },
  origin: 'seed',
  rules: ['VM-2', 'VM-3', 'VM-4', 'VM-5', 'VM-6', 'VM-7', 'VM-8'],
};
