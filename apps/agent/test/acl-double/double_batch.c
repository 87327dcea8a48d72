/*
 * Batched copies (CP-11) and stream value tasks (CP-12) of the ACL test double, runtime-api.md
 * section 6. TEST DOUBLE, not hardware: the double runs every task at once, so a copy is done and a
 * value written when the call returns, and a wait is only checked, never held (on hardware the
 * stream would wait until the word meets the condition). Built with -DNO_NEW_API these symbols
 * are left out, like a CANN before them (batch copies: master only; value tasks: A2/A3 only).
 */
#define _GNU_SOURCE
#include <string.h>

#include "double_internal.h"

#ifndef NO_NEW_API
/* The location the runtime sees for [p, p + n): device memory names its device; anything else is host memory. */
static int device_of(uintptr_t p, size_t n) {
  if (!is_device_range(p, n)) return -1;
  struct block *b = find_block_containing(p);
  if (b != NULL) return b->device;
  struct mapping *m = find_mapping_containing(p);
  return m == NULL ? -1 : m->phys->device;
}

/* CheckMemCpyAttr: the declared location must be the memory's (HOST_NUMA counts as HOST; a device location names its device). */
static int location_matches(const aclrtMemLocation *declared, int device) {
  unsigned type = (unsigned)declared->type == ACL_MEM_LOCATION_TYPE_HOST_NUMA ? ACL_MEM_LOCATION_TYPE_HOST : (unsigned)declared->type;
  if (device < 0) return type == ACL_MEM_LOCATION_TYPE_HOST;
  return type == ACL_MEM_LOCATION_TYPE_DEVICE && declared->id == (uint32_t)device;
}

/* ValidateMemcpyBatchParams: the runs' own shape (107000). */
static int bad_runs(size_t numBatches, const size_t *attrsIndexes, size_t numAttrs) {
  if (numAttrs == 0 || numAttrs > numBatches || attrsIndexes[0] != 0) return 1;
  for (size_t k = 1; k < numAttrs; k++)
    if (attrsIndexes[k] <= attrsIndexes[k - 1] || attrsIndexes[k] >= numBatches) return 1;
  return 0;
}

/*
 * CP-11. The ACL layer: sizes NULL, numBatches 0 or failIndex NULL -> 100000; every size 0 -> 0
 * with failIndex SIZE_MAX and nothing else checked; then NULL arrays, sizes[i] > destMaxs[i] and
 * non-zero rsv -> 100000. The runtime sets failIndex to SIZE_MAX, checks the runs (107000), then
 * each copy's locations against its run and its direction (107000, failIndex = the copy). Nothing
 * is copied unless every copy passes.
 */
static aclError batch(const char *name, void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                      aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs, size_t *failIndex, int async,
                      aclrtStream stream) {
  call_t c;
  call_begin(&c, name);
  arg_ptrs(&c, "dsts", dsts, numBatches);
  arg_sizes(&c, "destMaxs", destMaxs, numBatches);
  arg_ptrs(&c, "srcs", srcs, numBatches);
  arg_sizes(&c, "sizes", sizes, numBatches);
  arg_u64(&c, "numBatches", numBatches);
  arg_batch_attrs(&c, "attrs", attrs, numAttrs);
  arg_sizes(&c, "attrsIndexes", attrsIndexes, numAttrs);
  arg_u64(&c, "numAttrs", numAttrs);
  arg_ptr(&c, "failIndex", failIndex);
  if (async) arg_ptr(&c, "stream", stream);
  aclError inj = injected_failure(name);
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  if (sizes == NULL || numBatches == 0 || failIndex == NULL)
    return call_fail(&c, 100000, "sizes, numBatches and failIndex must be given (CP-11)");
  int moves = 0;
  for (size_t i = 0; i < numBatches; i++) moves |= sizes[i] != 0;
  if (!moves) {
    *failIndex = SIZE_MAX;
    out_u64(&c, "failIndex", SIZE_MAX);
    return call_end(&c, 0);
  }
  if (dsts == NULL || destMaxs == NULL || srcs == NULL || attrs == NULL || attrsIndexes == NULL)
    return call_fail(&c, 100000, "a NULL array (CP-11)");
  for (size_t i = 0; i < numBatches; i++)
    if (sizes[i] > destMaxs[i]) return call_fail(&c, 100000, "sizes[%zu] %zu is larger than destMaxs[%zu] %zu (CP-11)", i, sizes[i], i, destMaxs[i]);
  for (size_t k = 0; k < numAttrs; k++)
    for (int b = 0; b < 16; b++)
      if (attrs[k].rsv[b] != 0) return call_fail(&c, 100000, "attrs[%zu].rsv must be all zero (CP-11)", k);
  pthread_mutex_lock(&g_lock);
  aclError ret = need_context(NULL);
  struct context *cur = ret == 0 ? current_context() : NULL;
  if (ret == 0 && async) {
    struct stream *on = resolve_stream(stream, cur);
    if (on == NULL) ret = 107000;
    else if (on->ctx != cur) ret = 107003;
  }
  size_t failed = SIZE_MAX;
  int wrote = ret == 0;
  if (ret == 0) {
    *failIndex = SIZE_MAX;
    if (bad_runs(numBatches, attrsIndexes, numAttrs)) ret = 107000;
  }
  for (size_t i = 0, run = 0; ret == 0 && i < numBatches; i++) {
    if (run + 1 < numAttrs && i >= attrsIndexes[run + 1]) run += 1;
    size_t span = sizes[i] == 0 ? 1 : sizes[i];
    uintptr_t dst = (uintptr_t)dsts[i], src = (uintptr_t)srcs[i];
    int dst_device = device_of(dst, span), src_device = device_of(src, span);
    struct block *fake_d = find_block_containing(dst), *fake_s = find_block_containing(src);
    int fake = (fake_d != NULL && fake_d->kind == BLOCK_FAKE) || (fake_s != NULL && fake_s->kind == BLOCK_FAKE);
    if (dst == 0 || src == 0 || fake || !location_matches(&attrs[run].dstLoc, dst_device) ||
        !location_matches(&attrs[run].srcLoc, src_device) || (dst_device < 0) == (src_device < 0)) {
      failed = i;
      *failIndex = i;
      ret = 107000;
    }
  }
  pthread_mutex_unlock(&g_lock);
  if (ret != 0) {
    /* The runtime wrote failIndex once it got this far (SIZE_MAX, or the copy that failed). */
    if (wrote) out_u64(&c, "failIndex", failed);
    if (failed != SIZE_MAX) return call_fail(&c, ret, "copy %zu: its locations do not match attribute run or memory (CP-11)", failed);
    return call_fail(&c, ret, "refused batch of %zu copies (CP-11)", numBatches);
  }
  aclError held = delay_copy();
  if (held != 0) return call_fail(&c, held, "the test never released this copy (ACL_DOUBLE_COPY_RELEASE)");
  for (size_t i = 0; i < numBatches; i++)
    if (sizes[i] > 0) memcpy(dsts[i], srcs[i], sizes[i]);
  out_u64(&c, "failIndex", SIZE_MAX);
  return call_end(&c, 0);
}

