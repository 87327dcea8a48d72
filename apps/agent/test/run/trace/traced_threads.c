/* Trace mode's per-thread context program (CX-1): two threads take turns (a mutex and a condition
 * variable, so the order is the same every run) and each keeps its own current device and context.
 * Thread A sets device 0; thread B sets device 1 and creates a context there; then A allocates and
 * makes a stream, which belong to device 0 and A's default context however B's calls went; B does
 * the same on its own context; then each frees what it made. Runs against whatever libascendcl.so
 * is loaded (the C test double in the tests). */
#include <pthread.h>
#include <stdio.h>
#include "acl/acl.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static int turn = 0;
static int failures = 0;

static void wait_turn(int mine) {
  pthread_mutex_lock(&lock);
  while (turn != mine) pthread_cond_wait(&changed, &lock);
  pthread_mutex_unlock(&lock);
}

static void next_turn(void) {
  pthread_mutex_lock(&lock);
  turn += 1;
  pthread_cond_broadcast(&changed);
  pthread_mutex_unlock(&lock);
}

static void check(aclError ret, const char *what) {
  if (ret == ACL_SUCCESS) return;
  fprintf(stderr, "%s failed: %d\n", what, (int)ret);
  failures += 1;
}

static void *thread_a(void *unused) {
  (void)unused;
  void *dev = NULL;
  aclrtStream stream = NULL;
  wait_turn(0);
  check(aclrtSetDevice(0), "A aclrtSetDevice(0)");
  next_turn();
  wait_turn(2);
  check(aclrtMalloc(&dev, 1 << 20, ACL_MEM_MALLOC_HUGE_FIRST), "A aclrtMalloc");
  check(aclrtCreateStream(&stream), "A aclrtCreateStream");
  next_turn();
  wait_turn(4);
  check(aclrtDestroyStream(stream), "A aclrtDestroyStream");
  check(aclrtFree(dev), "A aclrtFree");
  check(aclrtResetDevice(0), "A aclrtResetDevice(0)");
  next_turn();
  return NULL;
}

static void *thread_b(void *unused) {
  (void)unused;
  void *dev = NULL;
  aclrtStream stream = NULL;
  aclrtContext context = NULL;
  wait_turn(1);
  check(aclrtSetDevice(1), "B aclrtSetDevice(1)");
  check(aclrtCreateContext(&context, 1), "B aclrtCreateContext");
  next_turn();
  wait_turn(3);
  check(aclrtMalloc(&dev, 3 << 20, ACL_MEM_MALLOC_HUGE_FIRST), "B aclrtMalloc");
  check(aclrtCreateStream(&stream), "B aclrtCreateStream");
  printf("traced_threads: ready\n");
  fflush(stdout);
  char line[8];
  if (fgets(line, sizeof line, stdin) == NULL) failures += 1;
  next_turn();
  wait_turn(5);
  check(aclrtDestroyStream(stream), "B aclrtDestroyStream");
  check(aclrtFree(dev), "B aclrtFree");
  check(aclrtDestroyContext(context), "B aclrtDestroyContext");
  check(aclrtResetDevice(1), "B aclrtResetDevice(1)");
  return NULL;
}

int main(void) {
  /* The test's viewer joins first: "start" on stdin, then the first call (which connects the trace library). */
  char start[8];
  if (fgets(start, sizeof start, stdin) == NULL) return 2;
  check(aclInit(NULL), "aclInit");
  pthread_t a, b;
  pthread_create(&a, NULL, thread_a, NULL);
  pthread_create(&b, NULL, thread_b, NULL);
  pthread_join(a, NULL);
  pthread_join(b, NULL);
  check(aclFinalize(), "aclFinalize");
  printf("traced_threads: %s\n", failures == 0 ? "done" : "failed");
  return failures == 0 ? 0 : 1;
}
