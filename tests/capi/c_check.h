/* CHECK for the plain C ARMCI programs: a failed condition is printed with its rank and counted;
 * the program reduces `failures` over all ranks and exits nonzero if any rank failed. */
#ifndef ARMADA_CAPI_C_CHECK_H
#define ARMADA_CAPI_C_CHECK_H

#include <message.h>
#include <stdio.h>

static int failures = 0;
#define CHECK(cond)                                                                                  \
  do {                                                                                               \
    if (!(cond)) {                                                                                   \
      fprintf(stderr, "[rank %d] %s:%d: check failed: %s\n", armci_msg_me(), __FILE__, __LINE__, #cond); \
      ++failures;                                                                                    \
    }                                                                                                \
  } while (0)

#endif
