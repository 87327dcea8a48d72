/* Makes an ACL call, forks, and the child makes its own: the child must get its own connection
 * to the agent (its own process, named by its own pid), not write into its parent's. */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "acl/acl.h"

int main(void) {
  void *dev = NULL;
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  pid_t child = fork();
  if (child == 0) {
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtMalloc(&dev, 1024 * 1024, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) _exit(4);
    aclrtFree(dev);
    aclrtResetDevice(0);
    printf("forks: child %d done\n", (int)getpid());
    fflush(stdout);
    _exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 5;
  aclrtResetDevice(0);
  printf("forks: parent done\n");
  return 0;
}
