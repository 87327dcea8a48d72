import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { type Scenario, STREAM_SETUP } from './scenario.ts';

const CODE = `// One device buffer, filled from pageable and from pinned host memory.
int main(void)
{
    void* pageable = malloc(size);          // swappable; copies go through a staging buffer (HM-1)
    void* pinned = nullptr;
    aclrtMallocHost(&pinned, size);         // page-locked; DMA reads it directly (HM-2)
    void* dev = nullptr;
    aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST);

    // Synchronous copies: the same call, two paths (CP-1, CP-3)
    aclrtMemcpy(dev, size, pageable, size, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dev, size, pinned, size, ACL_MEMCPY_HOST_TO_DEVICE);

    // From pinned memory the async copy returns at once;
    // from pageable memory it returns only when the copy is done (HM-3)
    aclrtMemcpyAsync(dev, size, pinned, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    aclrtMemcpyAsync(dev, size, pageable, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    aclrtSynchronizeStream(stream);

    aclrtFree(dev);
    aclrtFreeHost(pinned);
    free(pageable);
    return 0;
}`;

export const PAGEABLE_VS_PINNED: Scenario = {
  id: 'pageable-vs-pinned',
  title: { en: 'Pageable versus pinned copies', zh: 'Pageable内存与锁页内存拷贝对比' },
  description: {
    en: 'The same host-to-device copy from malloc memory and from aclrtMallocHost memory: pageable data is staged through a bounce buffer and makes aclrtMemcpyAsync wait, pinned data goes straight to DMA and lets the host carry on.',
    zh: '分别从malloc内存和aclrtMallocHost内存做同样的H2D拷贝：Pageable数据需经过中转缓冲区，且会使aclrtMemcpyAsync同步等待；锁页数据直接走DMA，Host可以继续执行。',
  },
  code: CODE,
  inputs: [
    { name: 'size', ctype: 'size_t', value: '64 MiB' },
    { name: 'stream', ctype: 'aclrtStream' },
  ],
  setup: STREAM_SETUP,
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: false },
  origin: 'pagelens',
  rules: ['HM-1', 'HM-2', 'HM-3', 'CP-1', 'CP-3', 'CP-4'],
};
