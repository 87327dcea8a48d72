/* Sharing physical memory between processes (VM-9) in the ACL test double. TEST DOUBLE, not hardware. */
#define _GNU_SOURCE
#include <stddef.h>

#include "double_internal.h"

#ifndef NO_VMM
aclError aclrtMemExportToShareableHandle(aclrtDrvMemHandle handle, aclrtMemHandleType handleType, uint64_t flags, uint64_t *shareableHandle) {
  call_t c;
  call_begin(&c, "aclrtMemExportToShareableHandle");
  arg_ptr(&c, "handle", handle);
  arg_u64(&c, "handleType", (uint32_t)handleType);
  arg_u64(&c, "flags", flags);
  arg_ptr(&c, "shareableHandle", shareableHandle);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct phys *ph = ret == 0 ? live_phys(handle) : NULL;
  if (ret == 0 && ph == NULL) ret = 107017;
  if (ret == 0 && (handleType != ACL_MEM_HANDLE_TYPE_NONE || flags > 1 || shareableHandle == NULL)) ret = 100000;
  if (ret == 0) {
    if (ph->shareable == 0) ph->shareable = g.next_shareable++;
    *shareableHandle = ph->shareable;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot export");
  out_u64(&c, "shareableHandle", *shareableHandle);
  return call_end(&c, 0);
}

/* VM-9: this process exported it, so this process may not import it. */
aclError aclrtMemImportFromShareableHandle(uint64_t shareableHandle, int32_t deviceId, aclrtDrvMemHandle *handle) {
  call_t c;
  call_begin(&c, "aclrtMemImportFromShareableHandle");
  arg_u64(&c, "shareableHandle", shareableHandle);
  arg_i64(&c, "deviceId", deviceId);
  arg_ptr(&c, "handle", handle);
  return call_fail(&c, 100000, "the process that exported a handle cannot import it (the double has one process)");
}

aclError aclrtMemSetPidToShareableHandle(uint64_t shareableHandle, int32_t *pid, size_t pidNum) {
  call_t c;
  call_begin(&c, "aclrtMemSetPidToShareableHandle");
  arg_u64(&c, "shareableHandle", shareableHandle);
  arg_ints(&c, "pid", pid, pidNum);
  arg_u64(&c, "pidNum", pidNum);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  int known = 0;
  for (struct phys *p = g.physical; p != NULL; p = p->next) known = known || (p->shareable != 0 && p->shareable == shareableHandle);
  if (ret == 0 && (!known || pid == NULL || pidNum == 0)) ret = 100000;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "unknown shareable handle or no pids");
}
#endif
