/* The C side of fortran_ma.F90: MA blocks of the Fortran types pushed and read from C through
 * macdecls.h, the same allocator the Fortran API calls. ARMADA_TEST_FINT is the program's
 * default INTEGER (int32_t or int64_t). */
#include <stdint.h>

#include "ga.h"
#include "macdecls.h"

typedef ARMADA_TEST_FINT fint;

/* Pushes n double precision elements (MT_F_DBL) from C, element k = k + 0.25. */
void c_push_fdbl_(const fint* n, fint* handle) {
  Integer h = -1;
  MA_AccessIndex index = 0;
  double* p = 0;
  if (!MA_push_get(MT_F_DBL, *n, "pushed from C", &h, &index) || !MA_get_pointer(h, &p)) return;
  for (fint k = 0; k < *n; ++k) p[k] = k + 0.25;
  *handle = (fint)h;
}

/* Allocates n INTEGERs (MT_F_INT: the Fortran side told MA their size) from C, element k = 3k. */
void c_alloc_fint_(const fint* n, fint* handle) {
  Integer h = -1;
  fint* p = 0;
  if (!MA_allocate_heap(MT_F_INT, *n, "allocated from C", &h) || !MA_get_pointer(h, &p)) return;
  for (fint k = 0; k < *n; ++k) p[k] = 3 * k;
  *handle = (fint)h;
}

/* C's index of a block, as Fortran counts it (GA's: the C index + 1). */
fint c_index_(const fint* handle) {
  MA_AccessIndex index = -1;
  MA_get_index(*handle, &index);
  return (fint)(index + 1);
}

/* The sum of the first n doubles of a block, read through C's pointer. */
double c_sum_(const fint* handle, const fint* n) {
  double* p = 0;
  double sum = 0;
  MA_get_pointer(*handle, &p);
  for (fint k = 0; k < *n; ++k) sum += p[k];
  return sum;
}

/* Bytes of an MT_F_INT element, as MA knows it. */
fint c_sizeof_fint_(void) { return (fint)MA_sizeof(MT_F_INT, 1, MT_C_CHAR); }

/* GA_Copy between patches of different shapes of F_INT arrays (8-byte elements in the C API)
 * while the Fortran library, 4-byte or 8-byte, sets MA's MT_F_INT size: the copy moves whole
 * elements (it once took MA's size). 1 when the 3 x 4 array holds 0 .. 11 in storage order. */
fint c_reshape_fint_(void) {
  int d1[1] = {12}, d2[2] = {3, 4};
  const int g1 = NGA_Create(F_INT, 1, d1, "line", NULL), g2 = NGA_Create(F_INT, 2, d2, "block", NULL);
  int lo1[1] = {0}, hi1[1] = {11}, lo2[2] = {0, 0}, hi2[2] = {2, 3}, ld[1] = {4};
  long v[12], back[12];
  for (int k = 0; k < 12; ++k) v[k] = 1000 + k, back[k] = -1;
  if (GA_Nodeid() == 0) NGA_Put(g1, lo1, hi1, v, NULL);
  GA_Sync();
  NGA_Copy_patch('N', g1, lo1, hi1, g2, lo2, hi2);
  NGA_Get(g2, lo2, hi2, back, ld);
  int ok = 1;
  for (int k = 0; k < 12; ++k) ok = ok && back[k] == v[k];
  GA_Destroy(g1);
  GA_Destroy(g2);
  return ok;
}
