/* The C API of armada::arrays: arrays named by integer handles, for C programs and the Fortran
 * module (which binds to it with ISO_C_BINDING and converts its one-based, inclusive,
 * column-major indices to these).
 *
 * Conventions: indices are zero-based, patches half-open [lo, hi), arrays row-major, exactly
 * as in the C++ API; index tuples are int64_t arrays of ndim entries. `ld` (may be NULL for a
 * dense buffer) has ndim - 1 entries: ld[d] is the buffer's extent in dimension d + 1.
 * Scalars (alpha, value, result) point to one element of the array's type.
 *
 * Every function returns ARMADA_GA_OK or an error code, and then nothing has moved;
 * armada_ga_error_message() gives the calling thread's last message, which names the rank, the
 * operation, the array, the argument and its value. Collective functions (create, duplicate,
 * destroy, the whole-array operations, sync, update_ghosts, print) are collective over the
 * array's group; patch operations are not. The rma runtime must be initialized (armada::rma::init
 * or ARMCI_Init of armada_armci) before any call. */
#ifndef ARMADA_ARRAYS_C_API_H
#define ARMADA_ARRAYS_C_API_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Element types (the values of armada::arrays::ElemType). */
enum { ARMADA_GA_INT = 0, ARMADA_GA_LONG = 1, ARMADA_GA_FLOAT = 2, ARMADA_GA_DOUBLE = 3,
       ARMADA_GA_SCOMPLEX = 4, ARMADA_GA_DCOMPLEX = 5 };

/* Return codes. */
enum {
  ARMADA_GA_OK = 0,
  ARMADA_GA_ERR_ARG = 1,          /* an argument is out of range or inconsistent */
  ARMADA_GA_ERR_HANDLE = 2,       /* unknown or destroyed array handle, or unknown request */
  ARMADA_GA_ERR_TYPE = 3,         /* the array's element type does not suit the operation */
  ARMADA_GA_ERR_STATE = 4,        /* runtime not initialized, ... */
  ARMADA_GA_ERR_SYSTEM = 5,       /* an operating-system or MPI call failed */
  ARMADA_GA_ERR_UNSUPPORTED = 6,  /* no path to a target in this configuration */
  ARMADA_GA_ERR_INTERNAL = 7      /* anything else (a bug: please report the message) */
};

/* The calling thread's last error message ("" if none). */
const char* armada_ga_error_message(void);

/* ---- creation and inquiry ------------------------------------------------------------------- */
/* chunk: NULL or ndim minimum block extents (<= 0: no limit). */
int armada_ga_create(int type, int ndim, const int64_t dims[], const char* name, const int64_t chunk[], int* handle);
/* Irregular blocks: nblock[d] blocks in dimension d; map holds the first index of each block,
 * dimension after dimension (sum of nblock entries). */
int armada_ga_create_irreg(int type, int ndim, const int64_t dims[], const char* name, const int64_t nblock[],
                           const int64_t map[], int* handle);
/* With ghost cells of width[d] in each dimension (chunk as above). */
int armada_ga_create_ghosts(int type, int ndim, const int64_t dims[], const int64_t width[], const char* name,
                            const int64_t chunk[], int* handle);
int armada_ga_duplicate(int handle, const char* name, int* new_handle);
int armada_ga_destroy(int handle);
/* dims: room for 7 entries. */
int armada_ga_inquire(int handle, int* type, int* ndim, int64_t dims[]);
/* The name stays valid until the array is destroyed or renamed. */
int armada_ga_name(int handle, const char** name);
/* The block [lo, hi) of world rank `rank` (lo == hi: it owns nothing). */
int armada_ga_distribution(int handle, int rank, int64_t lo[], int64_t hi[]);
int armada_ga_locate(int handle, const int64_t index[], int* rank);
/* Owners of patch [lo, hi): *count of them; the first `max` are stored in ranks and, ndim
 * entries each, in los/his. */
int armada_ga_locate_region(int handle, const int64_t lo[], const int64_t hi[], int max, int ranks[], int64_t los[],
                            int64_t his[], int* count);

/* ---- patch operations ----------------------------------------------------------------------- */
int armada_ga_get(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[]);
int armada_ga_put(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[]);
int armada_ga_acc(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                  const void* alpha);
/* Nonblocking: *request names the operation until armada_ga_nbwait. */
int armada_ga_nbget(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[], int* request);
int armada_ga_nbput(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                    int* request);
int armada_ga_nbacc(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                    const void* alpha, int* request);
int armada_ga_nbwait(int request);
/* Every skip[d]-th element (buffer dense over the selected elements). */
int armada_ga_strided_get(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], void* buf,
                          const int64_t ld[]);
int armada_ga_strided_put(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], const void* buf,
                          const int64_t ld[]);
int armada_ga_strided_acc(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], const void* buf,
                          const int64_t ld[], const void* alpha);
/* Indices wrap modulo dims (0 <= hi[d] - lo[d] <= dims[d]). */
int armada_ga_periodic_get(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[]);
int armada_ga_periodic_put(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[]);
int armada_ga_periodic_acc(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                           const void* alpha);
/* Element lists: subscripts holds n index tuples (n * ndim entries). */
int armada_ga_gather(int handle, int64_t n, const int64_t subscripts[], void* values);
int armada_ga_scatter(int handle, int64_t n, const int64_t subscripts[], const void* values);
int armada_ga_scatter_acc(int handle, int64_t n, const int64_t subscripts[], const void* values, const void* alpha);
/* Atomic fetch-and-add on an int or long element. */
int armada_ga_read_inc(int handle, const int64_t index[], long increment, long* old_value);

/* ---- local access --------------------------------------------------------------------------- */
/* This rank's block: *ptr to element lo, strides[d] in elements; lo == hi if it owns nothing. */
int armada_ga_access(int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]);
int armada_ga_access_ghosts(int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]);
int armada_ga_release(int handle);
int armada_ga_release_update(int handle);

/* ---- collective operations ------------------------------------------------------------------ */
int armada_ga_fill(int handle, const void* value);
int armada_ga_zero(int handle);
int armada_ga_scale(int handle, const void* alpha);
int armada_ga_add_constant(int handle, const void* alpha);
int armada_ga_abs(int handle);
int armada_ga_reciprocal(int handle);
int armada_ga_copy(int a, int b);
int armada_ga_copy_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                         const int64_t bhi[], int transpose);
int armada_ga_add(const void* alpha, int a, const void* beta, int b, int c);
int armada_ga_elem_multiply(int a, int b, int c);
int armada_ga_elem_divide(int a, int b, int c);
int armada_ga_elem_max(int a, int b, int c);
int armada_ga_elem_min(int a, int b, int c);
int armada_ga_dot(int a, int b, void* result);
int armada_ga_norm1(int handle, double* result);
int armada_ga_norm_infinity(int handle, double* result);
/* want_max != 0: the largest element, else the smallest; its index into index[]. */
int armada_ga_select_elem(int handle, int want_max, void* value, int64_t index[]);
int armada_ga_update_ghosts(int handle, int periodic);
int armada_ga_sync(int handle);
/* Group rank 0 prints the patch to standard output. */
int armada_ga_print_patch(int handle, const int64_t lo[], const int64_t hi[]);
/* Prints this rank's table of live arrays to standard output. Not collective. */
int armada_ga_summary(void);

#ifdef __cplusplus
}
#endif

#endif
