/* Trace mode's live test program: once a first line arrives on stdin, a device allocation, pinned host memory and a VMM mapping
 * (reserve, physical handle, map), then it says "ready" and waits for a second line, so a test
 * can look at the explorer while it runs; then it tears everything down and exits 0. Runs against
 * whatever libascendcl.so is loaded (the C test double in the tests). */
#include <stdio.h>
#include <string.h>
#include "acl/acl.h"

#define TRY(call)                                            \
  do {                                                       \
    aclError ret_ = (call);                                  \
    if (ret_ != ACL_SUCCESS) {                               \
      fprintf(stderr, "%s failed: %d\n", #call, (int)ret_); \
      return 1;                                              \
    }                                                        \
  } while (0)

int main(void) {
  char line[16];
  if (fgets(line, sizeof line, stdin) == NULL) return 2;
  TRY(aclInit(NULL));
  TRY(aclrtSetDevice(0));
  void *dev = NULL, *host = NULL, *base = NULL;
  TRY(aclrtMalloc(&dev, 3 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_FIRST));
  TRY(aclrtMallocHost(&host, 64 * 1024));
  aclrtPhysicalMemProp prop;
  memset(&prop, 0, sizeof prop);
  prop.handleType = ACL_MEM_HANDLE_TYPE_NONE;
  prop.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
  prop.memAttr = ACL_HBM_MEM_HUGE;
  prop.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = 0;
  const size_t chunk = 4 * 1024 * 1024;
  aclrtDrvMemHandle handle = NULL;
  TRY(aclrtReserveMemAddress(&base, 2 * chunk, 0, NULL, 0));
  TRY(aclrtMallocPhysical(&handle, chunk, &prop, 0));
  TRY(aclrtMapMem(base, chunk, 0, handle, 0));
  printf("traced_live: ready\n");
  fflush(stdout);
  if (fgets(line, sizeof line, stdin) == NULL) return 2;
  TRY(aclrtUnmapMem(base));
  TRY(aclrtFreePhysical(handle));
  TRY(aclrtReleaseMemAddress(base));
  TRY(aclrtFreeHost(host));
  TRY(aclrtFree(dev));
  TRY(aclrtResetDevice(0));
  TRY(aclFinalize());
  printf("traced_live: done\n");
  return 0;
}
