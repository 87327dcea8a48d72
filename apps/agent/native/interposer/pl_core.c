/*
 * The interposer's channel to the PageLens agent: one Unix-domain socket per process (the path and
 * the session token come from `pagelens run` in the environment), one call at a time under a
 * mutex, from any thread. A process that forks gets its own connection in the child (a new process
 * for the agent). Nothing here touches device memory: see pl_data.c.
 */
#define _GNU_SOURCE
#include "pl_core.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

/* What a call answers when the agent cannot be reached (ACL_ERROR_INTERNAL_ERROR). */
#define PL_NO_AGENT 500000
/* How long a call polls for the agent's answer before it sleeps in recv(): an answer usually comes
 * within this, and a thread that is still running receives it without being woken, which on this
 * VM's vCPUs cost 1-2 µs of each ~20 µs round trip (bench/suites/run.ts). Between polls the thread
 * yields, so an agent sharing its core runs. */
#define PL_POLL_NS 30000L

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static int g_fd = -1;
static pid_t g_pid = 0;
static int g_warned = 0;
static char g_in[1 << 16];
static size_t g_in_len = 0;

static __thread char *t_buf = NULL;
static __thread size_t t_cap = 0;
static __thread char t_reply[1 << 16];
static __thread char t_text[2][1024];

static void warn_once(const char *what) {
  if (g_warned) return;
  g_warned = 1;
  fprintf(stderr, "pagelens: %s; ACL calls answer %d. Run the program with `pagelens run -- PROGRAM`.\n", what, PL_NO_AGENT);
}

static void grow(pl_msg *m, size_t extra) {
  if (m->len + extra + 1 <= m->cap) return;
  size_t cap = m->cap == 0 ? 4096 : m->cap;
  while (cap < m->len + extra + 1) cap *= 2;
  char *data = realloc(m->data, cap);
  if (data == NULL) abort();
  m->data = data;
  m->cap = cap;
}

static void put(pl_msg *m, const char *text, size_t n) {
  grow(m, n);
  memcpy(m->data + m->len, text, n);
  m->len += n;
  m->data[m->len] = '\0';
}

void pl_raw(pl_msg *m, const char *text) { put(m, text, strlen(text)); }

void pl_comma(pl_msg *m) {
  if (!m->first) put(m, ",", 1);
}

void pl_key(pl_msg *m, const char *key) {
  pl_comma(m);
  put(m, "\"", 1);
  pl_raw(m, key);
  put(m, "\":", 2);
  m->first = 1;
}

void pl_i64(pl_msg *m, int64_t value) {
  char text[32];
  int n = snprintf(text, sizeof text, "%lld", (long long)value);
  put(m, text, (size_t)n);
  m->first = 0;
}

void pl_u64(pl_msg *m, uint64_t value) {
  char text[32];
  int n = snprintf(text, sizeof text, "%llu", (unsigned long long)value);
  put(m, text, (size_t)n);
  m->first = 0;
}

void pl_ptr(pl_msg *m, const void *value) {
  char text[32];
  int n = snprintf(text, sizeof text, "\"0x%llx\"", (unsigned long long)(uintptr_t)value);
  put(m, text, (size_t)n);
  m->first = 0;
}

void pl_str(pl_msg *m, const char *text) {
  if (text == NULL) {
    put(m, "null", 4);
    m->first = 0;
    return;
  }
  put(m, "\"", 1);
  for (const unsigned char *c = (const unsigned char *)text; *c != '\0'; c++) {
    char esc[8];
    if (*c == '"' || *c == '\\') {
      esc[0] = '\\';
      esc[1] = (char)*c;
      put(m, esc, 2);
    } else if (*c < 0x20) {
      int n = snprintf(esc, sizeof esc, "\\u%04x", *c);
      put(m, esc, (size_t)n);
    } else {
      put(m, (const char *)c, 1);
    }
  }
  put(m, "\"", 1);
  m->first = 0;
}

void pl_open(pl_msg *m, char bracket) {
  put(m, &bracket, 1);
  m->first = 1;
}

void pl_close(pl_msg *m, char bracket) {
  put(m, &bracket, 1);
  m->first = 0;
}

/* The calling thread's id and this process's pid, each read once rather than by a system call per
 * ACL call; a fork gives the child (its one thread) fresh ones. */
