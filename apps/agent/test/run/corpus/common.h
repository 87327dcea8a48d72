/* Helpers shared by the corpus programs: the error-check macros ACL samples use. */
#ifndef CORPUS_COMMON_H
#define CORPUS_COMMON_H
#include <stdio.h>
#include <stdlib.h>
#include "acl/acl.h"

#define CHECK_ACL(expr)                                                                 \
  do {                                                                                  \
    aclError check_ret_ = (expr);                                                       \
    if (check_ret_ != ACL_SUCCESS) {                                                    \
      fprintf(stderr, "%s:%d: %s failed with %d\n", __FILE__, __LINE__, #expr, check_ret_); \
      exit(10);                                                                         \
    }                                                                                   \
  } while (0)

#define EXPECT(cond)                                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      fprintf(stderr, "%s:%d: expected %s\n", __FILE__, __LINE__, #cond);     \
      exit(11);                                                               \
    }                                                                         \
  } while (0)

#endif
