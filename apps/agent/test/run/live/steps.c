/* Allocates one device buffer per line it reads on stdin ("4" → 4 MiB), saying so after each, and
 * at the end of input frees them all and exits 7: a test drives it line by line and watches each
 * allocation appear in the explorer while the program runs, with no timing involved. */
#include <stdio.h>
#include <stdlib.h>
#include "acl/acl.h"

int main(void) {
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  printf("steps: ready\n");
  fflush(stdout);
  void *buffers[16];
  int count = 0;
  char line[32];
  while (count < 16 && fgets(line, sizeof line, stdin) != NULL) {
    size_t mib = (size_t)strtoul(line, NULL, 10);
    if (aclrtMalloc(&buffers[count], mib * 1024 * 1024, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 2;
    printf("steps: allocated %zu MiB at %p\n", mib, buffers[count]);
    fflush(stdout);
    count++;
  }
  for (int i = 0; i < count; i++)
    if (aclrtFree(buffers[i]) != ACL_SUCCESS) return 3;
  aclrtResetDevice(0);
  return 7;
}
