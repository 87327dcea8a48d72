/* Copies, memset and the memory queries of the ACL test double. TEST DOUBLE, not hardware. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "double_internal.h"

/* CP-1, CP-2: which sides must be device memory for each kind, over the bytes each side spans. */
static aclError check_sides(uintptr_t dst, size_t dst_span, uintptr_t src, size_t src_span, aclrtMemcpyKind kind) {
  int dst_dev = is_device_range(dst, dst_span);
  int src_dev = is_device_range(src, src_span);
  struct block *fake_d = find_block_containing(dst);
  struct block *fake_s = find_block_containing(src);
  if ((fake_d != NULL && fake_d->kind == BLOCK_FAKE) || (fake_s != NULL && fake_s->kind == BLOCK_FAKE)) return 100000;
  switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST:
      return !dst_dev && !src_dev ? 0 : 100000;
    case ACL_MEMCPY_HOST_TO_DEVICE:
    case ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE:
      return dst_dev && !src_dev ? 0 : 100000;
    case ACL_MEMCPY_DEVICE_TO_HOST:
      return !dst_dev && src_dev ? 0 : 100000;
    case ACL_MEMCPY_DEVICE_TO_DEVICE:
      return dst_dev && src_dev ? 0 : 100000;
    default:
      return 0;
  }
}

/* CP-1, CP-2: a 1D copy (kinds 6 and 7 are refused). */
static aclError check_copy(uintptr_t dst, size_t destMax, uintptr_t src, size_t count, aclrtMemcpyKind kind) {
  if (count > destMax || (unsigned)kind > ACL_MEMCPY_HOST_TO_BUF_TO_DEVICE) return 100000;
  if (count == 0) return 0;
  if (dst == 0 || src == 0) return 100000;
  return check_sides(dst, count, src, count, kind);
}

static aclError copy(const char *name, void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind, int async,
                     aclrtStream stream) {
  call_t c;
  call_begin(&c, name);
  arg_ptr(&c, "dst", dst);
  arg_u64(&c, "destMax", destMax);
  arg_ptr(&c, "src", src);
  arg_u64(&c, "count", count);
  arg_u64(&c, "kind", (uint32_t)kind);
  if (async) arg_ptr(&c, "stream", stream);
  aclError inj = injected_failure(name);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0) ret = check_copy((uintptr_t)dst, destMax, (uintptr_t)src, count, kind);
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "refused copy of %zu bytes, kind %u", count, (unsigned)kind);
  /* The sleep and the copy run outside the lock: other threads keep calling meanwhile. */
  aclError held = delay_copy();
  if (held != 0) return call_fail(&c, held, "the test never released this copy (ACL_DOUBLE_COPY_RELEASE)");
  if (count > 0) memcpy(dst, src, count);
  return call_end(&c, 0);
}

aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) {
  return copy("aclrtMemcpy", dst, destMax, src, count, kind, 0, NULL);
}

aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind, aclrtStream stream) {
  return copy("aclrtMemcpyAsync", dst, destMax, src, count, kind, 1, stream);
}

aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count) {
  call_t c;
  call_begin(&c, "aclrtMemset");
  arg_ptr(&c, "devPtr", devPtr);
  arg_u64(&c, "maxCount", maxCount);
  arg_i64(&c, "value", value);
  arg_u64(&c, "count", count);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && count > maxCount) ret = 100000;
  if (ret == 0 && count > 0 && !is_device_range((uintptr_t)devPtr, count) && !is_pinned_range((uintptr_t)devPtr, count)) ret = 100000;
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "refused memset of %zu bytes", count);
  aclError held = delay_copy();
  if (held != 0) return call_fail(&c, held, "the test never released this copy (ACL_DOUBLE_COPY_RELEASE)");
  if (count > 0) memset(devPtr, value & 0xff, count);
  return call_end(&c, 0);
}

/*
 * CP-9: `height` rows of `width` bytes, rows `dpitch` / `spitch` apart. The ACL layer's checks
 * (CheckMemcpy2dParam): kinds H2D, D2H, D2D and DEFAULT (the guide documents fewer; the simulator
 * takes the guide's), NULL sides and width > pitch -> 100000. Zero rows or columns move nothing.
 */
