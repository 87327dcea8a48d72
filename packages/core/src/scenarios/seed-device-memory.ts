import { ASCEND_910B2 } from '../profiles/builtin.ts';
import type { Scenario } from './scenario.ts';

/* Copied verbatim from the seed document (seed/000_33a71ac4eacb3de7.txt, lines 33–96): do not reformat. */
const CODE = `int main(void)
{
    int32_t deviceId = 0;
    int64_t N = 16;
    const size_t bytes = static_cast<size_t>(N) * sizeof(float);
    aclrtStream stream = nullptr;

    // STEP 1: 初始化、Stream创建
    aclInit(nullptr);
    aclrtSetDevice(deviceId);
    aclrtCreateStream(&stream);

    // STEP 2: 申请Host内存
    void* hostA = nullptr;
    void* hostB = nullptr;
    void* hostOut = nullptr;

    aclrtMallocHost(&hostA, bytes);
    aclrtMallocHost(&hostB, bytes);
    aclrtMallocHost(&hostOut, bytes);

    // 输入数据初始化
    ...

    // STEP 3: 申请Device内存
    void* deviceA = nullptr;
    void* deviceB = nullptr;
    void* deviceOut = nullptr;

    // 第三个参数aclrtMemMallocPolicy表示申请内存时的内存页分配策略
    // ACL_MEM_MALLOC_HUGE_FIRST 表示大页内存优先，其余定义参考API文档
    aclrtMalloc(&deviceA, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&deviceB, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&deviceOut, bytes, ACL_MEM_MALLOC_HUGE_FIRST);

    // STEP 4: 将输入数据从Host内存传输到Device内存
    aclrtMemcpy(deviceA, bytes, hostA, bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(deviceB, bytes, hostB, bytes, ACL_MEMCPY_HOST_TO_DEVICE);

    // STEP 5: 执行计算操作，比如aclnnAdd，将计算结果保存在Device内存
    // ...

    // STEP 6: 将计算结果从Device内存传输到Host内存
    aclrtMemcpy(hostOut, bytes, deviceOut, bytes, ACL_MEMCPY_DEVICE_TO_HOST);

    // STEP 7: 在Host侧处理计算结果
    // ...

    // STEP 8: 资源清理
    // STEP 8.1: 释放Host和Device内存
    if (deviceA) (void)aclrtFree(deviceA);
    if (deviceB) (void)aclrtFree(deviceB);
    if (deviceOut) (void)aclrtFree(deviceOut);
    if (hostA) (void)aclrtFreeHost(hostA);
    if (hostB) (void)aclrtFreeHost(hostB);
    if (hostOut) (void)aclrtFreeHost(hostOut);

    // STEP 8.2: 清理设备和进程资源
    if (stream) (void)aclrtDestroyStream(stream);
    (void)aclrtResetDevice(deviceId);
    (void)aclFinalize();

    return 0;
}`;

export const SEED_DEVICE_MEMORY: Scenario = {
  id: 'seed-device-memory',
  title: { en: 'Device memory', zh: 'Device内存使用' },
  description: {
    en: "The guide's first sample: three 64-byte tensors in pinned host memory and on the device (HUGE_FIRST), copied there and back, then everything released in the documented order. Each 64-byte aclrtMalloc pads to 96 B and takes one 4 KiB normal page.",
    zh: '指南中的第一个示例：三个64字节的张量分别申请在锁页Host内存和Device内存（HUGE_FIRST）上，往返拷贝后按文档顺序释放全部资源。每个64字节的aclrtMalloc补齐到96字节，占用一个4 KiB普通页。',
  },
  code: CODE,
  inputs: [],
  setup: '',
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: false },
  origin: 'seed',
  rules: ['DM-1', 'DM-3', 'DM-4', 'DM-11', 'HM-2', 'CP-1', 'LT-3'],
};
