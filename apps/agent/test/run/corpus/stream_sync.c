/* Streams made with a config, the default (NULL) stream, synchronize with a timeout, the device-wide sync (CP-4, CP-5, CP-7). */
#include <string.h>
#include "common.h"

int main(void) {
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream fast = NULL;
  CHECK_ACL(aclrtCreateStreamWithConfig(&fast, 0, ACL_STREAM_FAST_LAUNCH));
  CHECK_ACL(aclrtSetStreamFailureMode(fast, ACL_STOP_ON_FAILURE));
  void *host = NULL, *dev = NULL;
  const size_t n = 1 << 16;
  CHECK_ACL(aclrtMallocHost(&host, n));
  CHECK_ACL(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_NORMAL_ONLY));
  memset(host, 9, n);
  CHECK_ACL(aclrtMemcpyAsync(dev, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE, fast));
  CHECK_ACL(aclrtSynchronizeStreamWithTimeout(fast, -1));
  memset(host, 0, n);
  CHECK_ACL(aclrtMemcpyAsync(host, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST, NULL));
  CHECK_ACL(aclrtSynchronizeStream(NULL));
  CHECK_ACL(aclrtSynchronizeDevice());
  EXPECT(((unsigned char *)host)[n - 1] == 9);
  aclrtStream current = (aclrtStream)1;
  CHECK_ACL(aclrtCtxGetCurrentDefaultStream(&current));
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtDestroyStream(fast));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("stream_sync: PASS\n");
  return 0;
}
