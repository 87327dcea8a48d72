/* Leaves a device buffer and a stream to aclrtResetDevice instead of freeing them: the runtime
 * releases both when the last reference to the device goes (LT-2), so nothing leaks, but the
 * program skipped the teardown order of LT-3; --check lists them as released by the reset. */
#include "common.h"

int main(void) {
  CHECK_ACL(aclrtSetDevice(0));
  void *dev = NULL;
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtMalloc(&dev, 2 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_ONLY));
  CHECK_ACL(aclrtCreateStream(&stream));
  CHECK_ACL(aclrtMemset(dev, 2 * 1024 * 1024, 0, 2 * 1024 * 1024));
  CHECK_ACL(aclrtResetDevice(0));
  printf("reset_releases: PASS\n");
  return 0;
}
