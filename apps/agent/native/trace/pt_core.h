/*
 * PageLens trace mode: preloaded in front of the real ACL library, each catalogue function calls
 * the real one (dlsym(RTLD_NEXT)) and leaves a record in a bounded lock-free ring; a reporter
 * thread drains the ring to the agent. The calling thread never waits on the agent: when the ring
 * is full the record is counted as dropped and the program runs on.
 */
#ifndef PAGELENS_PT_CORE_H
#define PAGELENS_PT_CORE_H

#include <stdint.h>

#define PT_WORDS 12

typedef struct pt_event {
  const char *fn;
  int32_t ret;
  int32_t words;
  uint64_t tid;
  uint64_t start_ns;
  uint64_t duration_ns;
  uint64_t site;
  uint64_t word[PT_WORDS];
} pt_event;

void *pt_resolve(const char *name);
uint64_t pt_now(void);
uint64_t pt_tid(void);
void pt_record(const pt_event *event);
/* Whether the ring is full now: a call that starts then is counted as dropped up front (pt_drop)
 * and goes straight to the real function, without the clock reads its record would have needed. */
int pt_full(void);
void pt_drop(void);

#endif