static __thread long t_tid = 0;
static pid_t g_self = 0;

static void after_fork(void) {
  t_tid = 0;
  g_self = getpid();
}

__attribute__((constructor)) static void pl_start(void) {
  g_self = getpid();
  pthread_atfork(NULL, NULL, after_fork);
}

static long thread_id(void) {
  if (t_tid == 0) t_tid = (long)syscall(SYS_gettid);
  return t_tid;
}

void pl_begin(pl_msg *m, const char *fn, const void *site) {
  m->data = t_buf;
  m->cap = t_cap;
  m->len = 0;
  char head[256];
  int n = snprintf(head, sizeof head, "{\"f\":\"%s\",\"t\":%ld,\"s\":\"0x%llx\",\"a\":", fn, thread_id(),
                   (unsigned long long)(uintptr_t)site);
  put(m, head, (size_t)n);
  pl_open(m, '{');
}

static int write_all(int fd, const char *data, size_t len) {
  while (len > 0) {
    ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return -1;
    data += n;
    len -= (size_t)n;
  }
  return 0;
}

static long elapsed_ns(const struct timespec *since) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (now.tv_sec - since->tv_sec) * 1000000000L + (now.tv_nsec - since->tv_nsec);
}

/* recv() into the input buffer: polled for up to PL_POLL_NS, then blocking. */
static ssize_t receive(int fd) {
  struct timespec start;
  clock_gettime(CLOCK_MONOTONIC, &start);
  do {
    ssize_t got = recv(fd, g_in + g_in_len, sizeof g_in - g_in_len, MSG_DONTWAIT);
    if (got >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)) return got;
    sched_yield();
  } while (elapsed_ns(&start) < PL_POLL_NS);
  return recv(fd, g_in + g_in_len, sizeof g_in - g_in_len, 0);
}

/* One line from the agent into out (without the newline); -1 when the socket closed. */
static int read_line(int fd, char *out, size_t cap) {
  for (;;) {
    char *nl = memchr(g_in, '\n', g_in_len);
    if (nl != NULL) {
      size_t n = (size_t)(nl - g_in);
      if (n >= cap) n = cap - 1;
      memcpy(out, g_in, n);
      out[n] = '\0';
      size_t used = (size_t)(nl - g_in) + 1;
      memmove(g_in, g_in + used, g_in_len - used);
      g_in_len -= used;
      return 0;
    }
    if (g_in_len == sizeof g_in) return -1;
    ssize_t got = receive(fd);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return -1;
    g_in_len += (size_t)got;
  }
}

/* The process's command line as a JSON array (from /proc/self/cmdline). */
static void append_argv(pl_msg *m) {
  pl_open(m, '[');
  int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    char text[8192];
    ssize_t n = read(fd, text, sizeof text - 1);
    close(fd);
    if (n > 0) {
      text[n] = '\0';
      for (ssize_t at = 0; at < n; at += (ssize_t)strlen(text + at) + 1) {
        pl_comma(m);
        pl_str(m, text + at);
      }
    }
  }
  pl_close(m, ']');
}

/* Connects and greets the agent; called with g_lock held. */
static int connect_agent(void) {
  const char *path = getenv("PAGELENS_SOCKET");
  const char *token = getenv("PAGELENS_TOKEN");
  if (path == NULL || token == NULL) {
    warn_once("this libascendcl.so is PageLens's simulation interposer and no agent was given ($PAGELENS_SOCKET)");
    return -1;
  }
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  if (fd < 0 || strlen(path) >= sizeof addr.sun_path) {
    if (fd >= 0) close(fd);
    warn_once("cannot open a socket to the PageLens agent");
    return -1;
  }
  strcpy(addr.sun_path, path);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    close(fd);
    warn_once("cannot reach the PageLens agent");
    return -1;
  }
  pl_msg m = {NULL, 0, 0, 1};
  char head[128];
  snprintf(head, sizeof head, "{\"hello\":1,\"pid\":%ld,\"token\":", (long)getpid());
  pl_raw(&m, head);
  pl_str(&m, token);
  pl_raw(&m, ",\"argv\":");
  append_argv(&m);
  pl_raw(&m, "}\n");
  char answer[256];
  g_in_len = 0;
  int refused = write_all(fd, m.data, m.len) != 0 || read_line(fd, answer, sizeof answer) != 0 || strncmp(answer, "ok", 2) != 0;
  free(m.data);
  if (refused) {
    close(fd);
    warn_once("the PageLens agent refused this process");
    return -1;
  }
  g_fd = fd;
  g_pid = getpid();
  return 0;
}

