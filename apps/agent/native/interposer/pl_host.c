/*
 * Pinned host memory is real memory of the program (HM-2): aclrtMallocHost maps page-aligned
 * anonymous memory before asking the simulator, and tells the agent its address ("__real") so the
 * agent can translate between the program's address and the simulator's pinned window. The
 * program can write it; aclrtFreeHost unmaps it once the simulator has freed its model.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "pl_core.h"
#include "pl_structs.h"

typedef struct pinned {
  void *ptr;
  size_t len;
  struct pinned *next;
} pinned;

static pthread_mutex_t g_pinned_lock = PTHREAD_MUTEX_INITIALIZER;
static pinned *g_pinned = NULL;

static size_t page_round(size_t size) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  return (size + page - 1) / page * page;
}

static void *map_real(size_t size) {
  if (size == 0) return NULL;
  void *p = mmap(NULL, page_round(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void remember(void *ptr, size_t size) {
  pinned *entry = malloc(sizeof *entry);
  if (entry == NULL) abort();
  entry->ptr = ptr;
  entry->len = page_round(size);
  pthread_mutex_lock(&g_pinned_lock);
  entry->next = g_pinned;
  g_pinned = entry;
  pthread_mutex_unlock(&g_pinned_lock);
}

static void unmap_real(void *ptr) {
  pthread_mutex_lock(&g_pinned_lock);
  for (pinned **at = &g_pinned; *at != NULL; at = &(*at)->next) {
    if ((*at)->ptr == ptr) {
      pinned *entry = *at;
      *at = entry->next;
      munmap(entry->ptr, entry->len);
      free(entry);
      break;
    }
  }
  pthread_mutex_unlock(&g_pinned_lock);
}

static aclError finish_alloc(pl_msg *m, void **out, const char *out_name, void *real, size_t size) {
  pl_reply r;
  if (out == NULL) {
    pl_key(m, "__nullOut");
    pl_str(m, out_name);
  }
  pl_key(m, "__real");
  pl_ptr(m, real);
  if (pl_roundtrip(m, &r) != 0 || r.ret != 0 || out == NULL) {
    if (real != NULL) munmap(real, page_round(size));
    return r.ret;
  }
  uint64_t answered = 0;
  pl_next_u64(&r, &answered);
  if (real == NULL) {
    *out = (void *)(uintptr_t)answered;
    return r.ret;
  }
  remember(real, size);
  *out = real;
  return r.ret;
}

aclError aclrtMallocHost(void **hostPtr, size_t size) {
  void *real = map_real(size);
  /* The host itself is out of memory: the runtime's answer for a failed host allocation. */
  if (size != 0 && real == NULL) return ACL_ERROR_RT_MEMORY_ALLOCATION;
  pl_msg m;
  pl_begin(&m, "aclrtMallocHost", __builtin_return_address(0));
  pl_key(&m, "size");
  pl_u64(&m, size);
  return finish_alloc(&m, hostPtr, "hostPtr", real, size);
}

aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg) {
  void *real = map_real((size_t)size);
  if (size != 0 && real == NULL) return ACL_ERROR_RT_MEMORY_ALLOCATION;
  pl_msg m;
  pl_begin(&m, "aclrtMallocHostWithCfg", __builtin_return_address(0));
  pl_key(&m, "size");
  pl_u64(&m, size);
  pl_key(&m, "cfg");
  if (cfg == NULL) pl_raw(&m, "null"), m.first = 0;
  else pl_w_aclrtMallocConfig(&m, cfg);
  return finish_alloc(&m, ptr, "ptr", real, (size_t)size);
}

aclError aclrtFreeHost(void *hostPtr) {
  pl_msg m;
  pl_reply r;
  pl_begin(&m, "aclrtFreeHost", __builtin_return_address(0));
  pl_key(&m, "hostPtr");
  pl_ptr(&m, hostPtr);
  if (pl_roundtrip(&m, &r) != 0) return r.ret;
  if (r.ret == 0) unmap_real(hostPtr);
  return r.ret;
}
