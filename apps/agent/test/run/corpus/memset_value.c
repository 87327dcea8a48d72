/* aclrtMemsetAsync and aclrtValueWrite on a stream, then the words read back (CP-8, CP-12).
 * The value stays below 2^53: PageLens keeps integers exact only that far. */
#include <stdint.h>
#include <string.h>
#include "common.h"

int main(void) {
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  aclrtStream stream = NULL;
  CHECK_ACL(aclrtCreateStream(&stream));
  void *dev = NULL;
  const size_t n = 4096;
  CHECK_ACL(aclrtMalloc(&dev, n, ACL_MEM_MALLOC_NORMAL_ONLY));
  CHECK_ACL(aclrtMemsetAsync(dev, n, 0xAB, n, stream));
  CHECK_ACL(aclrtValueWrite((char *)dev + 64, 0x0011223344556677ull, 0, stream));
  CHECK_ACL(aclrtValueWait((char *)dev + 64, 0x0011223344556677ull, ACL_STREAM_WAIT_VALUE_EQ, stream));
  CHECK_ACL(aclrtSynchronizeStream(stream));
  uint8_t back[4096];
  CHECK_ACL(aclrtMemcpy(back, n, dev, n, ACL_MEMCPY_DEVICE_TO_HOST));
  uint64_t word;
  memcpy(&word, back + 64, sizeof word);
  EXPECT(word == 0x0011223344556677ull);
  EXPECT(back[0] == 0xAB && back[63] == 0xAB && back[72] == 0xAB && back[4095] == 0xAB);
  aclrtStreamStatus status = ACL_STREAM_STATUS_NOT_READY;
  CHECK_ACL(aclrtStreamQuery(stream, &status));
  EXPECT(status == ACL_STREAM_STATUS_COMPLETE);
  CHECK_ACL(aclrtFree(dev));
  CHECK_ACL(aclrtDestroyStream(stream));
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("memset_value: PASS\n");
  return 0;
}
