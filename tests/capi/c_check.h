/* CHECK for the plain C ARMCI programs: a failed condition is printed with its rank and counted;
 * the program reduces `failures` over all ranks and exits nonzero if any rank failed. */
#ifndef ARMADA_CAPI_C_CHECK_H
#define ARMADA_CAPI_C_CHECK_H

#include <limits.h>
#include <message.h>

#include "counted_check.h"

static int failures = 0;
#define CHECK(cond) COUNTED_CHECK(cond, #cond, armci_msg_me(), failures, INT_MAX)

#endif
