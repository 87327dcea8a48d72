import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { DEVICE_SETUP, type Scenario } from './scenario.ts';

/* Copied verbatim from the seed document (seed/000_33a71ac4eacb3de7.txt, lines 167–182): do not reformat. */
const CODE = `// 申请Pageable内存
void *hostPtr = malloc(size);

// 注册为锁页内存(ACL_HOST_REG_PINNED)，并映射到Device(ACL_HOST_REG_MAPPED)
aclrtHostRegisterV2(hostPtr, size, ACL_HOST_REG_PINNED|ACL_HOST_REG_MAPPED);

// 获取Device地址
void *devicePtr = NULL;
aclrtHostGetDevicePointer(hostPtr, &devicePtr, 0);

// 任务通过Device地址访问对应内存
...

// 资源释放
aclrtHostUnregister(hostPtr);
free(hostPtr);`;

export const SEED_HOST_REGISTER: Scenario = {
  id: 'seed-host-register',
  title: { en: 'Registering malloc memory (fragment)', zh: '注册malloc内存（片段）' },
  description: {
    en: "The guide's fragment for aclrtHostRegisterV2: pageable memory from malloc is pinned and mapped to the device (ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED), its device address is read with aclrtHostGetDevicePointer, then it is unregistered and freed. Needs a host kernel newer than 5.10.",
    zh: '指南中aclrtHostRegisterV2的片段：将malloc申请的Pageable内存注册为锁页内存并映射到Device（ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED），通过aclrtHostGetDevicePointer获取Device地址，然后取消注册并释放。要求Host内核版本高于5.10。',
  },
  code: CODE,
  inputs: [{ name: 'size', ctype: 'size_t', value: '4 MiB' }],
  setup: DEVICE_SETUP,
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: false },
  origin: 'seed',
  rules: ['HM-1', 'HM-5', 'HM-7'],
};
