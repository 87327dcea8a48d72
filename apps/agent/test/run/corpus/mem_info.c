/* Pools before and after a huge-page allocation, pointer attributes and address ranges (DM-15, DM-16). */
#include "common.h"

int main(void) {
  /* Samples ask the run mode before aclInit: a program under PageLens runs on the host. */
  aclrtRunMode mode = ACL_DEVICE;
  CHECK_ACL(aclrtGetRunMode(&mode));
  EXPECT(mode == ACL_HOST);
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  uint32_t count = 0;
  CHECK_ACL(aclrtGetDeviceCount(&count));
  EXPECT(count >= 1);
  int32_t device = -1;
  CHECK_ACL(aclrtGetDevice(&device));
  EXPECT(device == 0);
  size_t freeBefore = 0, total = 0, freeAfter = 0;
  CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &freeBefore, &total));
  EXPECT(total > 0 && freeBefore <= total);
  void *dev = NULL;
  const size_t size = 5u * 1024 * 1024;
  CHECK_ACL(aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_ONLY));
  CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &freeAfter, &total));
  EXPECT(freeBefore - freeAfter == 6u * 1024 * 1024); /* three 2 MiB pages (DM-5, DM-11) */
  aclrtPtrAttributes attributes;
  CHECK_ACL(aclrtPointerGetAttributes(dev, &attributes));
  EXPECT(attributes.location.type == ACL_MEM_LOCATION_TYPE_DEVICE);
  EXPECT(attributes.pageSize == 2u * 1024 * 1024);
  void *base = NULL;
  size_t range = 0;
  CHECK_ACL(aclrtMemGetAddressRange((char *)dev + 1000, &base, &range));
  EXPECT(base == dev && range >= size);
  void *pinned = NULL;
  CHECK_ACL(aclrtMallocHost(&pinned, 10000));
  CHECK_ACL(aclrtMemGetAddressRange((char *)pinned + 10, &base, &range));
  EXPECT(base == pinned);
  ((char *)pinned)[9999] = 1;
  CHECK_ACL(aclrtFreeHost(pinned));
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtGetMemInfo(ACL_HBM_MEM_HUGE, &freeAfter, &total));
  EXPECT(freeAfter == freeBefore);
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("mem_info: PASS\n");
  return 0;
}
