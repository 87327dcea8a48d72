/* Call records, injected failures and error messages of the ACL test double. TEST DOUBLE. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "double_internal.h"

static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;
static char log_path[1024];
static uint64_t log_seq;

/* aclGetRecentErrMsg: per thread, valid until the next call in that thread, cleared by reading. */
static __thread char thread_error[512];
static __thread int thread_has_error;
static __thread char thread_returned[512];

void jb_printf(jbuf *b, const char *fmt, ...) {
  if (b->off) return;
  va_list ap;
  va_start(ap, fmt);
  va_list copy;
  va_copy(copy, ap);
  int need = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (need < 0) {
    va_end(ap);
    return;
  }
  if (b->len + (size_t)need + 1 > b->cap) {
    size_t cap = (b->cap == 0 ? 256 : b->cap * 2) + (size_t)need;
    char *grown = realloc(b->buf, cap);
    if (grown == NULL) {
      va_end(ap);
      return;
    }
    b->buf = grown;
    b->cap = cap;
  }
  vsnprintf(b->buf + b->len, b->cap - b->len, fmt, ap);
  b->len += (size_t)need;
  va_end(ap);
}

static void sep(jbuf *b) {
  if (b->len > 0) jb_printf(b, ",");
}

/* uint64 values above 2^53 are written as strings: JSON readers keep doubles. */
static void put_u64(jbuf *b, uint64_t v) {
  if (v >= (1ull << 53))
    jb_printf(b, "\"%llu\"", (unsigned long long)v);
  else
    jb_printf(b, "%llu", (unsigned long long)v);
}

static void put_ptr(jbuf *b, const void *p) {
  if (p == NULL)
    jb_printf(b, "null");
  else
    jb_printf(b, "\"0x%llx\"", (unsigned long long)(uintptr_t)p);
}

static void put_string(jbuf *b, const char *s) {
  if (s == NULL) {
    jb_printf(b, "null");
    return;
  }
  jb_printf(b, "\"");
  for (const char *p = s; *p != '\0'; p++) {
    unsigned char ch = (unsigned char)*p;
    if (ch == '"' || ch == '\\')
      jb_printf(b, "\\%c", ch);
    else if (ch < 0x20)
      jb_printf(b, "\\u%04x", ch);
    else
      jb_printf(b, "%c", ch);
  }
  jb_printf(b, "\"");
}

static void put_location(jbuf *b, const aclrtMemLocation *l) {
  jb_printf(b, "{\"id\":%u,\"type\":%u}", l->id, (unsigned)l->type);
}

/* Whether calls are logged: with no log, a call formats nothing and takes no lock for it, so the
 * double's own bookkeeping does not serialise every thread's calls (the trace bench's 4 threads
 * measured the log lock, not the runtime; the real runtime keeps no such log). */
static int logging(void) {
  const char *path = getenv("ACL_DOUBLE_LOG");
  return path != NULL && *path != '\0';
}

void call_begin(call_t *c, const char *fn) {
  memset(c, 0, sizeof *c);
  c->fn = fn;
  c->logging = logging();
  c->args.off = c->out.off = !c->logging;
  thread_has_error = 0;
}

void arg_ptr(call_t *c, const char *name, const void *p) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  put_ptr(&c->args, p);
}

void arg_u64(call_t *c, const char *name, uint64_t v) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  put_u64(&c->args, v);
}

void arg_i64(call_t *c, const char *name, int64_t v) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":%lld", name, (long long)v);
}

void arg_str(call_t *c, const char *name, const char *s) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  put_string(&c->args, s);
}

static void put_prop(jbuf *b, const aclrtPhysicalMemProp *prop) {
  if (prop == NULL) {
    jb_printf(b, "null");
    return;
  }
  jb_printf(b, "{\"handleType\":%u,\"allocationType\":%u,\"memAttr\":%u,\"location\":", (unsigned)prop->handleType,
            (unsigned)prop->allocationType, (unsigned)prop->memAttr);
  put_location(b, &prop->location);
  jb_printf(b, ",\"reserve\":");
  put_u64(b, prop->reserve);
  jb_printf(b, "}");
}

void arg_prop(call_t *c, const char *name, const aclrtPhysicalMemProp *prop) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  put_prop(&c->args, prop);
}

