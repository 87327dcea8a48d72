import { ASCEND_910B2 } from '../profiles/builtin.ts';
import { DEVICE_SETUP, type Scenario } from './scenario.ts';

const CODE = `// Host memory registered with the device: same VA or a different one (HM-4, HM-6).
int main(void)
{
    // VA_FLAG = 1: the device address will equal the host address (A2/A3 only)
    aclrtMallocAttribute attrs[1] = {};
    attrs[0].attr = ACL_RT_MEM_ATTR_VA_FLAG;
    attrs[0].value.vaFlag = 1;
    aclrtMallocConfig cfg = {};
    cfg.attrs = attrs;
    cfg.numAttrs = 1;

    void* sameVa = nullptr;
    aclrtMallocHostWithCfg(&sameVa, size, &cfg);
    void* sameVaDev = nullptr;
    aclrtHostRegister(sameVa, size, ACL_HOST_REGISTER_MAPPED, &sameVaDev);
    bool consistent = (sameVa == sameVaDev);

    // Plain pinned memory: the device sees it at another address (the default)
    void* plain = nullptr;
    aclrtMallocHost(&plain, size);
    void* plainDev = nullptr;
    aclrtHostRegister(plain, size, ACL_HOST_REGISTER_MAPPED, &plainDev);
    bool differs = (plain != plainDev);

    aclrtHostUnregister(plain);
    aclrtHostUnregister(sameVa);
    aclrtFreeHost(plain);
    aclrtFreeHost(sameVa);
    return 0;
}`;

export const VA_CONSISTENT_REGISTER: Scenario = {
  id: 'va-consistent-register',
  title: { en: 'VA-consistent host registration', zh: 'Host内存VA一致性注册' },
  description: {
    en: 'aclrtMallocHostWithCfg with the ACL_RT_MEM_ATTR_VA_FLAG attribute, then aclrtHostRegister: the device pointer equals the host pointer. The same registration of plain aclrtMallocHost memory gives a different device address.',
    zh: '使用带ACL_RT_MEM_ATTR_VA_FLAG属性的aclrtMallocHostWithCfg申请内存，再调用aclrtHostRegister：得到的Device指针与Host指针相同。对普通aclrtMallocHost内存做同样的注册，得到的是不同的Device地址。',
  },
  code: CODE,
  inputs: [{ name: 'size', ctype: 'size_t', value: '2 MiB' }],
  setup: DEVICE_SETUP,
  host: { profile: ASCEND_910B2.name, devices: 1, fresh: false },
  origin: 'pagelens',
  rules: ['HM-4', 'HM-6'],
};
