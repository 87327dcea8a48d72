/* Allocates, then dereferences a device pointer: device memory is not host-addressable, so the
 * program dies with SIGSEGV as it would on hardware. The agent must reclaim what it held (LT-3). */
#include "common.h"

int main(void) {
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  void *dev = NULL;
  CHECK_ACL(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST));
  printf("crash: touching %p\n", dev);
  fflush(stdout);
  *(volatile int *)dev = 1;
  return 0;
}
