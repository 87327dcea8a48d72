/* pagelens run --trace bench: 4 threads each make N aclrtGetDevice calls as fast as they can,
 * first straight into the real library's own function (found with dlsym in the loaded
 * libascendcl.so, so nothing is intercepted), then through the interposer, in the same run. Prints
 * each phase's wall time and calls per second, and how many calls went through the interposer,
 * so the agent's observed + dropped count can be checked against it. The real library here is
 * PageLens's C test double (no Ascend host). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "acl/acl.h"

#define THREADS 4

typedef aclError (*get_device_fn)(int32_t *);
typedef aclError (*set_device_fn)(int32_t);

static long g_calls = 0;
static get_device_fn g_get = NULL;
static set_device_fn g_set = NULL;
static pthread_barrier_t g_start;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *worker(void *arg) {
  int traced = arg != NULL;
  /* Each thread needs the device current (the double checks the calling thread's context). */
  if (traced) aclrtSetDevice(0);
  else g_set(0);
  pthread_barrier_wait(&g_start);
  int32_t device = -1;
  if (traced)
    for (long i = 0; i < g_calls; i++) aclrtGetDevice(&device);
  else
    for (long i = 0; i < g_calls; i++) g_get(&device);
  return NULL;
}

static double phase(int traced) {
  pthread_t threads[THREADS];
  pthread_barrier_init(&g_start, NULL, THREADS + 1);
  for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, worker, traced ? (void *)1 : NULL);
  pthread_barrier_wait(&g_start);
  double t0 = now_s();
  for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
  double elapsed = now_s() - t0;
  pthread_barrier_destroy(&g_start);
  return elapsed;
}

int main(int argc, char **argv) {
  g_calls = argc > 1 ? atol(argv[1]) : 250000;
  void *lib = dlopen("libascendcl.so", RTLD_NOW | RTLD_NOLOAD);
  g_get = lib == NULL ? NULL : (get_device_fn)dlsym(lib, "aclrtGetDevice");
  g_set = lib == NULL ? NULL : (set_device_fn)dlsym(lib, "aclrtSetDevice");
  if (g_get == NULL || g_set == NULL || (void *)g_get == (void *)aclrtGetDevice) {
    fprintf(stderr, "trace-throughput: run it under pagelens run --trace (the real library must be behind the interposer)\n");
    return 6;
  }
  aclInit(NULL);
  /* Warm-up of both paths (connects the reporter), then the measured phases, direct first. */
  double warm_direct = phase(0);
  double warm_traced = phase(1);
  (void)warm_direct;
  (void)warm_traced;
  double direct = phase(0);
  double traced = phase(1);
  long per_phase = (long)THREADS * (g_calls + 1);
  /* aclInit, then per traced phase each thread's aclrtSetDevice and its calls. */
  printf("direct seconds=%.6f calls_per_s=%.0f\n", direct, (double)THREADS * (double)g_calls / direct);
  printf("traced seconds=%.6f calls_per_s=%.0f\n", traced, (double)THREADS * (double)g_calls / traced);
  printf("intercepted calls=%ld\n", 1 + 2 * per_phase);
  return 0;
}