void arg_location(call_t *c, const char *name, const aclrtMemLocation *location) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  if (location == NULL)
    jb_printf(&c->args, "null");
  else
    put_location(&c->args, location);
}

/* Each attribute as received: attr, the union's 8 raw bytes, and its members read as C would. */
void arg_config(call_t *c, const char *name, const aclrtMallocConfig *cfg) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  if (cfg == NULL) {
    jb_printf(&c->args, "null");
    return;
  }
  jb_printf(&c->args, "{\"numAttrs\":");
  put_u64(&c->args, cfg->numAttrs);
  jb_printf(&c->args, ",\"attrs\":");
  if (cfg->attrs == NULL) {
    jb_printf(&c->args, "null}");
    return;
  }
  jb_printf(&c->args, "[");
  size_t shown = cfg->numAttrs < 16 ? cfg->numAttrs : 16;
  for (size_t i = 0; i < shown; i++) {
    const aclrtMallocAttribute *a = &cfg->attrs[i];
    if (i > 0) jb_printf(&c->args, ",");
    jb_printf(&c->args, "{\"attr\":%u,\"value\":{\"moduleId\":%u,\"deviceId\":%u,\"vaFlag\":%u,\"bytes\":[", (unsigned)a->attr,
              a->value.moduleId, a->value.deviceId, a->value.vaFlag);
    for (int k = 0; k < 8; k++) jb_printf(&c->args, "%s%u", k == 0 ? "" : ",", a->value.rsv[k]);
    jb_printf(&c->args, "]}}");
  }
  jb_printf(&c->args, "]}");
}

void arg_access(call_t *c, const char *name, const aclrtMemAccessDesc *desc, size_t count) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  if (desc == NULL) {
    jb_printf(&c->args, "null");
    return;
  }
  jb_printf(&c->args, "[");
  size_t shown = count < 16 ? count : 16;
  for (size_t i = 0; i < shown; i++) {
    if (i > 0) jb_printf(&c->args, ",");
    jb_printf(&c->args, "{\"flags\":%u,\"location\":", (unsigned)desc[i].flags);
    put_location(&c->args, &desc[i].location);
    jb_printf(&c->args, ",\"rsv\":[");
    for (int k = 0; k < 12; k++) jb_printf(&c->args, "%s%u", k == 0 ? "" : ",", desc[i].rsv[k]);
    jb_printf(&c->args, "]}");
  }
  jb_printf(&c->args, "]");
}

void arg_ints(call_t *c, const char *name, const int32_t *values, size_t count) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  if (values == NULL) {
    jb_printf(&c->args, "null");
    return;
  }
  jb_printf(&c->args, "[");
  size_t shown = count < 64 ? count : 64;
  for (size_t i = 0; i < shown; i++) jb_printf(&c->args, "%s%d", i == 0 ? "" : ",", values[i]);
  jb_printf(&c->args, "]");
}

/* A void** array element by element (at most 64), each pointer with all its bits. */
void arg_ptrs(call_t *c, const char *name, void *const *values, size_t count) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  if (values == NULL) {
    jb_printf(&c->args, "null");
    return;
  }
  jb_printf(&c->args, "[");
  size_t shown = count < 64 ? count : 64;
  for (size_t i = 0; i < shown; i++) {
    if (i > 0) jb_printf(&c->args, ",");
    put_ptr(&c->args, values[i]);
  }
  jb_printf(&c->args, "]");
}

/* A size_t* array element by element (at most 64). */
void arg_sizes(call_t *c, const char *name, const size_t *values, size_t count) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  if (values == NULL) {
    jb_printf(&c->args, "null");
    return;
  }
  jb_printf(&c->args, "[");
  size_t shown = count < 64 ? count : 64;
  for (size_t i = 0; i < shown; i++) {
    if (i > 0) jb_printf(&c->args, ",");
    put_u64(&c->args, values[i]);
  }
  jb_printf(&c->args, "]");
}

