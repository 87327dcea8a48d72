/*
 * The trace ring: a bounded multi-producer queue (each slot carries a sequence number; a producer
 * claims a position with one compare-and-swap and never blocks), drained by one reporter thread
 * that writes text lines to the agent's Unix socket. Records that find the ring full, or that the
 * reporter cannot deliver (no agent, agent gone), are counted as dropped and reported at exit.
 */
#define _GNU_SOURCE
#include "pt_core.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define PT_CAP (1u << 16)
#define PT_MASK (PT_CAP - 1)
/* How long a program's exit may wait to hand the agent the ring's last records. */
#define PT_EXIT_MS 100

typedef struct pt_slot {
  _Atomic uint64_t seq;
  pt_event event;
} pt_slot;

static pt_slot g_ring[PT_CAP];
static _Atomic uint64_t g_head = 0;
static uint64_t g_tail = 0; /* consumer side, under g_drain */

/* Dropped records, counted per thread: when the ring is full every call of every thread drops, and
 * one shared counter (even a locked add on a striped one) cost each call a cache-line transfer or a
 * locked instruction. A thread takes a counter on its first drop (a free one, left by a thread that
 * ended, or a new one), and only it writes it; counts are never reset, so a reused counter keeps
 * its old count and the sum stays exact. The reporter's own drops go to g_dropped_shared. */
typedef struct pt_counter {
  _Alignas(64) _Atomic uint64_t count;
  _Atomic int owned;
  struct pt_counter *next;
} pt_counter;
static _Atomic(pt_counter *) g_counters = NULL;
static _Atomic uint64_t g_dropped_shared = 0;
static __thread pt_counter *t_counter = NULL;
static pthread_key_t g_counter_key;
static pthread_once_t g_key_once = PTHREAD_ONCE_INIT;

static void release_counter(void *counter) { atomic_store_explicit(&((pt_counter *)counter)->owned, 0, memory_order_release); }
static void make_key(void) { pthread_key_create(&g_counter_key, release_counter); }

static pt_counter *own_counter(void) {
  pthread_once(&g_key_once, make_key);
  pt_counter *c = atomic_load_explicit(&g_counters, memory_order_acquire);
  for (; c != NULL; c = c->next) {
    int free_counter = 0;
    if (atomic_compare_exchange_strong_explicit(&c->owned, &free_counter, 1, memory_order_acquire, memory_order_relaxed)) break;
  }
  if (c == NULL) {
    c = aligned_alloc(64, sizeof *c);
    if (c == NULL) return NULL;
    memset(c, 0, sizeof *c);
    atomic_init(&c->owned, 1);
    pt_counter *head = atomic_load_explicit(&g_counters, memory_order_relaxed);
    do c->next = head;
    while (!atomic_compare_exchange_weak_explicit(&g_counters, &head, c, memory_order_release, memory_order_relaxed));
  }
  pthread_setspecific(g_counter_key, c);
  return c;
}

static uint64_t dropped_total(void) {
  uint64_t total = atomic_load(&g_dropped_shared);
  for (pt_counter *c = atomic_load(&g_counters); c != NULL; c = c->next) total += atomic_load_explicit(&c->count, memory_order_relaxed);
  return total;
}
static _Atomic int g_ready = 0;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t g_drain = PTHREAD_MUTEX_INITIALIZER;
static int g_fd = -1;
static _Atomic int g_stop = 0;

void *pt_resolve(const char *name) { return dlsym(RTLD_NEXT, name); }

uint64_t pt_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static __thread uint64_t t_tid = 0;
uint64_t pt_tid(void) {
  if (t_tid == 0) t_tid = (uint64_t)syscall(SYS_gettid);
  return t_tid;
}

static int send_all(const char *data, size_t len) {
  while (g_fd >= 0 && len > 0) {
    ssize_t n = send(g_fd, data, len, MSG_NOSIGNAL);
    if (n <= 0) {
      close(g_fd);
      g_fd = -1;
      return -1;
    }
    data += n;
    len -= (size_t)n;
  }
  return g_fd >= 0 ? 0 : -1;
}

static void connect_agent(void) {
  const char *path = getenv("PAGELENS_SOCKET");
  const char *token = getenv("PAGELENS_TOKEN");
  if (path == NULL || token == NULL || strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path)) return;
  int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return;
  struct sockaddr_un addr;
  memset(&addr, 0, sizeof addr);
  addr.sun_family = AF_UNIX;
  strcpy(addr.sun_path, path);
  if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
    close(fd);
    return;
  }
  g_fd = fd;
  char hello[512];
  /* The token is hex (the agent makes it), so it needs no escaping. */
  int n = snprintf(hello, sizeof hello, "{\"hello\":1,\"mode\":\"trace\",\"pid\":%ld,\"token\":\"%s\",\"argv\":[", (long)getpid(), token);
  send_all(hello, (size_t)n);
  int cmd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  char text[4096];
  ssize_t len = cmd >= 0 ? read(cmd, text, sizeof text - 1) : 0;
  if (cmd >= 0) close(cmd);
  for (ssize_t at = 0; len > 0 && at < len; at += (ssize_t)strlen(text + at) + 1) {
    char arg[1024];
    size_t k = 0;
    arg[k++] = at == 0 ? '"' : ',';
    if (at != 0) arg[k++] = '"';
    for (const char *c = text + at; *c != '\0' && k < sizeof arg - 4; c++) {
      if (*c == '"' || *c == '\\') arg[k++] = '\\';
      arg[k++] = (*c >= 0x20 || *c < 0) ? *c : '?';
    }
    arg[k++] = '"';
    send_all(arg, k);
  }
  send_all("]}\n", 3);
}

