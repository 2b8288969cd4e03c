/* The check the C test programs share: a failed condition is printed with its rank, file and line
 * and counted in `counter` (after `quiet_after` failures only counted); the program reduces the
 * count over all ranks for its exit code. c_check.h and ga/ga_check.h define CHECK with it. */
#ifndef ARMADA_CAPI_COUNTED_CHECK_H
#define ARMADA_CAPI_COUNTED_CHECK_H

#include <stdio.h>

#define COUNTED_CHECK(cond, text, rank, counter, quiet_after)                                       \
  do {                                                                                              \
    if (!(cond)) {                                                                                  \
      if ((counter) < (quiet_after))                                                                \
        fprintf(stderr, "[rank %d] %s:%d: check failed: %s\n", (rank), __FILE__, __LINE__, (text)); \
      ++(counter);                                                                                  \
    }                                                                                               \
  } while (0)

#endif