/* aclrtMemcpyBatchAttr runs field by field (at most 16), the 16 reserved bytes too. */
void arg_batch_attrs(call_t *c, const char *name, const aclrtMemcpyBatchAttr *attrs, size_t count) {
  sep(&c->args);
  jb_printf(&c->args, "\"%s\":", name);
  if (attrs == NULL) {
    jb_printf(&c->args, "null");
    return;
  }
  jb_printf(&c->args, "[");
  size_t shown = count < 16 ? count : 16;
  for (size_t i = 0; i < shown; i++) {
    if (i > 0) jb_printf(&c->args, ",");
    jb_printf(&c->args, "{\"dstLoc\":");
    put_location(&c->args, &attrs[i].dstLoc);
    jb_printf(&c->args, ",\"srcLoc\":");
    put_location(&c->args, &attrs[i].srcLoc);
    jb_printf(&c->args, ",\"rsv\":[");
    for (int k = 0; k < 16; k++) jb_printf(&c->args, "%s%u", k == 0 ? "" : ",", attrs[i].rsv[k]);
    jb_printf(&c->args, "]}");
  }
  jb_printf(&c->args, "]");
}

void out_ptr(call_t *c, const char *name, const void *p) {
  sep(&c->out);
  jb_printf(&c->out, "\"%s\":", name);
  put_ptr(&c->out, p);
}

void out_u64(call_t *c, const char *name, uint64_t v) {
  sep(&c->out);
  jb_printf(&c->out, "\"%s\":", name);
  put_u64(&c->out, v);
}

void out_i64(call_t *c, const char *name, int64_t v) {
  sep(&c->out);
  jb_printf(&c->out, "\"%s\":%lld", name, (long long)v);
}

/* A float or double out-value, with enough digits to read back the same float. */
void out_f64(call_t *c, const char *name, double v) {
  sep(&c->out);
  jb_printf(&c->out, "\"%s\":%.9g", name, v);
}

void out_str(call_t *c, const char *name, const char *s) {
  sep(&c->out);
  jb_printf(&c->out, "\"%s\":", name);
  put_string(&c->out, s);
}

void out_attributes(call_t *c, const char *name, const aclrtPtrAttributes *a) {
  sep(&c->out);
  jb_printf(&c->out, "\"%s\":{\"location\":", name);
  put_location(&c->out, &a->location);
  jb_printf(&c->out, ",\"pageSize\":%u}", a->pageSize);
}

void out_prop(call_t *c, const char *name, const aclrtPhysicalMemProp *prop) {
  sep(&c->out);
  jb_printf(&c->out, "\"%s\":", name);
  put_prop(&c->out, prop);
}

/* aclrtMemUsageInfo entries as written, field by field: the name up to its NUL (at most 31 characters), the reserved words too. */
void out_usage(call_t *c, const char *name, const aclrtMemUsageInfo *info, size_t count) {
  sep(&c->out);
  jb_printf(&c->out, "\"%s\":[", name);
  for (size_t i = 0; i < count; i++) {
    char text[sizeof info[i].name + 1];
    memcpy(text, info[i].name, sizeof info[i].name);
    text[sizeof info[i].name] = '\0';
    jb_printf(&c->out, "%s{\"name\":", i == 0 ? "" : ",");
    put_string(&c->out, text);
    jb_printf(&c->out, ",\"curMemSize\":");
    put_u64(&c->out, info[i].curMemSize);
    jb_printf(&c->out, ",\"memPeakSize\":");
    put_u64(&c->out, info[i].memPeakSize);
    jb_printf(&c->out, ",\"reserved\":[");
    for (int k = 0; k < 8; k++) {
      if (k > 0) jb_printf(&c->out, ",");
      put_u64(&c->out, info[i].reserved[k]);
    }
    jb_printf(&c->out, "]}");
  }
  jb_printf(&c->out, "]");
}

static FILE *open_log(void) {
  const char *path = getenv("ACL_DOUBLE_LOG");
  if (path == NULL || *path == '\0') return NULL;
  if (log_file != NULL && strcmp(path, log_path) == 0) return log_file;
  if (log_file != NULL) fclose(log_file);
  snprintf(log_path, sizeof log_path, "%s", path);
  log_file = fopen(log_path, "a");
  return log_file;
}

aclError call_end(call_t *c, aclError ret) {
  if (!c->logging) return ret;
  pthread_mutex_lock(&log_lock);
  FILE *f = open_log();
  if (f != NULL) {
    jbuf line = {0};
    jb_printf(&line, "{\"seq\":%llu,\"tid\":%ld,\"fn\":\"%s\",\"args\":{%s},\"out\":{%s},\"ret\":%d}\n", (unsigned long long)++log_seq,
              (long)syscall(SYS_gettid), c->fn, c->args.buf == NULL ? "" : c->args.buf, c->out.buf == NULL ? "" : c->out.buf, ret);
    if (line.buf != NULL) fputs(line.buf, f);
    fflush(f);
    free(line.buf);
  }
  pthread_mutex_unlock(&log_lock);
  free(c->args.buf);
  free(c->out.buf);
  c->args.buf = NULL;
  c->out.buf = NULL;
  return ret;
}

