/* aclrtMallocWithCfg and aclrtMallocHostWithCfg with attribute lists (DM-9, HM-4, HM-6). */
#include <string.h>
#include "common.h"

int main(void) {
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtMallocAttribute attrs[1];
  memset(attrs, 0, sizeof attrs);
  attrs[0].attr = ACL_RT_MEM_ATTR_MODULE_ID;
  attrs[0].value.moduleId = 33;
  aclrtMallocConfig cfg = {attrs, 1};
  void *dev = NULL;
  CHECK_ACL(aclrtMallocWithCfg(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST, &cfg));
  void *plain = NULL;
  CHECK_ACL(aclrtMallocWithCfg(&plain, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST, NULL));
  CHECK_ACL(aclrtFree(plain));
  aclrtMallocAttribute hostAttrs[1];
  memset(hostAttrs, 0, sizeof hostAttrs);
  hostAttrs[0].attr = ACL_RT_MEM_ATTR_DEVICE_ID;
  hostAttrs[0].value.deviceId = 0;
  aclrtMallocConfig hostCfg = {hostAttrs, 1};
  void *host = NULL;
  CHECK_ACL(aclrtMallocHostWithCfg(&host, 65536, &hostCfg));
  memset(host, 0x3C, 65536);
  CHECK_ACL(aclrtMemcpy(dev, 65536, host, 65536, ACL_MEMCPY_HOST_TO_DEVICE));
  unsigned char back[256];
  CHECK_ACL(aclrtMemcpy(back, sizeof back, (char *)dev + 65536 - 256, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
  EXPECT(back[0] == 0x3C && back[255] == 0x3C);
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("malloc_cfg: PASS\n");
  return 0;
}