static aclError copy2d(const char *name, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       aclrtMemcpyKind kind, int async, aclrtStream stream) {
  call_t c;
  call_begin(&c, name);
  arg_ptr(&c, "dst", dst);
  arg_u64(&c, "dpitch", dpitch);
  arg_ptr(&c, "src", src);
  arg_u64(&c, "spitch", spitch);
  arg_u64(&c, "width", width);
  arg_u64(&c, "height", height);
  arg_u64(&c, "kind", (uint32_t)kind);
  if (async) arg_ptr(&c, "stream", stream);
  aclError inj = injected_failure(name);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && (kind < ACL_MEMCPY_HOST_TO_DEVICE || kind > ACL_MEMCPY_DEFAULT)) ret = 100000;
  if (ret == 0 && (dst == NULL || src == NULL || width > dpitch || width > spitch)) ret = 100000;
  struct context *cur = ret == 0 ? current_context() : NULL;
  if (ret == 0 && async) {
    struct stream *on = resolve_stream(stream, cur);
    if (on == NULL) ret = 107000;
    else if (on->ctx != cur) ret = 107003;
  }
  int moves = width > 0 && height > 0;
  if (ret == 0 && moves)
    ret = check_sides((uintptr_t)dst, (height - 1) * dpitch + width, (uintptr_t)src, (height - 1) * spitch + width, kind);
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "refused 2D copy of %zu rows of %zu bytes, kind %u", height, width, (unsigned)kind);
  aclError held = delay_copy();
  if (held != 0) return call_fail(&c, held, "the test never released this copy (ACL_DOUBLE_COPY_RELEASE)");
  for (size_t row = 0; moves && row < height; row++) memcpy((char *)dst + row * dpitch, (const char *)src + row * spitch, width);
  return call_end(&c, 0);
}

aclError aclrtMemcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height, aclrtMemcpyKind kind) {
  return copy2d("aclrtMemcpy2d", dst, dpitch, src, spitch, width, height, kind, 0, NULL);
}

aclError aclrtMemcpy2dAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                            aclrtMemcpyKind kind, aclrtStream stream) {
  return copy2d("aclrtMemcpy2dAsync", dst, dpitch, src, spitch, width, height, kind, 1, stream);
}

/* CP-8: aclrtMemset on a stream (the double does the work at once). count 0 -> 0 with no other check. */
aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream) {
  call_t c;
  call_begin(&c, "aclrtMemsetAsync");
  arg_ptr(&c, "devPtr", devPtr);
  arg_u64(&c, "maxCount", maxCount);
  arg_i64(&c, "value", value);
  arg_u64(&c, "count", count);
  arg_ptr(&c, "stream", stream);
  aclError inj = injected_failure("aclrtMemsetAsync");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  if (count == 0) return call_end(&c, 0);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  struct context *cur = ret == 0 ? current_context() : NULL;
  if (ret == 0) {
    struct stream *on = resolve_stream(stream, cur);
    if (on == NULL) ret = 107000;
    else if (on->ctx != cur) ret = 107003;
  }
  if (ret == 0 && (devPtr == NULL || count > maxCount)) ret = 100000;
  if (ret == 0 && !is_device_range((uintptr_t)devPtr, count) && !is_pinned_range((uintptr_t)devPtr, count)) ret = 100000;
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "refused memset of %zu bytes", count);
  aclError held = delay_copy();
  if (held != 0) return call_fail(&c, held, "the test never released this copy (ACL_DOUBLE_COPY_RELEASE)");
  memset(devPtr, value & 0xff, count);
  return call_end(&c, 0);
}

/* CP-10: the runtime keeps host and device coherent; the double checks the range and does nothing. */
static aclError cache_range(const char *name, void *devPtr, size_t size) {
  call_t c;
  call_begin(&c, name);
  arg_ptr(&c, "devPtr", devPtr);
  arg_u64(&c, "size", size);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  if (ret == 0 && (devPtr == NULL || size == 0)) ret = 100000;
  if (ret == 0 && !is_device_range((uintptr_t)devPtr, size) && !is_pinned_range((uintptr_t)devPtr, size)) ret = 100000;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "%p + %zu is not device or pinned memory", devPtr, size);
}

aclError aclrtMemFlush(void *devPtr, size_t size) { return cache_range("aclrtMemFlush", devPtr, size); }

aclError aclrtMemInvalidate(void *devPtr, size_t size) { return cache_range("aclrtMemInvalidate", devPtr, size); }

