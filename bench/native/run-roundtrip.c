/* pagelens run bench: times N interposed aclrtGetDevice calls (a call that changes nothing) and,
 * side by side in the same run, N calls of a function in this program that does nothing, so the
 * clock's own cost is visible. Prints the sorted samples' quantiles in nanoseconds. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include "acl/acl.h"

static int compare(const void *a, const void *b) {
  long x = *(const long *)a, y = *(const long *)b;
  return (x > y) - (x < y);
}

static long now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1000000000L + t.tv_nsec;
}

__attribute__((noinline)) static aclError local_call(int32_t *device) {
  __asm__ volatile("" : : "r"(device) : "memory");
  *device = 0;
  return ACL_SUCCESS;
}

static void report(const char *name, long *samples, int n) {
  qsort(samples, (size_t)n, sizeof *samples, compare);
  printf("%s p50_ns=%ld p99_ns=%ld\n", name, samples[n / 2], samples[(n * 99) / 100]);
}

/* recv() as the interposer's pl_core.c does it: polled (yielding between polls) for up to 30 µs,
 * then blocking; the floor must read the way the interposer reads. */
static ssize_t receive(int fd, char *buf, size_t cap) {
  long start = now_ns();
  do {
    ssize_t got = recv(fd, buf, cap, MSG_DONTWAIT);
    if (got >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return got;
    sched_yield();
  } while (now_ns() - start < 30000);
  return recv(fd, buf, cap, 0);
}

/* The transport's floor: the same-sized line to a plain echo server on a Unix socket, answered
 * with a reply-sized line, through the same write and read the interposer uses. */
static int echo_floor(const char *path, int n) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  strncpy(addr.sun_path, path, sizeof addr.sun_path - 1);
  if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) return 3;
  const char *line = "{\"f\":\"aclrtGetDevice\",\"t\":1234,\"s\":\"0x55555555a000\",\"a\":{}}\n";
  long *samples = malloc(sizeof(long) * (size_t)n);
  char buf[256];
  for (int i = -1000; i < n; i++) {
    long t0 = now_ns();
    if (write(fd, line, strlen(line)) < 0) return 4;
    size_t got = 0;
    do {
      ssize_t r = receive(fd, buf + got, sizeof buf - got);
      if (r <= 0) return 5;
      got += (size_t)r;
    } while (buf[got - 1] != '\n');
    if (i >= 0) samples[i] = now_ns() - t0;
  }
  report("echo", samples, n);
  close(fd);
  return 0;
}

/* Trace mode: the intercepted call beside the real library's own function, found with dlsym in
 * the loaded libascendcl.so, so the difference is what the interposer adds on the calling thread. */
static int traced_vs_direct(int n) {
  void *lib = dlopen("libascendcl.so", RTLD_NOW | RTLD_NOLOAD);
  aclError (*direct)(int32_t *) = lib == NULL ? NULL : (aclError(*)(int32_t *))dlsym(lib, "aclrtGetDevice");
  if (direct == NULL || (void *)direct == (void *)aclrtGetDevice) return 6;
  long *traced = malloc(sizeof(long) * (size_t)n), *plain = malloc(sizeof(long) * (size_t)n);
  int32_t device = -1;
  aclInit(NULL);
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 7;
  for (int i = -1000; i < n; i++) {
    long t0 = now_ns();
    aclrtGetDevice(&device);
    long t1 = now_ns();
    direct(&device);
    long t2 = now_ns();
    if (i >= 0) {
      traced[i] = t1 - t0;
      plain[i] = t2 - t1;
    }
  }
  report("traced", traced, n);
  report("direct", plain, n);
  aclrtResetDevice(0);
  return 0;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 20000;
  if (argc > 2 && strcmp(argv[2], "trace") == 0) return traced_vs_direct(n);
  if (argc > 2) return echo_floor(argv[2], n);
  long *interposed = malloc(sizeof(long) * (size_t)n), *direct = malloc(sizeof(long) * (size_t)n);
  int32_t device = -1;
  if (aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  for (int i = 0; i < 1000; i++) aclrtGetDevice(&device); /* warm-up */
  for (int i = 0; i < n; i++) {
    long t0 = now_ns();
    aclError ret = aclrtGetDevice(&device);
    long t1 = now_ns();
    local_call(&device);
    long t2 = now_ns();
    if (ret != ACL_SUCCESS || device != 0) return 2;
    interposed[i] = t1 - t0;
    direct[i] = t2 - t1;
  }
  report("interposed", interposed, n);
  report("local", direct, n);
  aclrtResetDevice(0);
  return 0;
}
