/*
 * Shared state of the PageLens ACL test double (see acl_double.h). TEST DOUBLE, not hardware.
 *
 * Every exported function logs its raw arguments, its out-values and its return code as one JSON
 * line (file named by $ACL_DOUBLE_LOG), so that tests can check what the koffi binding passed.
 * Knobs, read from the environment:
 *   ACL_DOUBLE_LOG=path             append one JSON line per call
 *   ACL_DOUBLE_FAIL=fn:code[,...]   every call of fn answers code and changes nothing
 *   ACL_DOUBLE_COPY_DELAY_MS=n      the copies (aclrtMemcpy, aclrtMemcpy2d, aclrtMemcpyBatch and their Async forms) and the
 *                                   memsets (aclrtMemset, aclrtMemsetAsync) sleep n ms first
 *   ACL_DOUBLE_HIGH_PTR=aclrtMalloc aclrtMalloc returns an unbacked pointer at or above 2^53
 *   ACL_DOUBLE_DEVICES, ACL_DOUBLE_SOC, ACL_DOUBLE_NORMAL_MB, ACL_DOUBLE_HUGE_MB, ACL_DOUBLE_GIANT_MB
 *                                   read by aclInit: device count, SoC name, pool sizes per device
 */
#ifndef PAGELENS_DOUBLE_INTERNAL_H
#define PAGELENS_DOUBLE_INTERNAL_H

#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_double.h"

/* Everything below is private to the library: only the ACL symbols of acl_double.h are exported. */
#pragma GCC visibility push(hidden)

#define MAX_DEVICES 8
#define KIB 1024ull
#define MIB (1024ull * KIB)
#define GIB (1024ull * MIB)
#define NORMAL_PAGE (4 * KIB)
#define HUGE_PAGE (2 * MIB)
#define GIANT_PAGE GIB
/* DM-3: aclrtMalloc adds this many bytes before rounding to 32 (the 910B padding). */
#define MALLOC_PAD 32

enum page_class { PC_NORMAL = 0, PC_HUGE = 1, PC_GIANT = 2 };
enum block_kind { BLOCK_DEVICE, BLOCK_FAKE, BLOCK_PINNED };

/* A device allocation (aclrtMalloc family) or pinned host memory (aclrtMallocHost family). */
struct block {
  struct block *next;
  enum block_kind kind;
  uintptr_t addr;
  size_t size;    /* bytes requested */
  size_t charged; /* bytes taken from the pool: whole pages */
  size_t padded;  /* size after the runtime's rounding and padding (DM-3): what aclrtMemGetAddressRange reports */
  int device;
  int page_class;
  void *base; /* what mmap returned, for munmap */
  size_t map_len;
  int va_flag;
};

/* An IPC key of a device allocation (IP-1): 64 characters and a NUL. */
#define IPC_KEY_LEN 65
struct ipc_key {
  struct ipc_key *next;
  char key[IPC_KEY_LEN];
  uintptr_t addr; /* the exported allocation's start */
  size_t size;
  uint64_t flags;
  int32_t *pids; /* the allow-list (IP-2) */
  size_t npids;
};

struct registration {
  struct registration *next;
  uintptr_t ptr;
  size_t size;
  uintptr_t dev;
  int mapped;
};

struct phys {
  struct phys *next;
  int fd;
  size_t size;
  int device;
  int page_class;
  int mappings;
  int freed;
  int retains; /* references taken with aclrtMemRetainAllocationHandle, each given back by one aclrtFreePhysical (VM-12) */
  uint64_t shareable;
};

struct reservation {
  struct reservation *next;
  uintptr_t addr;
  size_t size;
  void *base;
  size_t map_len;
  int device;
};

struct mapping {
  struct mapping *next;
  uintptr_t addr;
  size_t size;
  struct phys *phys;
  uint32_t access[MAX_DEVICES];
};

/* A stream, owned by the context current when it was made (CX-3). */
struct stream {
  struct stream *next;
  int device;
  struct context *ctx;
  int is_default; /* a context's own default stream: it goes with its context */
  uint32_t priority;
  uint32_t flag;
  int stop_on_failure; /* CP-7 */
};

struct device {
  int refs;
  unsigned generation; /* bumped when the context dies, so threads holding it notice */
  uint64_t total[3];
  uint64_t used[3];
  uint64_t peak[3]; /* the most each pool has held: aclrtGetMemUsageInfo's memPeakSize (DM-18) */
  int peers[MAX_DEVICES];
};

/*
 * A context: g.ctx[d] is device d's default (primary) one, alive while the device has references;
 * the others come from aclrtCreateContext and sit in g.contexts until destroyed or the device's
 * last reset. Each has a default stream (the primary's is the NULL stream to callers).
 */
struct context {
  struct context *next;
  int device;
  int primary;
  struct stream *default_stream;
};

