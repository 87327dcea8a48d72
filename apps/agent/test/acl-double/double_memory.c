/* Device and host memory, copies and queries of the ACL test double. TEST DOUBLE, not hardware. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "double_internal.h"

void release_block(struct block *b) {
  if (b->kind != BLOCK_PINNED) release_ipc_keys(b->addr);
  if (b->kind != BLOCK_PINNED) g.dev[b->device].used[b->page_class] -= b->charged;
  if (b->base != NULL) munmap(b->base, b->map_len);
  free(b);
}

static void unlink_block(struct block *target) {
  for (struct block **b = &g.blocks; *b != NULL; b = &(*b)->next) {
    if (*b == target) {
      *b = target->next;
      return;
    }
  }
}

void release_device_objects(int device) {
  for (struct block **b = &g.blocks; *b != NULL;) {
    if ((*b)->kind != BLOCK_PINNED && (*b)->device == device) {
      struct block *dead = *b;
      *b = dead->next;
      release_block(dead);
    } else {
      b = &(*b)->next;
    }
  }
  /* The device's events, streams and contexts go with its last reference (CX-2). */
  release_events(device);
  for (struct stream **s = &g.streams; *s != NULL;) {
    if ((*s)->device == device) {
      struct stream *dead = *s;
      *s = dead->next;
      free(dead);
    } else {
      s = &(*s)->next;
    }
  }
  g.ctx[device].default_stream = NULL;
  for (struct context **x = &g.contexts; *x != NULL;) {
    if ((*x)->device == device) {
      struct context *dead = *x;
      *x = dead->next;
      free(dead);
    } else {
      x = &(*x)->next;
    }
  }
}

void release_everything(void) {
  while (g.blocks != NULL) {
    struct block *dead = g.blocks;
    g.blocks = dead->next;
    release_block(dead);
  }
  while (g.registrations != NULL) {
    struct registration *dead = g.registrations;
    g.registrations = dead->next;
    free(dead);
  }
  release_events(-1);
  while (g.streams != NULL) {
    struct stream *dead = g.streams;
    g.streams = dead->next;
    free(dead);
  }
  while (g.contexts != NULL) {
    struct context *dead = g.contexts;
    g.contexts = dead->next;
    free(dead);
  }
  for (int d = 0; d < MAX_DEVICES; d++) g.ctx[d].default_stream = NULL;
  release_vmm_objects();
}

struct block *find_block_containing(uintptr_t p) {
  for (struct block *b = g.blocks; b != NULL; b = b->next)
    if (p >= b->addr && p < b->addr + (b->charged > b->size ? b->charged : b->size)) return b;
  return NULL;
}

int is_device_range(uintptr_t p, size_t n) {
  struct block *b = find_block_containing(p);
  if (b != NULL) return b->kind == BLOCK_DEVICE && p + n <= b->addr + b->charged;
  struct mapping *m = find_mapping_containing(p);
  return m != NULL && p + n <= m->addr + m->size;
}

int is_pinned_range(uintptr_t p, size_t n) {
  struct block *b = find_block_containing(p);
  return b != NULL && b->kind == BLOCK_PINNED && p + n <= b->addr + b->size;
}

/* Reads an aclrtMallocConfig: DEVICE_ID must be the current device; returns VA_FLAG, or -1. */
static int read_config(const aclrtMallocConfig *cfg, int device) {
  if (cfg == NULL) return 0;
  if (cfg->numAttrs > 0 && cfg->attrs == NULL) return -1;
  int va_flag = 0;
  for (size_t i = 0; i < cfg->numAttrs; i++) {
    const aclrtMallocAttribute *a = &cfg->attrs[i];
    if (a->attr == ACL_RT_MEM_ATTR_DEVICE_ID && a->value.deviceId != (uint32_t)device) return -1;
    if (a->attr == ACL_RT_MEM_ATTR_VA_FLAG) {
      if (a->value.vaFlag > 1) return -1;
      va_flag = (int)a->value.vaFlag;
    }
    if (a->attr > ACL_RT_MEM_ATTR_VA_FLAG) return -1;
  }
  return va_flag;
}

