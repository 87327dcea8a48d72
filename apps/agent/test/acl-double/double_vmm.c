/*
 * Virtual memory management and sharing of the ACL test double (VM-1 … VM-9). Physical memory is
 * a memfd, a reservation is PROT_NONE address space, and a mapping maps the memfd there, so bytes
 * copied through a mapping really land in the physical memory. TEST DOUBLE, not hardware.
 * Built with -DNO_VMM these symbols are left out, like an older CANN.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "double_internal.h"

struct mapping *find_mapping_containing(uintptr_t p) {
  for (struct mapping *m = g.mappings; m != NULL; m = m->next)
    if (p >= m->addr && p < m->addr + m->size) return m;
  return NULL;
}

static void release_phys(struct phys *ph) {
  g.dev[ph->device].used[ph->page_class] -= ph->size;
  close(ph->fd);
  for (struct phys **p = &g.physical; *p != NULL; p = &(*p)->next) {
    if (*p == ph) {
      *p = ph->next;
      break;
    }
  }
  free(ph);
}

void release_vmm_objects(void) {
  while (g.mappings != NULL) {
    struct mapping *m = g.mappings;
    g.mappings = m->next;
    free(m);
  }
  while (g.reservations != NULL) {
    struct reservation *r = g.reservations;
    g.reservations = r->next;
    munmap(r->base, r->map_len);
    free(r);
  }
  while (g.physical != NULL) release_phys(g.physical);
}

#ifndef NO_VMM
/* VM-3: the page class of a valid device prop, or -1 (100000) / -2 (207000). */
static int check_prop(const aclrtPhysicalMemProp *prop) {
  if (prop == NULL || prop->handleType != ACL_MEM_HANDLE_TYPE_NONE || prop->allocationType != ACL_MEM_ALLOCATION_TYPE_PINNED ||
      prop->reserve != 0 || prop->location.type != ACL_MEM_LOCATION_TYPE_DEVICE || prop->location.id >= (uint32_t)g.devices)
    return -1;
  switch (prop->memAttr) {
    case ACL_HBM_MEM_HUGE:
    case ACL_MEM_HUGE:
    case ACL_MEM_P2P_HUGE:
      return PC_HUGE;
    case ACL_HBM_MEM_NORMAL:
    case ACL_MEM_NORMAL:
    case ACL_MEM_P2P_NORMAL:
      return PC_NORMAL;
    case ACL_HBM_MEM_HUGE1G:
    case ACL_MEM_HUGE1G:
    case ACL_MEM_P2P_HUGE1G:
      return g.dev[prop->location.id].total[PC_GIANT] == 0 ? -2 : PC_GIANT;
    default:
      return -1;
  }
}

/* VM-2: 2 MiB for normal and huge memory, 1 GiB for giant pages. */
static uint64_t granularity_of(int page_class) { return page_class == PC_GIANT ? GIANT_PAGE : HUGE_PAGE; }

aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option, size_t *granularity) {
  call_t c;
  call_begin(&c, "aclrtMemGetAllocationGranularity");
  arg_prop(&c, "prop", prop);
  arg_u64(&c, "option", (uint32_t)option);
  arg_ptr(&c, "granularity", granularity);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  int page_class = ret == 0 ? check_prop(prop) : 0;
  if (ret == 0 && page_class < 0) ret = page_class == -2 ? 207000 : 100000;
  if (ret == 0 && (granularity == NULL || option > ACL_RT_MEM_ALLOC_GRANULARITY_RECOMMENDED)) ret = 100000;
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "invalid prop or option");
  *granularity = granularity_of(page_class);
  out_u64(&c, "granularity", *granularity);
  return call_end(&c, 0);
}

aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop, uint64_t flags) {
  call_t c;
  call_begin(&c, "aclrtMallocPhysical");
  arg_ptr(&c, "handle", handle);
  arg_u64(&c, "size", size);
  arg_prop(&c, "prop", prop);
  arg_u64(&c, "flags", flags);
  aclError inj = injected_failure("aclrtMallocPhysical");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  int page_class = ret == 0 ? check_prop(prop) : 0;
  if (ret == 0 && page_class < 0) ret = page_class == -2 ? 207000 : 100000;
  if (ret == 0 && (handle == NULL || flags != 0 || size == 0 || size % granularity_of(page_class) != 0)) ret = 100000;
  struct phys *ph = NULL;
  if (ret == 0 && pool_free((int)prop->location.id, page_class) < size) ret = 207001;
  if (ret == 0) {
    int fd = memfd_create("acl-double-physical", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
      if (fd >= 0) close(fd);
      ret = 207001;
    } else {
      ph = calloc(1, sizeof *ph);
      ph->fd = fd;
      ph->size = size;
      ph->device = (int)prop->location.id;
      ph->page_class = page_class;
      ph->next = g.physical;
      g.physical = ph;
      g.dev[ph->device].used[page_class] += size;
      note_peak(ph->device, page_class);
      *handle = ph;
    }
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot allocate %zu bytes of physical memory", size);
  out_ptr(&c, "handle", ph);
  return call_end(&c, 0);
}

struct phys *live_phys(aclrtDrvMemHandle handle) {
  for (struct phys *p = g.physical; p != NULL; p = p->next)
    if (p == handle && !p->freed) return p;
  return NULL;
}

/*
 * VM-8: a handle freed while mapped keeps its memory until the last unmap. VM-12: a reference taken
 * with aclrtMemRetainAllocationHandle is given back first; only the call after the last one frees.
 */
aclError aclrtFreePhysical(aclrtDrvMemHandle handle) {
  call_t c;
  call_begin(&c, "aclrtFreePhysical");
  arg_ptr(&c, "handle", handle);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct phys *ph = ret == 0 ? live_phys(handle) : NULL;
  if (ret == 0 && ph == NULL) ret = 107017;
  if (ret == 0) {
    if (ph->retains > 0)
      ph->retains -= 1;
    else if (ph->mappings > 0)
      ph->freed = 1;
    else
      release_phys(ph);
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "not a live handle");
}

aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr, uint64_t flags) {
  call_t c;
  call_begin(&c, "aclrtReserveMemAddress");
  arg_ptr(&c, "virPtr", virPtr);
  arg_u64(&c, "size", size);
  arg_u64(&c, "alignment", alignment);
  arg_ptr(&c, "expectPtr", expectPtr);
  arg_u64(&c, "flags", flags);
  pthread_mutex_lock(&g_lock);
  int device = -1;
  aclError ret = need_context(&device);
  if (ret == 0 && (virPtr == NULL || size == 0 || alignment != 0 || flags > 1)) ret = 100000;
  if (ret == 0 && expectPtr != NULL) ret = 207000;
  struct reservation *r = NULL;
  if (ret == 0) {
    r = calloc(1, sizeof *r);
    r->size = size;
    r->device = device;
    size_t length = round_up(size, HUGE_PAGE);
    r->map_len = length + HUGE_PAGE;
    r->base = mmap(NULL, r->map_len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (r->base == MAP_FAILED) {
      free(r);
      r = NULL;
      ret = 207001;
    } else {
      r->addr = round_up((uintptr_t)r->base, HUGE_PAGE);
      r->next = g.reservations;
      g.reservations = r;
      *virPtr = (void *)r->addr;
    }
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot reserve %zu bytes", size);
  out_ptr(&c, "virPtr", (void *)r->addr);
  return call_end(&c, 0);
}

aclError aclrtReleaseMemAddress(void *virPtr) {
  call_t c;
  call_begin(&c, "aclrtReleaseMemAddress");
  arg_ptr(&c, "virPtr", virPtr);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct reservation **slot = NULL;
  for (struct reservation **r = &g.reservations; ret == 0 && *r != NULL; r = &(*r)->next)
    if ((*r)->addr == (uintptr_t)virPtr) slot = r;
  if (ret == 0 && slot == NULL) ret = 100000;
  if (ret == 0) {
    struct reservation *r = *slot;
    for (struct mapping *m = g.mappings; m != NULL; m = m->next)
      if (m->addr >= r->addr && m->addr < r->addr + r->size) ret = 100000;
    if (ret == 0) {
      *slot = r->next;
      munmap(r->base, r->map_len);
      free(r);
    }
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "not a reservation, or still mapped");
}

aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags) {
  call_t c;
  call_begin(&c, "aclrtMapMem");
  arg_ptr(&c, "virPtr", virPtr);
  arg_u64(&c, "size", size);
  arg_u64(&c, "offset", offset);
  arg_ptr(&c, "handle", handle);
  arg_u64(&c, "flags", flags);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct phys *ph = ret == 0 ? live_phys(handle) : NULL;
  if (ret == 0 && ph == NULL) ret = 107017;
  if (ret == 0 && (offset != 0 || flags != 0 || size != ph->size)) ret = 100000;
  uintptr_t at = (uintptr_t)virPtr;
  struct reservation *inside = NULL;
  for (struct reservation *r = g.reservations; ret == 0 && r != NULL; r = r->next)
    if (at >= r->addr && at + size <= r->addr + round_up(r->size, HUGE_PAGE)) inside = r;
  if (ret == 0 && inside == NULL) ret = 100000;
  for (struct mapping *m = g.mappings; ret == 0 && m != NULL; m = m->next)
    if (m->addr < at + size && at < m->addr + m->size) ret = 100000;
  if (ret == 0 && mmap(virPtr, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, ph->fd, 0) == MAP_FAILED) ret = 207001;
  if (ret == 0) {
    struct mapping *m = calloc(1, sizeof *m);
    m->addr = at;
    m->size = size;
    m->phys = ph;
    m->next = g.mappings;
    g.mappings = m;
    ph->mappings += 1;
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot map %zu bytes at %p", size, virPtr);
}

aclError aclrtUnmapMem(void *virPtr) {
  call_t c;
  call_begin(&c, "aclrtUnmapMem");
  arg_ptr(&c, "virPtr", virPtr);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct mapping **slot = NULL;
  for (struct mapping **m = &g.mappings; ret == 0 && *m != NULL; m = &(*m)->next)
    if ((*m)->addr == (uintptr_t)virPtr) slot = m;
  if (ret == 0 && slot == NULL) ret = 100000;
  if (ret == 0) {
    struct mapping *m = *slot;
    *slot = m->next;
    mmap(virPtr, m->size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
    m->phys->mappings -= 1;
    if (m->phys->freed && m->phys->mappings == 0) release_phys(m->phys);
    free(m);
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "%p is not the start of a mapping", virPtr);
}

aclError aclrtMemSetAccess(void *virPtr, size_t size, aclrtMemAccessDesc *desc, size_t count) {
  call_t c;
  call_begin(&c, "aclrtMemSetAccess");
  arg_ptr(&c, "virPtr", virPtr);
  arg_u64(&c, "size", size);
  arg_access(&c, "desc", desc, count);
  arg_u64(&c, "count", count);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct mapping *m = ret == 0 ? find_mapping_containing((uintptr_t)virPtr) : NULL;
  if (ret == 0 && (m == NULL || m->addr != (uintptr_t)virPtr || m->size != size || desc == NULL || count == 0)) ret = 100000;
  for (size_t i = 0; ret == 0 && i < count; i++) {
    int zero = 1;
    for (int k = 0; k < 12; k++) zero = zero && desc[i].rsv[k] == 0;
    if (desc[i].flags != ACL_RT_MEM_ACCESS_FLAGS_READWRITE || desc[i].location.type != ACL_MEM_LOCATION_TYPE_DEVICE ||
        desc[i].location.id >= (uint32_t)g.devices || !zero)
      ret = 100000;
  }
  for (size_t i = 0; ret == 0 && i < count; i++) m->access[desc[i].location.id] = (uint32_t)desc[i].flags;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "invalid range or descriptors");
}

aclError aclrtMemGetAccess(void *virPtr, aclrtMemLocation *location, uint64_t *flag) {
  call_t c;
  call_begin(&c, "aclrtMemGetAccess");
  arg_ptr(&c, "virPtr", virPtr);
  arg_location(&c, "location", location);
  arg_ptr(&c, "flag", flag);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct mapping *m = ret == 0 ? find_mapping_containing((uintptr_t)virPtr) : NULL;
  if (ret == 0 && (m == NULL || location == NULL || flag == NULL || location->id >= (uint32_t)g.devices)) ret = 100000;
  uint64_t value = 0;
  if (ret == 0) {
    /* VM-7: mapping alone makes the range usable on the device that owns the memory. */
    int own = location->type == ACL_MEM_LOCATION_TYPE_DEVICE && (int)location->id == m->phys->device;
    value = m->access[location->id] != 0 ? m->access[location->id] : own ? ACL_RT_MEM_ACCESS_FLAGS_READWRITE : 0;
    *flag = value;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "%p is not mapped", virPtr);
  out_u64(&c, "flag", value);
  return call_end(&c, 0);
}

/* VM-12: the handle mapped at virPtr (the exact address given to aclrtMapMem); each call takes a reference. */
aclError aclrtMemRetainAllocationHandle(void *virPtr, aclrtDrvMemHandle *handle) {
  call_t c;
  call_begin(&c, "aclrtMemRetainAllocationHandle");
  arg_ptr(&c, "virPtr", virPtr);
  arg_ptr(&c, "handle", handle);
  aclError inj = injected_failure("aclrtMemRetainAllocationHandle");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct mapping *m = NULL;
  for (struct mapping *at = g.mappings; ret == 0 && at != NULL; at = at->next)
    if (at->addr == (uintptr_t)virPtr) m = at;
  if (ret == 0 && (virPtr == NULL || handle == NULL || m == NULL)) ret = 100000;
  /* A handle freed while mapped (VM-8) is gone for the program: not handed out again. */
  if (ret == 0 && m->phys->freed) ret = 107017;
  struct phys *ph = ret == 0 ? m->phys : NULL;
  if (ret == 0) {
    ph->retains += 1;
    *handle = ph;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "%p is not the start of a mapping with a live handle", virPtr);
  out_ptr(&c, "handle", ph);
  return call_end(&c, 0);
}

/* VM-12: handle type NONE, allocation type PINNED, the device, and the memAttr of the page kind. */
aclError aclrtMemGetAllocationPropertiesFromHandle(aclrtDrvMemHandle handle, aclrtPhysicalMemProp *prop) {
  call_t c;
  call_begin(&c, "aclrtMemGetAllocationPropertiesFromHandle");
  arg_ptr(&c, "handle", handle);
  arg_ptr(&c, "prop", prop);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct phys *ph = ret == 0 ? live_phys(handle) : NULL;
  if (ret == 0 && ph == NULL) ret = 107017;
  if (ret == 0 && prop == NULL) ret = 100000;
  aclrtPhysicalMemProp p = {0};
  if (ret == 0) {
    static const aclrtMemAttr attr_of[3] = {[PC_NORMAL] = ACL_HBM_MEM_NORMAL, [PC_HUGE] = ACL_HBM_MEM_HUGE, [PC_GIANT] = ACL_HBM_MEM_HUGE1G};
    p.handleType = ACL_MEM_HANDLE_TYPE_NONE;
    p.allocationType = ACL_MEM_ALLOCATION_TYPE_PINNED;
    p.memAttr = attr_of[ph->page_class];
    p.location.id = (uint32_t)ph->device;
    p.location.type = ACL_MEM_LOCATION_TYPE_DEVICE;
    *prop = p;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "not a live handle, or prop is NULL");
  out_prop(&c, "prop", &p);
  return call_end(&c, 0);
}

#endif
