/* Process, device, context and stream calls of the ACL test double. TEST DOUBLE, not hardware. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "double_internal.h"

struct state g;
pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

/* The context current on this thread, and for a primary one the device generation it was made current in. */
static __thread struct context *thread_ctx;
static __thread unsigned thread_generation;

uint64_t round_up(uint64_t value, uint64_t unit) { return (value + unit - 1) / unit * unit; }

uint64_t page_bytes(int page_class) { return page_class == PC_GIANT ? GIANT_PAGE : page_class == PC_HUGE ? HUGE_PAGE : NORMAL_PAGE; }

uint64_t pool_free(int device, int page_class) {
  const struct device *d = &g.dev[device];
  return d->total[page_class] - d->used[page_class];
}

void note_peak(int device, int page_class) {
  struct device *d = &g.dev[device];
  if (d->used[page_class] > d->peak[page_class]) d->peak[page_class] = d->used[page_class];
}

void *map_aligned(size_t len, size_t align, void **base, size_t *map_len) {
  size_t total = len + align;
  void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return NULL;
  *base = p;
  *map_len = total;
  return (void *)round_up((uintptr_t)p, align);
}

static int is_created_context(const struct context *ctx) {
  for (const struct context *x = g.contexts; x != NULL; x = x->next)
    if (x == ctx) return 1;
  return 0;
}

struct context *current_context(void) {
  struct context *ctx = thread_ctx;
  if (!g.initialized || ctx == NULL) return NULL;
  if (ctx->primary) {
    int d = ctx->device;
    return d < g.devices && g.dev[d].refs > 0 && g.dev[d].generation == thread_generation ? ctx : NULL;
  }
  return is_created_context(ctx) ? ctx : NULL;
}

void make_context_current(struct context *ctx) {
  thread_ctx = ctx;
  thread_generation = ctx == NULL ? 0 : g.dev[ctx->device].generation;
}

aclError need_context(int *device) {
  if (!g.initialized) return 100001;
  struct context *ctx = current_context();
  if (ctx == NULL) return 107002;
  if (device != NULL) *device = ctx->device;
  return 0;
}

static void make_current(int device) { make_context_current(&g.ctx[device]); }

aclError aclInit(const char *configPath) {
  call_t c;
  call_begin(&c, "aclInit");
  arg_str(&c, "configPath", configPath);
  aclError inj = injected_failure("aclInit");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  if (g.initialized) {
    pthread_mutex_unlock(&g_lock);
    return call_fail(&c, 100002, "aclInit was already called (repeat is harmless)");
  }
  memset(&g, 0, sizeof g);
  g.initialized = 1;
  g.devices = (int)env_u64("ACL_DOUBLE_DEVICES", 2);
  if (g.devices < 1) g.devices = 1;
  if (g.devices > MAX_DEVICES) g.devices = MAX_DEVICES;
  const char *soc = getenv("ACL_DOUBLE_SOC");
  snprintf(g.soc, sizeof g.soc, "%s", soc == NULL ? "Ascend910B2" : soc);
  for (int d = 0; d < g.devices; d++) {
    g.ctx[d].device = d;
    g.ctx[d].primary = 1;
    g.dev[d].total[PC_NORMAL] = env_u64("ACL_DOUBLE_NORMAL_MB", 8192) * MIB;
    g.dev[d].total[PC_HUGE] = env_u64("ACL_DOUBLE_HUGE_MB", 49152) * MIB;
    g.dev[d].total[PC_GIANT] = env_u64("ACL_DOUBLE_GIANT_MB", 8192) * MIB;
  }
  g.next_fake = 1ull << 53;
  g.next_shareable = 0x10000;
  pthread_mutex_unlock(&g_lock);
  return call_end(&c, 0);
}

aclError aclFinalize(void) {
  call_t c;
  call_begin(&c, "aclFinalize");
  aclError inj = injected_failure("aclFinalize");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  if (!g.initialized) {
    pthread_mutex_unlock(&g_lock);
    return call_fail(&c, 100037, "aclFinalize without aclInit");
  }
  release_everything();
  g.initialized = 0;
  pthread_mutex_unlock(&g_lock);
  return call_end(&c, 0);
}