enum malloc_fn { FN_MALLOC, FN_ALIGN32, FN_CACHED, FN_WITH_CFG };

/* DM-3 … DM-10 as the double applies them; answers the page class, or -1 with *ret set. */
static int choose_pages(enum malloc_fn fn, uint64_t padded, uint32_t policy, int device, aclError *ret) {
  uint32_t hints = policy & (ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_ACCESS_USER_SPACE_READONLY);
  uint32_t base = policy & 0xff;
  if ((hints != 0 && fn != FN_WITH_CFG) || policy > 0x1011ff) {
    *ret = 100000;
    return -1;
  }
  if (fn == FN_CACHED && base != 0 && base != 1 && base != 2 && base != 6) {
    *ret = 100000;
    return -1;
  }
  int p2p_generic = (base == ACL_MEM_MALLOC_HUGE_FIRST_P2P || base == ACL_MEM_MALLOC_HUGE_ONLY_P2P) && fn != FN_WITH_CFG;
  if (p2p_generic || base == ACL_MEM_MALLOC_NORMAL_ONLY || base == ACL_MEM_MALLOC_NORMAL_ONLY_P2P) return PC_NORMAL;
  if (base == ACL_MEM_MALLOC_HUGE1G_ONLY || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P) {
    if (g.dev[device].total[PC_GIANT] == 0) {
      *ret = 207000;
      return -1;
    }
    return PC_GIANT;
  }
  if (base == ACL_MEM_MALLOC_HUGE_ONLY || base == ACL_MEM_MALLOC_HUGE_ONLY_P2P) return PC_HUGE;
  int huge_first = base == ACL_MEM_MALLOC_HUGE_FIRST || base == ACL_MEM_MALLOC_HUGE_FIRST_P2P;
  /* HUGE_FIRST: normal pages up to 1 MiB after padding (DM-4); unknown policies: huge from 2 MiB (DM-10). */
  if (huge_first ? padded <= MIB : padded < HUGE_PAGE) return PC_NORMAL;
  return pool_free(device, PC_HUGE) >= round_up(padded, HUGE_PAGE) ? PC_HUGE : PC_NORMAL;
}

static aclError device_malloc(const char *name, enum malloc_fn fn, void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                              aclrtMallocConfig *cfg) {
  call_t c;
  call_begin(&c, name);
  arg_ptr(&c, "devPtr", devPtr);
  arg_u64(&c, "size", size);
  arg_u64(&c, "policy", (uint32_t)policy);
  if (fn == FN_WITH_CFG) arg_config(&c, "cfg", cfg);
  aclError inj = injected_failure(name);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  int device = -1;
  aclError ret = need_context(&device);
  if (ret == 0 && (devPtr == NULL || size == 0)) ret = 100000;
  if (ret == 0 && fn == FN_WITH_CFG && read_config(cfg, device) < 0) ret = 100000;
  uint32_t base = (uint32_t)policy & 0xff;
  int giant = base == ACL_MEM_MALLOC_HUGE1G_ONLY || base == ACL_MEM_MALLOC_HUGE1G_ONLY_P2P;
  uint64_t padded = (fn == FN_ALIGN32 || fn == FN_WITH_CFG || giant) ? round_up(size, 32) : (size + 32 + MALLOC_PAD - 1) / 32 * 32;
  int page_class = ret == 0 ? choose_pages(fn, padded, (uint32_t)policy, device, &ret) : -1;
  struct block *b = NULL;
  if (ret == 0) {
    uint64_t charged = round_up(padded, page_bytes(page_class));
    if (pool_free(device, page_class) < charged) ret = 207001;
    const char *high = getenv("ACL_DOUBLE_HIGH_PTR");
    int fake = high != NULL && strcmp(high, name) == 0;
    if (ret == 0) {
      b = calloc(1, sizeof *b);
      b->kind = fake ? BLOCK_FAKE : BLOCK_DEVICE;
      b->size = size;
      b->charged = charged;
      b->padded = padded;
      b->device = device;
      b->page_class = page_class;
      if (fake) {
        b->addr = g.next_fake;
        g.next_fake += round_up(charged, HUGE_PAGE);
      } else {
        void *p = map_aligned(charged, page_bytes(page_class), &b->base, &b->map_len);
        if (p == NULL) ret = 207001;
        b->addr = (uintptr_t)p;
      }
    }
    if (ret == 0) {
      g.dev[device].used[page_class] += charged;
      note_peak(device, page_class);
      b->next = g.blocks;
      g.blocks = b;
      *devPtr = (void *)b->addr;
    } else {
      free(b);
      b = NULL;
    }
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot allocate %zu bytes with policy %u", size, (unsigned)policy);
  out_ptr(&c, "devPtr", (void *)b->addr);
  return call_end(&c, 0);
}

aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return device_malloc("aclrtMalloc", FN_MALLOC, devPtr, size, policy, NULL);
}
aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return device_malloc("aclrtMallocAlign32", FN_ALIGN32, devPtr, size, policy, NULL);
}
aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return device_malloc("aclrtMallocCached", FN_CACHED, devPtr, size, policy, NULL);
}
aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig *cfg) {
  return device_malloc("aclrtMallocWithCfg", FN_WITH_CFG, devPtr, size, policy, cfg);
}

