/* The C side of the Fortran tests: reads a whole array through the arrays C API's C view
 * (zero-based, row-major, dimensions reversed) and checks that every element holds the value
 * the Fortran test wrote at its Fortran index: element (i1, ..., in) holds
 * i1 + 10 i2 + 100 i3 + ...  In the C view that element is [in - 1] ... [i1 - 1]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "armada/arrays/c_api.h"

/* Number of elements of double array `handle` that are not where the Fortran view put them
 * (-1 if the array cannot be read). */
int c_view_mismatches(int handle) {
  int type = -1, ndim = 0;
  int64_t dims[ARMADA_GA_MAX_DIM];
  if (armada_ga_inquire(handle, &type, &ndim, dims) != ARMADA_GA_OK || type != ARMADA_GA_DOUBLE) return -1;
  int64_t lo[ARMADA_GA_MAX_DIM] = {0}, count = 1;
  for (int d = 0; d < ndim; ++d) count *= dims[d];
  double* all = malloc((size_t)count * sizeof *all);
  if (!all || armada_ga_get(handle, lo, dims, all, NULL) != ARMADA_GA_OK) {
    fprintf(stderr, "c_view_mismatches: %s\n", armada_ga_error_message());
    free(all);
    return -1;
  }
  int bad = 0;
  int64_t index[ARMADA_GA_MAX_DIM] = {0};  /* C-view index, last dimension fastest */
  for (int64_t k = 0; k < count; ++k) {
    double expected = 0, weight = 1;
    for (int f = 0; f < ndim; ++f) {  /* Fortran dimension f is C dimension ndim - 1 - f */
      expected += (double)(index[ndim - 1 - f] + 1) * weight;
      weight *= 10;
    }
    if (all[k] != expected) ++bad;
    for (int d = ndim - 1; d >= 0; --d) {  /* next row-major index */
      if (++index[d] < dims[d]) break;
      index[d] = 0;
    }
  }
  free(all);
  return bad;
}
