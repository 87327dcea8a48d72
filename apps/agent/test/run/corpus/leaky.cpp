// Deliberately leaky: forgets a device buffer, a pinned buffer, a stream and an event, and never
// resets the device. `pagelens run --check` must report exactly these four.
#include <cstdio>
#include "common.h"

namespace {

void *forgottenDeviceBuffer() {
  void *dev = nullptr;
  CHECK_ACL(aclrtMalloc(&dev, 3 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
  return dev;
}

}  // namespace

int main() {
  CHECK_ACL(aclInit(nullptr));
  CHECK_ACL(aclrtSetDevice(0));
  void *kept = nullptr;
  CHECK_ACL(aclrtMalloc(&kept, 4096, ACL_MEM_MALLOC_NORMAL_ONLY));
  (void)forgottenDeviceBuffer();
  void *pinned = nullptr;
  CHECK_ACL(aclrtMallocHost(&pinned, 8192));
  aclrtStream stream = nullptr;
  CHECK_ACL(aclrtCreateStream(&stream));
  aclrtEvent event = nullptr;
  CHECK_ACL(aclrtCreateEvent(&event));
  CHECK_ACL(aclrtFree(kept));
  std::printf("leaky: done\n");
  return 0;
}
