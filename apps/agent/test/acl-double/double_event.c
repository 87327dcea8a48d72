/*
 * aclrtEvents of the ACL test double (EV-1 … EV-6, runtime-api.md §5). TEST DOUBLE, not hardware.
 * The double runs every task at once, so a recorded event is complete when aclrtRecordEvent
 * returns, and its timestamp is the host's CLOCK_MONOTONIC at that moment.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <time.h>

#include "double_internal.h"

/* aclrtCreateEvent's flags: the runtime's default 0x0E (timestamped, waitable). */
#define DEFAULT_EVENT_FLAGS 0x0eu
#define WITH_FLAG_BITS 0x3fu
#define EX_FLAG_BITS (ACL_EVENT_SYNC | ACL_EVENT_CAPTURE_STREAM_PROGRESS | 0x04u | ACL_EVENT_TIME_LINE | ACL_EVENT_IPC)
#define WAITABLE_BITS (ACL_EVENT_SYNC | 0x04u | ACL_EVENT_EXTERNAL | ACL_EVENT_IPC)

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void release_events(int device) {
  for (struct event **e = &g.events; *e != NULL;) {
    if (device < 0 || (*e)->device == device) {
      struct event *dead = *e;
      *e = dead->next;
      free(dead);
    } else {
      e = &(*e)->next;
    }
  }
}

static struct event *live_event(aclrtEvent event) {
  if (event == NULL) return NULL;
  for (struct event *e = g.events; e != NULL; e = e->next)
    if (e == event) return e;
  return NULL;
}

static int alone_violated(uint32_t flag, uint32_t bit) { return (flag & bit) != 0 && flag != bit; }

/* EV-1: the flag checks of ApiErrorDecorator::EventCreate; 0 when the flag is accepted. */
static int bad_flag(uint32_t flag, int ex) {
  if (ex) return flag == 0 || (flag & ~EX_FLAG_BITS) != 0 || alone_violated(flag, ACL_EVENT_IPC);
  return flag == 0 || (flag & ~WITH_FLAG_BITS) != 0 || alone_violated(flag, ACL_EVENT_DEVICE_USE_ONLY) ||
         alone_violated(flag, ACL_EVENT_EXTERNAL);
}

static aclError create_event(const char *fn, aclrtEvent *event, int with_flag, uint32_t flag, int ex) {
  call_t c;
  call_begin(&c, fn);
  arg_ptr(&c, "event", event);
  if (with_flag) arg_u64(&c, "flag", flag);
  aclError inj = injected_failure(fn);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  struct event *e = NULL;
  if (ret == 0 && event == NULL) ret = 100000;
  if (ret == 0 && bad_flag(flag, ex)) ret = 107000;
  if (ret == 0 && (e = calloc(1, sizeof *e)) == NULL) ret = 207001;
  if (ret == 0) {
    /* The event belongs to the current context (CX-3). */
    e->ctx = current_context();
    e->device = e->ctx->device;
    e->flag = flag;
    e->ex = ex;
    e->next = g.events;
    g.events = e;
    *event = e;
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot create an event with flag 0x%x (EV-1)", flag);
  out_ptr(&c, "event", e);
  return call_end(&c, 0);
}

aclError aclrtCreateEvent(aclrtEvent *event) { return create_event("aclrtCreateEvent", event, 0, DEFAULT_EVENT_FLAGS, 0); }
aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag) {
  return create_event("aclrtCreateEventWithFlag", event, 1, flag, 0);
}
aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag) {
  return create_event("aclrtCreateEventExWithFlag", event, 1, flag, 1);
}

/* The event and the stream of the current context a call names, or the code to answer. */
static aclError event_on_stream(aclrtEvent event, aclrtStream stream, struct event **found, struct stream **on) {
  aclError ret = need_context(NULL);
  if (ret != 0) return ret;
  if ((*found = live_event(event)) == NULL) return 100000;
  struct context *cur = current_context();
  if ((*on = resolve_stream(stream, cur)) == NULL) return 107000;
  return (*on)->ctx == cur ? 0 : 107003;
}

/* EV-2: captures the stream's work so far, which the double has already done. */
aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) {
  call_t c;
  call_begin(&c, "aclrtRecordEvent");
  arg_ptr(&c, "event", event);
  arg_ptr(&c, "stream", stream);
  pthread_mutex_lock(&g_lock);
  struct event *e = NULL;
  struct stream *s = NULL;
  aclError ret = event_on_stream(event, stream, &e, &s);
  if (ret == 0) {
    e->recorded = 1;
    e->recorded_ns = now_ns();
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot record the event (CX-3)");
}

/* EV-3: the event needs SYNC, 0x04, EXTERNAL or IPC (207000 otherwise). */
aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) {
  call_t c;
  call_begin(&c, "aclrtStreamWaitEvent");
  arg_ptr(&c, "stream", stream);
  arg_ptr(&c, "event", event);
  pthread_mutex_lock(&g_lock);
  struct event *e = NULL;
  struct stream *s = NULL;
  aclError ret = event_on_stream(event, stream, &e, &s);
  if (ret == 0 && (e->flag & WAITABLE_BITS) == 0) ret = 207000;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "the stream cannot wait on this event (CX-3, EV-3)");
}