static aclError free_block(const char *name, void *ptr, enum block_kind wanted) {
  call_t c;
  call_begin(&c, name);
  arg_ptr(&c, wanted == BLOCK_PINNED ? "hostPtr" : "devPtr", ptr);
  aclError inj = injected_failure(name);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  struct block *b = ret == 0 ? find_block_containing((uintptr_t)ptr) : NULL;
  int kind_ok = b != NULL && (wanted == BLOCK_PINNED ? b->kind == BLOCK_PINNED : b->kind != BLOCK_PINNED);
  if (ret == 0 && (ptr == NULL || !kind_ok || b->addr != (uintptr_t)ptr)) ret = 100000;
  if (ret == 0) {
    unlink_block(b);
    release_block(b);
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "%p is not the start of a live allocation", ptr);
}

aclError aclrtFree(void *devPtr) { return free_block("aclrtFree", devPtr, BLOCK_DEVICE); }
aclError aclrtFreeHost(void *hostPtr) { return free_block("aclrtFreeHost", hostPtr, BLOCK_PINNED); }

static aclError host_malloc(const char *name, void **ptr, uint64_t size, aclrtMallocConfig *cfg, int with_cfg) {
  call_t c;
  call_begin(&c, name);
  arg_ptr(&c, with_cfg ? "ptr" : "hostPtr", ptr);
  arg_u64(&c, "size", size);
  if (with_cfg) arg_config(&c, "cfg", cfg);
  aclError inj = injected_failure(name);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  int device = -1;
  aclError ret = need_context(&device);
  int va_flag = 0;
  if (ret == 0 && (ptr == NULL || size == 0)) ret = 100000;
  if (ret == 0 && with_cfg && (va_flag = read_config(cfg, device)) < 0) ret = 100000;
  struct block *b = NULL;
  if (ret == 0) {
    b = calloc(1, sizeof *b);
    b->kind = BLOCK_PINNED;
    b->size = size;
    b->charged = round_up(size, NORMAL_PAGE);
    b->device = device;
    b->va_flag = va_flag;
    /* HM-2 asks for 64-byte alignment; page alignment keeps the memory registrable. */
    void *p = map_aligned(b->charged, NORMAL_PAGE, &b->base, &b->map_len);
    if (p == NULL) {
      free(b);
      b = NULL;
      ret = 207001;
    } else {
      b->addr = (uintptr_t)p;
      b->next = g.blocks;
      g.blocks = b;
      *ptr = p;
    }
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot allocate %llu pinned bytes", (unsigned long long)size);
  out_ptr(&c, with_cfg ? "ptr" : "hostPtr", (void *)b->addr);
  return call_end(&c, 0);
}

aclError aclrtMallocHost(void **hostPtr, size_t size) { return host_malloc("aclrtMallocHost", hostPtr, size, NULL, 0); }

#ifndef NO_NEW_API
aclError aclrtMallocHostWithCfg(void **ptr, uint64_t size, aclrtMallocConfig *cfg) {
  return host_malloc("aclrtMallocHostWithCfg", ptr, size, cfg, 1);
}
#endif