/* DM-15 on an HBM device: DDR attributes read 0/0; the HUGE1G ones fail when there is no giant pool. */
aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free_bytes, size_t *total_bytes) {
  call_t c;
  call_begin(&c, "aclrtGetMemInfo");
  arg_u64(&c, "attr", (uint32_t)attr);
  arg_ptr(&c, "free", free_bytes);
  arg_ptr(&c, "total", total_bytes);
  aclError inj = injected_failure("aclrtGetMemInfo");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  int d = -1;
  aclError ret = need_context(&d);
  if (ret == 0 && (free_bytes == NULL || total_bytes == NULL || (unsigned)attr > ACL_MEM_P2P_HUGE1G)) ret = 100000;
  uint64_t f = 0, t = 0;
  if (ret == 0) {
    const struct device *dev = &g.dev[d];
    switch (attr) {
      case ACL_HBM_MEM:
        for (int k = 0; k < 3; k++) {
          f += dev->total[k] - dev->used[k];
          t += dev->total[k];
        }
        break;
      case ACL_HBM_MEM_HUGE:
      case ACL_HBM_MEM_P2P_HUGE:
      case ACL_MEM_HUGE:
      case ACL_MEM_P2P_HUGE:
        f = pool_free(d, PC_HUGE);
        t = dev->total[PC_HUGE];
        break;
      case ACL_HBM_MEM_NORMAL:
      case ACL_HBM_MEM_P2P_NORMAL:
      case ACL_MEM_NORMAL:
      case ACL_MEM_P2P_NORMAL:
        f = pool_free(d, PC_NORMAL);
        t = dev->total[PC_NORMAL];
        break;
      case ACL_HBM_MEM_HUGE1G:
      case ACL_HBM_MEM_P2P_HUGE1G:
      case ACL_MEM_HUGE1G:
      case ACL_MEM_P2P_HUGE1G:
        if (dev->total[PC_GIANT] == 0) ret = 207000;
        f = pool_free(d, PC_GIANT);
        t = dev->total[PC_GIANT];
        break;
      default:
        break;
    }
  }
  if (ret == 0) {
    *free_bytes = f;
    *total_bytes = t;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "attr %u", (unsigned)attr);
  out_u64(&c, "free", f);
  out_u64(&c, "total", t);
  return call_end(&c, 0);
}

#ifndef NO_NEW_API
aclError aclrtPointerGetAttributes(const void *ptr, aclrtPtrAttributes *attributes) {
  call_t c;
  call_begin(&c, "aclrtPointerGetAttributes");
  arg_ptr(&c, "ptr", ptr);
  arg_ptr(&c, "attributes", attributes);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && (ptr == NULL || attributes == NULL)) ret = 100000;
  aclrtPtrAttributes a;
  memset(&a, 0, sizeof a);
  if (ret == 0) {
    uintptr_t p = (uintptr_t)ptr;
    struct block *b = find_block_containing(p);
    struct mapping *m = find_mapping_containing(p);
    a.location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    if (b != NULL && b->kind == BLOCK_PINNED) {
      a.location.type = ACL_MEM_LOCATION_TYPE_HOST;
      a.pageSize = NORMAL_PAGE;
    } else if (b != NULL) {
      a.location.id = (uint32_t)b->device;
      a.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      a.pageSize = (uint32_t)page_bytes(b->page_class);
    } else if (m != NULL) {
      a.location.id = (uint32_t)m->phys->device;
      a.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
      a.pageSize = (uint32_t)page_bytes(m->phys->page_class);
    }
    *attributes = a;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot describe %p", ptr);
  out_attributes(&c, "attributes", &a);
  return call_end(&c, 0);
}

/* DM-16 (v9.0.0+): the allocation holding ptr: device memory (its padded size), pinned host memory or a mapped block. No context needed. */
aclError aclrtMemGetAddressRange(void *ptr, void **pbase, size_t *psize) {
  call_t c;
  call_begin(&c, "aclrtMemGetAddressRange");
  arg_ptr(&c, "ptr", ptr);
  arg_ptr(&c, "pbase", pbase);
  arg_ptr(&c, "psize", psize);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  if (ret == 0 && (ptr == NULL || pbase == NULL || psize == NULL)) ret = 100000;
  uintptr_t base = 0;
  size_t size = 0;
  if (ret == 0) {
    uintptr_t p = (uintptr_t)ptr;
    struct block *b = find_block_containing(p);
    struct mapping *m = find_mapping_containing(p);
    if (b != NULL && b->kind == BLOCK_PINNED && p < b->addr + b->size) {
      base = b->addr;
      size = b->size;
    } else if (b != NULL && b->kind == BLOCK_DEVICE && p < b->addr + b->padded) {
      base = b->addr;
      size = b->padded;
    } else if (m != NULL) {
      base = m->addr;
      size = m->size;
    } else {
      ret = 100000;
    }
  }
  if (ret == 0) {
    *pbase = (void *)base;
    *psize = size;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "%p is not inside device memory, pinned host memory or a mapping", ptr);
  out_ptr(&c, "pbase", (void *)base);
  out_u64(&c, "psize", size);
  return call_end(&c, 0);
}

/* DM-17: the memType bits the open runtime takes: DEV 0x2, DVPP 0x8 and its reserved-VA bit 0x20 (not the header's 0x10). */
#define RUNTIME_MEM_TYPE_RSVD 0x20u
#define MEM_TYPE_BITS (ACL_RT_MEM_TYPE_DEV | ACL_RT_MEM_TYPE_DVPP | RUNTIME_MEM_TYPE_RSVD)

