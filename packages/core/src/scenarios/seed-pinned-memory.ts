import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { type Scenario, STREAM_SETUP } from './scenario.ts';

/* Copied verbatim from the seed document (seed/000_33a71ac4eacb3de7.txt, lines 140–163): do not reformat. */
const CODE = `// 资源初始化
......

// 申请锁页内存
void *hostPtr = NULL;
aclrtMallocHost(&hostPtr, size);

// 申请Device内存
void *devicePtr = NULL;
aclrtMalloc(&devicePtr, size, ACL_MEM_MALLOC_NORMAL_ONLY);

// 内存初始化
......

// 异步H2D
aclrtMemcpyAsync(devicePtr, size, hostPtr, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);

// 等待异步拷贝完成
aclrtSynchronizeStream(stream);

// 资源释放
if (devicePtr) (void)aclrtFree(devicePtr);
if (hostPtr) (void)aclrtFreeHost(hostPtr);
......`;

export const SEED_PINNED_MEMORY: Scenario = {
  id: 'seed-pinned-memory',
  title: { en: 'Pinned host memory and an async copy (fragment)', zh: '锁页内存与异步拷贝（片段）' },
  description: {
    en: "The guide's fragment for aclrtMallocHost: pinned host memory, a NORMAL_ONLY device buffer, an asynchronous host-to-device copy and a stream synchronisation. The fragment leaves out initialisation (the setup does it) and uses `size` and `stream` without declaring them: they are inputs.",
    zh: '指南中aclrtMallocHost的片段：锁页Host内存、NORMAL_ONLY的Device内存、异步H2D拷贝与Stream同步。片段省略了资源初始化（由setup完成），并直接使用未声明的`size`和`stream`：它们是输入。',
  },
  code: CODE,
  inputs: [
    { name: 'size', ctype: 'size_t', value: '4 MiB' },
    { name: 'stream', ctype: 'aclrtStream' },
  ],
  setup: STREAM_SETUP,
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: false },
  origin: 'seed',
  rules: ['HM-2', 'HM-3', 'DM-6', 'CP-4'],
};
