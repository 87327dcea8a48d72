/* Host memory registration of the ACL test double (HM-5 … HM-7). TEST DOUBLE, not hardware. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "double_internal.h"

/* Registered host memory is seen by the "device" at host address + this offset, unless VA_FLAG (HM-6). */
#define DEVICE_VIEW_OFFSET (1ull << 48)

static struct registration *find_registration(uintptr_t p) {
  for (struct registration *r = g.registrations; r != NULL; r = r->next)
    if (p >= r->ptr && p < r->ptr + r->size) return r;
  return NULL;
}

/* Shared by both register calls: 4 KiB alignment, not registered twice, PINNED only on pageable memory. */
static aclError do_register(uintptr_t ptr, uint64_t size, int pinned_flag, int mapped, uintptr_t *dev) {
  int device = -1;
  aclError ret = need_context(&device);
  if (ret != 0) return ret;
  if (ptr == 0 || size == 0 || ptr % NORMAL_PAGE != 0) return 100000;
  if (find_registration(ptr) != NULL) return 507910;
  struct block *b = find_block_containing(ptr);
  if (b != NULL && b->kind != BLOCK_PINNED) return 100000;
  if (pinned_flag && b != NULL) return 100000;
  struct registration *r = calloc(1, sizeof *r);
  r->ptr = ptr;
  r->size = size;
  r->mapped = mapped;
  r->dev = mapped ? (b != NULL && b->va_flag ? ptr : ptr + DEVICE_VIEW_OFFSET) : 0;
  r->next = g.registrations;
  g.registrations = r;
  *dev = r->dev;
  return 0;
}

aclError aclrtHostRegister(void *ptr, uint64_t size, aclrtHostRegisterType type, void **devPtr) {
  call_t c;
  call_begin(&c, "aclrtHostRegister");
  arg_ptr(&c, "ptr", ptr);
  arg_u64(&c, "size", size);
  arg_u64(&c, "type", (uint32_t)type);
  arg_ptr(&c, "devPtr", devPtr);
  aclError inj = injected_failure("aclrtHostRegister");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  if (type == ACL_HOST_REGISTER_IOMEMORY || type == ACL_HOST_REGISTER_READONLY) return call_fail(&c, 207000, "type %u is reserved", type);
  if (type != ACL_HOST_REGISTER_MAPPED || devPtr == NULL) return call_fail(&c, 100000, "type must be MAPPED and devPtr non-NULL");
  pthread_mutex_lock(&g_lock);
  uintptr_t dev = 0;
  aclError ret = do_register((uintptr_t)ptr, size, 0, 1, &dev);
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot register %p", ptr);
  *devPtr = (void *)dev;
  out_ptr(&c, "devPtr", (void *)dev);
  return call_end(&c, 0);
}

#ifndef NO_NEW_API
aclError aclrtHostRegisterV2(void *ptr, uint64_t size, uint32_t flag) {
  call_t c;
  call_begin(&c, "aclrtHostRegisterV2");
  arg_ptr(&c, "ptr", ptr);
  arg_u64(&c, "size", size);
  arg_u64(&c, "flag", flag);
  aclError inj = injected_failure("aclrtHostRegisterV2");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  if (flag & (ACL_HOST_REG_IOMEMORY | ACL_HOST_REG_READONLY)) return call_fail(&c, 207000, "IOMEMORY and READONLY are reserved");
  if (flag == 0 || (flag & ~(ACL_HOST_REG_PINNED | ACL_HOST_REG_MAPPED)) != 0) return call_fail(&c, 100000, "flag 0x%x", flag);
  pthread_mutex_lock(&g_lock);
  uintptr_t dev = 0;
  aclError ret = do_register((uintptr_t)ptr, size, (flag & ACL_HOST_REG_PINNED) != 0, (flag & ACL_HOST_REG_MAPPED) != 0, &dev);
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot register %p with flag 0x%x", ptr, flag);
}
#endif

aclError aclrtHostUnregister(void *ptr) {
  call_t c;
  call_begin(&c, "aclrtHostUnregister");
  arg_ptr(&c, "ptr", ptr);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct registration *r = ret == 0 ? find_registration((uintptr_t)ptr) : NULL;
  if (ret == 0 && r == NULL) ret = 507911;
  if (ret == 0) {
    for (struct registration **p = &g.registrations; *p != NULL; p = &(*p)->next) {
      if (*p == r) {
        *p = r->next;
        free(r);
        break;
      }
    }
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "%p is not registered", ptr);
}

aclError aclrtHostGetDevicePointer(void *pHost, void **pDevice, uint32_t flag) {
  call_t c;
  call_begin(&c, "aclrtHostGetDevicePointer");
  arg_ptr(&c, "pHost", pHost);
  arg_ptr(&c, "pDevice", pDevice);
  arg_u64(&c, "flag", flag);
  if (flag != 0 || pDevice == NULL) return call_fail(&c, 100000, "flag must be 0 and pDevice non-NULL");
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  struct registration *r = ret == 0 ? find_registration((uintptr_t)pHost) : NULL;
  if (ret == 0 && (r == NULL || !r->mapped)) ret = 507911;
  uintptr_t dev = ret == 0 ? r->dev + ((uintptr_t)pHost - r->ptr) : 0;
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "%p is not registered with MAPPED", pHost);
  *pDevice = (void *)dev;
  out_ptr(&c, "pDevice", (void *)dev);
  return call_end(&c, 0);
}