static aclError synchronize_event(call_t *c, aclrtEvent event, int check_timeout, int32_t timeout) {
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  if (ret == 0 && check_timeout && (timeout == 0 || timeout < -1)) ret = 107000;
  if (ret == 0 && live_event(event) == NULL) ret = 100000;
  pthread_mutex_unlock(&g_lock);
  /* Recorded work is already done, and an event never recorded has nothing to wait for (EV-4). */
  return ret == 0 ? call_end(c, 0) : call_fail(c, ret, "cannot synchronize the event (EV-4, CP-5)");
}

aclError aclrtSynchronizeEvent(aclrtEvent event) {
  call_t c;
  call_begin(&c, "aclrtSynchronizeEvent");
  arg_ptr(&c, "event", event);
  return synchronize_event(&c, event, 0, -1);
}

aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout) {
  call_t c;
  call_begin(&c, "aclrtSynchronizeEventWithTimeout");
  arg_ptr(&c, "event", event);
  arg_i64(&c, "timeout", timeout);
  return synchronize_event(&c, event, 1, timeout);
}

/* EV-4: COMPLETE (1) once recorded; never recorded: COMPLETE for Ex events, NOT_READY (0) for the others. */
aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status) {
  call_t c;
  call_begin(&c, "aclrtQueryEventStatus");
  arg_ptr(&c, "event", event);
  arg_ptr(&c, "status", status);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  struct event *e = NULL;
  if (ret == 0 && (status == NULL || (e = live_event(event)) == NULL)) ret = 100000;
  if (ret == 0 && e->flag == ACL_EVENT_EXTERNAL) ret = 207000;
  aclrtEventRecordedStatus value = ACL_EVENT_RECORDED_STATUS_NOT_READY;
  if (ret == 0 && (e->recorded || e->ex)) value = ACL_EVENT_RECORDED_STATUS_COMPLETE;
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "cannot query the event");
  *status = value;
  out_u64(&c, "status", value);
  return call_end(&c, 0);
}

/* EV-5: back to never recorded; Ex events cannot be reset (207000). */
aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream) {
  call_t c;
  call_begin(&c, "aclrtResetEvent");
  arg_ptr(&c, "event", event);
  arg_ptr(&c, "stream", stream);
  pthread_mutex_lock(&g_lock);
  struct event *e = NULL;
  struct stream *s = NULL;
  aclError ret = need_context(NULL);
  if (ret == 0 && (e = live_event(event)) == NULL) ret = 100000;
  if (ret == 0 && e->ex) ret = 207000;
  if (ret == 0) ret = event_on_stream(event, stream, &e, &s);
  if (ret == 0) e->recorded = 0;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot reset the event (CX-3, EV-5)");
}

aclError aclrtDestroyEvent(aclrtEvent event) {
  call_t c;
  call_begin(&c, "aclrtDestroyEvent");
  arg_ptr(&c, "event", event);
  pthread_mutex_lock(&g_lock);
  aclError ret = g.initialized ? 0 : 100001;
  if (ret == 0 && live_event(event) == NULL) ret = 100000;
  if (ret == 0) {
    for (struct event **e = &g.events; *e != NULL; e = &(*e)->next) {
      if (*e == event) {
        struct event *dead = *e;
        *e = dead->next;
        free(dead);
        break;
      }
    }
  }
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "not a live event");
}

/* EV-6: never recorded → 507000; no ACL_EVENT_TIME_LINE → 107006. Call with g_lock held. */
static aclError timestamp_of(aclrtEvent event, uint64_t *ns) {
  struct event *e = live_event(event);
  if (e == NULL) return 100000;
  if (!e->recorded) return 507000;
  if ((e->flag & ACL_EVENT_TIME_LINE) == 0) return 107006;
  *ns = e->recorded_ns;
  return 0;
}

aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent) {
  call_t c;
  call_begin(&c, "aclrtEventElapsedTime");
  arg_ptr(&c, "ms", ms);
  arg_ptr(&c, "startEvent", startEvent);
  arg_ptr(&c, "endEvent", endEvent);
  pthread_mutex_lock(&g_lock);
  uint64_t from = 0;
  uint64_t to = 0;
  aclError ret = g.initialized ? 0 : 100001;
  if (ret == 0 && ms == NULL) ret = 100000;
  if (ret == 0) ret = timestamp_of(startEvent, &from);
  if (ret == 0) ret = timestamp_of(endEvent, &to);
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "no elapsed time between these events (EV-6)");
  *ms = (float)(((double)to - (double)from) / 1e6);
  out_f64(&c, "ms", *ms);
  return call_end(&c, 0);
}

/* EV-6: µs; the double's clock is the host's CLOCK_MONOTONIC, not a device counter. */
aclError aclrtEventGetTimestamp(aclrtEvent event, uint64_t *timestamp) {
  call_t c;
  call_begin(&c, "aclrtEventGetTimestamp");
  arg_ptr(&c, "event", event);
  arg_ptr(&c, "timestamp", timestamp);
  pthread_mutex_lock(&g_lock);
  uint64_t ns = 0;
  aclError ret = g.initialized ? 0 : 100001;
  if (ret == 0 && timestamp == NULL) ret = 100000;
  if (ret == 0) ret = timestamp_of(event, &ns);
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) return call_fail(&c, ret, "no timestamp for this event (EV-6)");
  *timestamp = ns / 1000u;
  out_u64(&c, "timestamp", *timestamp);
  return call_end(&c, 0);
}
