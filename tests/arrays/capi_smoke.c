/* The C API from C: create, put, get, read_inc, error code and message, destroy.
 * Returns 0 on success, or the number of the failed step. */
#include <string.h>

#include "armada/arrays/c_api.h"

int arrays_capi_c_smoke(int rank) {
  int64_t dims[2] = {5, 4}, lo[2] = {1, 1}, hi[2] = {3, 4}, bad_hi[2] = {3, 5};
  double buf[6] = {1, 2, 3, 4, 5, 6}, out[6] = {0};
  int g = -1;
  if (armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "c_array", NULL, &g) != ARMADA_GA_OK) return 1;
  if (rank == 0 && armada_ga_put(g, lo, hi, buf, NULL) != ARMADA_GA_OK) return 2;
  if (armada_ga_sync_group(g) != ARMADA_GA_OK) return 3;
  if (armada_ga_get(g, lo, hi, out, NULL) != ARMADA_GA_OK) return 4;
  if (memcmp(buf, out, sizeof buf) != 0) return 5;
  if (armada_ga_get(g, lo, bad_hi, out, NULL) != ARMADA_GA_ERR_ARG) return 6;
  if (strstr(armada_ga_error_message(), "hi[1] = 5") == NULL) return 7;
  if (armada_ga_sync() != ARMADA_GA_OK) return 8; /* the world: GA_Sync */
  if (armada_ga_destroy(g) != ARMADA_GA_OK) return 9;
  if (armada_ga_get(g, lo, hi, out, NULL) != ARMADA_GA_ERR_HANDLE) return 10;
  return 0;
}