aclError aclrtGetVersion(int32_t *major, int32_t *minor, int32_t *patch) {
  call_t c;
  call_begin(&c, "aclrtGetVersion");
  arg_ptr(&c, "major", major);
  arg_ptr(&c, "minor", minor);
  arg_ptr(&c, "patch", patch);
  if (major == NULL || minor == NULL || patch == NULL) return call_fail(&c, 100000, "a NULL out-parameter");
  *major = 1;
  *minor = 17;
  *patch = 0;
  out_i64(&c, "major", 1);
  out_i64(&c, "minor", 17);
  out_i64(&c, "patch", 0);
  return call_end(&c, 0);
}

aclError aclrtSetDevice(int32_t deviceId) {
  call_t c;
  call_begin(&c, "aclrtSetDevice");
  arg_i64(&c, "deviceId", deviceId);
  aclError inj = injected_failure("aclrtSetDevice");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = 0;
  if (!g.initialized)
    ret = 100001;
  else if (deviceId < 0 || deviceId >= g.devices)
    ret = 107001;
  else {
    g.dev[deviceId].refs += 1;
    /* CX-1: the first reference creates the default context with its default (NULL) stream. */
    if (g.ctx[deviceId].default_stream == NULL) g.ctx[deviceId].default_stream = new_stream(&g.ctx[deviceId], 1);
    make_current(deviceId);
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot set device %d", deviceId);
}

static aclError reset(const char *fn, int32_t deviceId, int force) {
  call_t c;
  call_begin(&c, fn);
  arg_i64(&c, "deviceId", deviceId);
  aclError inj = injected_failure(fn);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = 0;
  if (!g.initialized)
    ret = 100001;
  else if (deviceId < 0 || deviceId >= g.devices)
    ret = 107001;
  else if (g.dev[deviceId].refs == 0)
    ret = 107002;
  else {
    g.dev[deviceId].refs = force ? 0 : g.dev[deviceId].refs - 1;
    if (g.dev[deviceId].refs == 0) {
      /* The last reference takes the context and the process's objects on the device with it. */
      release_device_objects(deviceId);
      g.dev[deviceId].generation += 1;
    }
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot reset device %d", deviceId);
}

aclError aclrtResetDevice(int32_t deviceId) { return reset("aclrtResetDevice", deviceId, 0); }
aclError aclrtResetDeviceForce(int32_t deviceId) { return reset("aclrtResetDeviceForce", deviceId, 1); }

aclError aclrtGetDevice(int32_t *deviceId) {
  call_t c;
  call_begin(&c, "aclrtGetDevice");
  arg_ptr(&c, "deviceId", deviceId);
  pthread_mutex_lock(&g_lock);
  int d = -1;
  aclError ret = need_context(&d);
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "no current context on this thread");
  if (deviceId == NULL) return call_fail(&c, 100000, "deviceId is NULL");
  *deviceId = d;
  out_i64(&c, "deviceId", d);
  return call_end(&c, 0);
}

aclError aclrtGetDeviceCount(uint32_t *count) {
  call_t c;
  call_begin(&c, "aclrtGetDeviceCount");
  arg_ptr(&c, "count", count);
  aclError inj = injected_failure("aclrtGetDeviceCount");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  if (!g.initialized) return call_fail(&c, 100001, "aclInit first");
  if (count == NULL) return call_fail(&c, 100000, "count is NULL");
  *count = (uint32_t)g.devices;
  out_u64(&c, "count", (uint64_t)g.devices);
  return call_end(&c, 0);
}

/* The double stands for a host with its devices attached (EP mode): the program runs on the host. No aclInit needed. */
aclError aclrtGetRunMode(aclrtRunMode *runMode) {
  call_t c;
  call_begin(&c, "aclrtGetRunMode");
  arg_ptr(&c, "runMode", runMode);
  aclError inj = injected_failure("aclrtGetRunMode");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  if (runMode == NULL) return call_fail(&c, 100000, "runMode is NULL");
  *runMode = ACL_HOST;
  out_i64(&c, "runMode", ACL_HOST);
  return call_end(&c, 0);
}

const char *aclrtGetSocName(void) {
  call_t c;
  call_begin(&c, "aclrtGetSocName");
  const char *name = g.initialized ? g.soc : NULL;
  out_str(&c, "socName", name);
  call_end(&c, 0);
  return name;
}