/* An aclrtEvent: its context, flags, and when it was last recorded (the double's work is done at once). */
struct event {
  struct event *next;
  struct context *ctx;
  int device;
  uint32_t flag;
  int ex;
  int recorded;
  uint64_t recorded_ns; /* CLOCK_MONOTONIC */
};

struct state {
  int initialized;
  int devices;
  char soc[64];
  struct device dev[MAX_DEVICES];
  struct context ctx[MAX_DEVICES];
  struct block *blocks;
  struct registration *registrations;
  struct phys *physical;
  struct reservation *reservations;
  struct mapping *mappings;
  struct stream *streams;
  struct context *contexts; /* created ones */
  struct event *events;
  struct ipc_key *ipc_keys;
  uint64_t next_ipc;
  uint64_t next_fake;
  uint64_t next_shareable;
};

extern struct state g;
extern pthread_mutex_t g_lock;

/* One call being recorded. */
typedef struct {
  char *buf;
  size_t len;
  size_t cap;
  int off; /* no log to write: jb_printf does nothing */
} jbuf;

typedef struct {
  const char *fn;
  jbuf args;
  jbuf out;
  int logging; /* $ACL_DOUBLE_LOG named a file when the call began */
} call_t;

void jb_printf(jbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void call_begin(call_t *c, const char *fn);
void arg_ptr(call_t *c, const char *name, const void *p);
void arg_u64(call_t *c, const char *name, uint64_t v);
void arg_i64(call_t *c, const char *name, int64_t v);
void arg_str(call_t *c, const char *name, const char *s);
void arg_prop(call_t *c, const char *name, const aclrtPhysicalMemProp *prop);
void arg_location(call_t *c, const char *name, const aclrtMemLocation *location);
void arg_config(call_t *c, const char *name, const aclrtMallocConfig *cfg);
void arg_access(call_t *c, const char *name, const aclrtMemAccessDesc *desc, size_t count);
void arg_ints(call_t *c, const char *name, const int32_t *values, size_t count);
void arg_ptrs(call_t *c, const char *name, void *const *values, size_t count);
void arg_sizes(call_t *c, const char *name, const size_t *values, size_t count);
void arg_batch_attrs(call_t *c, const char *name, const aclrtMemcpyBatchAttr *attrs, size_t count);
void out_ptr(call_t *c, const char *name, const void *p);
void out_u64(call_t *c, const char *name, uint64_t v);
void out_i64(call_t *c, const char *name, int64_t v);
void out_str(call_t *c, const char *name, const char *s);
void out_f64(call_t *c, const char *name, double v);
void out_attributes(call_t *c, const char *name, const aclrtPtrAttributes *a);
void out_prop(call_t *c, const char *name, const aclrtPhysicalMemProp *prop);
void out_usage(call_t *c, const char *name, const aclrtMemUsageInfo *info, size_t count);

/* Writes the log line and returns ret. */
aclError call_end(call_t *c, aclError ret);
/* Records the message for aclGetRecentErrMsg, then ends the call with code. */
aclError call_fail(call_t *c, aclError code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The code ACL_DOUBLE_FAIL asks this call to answer, or 0. */
aclError injected_failure(const char *fn);
/* 0 when the calling thread has a live context; else the code to answer. Call with g_lock held. */
aclError need_context(int *device);
/* The calling thread's live current context, or NULL. Call with g_lock held. */
struct context *current_context(void);
/* Makes ctx current on the calling thread (NULL: none). Call with g_lock held. */
void make_context_current(struct context *ctx);
/* A context's default stream, allocated with it. Call with g_lock held. */
struct stream *new_stream(struct context *ctx, int is_default);
/* The stream `stream` names for the current context cur (NULL: its default stream), or NULL when not live. */
struct stream *resolve_stream(aclrtStream stream, struct context *cur);
void free_stream(struct stream *s);
void release_context_objects(struct context *ctx);
void release_events(int device); /* -1: all */
uint64_t env_u64(const char *name, uint64_t fallback);
aclError delay_copy(void);

uint64_t round_up(uint64_t value, uint64_t unit);
uint64_t page_bytes(int page_class);
uint64_t pool_free(int device, int page_class);
/* Keeps the pool's peak after its use grew (DM-18). Call with g_lock held. */
void note_peak(int device, int page_class);
/* Fresh host memory of `len` bytes aligned to `align`, lazily committed (mmap). */
void *map_aligned(size_t len, size_t align, void **base, size_t *map_len);
void release_block(struct block *b);
void release_device_objects(int device);
void release_everything(void);
/* IP-4: ends the IPC keys of the allocation at addr (0: every key). Call with g_lock held. */
void release_ipc_keys(uintptr_t addr);
struct block *find_block_containing(uintptr_t p);
struct mapping *find_mapping_containing(uintptr_t p);
int is_device_range(uintptr_t p, size_t n);
int is_pinned_range(uintptr_t p, size_t n);
void release_vmm_objects(void);
/* A physical handle that is live and not freed, or NULL. */
struct phys *live_phys(aclrtDrvMemHandle handle);

#pragma GCC visibility pop

#endif