/* What the driver of `device` says the address is: device memory of the aclrtMalloc family (0x2), reserved VA (0x20); no DVPP memory. */
static uint32_t mem_types_at(uintptr_t p, int device) {
  uint32_t types = 0;
  struct block *b = find_block_containing(p);
  if (b != NULL && b->kind == BLOCK_DEVICE && b->device == device) types |= ACL_RT_MEM_TYPE_DEV;
  for (struct reservation *r = g.reservations; r != NULL; r = r->next)
    if (r->device == device && p >= r->addr && p < r->addr + r->size) types |= RUNTIME_MEM_TYPE_RSVD;
  return types;
}

/*
 * DM-17: *checkResult = 1 when each of the first `size` addresses is of a kind in memType, else 0.
 * NULL list or result -> 100000; reserve != 0, size 0 or other bits -> 107000; no context -> 107002.
 */
aclError aclrtCheckMemType(void **addrList, uint32_t size, uint32_t memType, uint32_t *checkResult, uint32_t reserve) {
  call_t c;
  call_begin(&c, "aclrtCheckMemType");
  arg_ptrs(&c, "addrList", addrList, size);
  arg_u64(&c, "size", size);
  arg_u64(&c, "memType", memType);
  arg_ptr(&c, "checkResult", checkResult);
  arg_u64(&c, "reserve", reserve);
  aclError inj = injected_failure("aclrtCheckMemType");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  if (addrList == NULL || checkResult == NULL) return call_fail(&c, 100000, "addrList and checkResult must not be NULL (DM-17)");
  if (reserve != 0 || size == 0 || (memType & ~MEM_TYPE_BITS) != 0)
    return call_fail(&c, 107000, "reserve %u, size %u, memType 0x%x: the runtime takes reserve 0, size > 0 and the bits 0x2, 0x8, 0x20 (DM-17)",
                     reserve, size, memType);
  pthread_mutex_lock(&g_lock);
  int device = -1;
  aclError ret = need_context(&device);
  uint32_t result = 1;
  for (uint32_t i = 0; ret == 0 && i < size; i++)
    if ((mem_types_at((uintptr_t)addrList[i], device) & memType) == 0) result = 0;
  if (ret == 0) *checkResult = result;
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "no current context (DM-17)");
  out_u64(&c, "checkResult", result);
  return call_end(&c, 0);
}

/*
 * DM-18: the double's own components, one per page pool of the device that holds memory (or held
 * it): "acl double: normal pages", "... huge pages", "... giant pages", the bytes its allocations
 * and physical memory take there now and at most, largest first. A real driver names its own.
 * NULL info or outputNum -> 100000; inputNum 0 -> 107000; unknown device -> 107001; no context -> 107002.
 */
aclError aclrtGetMemUsageInfo(int32_t deviceId, aclrtMemUsageInfo *memUsageInfo, size_t inputNum, size_t *outputNum) {
  static const char *const names[3] = {"acl double: normal pages", "acl double: huge pages", "acl double: giant pages"};
  call_t c;
  call_begin(&c, "aclrtGetMemUsageInfo");
  arg_i64(&c, "deviceId", deviceId);
  arg_ptr(&c, "memUsageInfo", memUsageInfo);
  arg_u64(&c, "inputNum", inputNum);
  arg_ptr(&c, "outputNum", outputNum);
  aclError inj = injected_failure("aclrtGetMemUsageInfo");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  if (memUsageInfo == NULL || outputNum == NULL) return call_fail(&c, 100000, "memUsageInfo and outputNum must not be NULL (DM-18)");
  if (inputNum == 0) return call_fail(&c, 107000, "inputNum is 0 (DM-18)");
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  if (ret == 0 && (deviceId < 0 || deviceId >= g.devices)) ret = 107001;
  if (ret == 0) ret = need_context(NULL);
  aclrtMemUsageInfo found[3];
  size_t n = 0;
  if (ret == 0) {
    const struct device *dev = &g.dev[deviceId];
    for (int k = 0; k < 3; k++) {
      if (dev->peak[k] == 0) continue;
      memset(&found[n], 0, sizeof found[n]);
      snprintf(found[n].name, sizeof found[n].name, "%s", names[k]);
      found[n].curMemSize = dev->used[k];
      found[n].memPeakSize = dev->peak[k];
      /* Largest current use first (insertion into the sorted prefix). */
      for (size_t j = n; j > 0 && found[j].curMemSize > found[j - 1].curMemSize; j--) {
        aclrtMemUsageInfo swap = found[j];
        found[j] = found[j - 1];
        found[j - 1] = swap;
      }
      n++;
    }
    if (n > inputNum) n = inputNum;
    memcpy(memUsageInfo, found, n * sizeof found[0]);
    *outputNum = n;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot report device %d (DM-18)", deviceId);
  out_usage(&c, "memUsageInfo", found, n);
  out_u64(&c, "outputNum", n);
  return call_end(&c, 0);
}
#endif
