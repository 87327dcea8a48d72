/* VMM: reserve a range, back it with two physical handles, copy through the mapping, tear down in order (VM-8). */
#include <string.h>
#include "common.h"

int main(void) {
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtPhysicalMemProp prop;
  memset(&prop, 0, sizeof prop);
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  size_t granularity = 0;
  CHECK_ACL(aclrtMemGetAllocationGranularity(&prop, ACL_RT_MEM_ALLOC_GRANULARITY_MINIMUM, &granularity));
  EXPECT(granularity == 2u * 1024 * 1024);
  const size_t chunk = 2 * granularity;
  void *base = NULL;
  CHECK_ACL(aclrtReserveMemAddress(&base, 2 * chunk, 0, NULL, 0));
  aclrtDrvMemHandle handles[2];
  for (int i = 0; i < 2; i++) {
    CHECK_ACL(aclrtMallocPhysical(&handles[i], chunk, &prop, 0));
    CHECK_ACL(aclrtMapMem((char *)base + i * chunk, chunk, 0, handles[i], 0));
  }
  aclrtMemAccessDesc desc;
  memset(&desc, 0, sizeof desc);
  desc.flags = ACL_RT_MEM_ACCESS_FLAGS_READWRITE;
  desc.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  desc.location.id = 0;
  for (int i = 0; i < 2; i++) CHECK_ACL(aclrtMemSetAccess((char *)base + i * chunk, chunk, &desc, 1));
  static unsigned int host[1024], back[1024];
  for (int i = 0; i < 1024; i++) host[i] = 0xC0DE0000u + (unsigned)i;
  /* The end of each mapping: the simulator checks a copy against one mapping (CP-2). */
  for (int i = 0; i < 2; i++) {
    char *end = (char *)base + (i + 1) * chunk - sizeof host;
    host[0] = (unsigned)i;
    CHECK_ACL(aclrtMemcpy(end, sizeof host, host, sizeof host, ACL_MEMCPY_HOST_TO_DEVICE));
  }
  for (int i = 0; i < 2; i++) {
    char *end = (char *)base + (i + 1) * chunk - sizeof host;
    CHECK_ACL(aclrtMemcpy(back, sizeof back, end, sizeof back, ACL_MEMCPY_DEVICE_TO_HOST));
    host[0] = (unsigned)i;
    EXPECT(memcmp(host, back, sizeof host) == 0);
  }
  for (int i = 0; i < 2; i++) CHECK_ACL(aclrtUnmapMem((char *)base + i * chunk));
  CHECK_ACL(aclrtReleaseMemAddress(base));
  for (int i = 0; i < 2; i++) CHECK_ACL(aclrtFreePhysical(handles[i]));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("vmm_map: PASS\n");
  return 0;
}