aclError call_fail(call_t *c, aclError code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int written = snprintf(thread_error, sizeof thread_error, "[acl double] %s: ", c->fn);
  /* need_context()'s two answers get their own text (the call site's message describes its other
     failures); an injected failure keeps saying it was injected. */
  const char *fixed = strstr(fmt, "injected") != NULL ? NULL
                      : code == 107002 && strstr(fmt, "(CX-") == NULL ? "no current context on this thread (aclrtSetDevice or aclrtSetCurrentContext first)"
                      : code == 100001 ? "ACL is not initialised (aclInit first)"
                                       : NULL;
  if (written > 0 && (size_t)written < sizeof thread_error) {
    if (fixed != NULL) snprintf(thread_error + written, sizeof thread_error - (size_t)written, "%s", fixed);
    else vsnprintf(thread_error + written, sizeof thread_error - (size_t)written, fmt, ap);
  }
  va_end(ap);
  thread_has_error = 1;
  return call_end(c, code);
}

aclError injected_failure(const char *fn) {
  const char *spec = getenv("ACL_DOUBLE_FAIL");
  if (spec == NULL) return 0;
  size_t n = strlen(fn);
  for (const char *p = spec; *p != '\0';) {
    const char *end = strchr(p, ',');
    size_t len = end == NULL ? strlen(p) : (size_t)(end - p);
    if (len > n && strncmp(p, fn, n) == 0 && p[n] == ':') return (aclError)strtol(p + n + 1, NULL, 10);
    if (end == NULL) break;
    p = end + 1;
  }
  return 0;
}

uint64_t env_u64(const char *name, uint64_t fallback) {
  const char *text = getenv(name);
  if (text == NULL || *text == '\0') return fallback;
  return strtoull(text, NULL, 10);
}

/*
 * What a test makes a copy wait for, outside the lock: ACL_DOUBLE_COPY_DELAY_MS sleeps that long;
 * ACL_DOUBLE_COPY_RELEASE=<path> then creates <path>.waiting and waits until the test creates
 * <path> (checked every millisecond), so a test can ask "did JavaScript run while this call
 * blocked?" without timing anything. A
 * release that never comes fails the call with 507000 after ACL_DOUBLE_COPY_RELEASE_MAX_MS
 * (default 60 s), so a held event loop shows as a failed copy, not a hung test.
 */
aclError delay_copy(void) {
  uint64_t ms = env_u64("ACL_DOUBLE_COPY_DELAY_MS", 0);
  if (ms > 0) {
    struct timespec ts = {(time_t)(ms / 1000), (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
  }
  const char *release = getenv("ACL_DOUBLE_COPY_RELEASE");
  if (release == NULL || *release == '\0') return 0;
  uint64_t limit = env_u64("ACL_DOUBLE_COPY_RELEASE_MAX_MS", 60000);
  char waiting[4096];
  if (snprintf(waiting, sizeof waiting, "%s.waiting", release) >= (int)sizeof waiting) return 507000;
  FILE *marker = fopen(waiting, "w");
  if (marker == NULL) return 507000;
  fclose(marker);
  struct timespec tick = {0, 1000000L};
  for (uint64_t waited = 0; access(release, F_OK) != 0; waited++) {
    if (waited >= limit) return 507000;
    nanosleep(&tick, NULL);
  }
  return 0;
}

const char *aclGetRecentErrMsg(void) {
  call_t c;
  const char *result = NULL;
  if (thread_has_error) {
    memcpy(thread_returned, thread_error, sizeof thread_returned);
    result = thread_returned;
  }
  call_begin(&c, "aclGetRecentErrMsg");
  out_str(&c, "errMsg", result);
  call_end(&c, 0);
  return result;
}

const char *aclDoubleIdentify(void) { return "PageLens ACL test double (a C stand-in for libascendcl.so; not Ascend hardware)"; }
