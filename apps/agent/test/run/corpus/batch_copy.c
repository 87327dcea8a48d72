/* aclrtMemcpyBatch: four host-to-device copies described by one attribute run (CP-11). */
#include <string.h>
#include "common.h"

int main(void) {
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  enum { N = 4, BYTES = 8192 };
  void *host = NULL;
  CHECK_ACL(aclrtMallocHost(&host, N * BYTES));
  for (int i = 0; i < N * BYTES; i++) ((unsigned char *)host)[i] = (unsigned char)(i / BYTES + 1);
  void *dsts[N], *srcs[N];
  size_t destMaxs[N], sizes[N];
  for (int i = 0; i < N; i++) {
    CHECK_ACL(aclrtMalloc(&dsts[i], BYTES, ACL_MEM_MALLOC_NORMAL_ONLY));
    srcs[i] = (char *)host + i * BYTES;
    destMaxs[i] = sizes[i] = BYTES;
  }
  aclrtMemcpyBatchAttr attr;
  memset(&attr, 0, sizeof attr);
  attr.dstLoc.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  attr.dstLoc.id = 0;
  attr.srcLoc.type = ACL_MEM_LOCATION_TYPE_HOST;
  size_t attrsIndexes[1] = {0};
  size_t failIndex = 0;
  CHECK_ACL(aclrtMemcpyBatch(dsts, destMaxs, srcs, sizes, N, &attr, attrsIndexes, 1, &failIndex));
  unsigned char back[BYTES];
  for (int i = 0; i < N; i++) {
    CHECK_ACL(aclrtMemcpy(back, BYTES, dsts[i], BYTES, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(back[0] == i + 1 && back[BYTES - 1] == i + 1);
    CHECK_ACL(aclrtFree(dsts[i]));
  }
  CHECK_ACL(aclrtFreeHost(host));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("batch_copy: PASS\n");
  return 0;
}
