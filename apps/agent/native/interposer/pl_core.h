/*
 * PageLens interposer (simulation mode): the pieces every generated stub uses.
 *
 * A stub writes its call as one JSON line into a pl_msg, pl_roundtrip() sends it over the Unix
 * socket the agent gave in $PAGELENS_SOCKET and reads the one-line answer: the aclError, then one
 * token per out-parameter in the catalogue's order ("-" when the call did not write it).
 * Plain C99 plus POSIX; no allocation on the call path beyond the message buffer.
 */
#ifndef PAGELENS_PL_CORE_H
#define PAGELENS_PL_CORE_H

#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"

typedef struct pl_msg {
  char *data;
  size_t len;
  size_t cap;
  int first; /* no comma before the next key */
} pl_msg;

typedef struct pl_reply {
  int ret;
  const char *cursor; /* the next out-token */
} pl_reply;

/* Message building. */
void pl_begin(pl_msg *m, const char *fn, const void *site);
void pl_key(pl_msg *m, const char *key);
void pl_raw(pl_msg *m, const char *text);
void pl_i64(pl_msg *m, int64_t value);
void pl_u64(pl_msg *m, uint64_t value);
void pl_ptr(pl_msg *m, const void *value);
void pl_str(pl_msg *m, const char *text); /* JSON string, or null for NULL */
void pl_open(pl_msg *m, char bracket);    /* '{' or '[' */
void pl_close(pl_msg *m, char bracket);
void pl_comma(pl_msg *m);

/* Sends the message (args object closed here) and parses the aclError. 0 on success of the
 * transport; otherwise r->ret holds the code to return (the agent could not be reached). */
int pl_roundtrip(pl_msg *m, pl_reply *r);

/* Out-token readers: each returns 0 when the token was "-" (not written) and leaves *out alone. */
int pl_next_i64(pl_reply *r, int64_t *out);
int pl_next_u64(pl_reply *r, uint64_t *out);
int pl_next_f32(pl_reply *r, float *out);
/* A hex-encoded string: copied into buf (cap bytes, NUL-terminated). */
int pl_next_text(pl_reply *r, char *buf, size_t cap);
/* A hex-encoded string into a per-thread buffer (for the functions that return const char*). */
const char *pl_next_text_tls(pl_reply *r, int slot);

/* Functions outside the catalogue: reported to the agent once each, answer 207000. */
aclError pl_not_modeled(const char *fn, const void *site);

/* Data movement (pl_data.c): run after the simulator accepted a call. */
void pl_post_malloc(void *devPtr, size_t size);
void pl_post_free(void *devPtr);
void pl_post_memcpy(void *dst, const void *src, size_t count);
void pl_post_memset(void *dst, int32_t value, size_t count);
void pl_post_memcpy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height);
void pl_post_value_write(void *devAddr, uint64_t value);
/* Whether an address lies in the simulator's device VA (DEVICE_VA_BASE ... + 8 TiB, VM-5). */
int pl_is_device(const void *addr);

/* The largest array a message carries; longer lists are cut (the simulator then refuses). */
#define PL_MAX_LIST 4096

#endif