/* Takes what the ring holds and writes it out; records it cannot deliver are dropped, and so are
 * those still unsent at `deadline` (0: none). Under g_drain. */
static size_t drain(uint64_t deadline) {
  char out[1 << 16];
  size_t used = 0, taken = 0, batch = 0;
  int late = 0;
  for (;;) {
    /* The reporter leaves the rest to the exit's drain, which has a deadline. */
    if (deadline == 0 && (taken & 255) == 255 && atomic_load_explicit(&g_stop, memory_order_relaxed)) break;
    pt_slot *slot = &g_ring[g_tail & PT_MASK];
    uint64_t seq = atomic_load_explicit(&slot->seq, memory_order_acquire);
    if (seq != g_tail + 1) break;
    pt_event e = slot->event;
    atomic_store_explicit(&slot->seq, g_tail + PT_CAP, memory_order_release);
    g_tail++;
    taken++;
    if (deadline != 0 && !late && (taken & 255) == 0) late = pt_now() > deadline;
    if (g_fd < 0 || late) {
      atomic_fetch_add(&g_dropped_shared, 1);
      continue;
    }
    if (used > sizeof out - 512) {
      if (send_all(out, used) != 0) atomic_fetch_add(&g_dropped_shared, batch);
      used = 0;
      batch = 0;
    }
    batch++;
    used += (size_t)snprintf(out + used, sizeof out - used, "T %s %llu %d %llu %llu 0x%llx", e.fn, (unsigned long long)e.tid, e.ret,
                             (unsigned long long)e.start_ns, (unsigned long long)e.duration_ns, (unsigned long long)e.site);
    for (int i = 0; i < e.words; i++) used += (size_t)snprintf(out + used, sizeof out - used, " 0x%llx", (unsigned long long)e.word[i]);
    out[used++] = '\n';
  }
  if (used > 0 && send_all(out, used) != 0) atomic_fetch_add(&g_dropped_shared, batch);
  return taken;
}

static void *reporter(void *arg) {
  (void)arg;
  while (!atomic_load(&g_stop)) {
    pthread_mutex_lock(&g_drain);
    size_t taken = drain(0);
    pthread_mutex_unlock(&g_drain);
    if (taken == 0) {
      struct timespec pause = {0, 200000}; /* an empty ring: look again in 0.2 ms */
      nanosleep(&pause, NULL);
    }
  }
  return NULL;
}

static void start(void) {
  for (uint64_t i = 0; i < PT_CAP; i++) atomic_init(&g_ring[i].seq, i);
  connect_agent();
  pthread_t thread;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_create(&thread, &attr, reporter, NULL);
  pthread_attr_destroy(&attr);
  atomic_store(&g_ready, 1);
}

void pt_drop(void) {
  pt_counter *c = t_counter;
  if (c == NULL) c = t_counter = own_counter();
  if (c == NULL) {
    atomic_fetch_add_explicit(&g_dropped_shared, 1, memory_order_relaxed);
    return;
  }
  /* Only this thread writes its counter: a plain load and store, no locked instruction. */
  atomic_store_explicit(&c->count, atomic_load_explicit(&c->count, memory_order_relaxed) + 1, memory_order_relaxed);
}

int pt_full(void) {
  if (!atomic_load_explicit(&g_ready, memory_order_acquire)) return 0; /* the first record starts the reporter */
  uint64_t pos = atomic_load_explicit(&g_head, memory_order_relaxed);
  uint64_t seq = atomic_load_explicit(&g_ring[pos & PT_MASK].seq, memory_order_acquire);
  return (int64_t)seq - (int64_t)pos < 0;
}

void pt_record(const pt_event *event) {
  if (!atomic_load_explicit(&g_ready, memory_order_acquire)) pthread_once(&g_once, start);
  uint64_t pos = atomic_load_explicit(&g_head, memory_order_relaxed);
  for (;;) {
    pt_slot *slot = &g_ring[pos & PT_MASK];
    uint64_t seq = atomic_load_explicit(&slot->seq, memory_order_acquire);
    int64_t diff = (int64_t)seq - (int64_t)pos;
    if (diff == 0) {
      if (atomic_compare_exchange_weak_explicit(&g_head, &pos, pos + 1, memory_order_relaxed, memory_order_relaxed)) {
        slot->event = *event;
        atomic_store_explicit(&slot->seq, pos + 1, memory_order_release);
        return;
      }
    } else if (diff < 0) {
      pt_drop(); /* full: the program does not wait */
      return;
    } else {
      pos = atomic_load_explicit(&g_head, memory_order_relaxed);
    }
  }
}

/* At exit: what is left in the ring, then the dropped count, so the agent can say every record arrived or was counted. */
__attribute__((destructor)) static void finish(void) {
  if (!atomic_load(&g_ready)) return;
  atomic_store(&g_stop, 1);
  pthread_mutex_lock(&g_drain);
  /* The agent reads a flood of records at its own pace (run/ingest-budget.ts): what it has not
   * taken within PT_EXIT_MS is counted as dropped rather than holding the program's exit. */
  drain(pt_now() + PT_EXIT_MS * 1000000ull);
  char line[64];
  int n = snprintf(line, sizeof line, "D %llu\n", (unsigned long long)dropped_total());
  send_all(line, (size_t)n);
  pthread_mutex_unlock(&g_drain);
}
