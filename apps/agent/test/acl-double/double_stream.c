/* Streams and peer access of the ACL test double (CP-4 … CP-7, CX-3). TEST DOUBLE, not hardware. */
#define _GNU_SOURCE
#include <stdlib.h>

#include "double_internal.h"

static aclError create_stream(const char *fn, aclrtStream *stream, int config, uint32_t priority, uint32_t flag) {
  call_t c;
  call_begin(&c, fn);
  arg_ptr(&c, "stream", stream);
  if (config) {
    arg_u64(&c, "priority", priority);
    arg_u64(&c, "flag", flag);
  }
  aclError inj = injected_failure(fn);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  struct stream *s = NULL;
  if (ret == 0 && stream == NULL) ret = 100000;
  /* CX-3: the stream belongs to the current context. */
  if (ret == 0 && (s = new_stream(current_context(), 0)) == NULL) ret = 207001;
  if (ret == 0) {
    s->priority = priority;
    s->flag = flag & 0x3fu; /* unknown bits are dropped (runtime-api.md §4) */
    *stream = s;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot create a stream");
  out_ptr(&c, "stream", s);
  return call_end(&c, 0);
}

aclError aclrtCreateStream(aclrtStream *stream) { return create_stream("aclrtCreateStream", stream, 0, 0, 0); }

aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag) {
  return create_stream("aclrtCreateStreamWithConfig", stream, 1, priority, flag);
}

/* The stream a call names in the current context, or the code to answer (107000 unknown, 107003 another context's). */
static aclError usable_stream(aclrtStream stream, struct stream **found) {
  aclError ret = need_context(NULL);
  if (ret != 0) return ret;
  struct context *cur = current_context();
  struct stream *s = resolve_stream(stream, cur);
  if (s == NULL) return 107000;
  if (s->ctx != cur) return 107003;
  *found = s;
  return 0;
}

static aclError destroy_stream(const char *fn, aclrtStream stream) {
  call_t c;
  call_begin(&c, fn);
  arg_ptr(&c, "stream", stream);
  pthread_mutex_lock(&g_lock);
  struct stream *s = NULL;
  aclError ret = stream == NULL ? (g.initialized ? 100000 : 100001) : usable_stream(stream, &s);
  if (ret == 0 && s->is_default) ret = 100000;
  /* The double's work is done at once, so aclrtDestroyStream has nothing to wait for. */
  if (ret == 0) free_stream(s);
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot destroy stream %p (CX-3)", stream);
}

aclError aclrtDestroyStream(aclrtStream stream) { return destroy_stream("aclrtDestroyStream", stream); }
aclError aclrtDestroyStreamForce(aclrtStream stream) { return destroy_stream("aclrtDestroyStreamForce", stream); }

/* CP-7: only bit 0 counts; stop applies to every stream of the context and cannot be undone (207000). */
aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
  call_t c;
  call_begin(&c, "aclrtSetStreamFailureMode");
  arg_ptr(&c, "stream", stream);
  arg_u64(&c, "mode", mode);
  pthread_mutex_lock(&g_lock);
  struct stream *s = NULL;
  aclError ret = usable_stream(stream, &s);
  int wanted = (int)(mode & 1u);
  if (ret == 0 && wanted != s->stop_on_failure) {
    if (!wanted)
      ret = 207000;
    else
      for (struct stream *o = g.streams; o != NULL; o = o->next)
        if (o->ctx == s->ctx) o->stop_on_failure = 1;
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot set the failure mode (CX-3, CP-7)");
}

/* CP-6: the double's work is done at once, so every live stream is COMPLETE. */
aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status) {
  call_t c;
  call_begin(&c, "aclrtStreamQuery");
  arg_ptr(&c, "stream", stream);
  arg_ptr(&c, "status", status);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && status == NULL) ret = 100000;
  if (ret == 0 && resolve_stream(stream, current_context()) == NULL) ret = 107000;
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot query the stream");
  *status = ACL_STREAM_STATUS_COMPLETE;
  out_u64(&c, "status", ACL_STREAM_STATUS_COMPLETE);
  return call_end(&c, 0);
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  call_t c;
  call_begin(&c, "aclrtSynchronizeStream");
  arg_ptr(&c, "stream", stream);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && resolve_stream(stream, current_context()) == NULL) ret = 107000;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot synchronize");
}

/* CP-5: -1 waits for ever; 0 and values below -1 answer 107000 (runtime-api.md §10). */
aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
  call_t c;
  call_begin(&c, "aclrtSynchronizeStreamWithTimeout");
  arg_ptr(&c, "stream", stream);
  arg_i64(&c, "timeout", timeout);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && (timeout == 0 || timeout < -1)) ret = 107000;
  if (ret == 0 && resolve_stream(stream, current_context()) == NULL) ret = 107000;
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

aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout) {
  call_t c;
  call_begin(&c, "aclrtSynchronizeDeviceWithTimeout");
  arg_i64(&c, "timeout", timeout);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  if (ret == 0 && (timeout == 0 || timeout < -1)) ret = 107000;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot synchronize the device (CP-5)");
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

aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId) {
  call_t c;
  call_begin(&c, "aclrtDeviceDisablePeerAccess");
  arg_i64(&c, "peerDeviceId", peerDeviceId);
  pthread_mutex_lock(&g_lock);
  int d = -1;
  aclError ret = need_context(&d);
  if (ret == 0 && (peerDeviceId < 0 || peerDeviceId >= g.devices)) ret = 107001;
  if (ret == 0 && !g.dev[d].peers[peerDeviceId]) ret = 100000;
  if (ret == 0) g.dev[d].peers[peerDeviceId] = 0;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "no peer access to %d to disable", peerDeviceId);
}
