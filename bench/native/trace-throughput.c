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
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>
#include "acl/acl.h"

#define THREADS 4

typedef aclError (*get_device_fn)(int32_t *);
typedef aclError (*set_device_fn)(int32_t);

static long g_calls = 0;
static get_device_fn g_get = NULL;
static set_device_fn g_set = NULL;
static pthread_barrier_t g_start;
/* CPU seconds the phase's worker threads used (each adds its own at its end). */
static double g_worker_cpu = 0;
static pthread_mutex_t g_cpu_lock = PTHREAD_MUTEX_INITIALIZER;

static double seconds(struct timeval t) { return (double)t.tv_sec + (double)t.tv_usec / 1e6; }

static double process_cpu(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return seconds(r.ru_utime) + seconds(r.ru_stime);
}

/* The parent's CPU seconds (utime + stime of /proc/PPID/stat): under `pagelens run` the parent is
 * the agent, so each phase can say what the agent spent meanwhile. -1 when unreadable. */
static double parent_cpu(void) {
  char path[64], text[2048];
  snprintf(path, sizeof path, "/proc/%d/stat", (int)getppid());
  FILE *f = fopen(path, "r");
  if (f == NULL) return -1;
  size_t n = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  text[n] = '\0';
  char *at = strrchr(text, ')');
  unsigned long long utime = 0, stime = 0;
  /* After the command's closing parenthesis: state is field 3, utime 14, stime 15. */
  if (at == NULL || sscanf(at + 2, "%*c %*s %*s %*s %*s %*s %*s %*s %*s %*s %*s %llu %llu", &utime, &stime) != 2) return -1;
  return (double)(utime + stime) / (double)sysconf(_SC_CLK_TCK);
}

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
  struct rusage r;
  getrusage(RUSAGE_THREAD, &r);
  pthread_mutex_lock(&g_cpu_lock);
  g_worker_cpu += seconds(r.ru_utime) + seconds(r.ru_stime);
  pthread_mutex_unlock(&g_cpu_lock);
  return NULL;
}

/* One phase's CPU: its workers', the rest of this process's (the reporter thread), the agent's. */
typedef struct cpu_use {
  double workers, others, agent;
} cpu_use;

static double phase(int traced, cpu_use *cpu) {
  pthread_t threads[THREADS];
  g_worker_cpu = 0;
  double process0 = process_cpu(), agent0 = parent_cpu();
  pthread_barrier_init(&g_start, NULL, THREADS + 1);
  for (int i = 0; i < THREADS; i++) pthread_create(&threads[i], NULL, worker, traced ? (void *)1 : NULL);
  pthread_barrier_wait(&g_start);
  double t0 = now_s();
  for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
  double elapsed = now_s() - t0;
  pthread_barrier_destroy(&g_start);
  cpu->workers = g_worker_cpu;
  cpu->others = process_cpu() - process0 - g_worker_cpu;
  cpu->agent = agent0 < 0 ? -1 : parent_cpu() - agent0;
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
  cpu_use warm, direct_cpu, traced_cpu;
  phase(0, &warm);
  phase(1, &warm);
  double direct = phase(0, &direct_cpu);
  double traced = phase(1, &traced_cpu);
  long per_phase = (long)THREADS * (g_calls + 1);
  /* aclInit, then per traced phase each thread's aclrtSetDevice and its calls. */
  printf("direct seconds=%.6f calls_per_s=%.0f\n", direct, (double)THREADS * (double)g_calls / direct);
  printf("traced seconds=%.6f calls_per_s=%.0f\n", traced, (double)THREADS * (double)g_calls / traced);
  printf("intercepted calls=%ld\n", 1 + 2 * per_phase);
  /* CPU seconds per measured phase (getrusage, /proc; tick-grained: 10 ms at CLK_TCK 100). */
  printf("cpu direct workers=%.3f others=%.3f agent=%.3f\n", direct_cpu.workers, direct_cpu.others, direct_cpu.agent);
  printf("cpu traced workers=%.3f others=%.3f agent=%.3f\n", traced_cpu.workers, traced_cpu.others, traced_cpu.agent);
  return 0;
}