aclError aclrtMemcpyBatch(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches, aclrtMemcpyBatchAttr *attrs,
                          size_t *attrsIndexes, size_t numAttrs, size_t *failIndex) {
  return batch("aclrtMemcpyBatch", dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex, 0, NULL);
}

aclError aclrtMemcpyBatchAsync(void **dsts, size_t *destMaxs, void **srcs, size_t *sizes, size_t numBatches,
                               aclrtMemcpyBatchAttr *attrs, size_t *attrsIndexes, size_t numAttrs, size_t *failIndex,
                               aclrtStream stream) {
  return batch("aclrtMemcpyBatchAsync", dsts, destMaxs, srcs, sizes, numBatches, attrs, attrsIndexes, numAttrs, failIndex, 1, stream);
}

/* CP-12: the word at devAddr (device memory, 8-byte aligned) and a usable stream of the current context; 0 or the code. */
static aclError value_target(void *devAddr, aclrtStream stream) {
  aclError ret = need_context(NULL);
  if (ret != 0) return ret;
  if (devAddr == NULL) return 100000;
  if ((uintptr_t)devAddr % 8 != 0) return 107000;
  if (!is_device_range((uintptr_t)devAddr, 8)) return 100000;
  struct context *cur = current_context();
  struct stream *on = resolve_stream(stream, cur);
  if (on == NULL) return 107000;
  return on->ctx == cur ? 0 : 107003;
}

/* CP-12: stores the 64-bit value at devAddr (the double's task runs at once). flag is reserved: not 0 -> 100000. */
aclError aclrtValueWrite(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  call_t c;
  call_begin(&c, "aclrtValueWrite");
  arg_ptr(&c, "devAddr", devAddr);
  arg_u64(&c, "value", value);
  arg_u64(&c, "flag", flag);
  arg_ptr(&c, "stream", stream);
  aclError inj = injected_failure("aclrtValueWrite");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = value_target(devAddr, stream);
  if (ret == 0 && flag != 0) ret = 100000;
  if (ret == 0) *(volatile uint64_t *)devAddr = value;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot write the word at %p (CP-12)", devAddr);
}

/*
 * CP-12: a wait on the word at devAddr; flag is one of ACL_STREAM_WAIT_VALUE_* (else 100000). The
 * double does not hold a stream: it answers 0 whether or not the word meets the condition now.
 */
aclError aclrtValueWait(void *devAddr, uint64_t value, uint32_t flag, aclrtStream stream) {
  call_t c;
  call_begin(&c, "aclrtValueWait");
  arg_ptr(&c, "devAddr", devAddr);
  arg_u64(&c, "value", value);
  arg_u64(&c, "flag", flag);
  arg_ptr(&c, "stream", stream);
  aclError inj = injected_failure("aclrtValueWait");
  if (inj != 0) return call_fail(&c, inj, "injected %d", inj);
  pthread_mutex_lock(&g_lock);
  aclError ret = value_target(devAddr, stream);
  if (ret == 0 && flag > ACL_STREAM_WAIT_VALUE_NOR) ret = 100000;
  pthread_mutex_unlock(&g_lock);
  return ret == 0 ? call_end(&c, 0) : call_fail(&c, ret, "cannot wait on the word at %p (CP-12)", devAddr);
}
#endif