int pl_roundtrip(pl_msg *m, pl_reply *r) {
  pl_close(m, '}');
  pl_raw(m, "}\n");
  pthread_mutex_lock(&g_lock);
  if (g_fd >= 0 && g_pid != g_self) {
    /* A forked child: the parent's connection is the parent's. */
    close(g_fd);
    g_fd = -1;
    g_in_len = 0;
  }
  int ok = g_fd >= 0 || connect_agent() == 0;
  if (ok && (write_all(g_fd, m->data, m->len) != 0 || read_line(g_fd, t_reply, sizeof t_reply) != 0)) {
    close(g_fd);
    g_fd = -1;
    ok = 0;
    g_warned = 0;
    warn_once("lost the connection to the PageLens agent");
  }
  pthread_mutex_unlock(&g_lock);
  /* The buffer (grown or not) is this thread's for the next call. */
  t_buf = m->data;
  t_cap = m->cap;
  if (!ok) {
    r->ret = PL_NO_AGENT;
    r->cursor = "";
    return -1;
  }
  char *end = NULL;
  r->ret = (int)strtol(t_reply, &end, 10);
  r->cursor = end;
  return 0;
}

static const char *token(pl_reply *r, size_t *len) {
  const char *c = r->cursor;
  while (*c == ' ') c++;
  const char *start = c;
  while (*c != ' ' && *c != '\0') c++;
  r->cursor = c;
  *len = (size_t)(c - start);
  return start;
}

int pl_next_i64(pl_reply *r, int64_t *out) {
  size_t len;
  const char *t = token(r, &len);
  if (len == 0 || (len == 1 && *t == '-')) return 0;
  *out = (int64_t)strtoll(t, NULL, 0);
  return 1;
}

int pl_next_u64(pl_reply *r, uint64_t *out) {
  size_t len;
  const char *t = token(r, &len);
  if (len == 0 || (len == 1 && *t == '-')) return 0;
  *out = (t[0] == '-') ? (uint64_t)strtoll(t, NULL, 0) : (uint64_t)strtoull(t, NULL, 0);
  return 1;
}

int pl_next_f32(pl_reply *r, float *out) {
  size_t len;
  const char *t = token(r, &len);
  if (len == 0 || (len == 1 && *t == '-')) return 0;
  *out = strtof(t, NULL);
  return 1;
}

static int hexval(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return 0;
}

int pl_next_text(pl_reply *r, char *buf, size_t cap) {
  size_t len;
  const char *t = token(r, &len);
  if (len == 0 || (len == 1 && *t == '-') || cap == 0) return 0;
  /* "=" is the empty string; otherwise two hex digits per byte. */
  size_t n = (len == 1 && *t == '=') ? 0 : len / 2;
  if (n >= cap) n = cap - 1;
  for (size_t i = 0; i < n; i++) buf[i] = (char)(hexval(t[2 * i]) * 16 + hexval(t[2 * i + 1]));
  buf[n] = '\0';
  return 1;
}

const char *pl_next_text_tls(pl_reply *r, int slot) {
  return pl_next_text(r, t_text[slot & 1], sizeof t_text[0]) ? t_text[slot & 1] : NULL;
}

#define PL_MAX_REPORTED 128
static const char *g_reported[PL_MAX_REPORTED];
static int g_reported_count = 0;

aclError pl_not_modeled(const char *fn, const void *site) {
  int first = 1;
  pthread_mutex_lock(&g_lock);
  for (int i = 0; i < g_reported_count; i++) {
    if (strcmp(g_reported[i], fn) == 0) first = 0;
  }
  if (first && g_reported_count < PL_MAX_REPORTED) g_reported[g_reported_count++] = fn;
  pthread_mutex_unlock(&g_lock);
  if (first) {
    pl_msg m;
    pl_reply r;
    pl_begin(&m, fn, site);
    pl_key(&m, "notModeled");
    pl_i64(&m, 1);
    pl_roundtrip(&m, &r);
  }
  return ACL_ERROR_RT_FEATURE_NOT_SUPPORT;
}
