/* Allocates, says so, waits for a line on stdin, then frees and exits: lets a test watch the
 * allocation live in the explorer while the program runs. */
#include <stdio.h>
#include "acl/acl.h"

int main(void) {
  void *dev = NULL;
  if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtMalloc(&dev, 5 * 1024 * 1024, ACL_MEM_MALLOC_HUGE_ONLY) != ACL_SUCCESS) return 1;
  printf("allocated %p\n", dev);
  fflush(stdout);
  char line[16];
  if (fgets(line, sizeof line, stdin) == NULL) return 2;
  if (aclrtFree(dev) != ACL_SUCCESS) return 3;
  aclrtResetDevice(0);
  return 7;
}
