/* Streams and peer access of the ACL test double. TEST DOUBLE, not hardware. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "double_internal.h"

aclError aclrtCreateStream(aclrtStream *stream) {
  call_t c;
  call_begin(&c, "aclrtCreateStream");
  arg_ptr(&c, "stream", stream);
  aclError inj = injected_failure("aclrtCreateStream");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  int d = -1;
  aclError ret = need_context(&d);
  struct stream *s = NULL;
  if (ret == 0 && stream == NULL) ret = 100000;
  if (ret == 0) {
    s = calloc(1, sizeof *s);
    s->device = d;
    s->next = g.streams;
    g.streams = s;
    *stream = s;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot create a stream");
  out_ptr(&c, "stream", s);
  return call_end(&c, 0);
}

static int live_stream(aclrtStream stream) {
  for (struct stream *s = g.streams; s != NULL; s = s->next)
    if (s == stream) return 1;
  return 0;
}

aclError aclrtDestroyStream(aclrtStream stream) {
  call_t c;
  call_begin(&c, "aclrtDestroyStream");
  arg_ptr(&c, "stream", stream);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  if (ret == 0 && (stream == NULL || !live_stream(stream))) ret = 107000;
  if (ret == 0) {
    for (struct stream **s = &g.streams; *s != NULL; s = &(*s)->next) {
      if (*s == stream) {
        struct stream *dead = *s;
        *s = dead->next;
        free(dead);
        break;
      }
    }
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "not a live stream");
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  call_t c;
  call_begin(&c, "aclrtSynchronizeStream");
  arg_ptr(&c, "stream", stream);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && stream != NULL && !live_stream(stream)) ret = 107000;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot synchronize");
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  call_t c;
  call_begin(&c, "aclrtSynchronizeStreamWithTimeout");
  arg_ptr(&c, "stream", stream);
  arg_i64(&c, "timeout", timeout);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && (timeout == 0 || timeout < -1)) ret = 100000;
  if (ret == 0 && stream != NULL && !live_stream(stream)) ret = 107000;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot synchronize");
}

aclError aclrtSynchronizeDevice(void) {
  call_t c;
  call_begin(&c, "aclrtSynchronizeDevice");
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "no current context on this thread");
}

aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId) {
  call_t c;
  call_begin(&c, "aclrtDeviceCanAccessPeer");
  arg_ptr(&c, "canAccessPeer", canAccessPeer);
  arg_i64(&c, "deviceId", deviceId);
  arg_i64(&c, "peerDeviceId", peerDeviceId);
  if (!g.initialized) return call_fail(&c, 100001, "aclInit first");
  if (deviceId < 0 || deviceId >= g.devices || peerDeviceId < 0 || peerDeviceId >= g.devices)
    return call_fail(&c, 107001, "no such device");
  if (deviceId == peerDeviceId || canAccessPeer == NULL) return call_fail(&c, 100000, "ids must differ");
  *canAccessPeer = 1;
  out_i64(&c, "canAccessPeer", 1);
  return call_end(&c, 0);
}

aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags) {
  call_t c;
  call_begin(&c, "aclrtDeviceEnablePeerAccess");
  arg_i64(&c, "peerDeviceId", peerDeviceId);
  arg_u64(&c, "flags", flags);
  pthread_mutex_lock(&g_lock);
  int d = -1;
  aclError ret = need_context(&d);
  if (ret == 0 && (peerDeviceId < 0 || peerDeviceId >= g.devices)) ret = 107001;
  if (ret == 0 && (flags != 0 || peerDeviceId == d)) ret = 100000;
  if (ret == 0) g.dev[d].peers[peerDeviceId] = 1;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot enable peer access to %d", peerDeviceId);
}
