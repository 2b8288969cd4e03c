/* What the C examples share: stop on a failed call, and count wrong results over all ranks. */
#ifndef ARMADA_EXAMPLE_C_H
#define ARMADA_EXAMPLE_C_H

#include <stdio.h>
#include <stdlib.h>

#include <armada/arrays/c_api.h>

/* Every C API call returns a code; on an error print the message (it names the function, the
 * argument and its value) and stop. */
#define CALL(expr)                                                                          \
  do {                                                                                      \
    int code_ = (expr);                                                                     \
    if (code_ != ARMADA_GA_OK) {                                                            \
      fprintf(stderr, "%s:%d: %s failed (%d): %s\n", __FILE__, __LINE__, #expr, code_,      \
              armada_ga_error_message());                                                   \
      exit(1);                                                                              \
    }                                                                                       \
  } while (0)

/* The sum of every rank's `wrong`, through a one-element array (collective over the world). */
static long total_wrong(long wrong) {
  int counts;
  int64_t one[1] = {1}, zero[1] = {0};
  long alpha = 1, total = 0;
  CALL(armada_ga_create(ARMADA_GA_LONG, 1, one, "wrong results", NULL, &counts));
  CALL(armada_ga_zero(counts));
  CALL(armada_ga_acc(counts, zero, one, &wrong, NULL, &alpha));
  CALL(armada_ga_sync());
  CALL(armada_ga_get(counts, zero, one, &total, NULL));
  CALL(armada_ga_destroy(counts));
  return total;
}

#endif
