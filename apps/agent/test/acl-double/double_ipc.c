/* IPC of device memory (IP-1 … IP-4) in the ACL test double. TEST DOUBLE, not hardware. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "double_internal.h"

/*
 * The double is one process, like the agent on hardware: it exports keys of its own allocations,
 * keeps their allow-lists and closes them, but importing a key means importing into the exporter,
 * which the runtime refuses (IP-3, as aclrtMemImportFromShareableHandle refuses, VM-9). Freeing an
 * allocation, resetting its device or finalising ends its keys (IP-4).
 */

static struct ipc_key *find_key(const char *key) {
  for (struct ipc_key *k = g.ipc_keys; k != NULL; k = k->next)
    if (strncmp(k->key, key, IPC_KEY_LEN) == 0) return k;
  return NULL;
}

static void unlink_key(struct ipc_key *target) {
  for (struct ipc_key **k = &g.ipc_keys; *k != NULL; k = &(*k)->next) {
    if (*k == target) {
      *k = target->next;
      free(target->pids);
      free(target);
      return;
    }
  }
}

void release_ipc_keys(uintptr_t addr) {
  for (struct ipc_key **k = &g.ipc_keys; *k != NULL;) {
    if (addr == 0 || (*k)->addr == addr) {
      struct ipc_key *dead = *k;
      *k = dead->next;
      free(dead->pids);
      free(dead);
    } else {
      k = &(*k)->next;
    }
  }
}

/* IP-1: a key (64 characters and a NUL) for the first size bytes of an aclrtMalloc allocation. */
aclError aclrtIpcMemGetExportKey(void *devPtr, size_t size, char *key, size_t len, uint64_t flags) {
  call_t c;
  call_begin(&c, "aclrtIpcMemGetExportKey");
  arg_ptr(&c, "devPtr", devPtr);
  arg_u64(&c, "size", size);
  arg_ptr(&c, "key", key);
  arg_u64(&c, "len", len);
  arg_u64(&c, "flags", flags);
  aclError inj = injected_failure("aclrtIpcMemGetExportKey");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && (devPtr == NULL || key == NULL)) ret = 100000;
  if (ret == 0 && (size == 0 || len == 0 || flags > 1 || len < IPC_KEY_LEN)) ret = 107000;
  struct block *b = ret == 0 ? find_block_containing((uintptr_t)devPtr) : NULL;
  if (ret == 0 && (b == NULL || b->kind == BLOCK_PINNED || b->addr != (uintptr_t)devPtr || size > b->size)) ret = 100000;
  struct ipc_key *k = NULL;
  if (ret == 0) {
    k = calloc(1, sizeof *k);
    snprintf(k->key, sizeof k->key, "double-ipc-%016llx-", (unsigned long long)++g.next_ipc);
    size_t used = strlen(k->key);
    memset(k->key + used, 'k', IPC_KEY_LEN - 1 - used);
    k->key[IPC_KEY_LEN - 1] = '\0';
    k->addr = b->addr;
    k->size = size;
    k->flags = flags;
    k->next = g.ipc_keys;
    g.ipc_keys = k;
    memcpy(key, k->key, IPC_KEY_LEN);
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot export %p (size %zu, len %zu, flags %llu)", devPtr, size, len, (unsigned long long)flags);
  out_str(&c, "key", key);
  return call_end(&c, 0);
}

/* IP-2: adds pids to the allow-list of a key this process exported. */
aclError aclrtIpcMemSetImportPid(const char *key, int32_t *pid, size_t num) {
  call_t c;
  call_begin(&c, "aclrtIpcMemSetImportPid");
  arg_str(&c, "key", key);
  arg_ints(&c, "pid", pid, num);
  arg_u64(&c, "num", num);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct ipc_key *k = ret == 0 && key != NULL ? find_key(key) : NULL;
  if (ret == 0 && (key == NULL || pid == NULL || num == 0 || k == NULL)) ret = 100000;
  if (ret == 0) {
    int32_t *grown = realloc(k->pids, (k->npids + num) * sizeof *grown);
    if (grown == NULL) {
      ret = 207001;
    } else {
      memcpy(grown + k->npids, pid, num * sizeof *grown);
      k->pids = grown;
      k->npids += num;
    }
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "unknown IPC key or no pids");
}

/* IP-3: the only process is the exporter, which cannot import its own key. */
aclError aclrtIpcMemImportByKey(void **devPtr, const char *key, uint64_t flags) {
  call_t c;
  call_begin(&c, "aclrtIpcMemImportByKey");
  arg_ptr(&c, "devPtr", devPtr);
  arg_str(&c, "key", key);
  arg_u64(&c, "flags", flags);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && (devPtr == NULL || key == NULL)) ret = 100000;
  if (ret == 0 && flags > 1) ret = 107000;
  if (ret == 0 && find_key(key) == NULL) ret = 107000;
  if (ret == 0) ret = 100000; /* the key is this process's own */
  pthread_mutex_unlock(&g_lock);
  return call_fail(&c, ret, "cannot import the key: unknown, or exported by this process (the double has one process)");
}

/* IP-4: the exporter's close ends the key. */
aclError aclrtIpcMemClose(const char *key) {
  call_t c;
  call_begin(&c, "aclrtIpcMemClose");
  arg_str(&c, "key", key);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct ipc_key *k = ret == 0 && key != NULL ? find_key(key) : NULL;
  if (ret == 0 && k == NULL) ret = 100000;
  if (ret == 0) unlink_key(k);
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "not an IPC key this process exported");
}
