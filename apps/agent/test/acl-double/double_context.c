/*
 * Contexts of the ACL test double (CX-1 … CX-3, runtime-api.md §3). TEST DOUBLE, not hardware.
 * g.ctx[d] is device d's default context; aclrtCreateContext makes others, each with a default
 * stream of its own. The current context is per host thread, as in the runtime.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "double_internal.h"

static int is_primary(const void *p) {
  uintptr_t at = (uintptr_t)p;
  uintptr_t first = (uintptr_t)&g.ctx[0];
  return at >= first && at < (uintptr_t)&g.ctx[g.devices] && (at - first) % sizeof(struct context) == 0;
}

static struct context *live_created(const void *p) {
  for (struct context *x = g.contexts; x != NULL; x = x->next)
    if ((const void *)x == p) return x;
  return NULL;
}

struct stream *new_stream(struct context *ctx, int is_default) {
  struct stream *s = calloc(1, sizeof *s);
  if (s == NULL) return NULL;
  s->device = ctx->device;
  s->ctx = ctx;
  s->is_default = is_default;
  s->next = g.streams;
  g.streams = s;
  return s;
}

void free_stream(struct stream *target) {
  for (struct stream **s = &g.streams; *s != NULL; s = &(*s)->next) {
    if (*s == target) {
      *s = target->next;
      free(target);
      return;
    }
  }
}

struct stream *resolve_stream(aclrtStream stream, struct context *cur) {
  if (stream == NULL) return cur == NULL ? NULL : cur->default_stream;
  for (struct stream *s = g.streams; s != NULL; s = s->next)
    if (s == stream) return s;
  return NULL;
}

/* Everything a context owns: its events and its streams, its default stream too (CX-2). */
void release_context_objects(struct context *ctx) {
  for (struct event **e = &g.events; *e != NULL;) {
    if ((*e)->ctx == ctx) {
      struct event *dead = *e;
      *e = dead->next;
      free(dead);
    } else {
      e = &(*e)->next;
    }
  }
  for (struct stream **s = &g.streams; *s != NULL;) {
    if ((*s)->ctx == ctx) {
      struct stream *dead = *s;
      *s = dead->next;
      free(dead);
    } else {
      s = &(*s)->next;
    }
  }
  ctx->default_stream = NULL;
}

aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId) {
  call_t c;
  call_begin(&c, "aclrtCreateContext");
  arg_ptr(&c, "context", context);
  arg_i64(&c, "deviceId", deviceId);
  aclError inj = injected_failure("aclrtCreateContext");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = 0;
  struct context *ctx = NULL;
  if (!g.initialized)
    ret = 100001;
  else if (context == NULL)
    ret = 100000;
  else if (deviceId < 0 || deviceId >= g.devices)
    ret = 107001;
  else if ((ctx = calloc(1, sizeof *ctx)) == NULL)
    ret = 207001;
  else {
    ctx->device = deviceId;
    ctx->default_stream = new_stream(ctx, 1);
    ctx->next = g.contexts;
    g.contexts = ctx;
    /* CX-1: the new context is current on the calling thread from now on. */
    make_context_current(ctx);
    *context = ctx;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot create a context on device %d", deviceId);
  out_ptr(&c, "context", ctx);
  return call_end(&c, 0);
}

aclError aclrtDestroyContext(aclrtContext context) {
  call_t c;
  call_begin(&c, "aclrtDestroyContext");
  arg_ptr(&c, "context", context);
  pthread_mutex_lock(&g_lock);
  aclError ret = 0;
  const char *why = "";
  struct context *ctx = NULL;
  if (!g.initialized)
    ret = 100001;
  else if (context == NULL)
    ret = 100000, why = "context is NULL";
  else if (is_primary(context))
    ret = 107002, why = "a device's default context cannot be destroyed; aclrtResetDevice releases it (CX-2)";
  else if ((ctx = live_created(context)) == NULL)
    ret = 107002, why = "not a live context (CX-2)";
  else {
    int was_current = current_context() == ctx;
    release_context_objects(ctx);
    for (struct context **x = &g.contexts; *x != NULL; x = &(*x)->next) {
      if (*x == ctx) {
        *x = ctx->next;
        break;
      }
    }
    int d = ctx->device;
    free(ctx);
    /* The thread falls back to the device's default context while the device is set (CX-2). */
    if (was_current) make_context_current(g.dev[d].refs > 0 ? &g.ctx[d] : NULL);
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "%s", why);
}

aclError aclrtSetCurrentContext(aclrtContext context) {
  call_t c;
  call_begin(&c, "aclrtSetCurrentContext");
  arg_ptr(&c, "context", context);
  pthread_mutex_lock(&g_lock);
  aclError ret = 0;
  if (!g.initialized)
    ret = 100001;
  else if (context == NULL)
    ret = 100000; /* the ACL layer refuses NULL (runtime-api.md §10) */
  else if (is_primary(context)) {
    struct context *ctx = context;
    if (g.dev[ctx->device].refs == 0)
      ret = 107002;
    else
      make_context_current(ctx);
  } else if (live_created(context) != NULL)
    make_context_current(context);
  else
    ret = 107002;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "not a live context (CX-1)");
}

aclError aclrtGetCurrentContext(aclrtContext *context) {
  call_t c;
  call_begin(&c, "aclrtGetCurrentContext");
  arg_ptr(&c, "context", context);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  struct context *ctx = current_context();
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "no current context on this thread");
  if (context == NULL) return call_fail(&c, 100000, "context is NULL");
  *context = ctx;
  out_ptr(&c, "context", ctx);
  return call_end(&c, 0);
}

/* CX-1: a created context's default stream has a handle; a device's default stream is the NULL stream, as PageLens models it. */
aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream) {
  call_t c;
  call_begin(&c, "aclrtCtxGetCurrentDefaultStream");
  arg_ptr(&c, "stream", stream);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  struct context *ctx = current_context();
  void *value = ctx == NULL || ctx->primary ? NULL : ctx->default_stream;
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "no current context on this thread");
  if (stream == NULL) return call_fail(&c, 100000, "stream is NULL");
  *stream = value;
  out_ptr(&c, "stream", value);
  return call_end(&c, 0);
}
