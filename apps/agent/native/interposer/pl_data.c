/*
 * Device memory contents, kept in sparse host memory so that H2D -> D2D -> D2H copies and memsets
 * round-trip and programs that check their results pass. Device addresses are the simulator's
 * (not host-addressable: a program that dereferences one crashes, as on hardware); each 4 KiB page
 * of device VA that was ever written has a block here, and unwritten pages read as zeros.
 * Runs only after the simulator accepted the call, so ranges are already checked (CP-1, CP-2).
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "pl_core.h"

#define PAGE 4096u
#define TIB (1024ull * 1024 * 1024 * 1024)
/* DEVICE_VA_BASE (16 TiB) and the 8 TiB that device windows and reservations use (VM-5). */
#define DEVICE_LO (16 * TIB)
#define DEVICE_HI (24 * TIB)

typedef struct slot {
  uint64_t key; /* 0: empty */
  void *value;
} slot;

typedef struct table {
  slot *slots;
  size_t cap; /* a power of two */
  size_t used;
} table;

static pthread_mutex_t g_data = PTHREAD_MUTEX_INITIALIZER;
static table g_pages;  /* page number + 1 -> PAGE bytes */
static table g_sizes;  /* device allocation start -> (size_t) size, for aclrtFree */

static size_t hash(uint64_t key) {
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  return (size_t)key;
}

static slot *find(table *t, uint64_t key) {
  if (t->cap == 0) return NULL;
  for (size_t i = hash(key) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    if (t->slots[i].key == key) return &t->slots[i];
    if (t->slots[i].key == 0) return NULL;
  }
}

static void insert(table *t, uint64_t key, void *value);

static void rehash(table *t, size_t cap) {
  table next = {calloc(cap, sizeof(slot)), cap, 0};
  if (next.slots == NULL) abort();
  for (size_t i = 0; i < t->cap; i++) {
    if (t->slots[i].key != 0 && t->slots[i].key != UINT64_MAX) insert(&next, t->slots[i].key, t->slots[i].value);
  }
  free(t->slots);
  *t = next;
}

static void insert(table *t, uint64_t key, void *value) {
  if ((t->used + 1) * 2 > t->cap) rehash(t, t->cap == 0 ? 1024 : t->cap * 2);
  for (size_t i = hash(key) & (t->cap - 1);; i = (i + 1) & (t->cap - 1)) {
    if (t->slots[i].key == key) {
      t->slots[i].value = value;
      return;
    }
    if (t->slots[i].key == 0) {
      t->slots[i].key = key;
      t->slots[i].value = value;
      t->used++;
      return;
    }
  }
}

/* Removal leaves a tombstone (UINT64_MAX) so probe chains stay intact; rehash drops them. */
static void *take(table *t, uint64_t key) {
  slot *s = find(t, key);
  if (s == NULL) return NULL;
  void *value = s->value;
  s->key = UINT64_MAX;
  s->value = NULL;
  return value;
}

int pl_is_device(const void *addr) {
  uint64_t a = (uint64_t)(uintptr_t)addr;
  return a >= DEVICE_LO && a < DEVICE_HI;
}

/* The block of device page `page`, made (zeroed) when `create`. */
static unsigned char *block(uint64_t page, int create) {
  slot *s = find(&g_pages, page + 1);
  if (s != NULL) return s->value;
  if (!create) return NULL;
  unsigned char *b = calloc(1, PAGE);
  if (b == NULL) abort();
  insert(&g_pages, page + 1, b);
  return b;
}

/* Copies between device VA and host memory, page by page; to_device picks the direction. */
static void device_io(uint64_t dev, unsigned char *host, size_t count, int to_device) {
  while (count > 0) {
    uint64_t page = dev / PAGE;
    size_t at = (size_t)(dev % PAGE);
    size_t n = PAGE - at < count ? PAGE - at : count;
    unsigned char *b = block(page, to_device);
    if (to_device) memcpy(b + at, host, n);
    else if (b != NULL) memcpy(host, b + at, n);
    else memset(host, 0, n);
    dev += n;
    host += n;
    count -= n;
  }
}

void pl_post_malloc(void *devPtr, size_t size) {
  pthread_mutex_lock(&g_data);
  insert(&g_sizes, (uint64_t)(uintptr_t)devPtr, (void *)(uintptr_t)size);
  pthread_mutex_unlock(&g_data);
}

void pl_post_free(void *devPtr) {
  pthread_mutex_lock(&g_data);
  size_t size = (size_t)(uintptr_t)take(&g_sizes, (uint64_t)(uintptr_t)devPtr);
  uint64_t start = (uint64_t)(uintptr_t)devPtr;
  for (uint64_t page = start / PAGE; size > 0 && page * PAGE < start + size; page++) free(take(&g_pages, page + 1));
  pthread_mutex_unlock(&g_data);
}

void pl_post_memcpy(void *dst, const void *src, size_t count) {
  if (count == 0) return;
  int d = pl_is_device(dst), s = pl_is_device(src);
  pthread_mutex_lock(&g_data);
  if (!d && !s) {
    memmove(dst, src, count);
  } else if (d && !s) {
    device_io((uint64_t)(uintptr_t)dst, (unsigned char *)(uintptr_t)src, count, 1);
  } else if (!d && s) {
    device_io((uint64_t)(uintptr_t)src, dst, count, 0);
  } else {
    unsigned char *tmp = malloc(count);
    if (tmp == NULL) abort();
    device_io((uint64_t)(uintptr_t)src, tmp, count, 0);
    device_io((uint64_t)(uintptr_t)dst, tmp, count, 1);
    free(tmp);
  }
  pthread_mutex_unlock(&g_data);
}

void pl_post_memset(void *dst, int32_t value, size_t count) {
  if (count == 0) return;
  if (!pl_is_device(dst)) {
    memset(dst, value, count);
    return;
  }
  unsigned char fill[PAGE];
  memset(fill, value, sizeof fill);
  pthread_mutex_lock(&g_data);
  for (uint64_t at = (uint64_t)(uintptr_t)dst; count > 0;) {
    size_t n = count < PAGE ? count : PAGE;
    device_io(at, fill, n, 1);
    at += n;
    count -= n;
  }
  pthread_mutex_unlock(&g_data);
}

void pl_post_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height) {
  for (size_t row = 0; row < height; row++) {
    pl_post_memcpy((unsigned char *)dst + row * dpitch, (const unsigned char *)src + row * spitch, width);
  }
}

void pl_post_value_write(void *devAddr, uint64_t value) { pl_post_memcpy(devAddr, &value, sizeof value); }
