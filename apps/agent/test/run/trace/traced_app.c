/* Trace mode's test program: three threads make ACL calls against whatever libascendcl.so is
 * loaded (the C test double in the tests); no results are checked, since the double keeps no
 * memory contents. argv[1] = how many extra aclrtGetDevice calls each worker makes; argv[2] =
 * "crash" to die with SIGSEGV halfway. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "acl/acl.h"

static int g_calls = 0;
static int g_crash = 0;

static void *worker(void *arg) {
  size_t size = (size_t)(uintptr_t)arg;
  aclrtSetDevice(0);
  void *dev = NULL, *host = NULL;
  aclrtStream stream = NULL;
  aclrtMalloc(&dev, size, ACL_MEM_MALLOC_HUGE_FIRST);
  aclrtMallocHost(&host, size);
  aclrtCreateStream(&stream);
  aclrtMemcpyAsync(dev, size, host, size, ACL_MEMCPY_HOST_TO_DEVICE, stream);
  aclrtSynchronizeStream(stream);
  int32_t device = -1;
  for (int i = 0; i < g_calls; i++) aclrtGetDevice(&device);
  if (g_crash) raise(SIGSEGV);
  aclrtDestroyStream(stream);
  aclrtFreeHost(host);
  aclrtFree(dev);
  return NULL;
}

int main(int argc, char **argv) {
  g_calls = argc > 1 ? atoi(argv[1]) : 0;
  g_crash = argc > 2 && strcmp(argv[2], "crash") == 0;
  aclInit(NULL);
  pthread_t a, b;
  pthread_create(&a, NULL, worker, (void *)(uintptr_t)(1u << 20));
  pthread_create(&b, NULL, worker, (void *)(uintptr_t)(3u << 20));
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  aclrtResetDevice(0);
  aclFinalize();
  printf("traced_app: done\n");
  return 0;
}
