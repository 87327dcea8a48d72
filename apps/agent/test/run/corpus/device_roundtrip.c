/* Host -> device -> device -> host through three policies; memset on the device; results checked. */
#include <string.h>
#include "common.h"

static int verify(const unsigned char *data, size_t n, unsigned char (*expected)(size_t)) {
  for (size_t i = 0; i < n; i++)
    if (data[i] != expected(i)) return 0;
  return 1;
}

static unsigned char pattern(size_t i) { return (unsigned char)(i * 7 + 3); }
static unsigned char fives(size_t i) { (void)i; return 0x55; }

int main(void) {
  const size_t n = 3 * 1024 * 1024 + 123;
  const aclrtMemMallocPolicy policies[] = {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY};
  CHECK_ACL(aclInit(NULL));
  CHECK_ACL(aclrtSetDevice(0));
  unsigned char *host = malloc(n), *back = malloc(n);
  for (size_t i = 0; i < n; i++) host[i] = pattern(i);
  void *a = NULL, *b = NULL;
  for (int p = 0; p < 3; p++) {
    CHECK_ACL(aclrtMalloc(&a, n, policies[p]));
    CHECK_ACL(aclrtMalloc(&b, n, policies[p]));
    CHECK_ACL(aclrtMemcpy(a, n, host, n, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK_ACL(aclrtMemcpy(b, n, a, n, ACL_MEMCPY_DEVICE_TO_DEVICE));
    memset(back, 0, n);
    CHECK_ACL(aclrtMemcpy(back, n, b, n, ACL_MEMCPY_DEVICE_TO_HOST));
    EXPECT(verify(back, n, pattern));
    CHECK_ACL(aclrtMemset(b, n, 0x55, n));
    CHECK_ACL(aclrtMemcpy(back, n, b, n, ACL_MEMCPY_DEFAULT));
    EXPECT(verify(back, n, fives));
    CHECK_ACL(aclrtFree(a));
    CHECK_ACL(aclrtFree(b));
  }
  free(host);
  free(back);
  CHECK_ACL(aclrtResetDevice(0));
  CHECK_ACL(aclFinalize());
  printf("device_roundtrip: PASS\n");
  return 0;
}
