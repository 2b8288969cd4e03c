/* The C API of armada::arrays: arrays, process groups, mutex sets and nonblocking requests named
 * by plain integer handles, for C programs and for the Fortran module (which binds to it with
 * ISO_C_BINDING). Everything the C++ API (armada/arrays/ headers) offers is here; docs/arrays.md
 * has the table of which C++ call each function stands for.
 *
 * Two index conventions, one library. Both name the same arrays; a handle from one serves the
 * other.
 *   armada_ga_*   C and C++: zero-based indices, patches half-open [lo, hi), arrays row-major.
 *   armada_gaf_*  Global Arrays' Fortran view: one-based indices, patches inclusive [lo, hi],
 *                 arrays column-major. A Fortran array A(n1, ..., nk) is the row-major array of
 *                 dims (nk, ..., n1): every index tuple is reversed, lo is lowered by one, hi is
 *                 kept (an inclusive one-based upper bound is an exclusive zero-based one), and
 *                 buffers need no reordering. This is the only place where the conversion is done
 *                 (DESIGN.md, "Conventions that cross layers"); the Fortran module passes its
 *                 arguments through unchanged. Only functions that take or return index tuples
 *                 have an armada_gaf_ form; the others serve both.
 * Index tuples are int64_t arrays of ndim entries. `ld` (may be NULL for a dense buffer) has
 * ndim - 1 entries: in C, ld[d] is the buffer's extent in dimension d + 1; in the Fortran view,
 * ld[i] is the buffer's extent in dimension i (GA's leading dimensions). Scalars (alpha, beta,
 * value, result) point to one element of the array's type.
 *
 * Errors: every function checks its arguments and returns ARMADA_GA_OK or an error code, and
 * then nothing has moved. armada_ga_error_message() gives the calling thread's last message: it
 * names the rank, the operation, the argument and its value, and ends with "(in <function>)".
 * Values inside the message are those of the C++ layer (zero-based, row-major) also for
 * armada_gaf_ calls, whose messages say so.
 *
 * Who takes part: functions marked "collective over the group" are called by every member of
 * the array's (or set's) group with the same arguments; "collective over the world" by every
 * rank; the rest (patch operations, element lists, read_inc, local access, inquiry, mutex lock
 * and unlock) by any rank alone.
 *
 * Start: armada_ga_initialize() (it starts MPI when the program has not, and runs on the
 * program's MPI otherwise). Programs that already started the runtime through ARMCI_Init
 * (armada_armci) or armada::rma::init may call the other functions without it. */
#ifndef ARMADA_ARRAYS_C_API_H
#define ARMADA_ARRAYS_C_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Marks a pointer parameter that may be NULL: C callers may pass NULL, and the Fortran module's
 * interfaces, generated from this header (scripts/gen-fortran-interfaces.py), make it an
 * optional argument. It expands to nothing. */
#define ARMADA_OPTIONAL

/* Element types (the values of armada::arrays::ElemType). */
enum { ARMADA_GA_INT = 0, ARMADA_GA_LONG = 1, ARMADA_GA_FLOAT = 2, ARMADA_GA_DOUBLE = 3,
       ARMADA_GA_SCOMPLEX = 4, ARMADA_GA_DCOMPLEX = 5 };

/* Return codes. */
enum {
  ARMADA_GA_OK = 0,
  ARMADA_GA_ERR_ARG = 1,          /* an argument is out of range or inconsistent */
  ARMADA_GA_ERR_HANDLE = 2,       /* unknown or destroyed array, group, mutex set or request */
  ARMADA_GA_ERR_TYPE = 3,         /* the array's element type does not suit the operation */
  ARMADA_GA_ERR_STATE = 4,        /* runtime not initialized or already initialized, ... */
  ARMADA_GA_ERR_SYSTEM = 5,       /* an operating-system or MPI call failed */
  ARMADA_GA_ERR_UNSUPPORTED = 6,  /* no path to a target in this configuration */
  ARMADA_GA_ERR_INTERNAL = 7      /* anything else (a bug: please report the message) */
};

/* The group handle of the world (every rank). */
enum { ARMADA_GA_GROUP_WORLD = 0 };
/* Largest number of dimensions (room to leave in output tuples). */
enum { ARMADA_GA_MAX_DIM = 7 };

/* The calling thread's last error message ("" if none). */
const char* armada_ga_error_message(void);
/* The prefix every Armada message starts with: "[rank 3] " while the runtime is up, "" otherwise,
 * NUL-terminated in `out` (at most `size` bytes; nothing when out is NULL or size 0). For
 * layers that write messages of their own in Armada's form (the Fortran module). */
void armada_ga_message_prefix(char* out, size_t size);

/* ---- runtime -------------------------------------------------------------------------------- */
/* Starts the runtime on MPI_COMM_WORLD, collective over it. Starts MPI (MPI_Init_thread,
 * MULTIPLE requested) unless the program did; argc/argv may be NULL. If the runtime is already
 * running (ARMCI_Init, armada::rma::init) it only records that; calling it twice is an
 * ARMADA_GA_ERR_STATE. */
int armada_ga_initialize(ARMADA_OPTIONAL int* argc, ARMADA_OPTIONAL char*** argv);
/* Starts the runtime on a communicator of a program that started MPI itself, given as a Fortran
 * MPI handle (MPI_Fint: the old `mpi` module's INTEGER, or mpi_f08's comm%MPI_VAL; C programs
 * pass MPI_Comm_c2f(comm)). "The world" is then that communicator's ranks. Collective over it;
 * MPI stays running after armada_ga_finalize. */
int armada_ga_initialize_fcomm(int fortran_comm);
/* *flag = 1 when the runtime is running (whoever started it), else 0. */
int armada_ga_initialized(int* flag);
/* Destroys every live array and mutex set (in creation order), forgets every group handle and
 * request, and stops the runtime if armada_ga_initialize started it (and MPI if it started
 * that). Collective over the world. */
int armada_ga_finalize(void);
/* This rank and the number of ranks in the world. */
int armada_ga_rank(int* rank);
int armada_ga_size(int* size);
/* Nodes: ranks sharing memory (a machine, or ARMADA_NODE_SIZE ranks of one). */
int armada_ga_node_count(int* count);
int armada_ga_node_of(int rank, int* node);
/* Number of ranks on `node`, and its i-th rank (ascending world ranks). */
int armada_ga_node_size(int node, int* size);
int armada_ga_node_rank(int node, int i, int* rank);

/* ---- synchronization ------------------------------------------------------------------------ */
/* Global Arrays' GA_Sync: completes every operation this rank issued (to any array), then
 * barriers the whole world; afterwards every rank sees every update made before it.
 * Collective over the world. */
int armada_ga_sync(void);
/* The same completion, but barriers only the array's group (ranks outside it are not waited
 * for). Collective over the array's group. */
int armada_ga_sync_group(int handle);

/* Remote completion of every operation this rank issued to world rank `rank` (GA_Fence), or to
 * every rank. Not collective. */
int armada_ga_fence(int rank);
int armada_ga_fence_all(void);

/* ---- collectives on plain buffers (GA_Dgop, GA_Brdcst) -------------------------------------- */
/* In-place reduction of n elements of `type` at x over the members of `group`; every member gets
 * the result. op: "+" (or "sum"), "*" (or "prod"), "max", "min", "absmax", "absmin"; complex
 * types take only "+". Collective over the group. */
int armada_ga_gop(int group, int type, void* x, int64_t n, const char* op);
/* Broadcasts `bytes` bytes at buf from group rank `root`. Collective over the group. */
int armada_ga_brdcst(int group, void* buf, int64_t bytes, int root);

/* ---- process groups ------------------------------------------------------------------------- */
/* A group of n ranks of group `parent` (ranks given as parent-group ranks, in the new group's
 * order, no repeats). Collective over the parent; a caller not listed gets a handle of a group
 * it is not a member of (its rank there is -1). */
int armada_ga_group_create(int parent, int n, const int ranks[], int* group);
/* Forgets the handle (the group lives on while arrays use it). Not ARMADA_GA_GROUP_WORLD. */
int armada_ga_group_destroy(int group);
int armada_ga_group_size(int group, int* size);
/* This rank's rank in the group, or -1 if it is not a member. */
int armada_ga_group_rank(int group, int* rank);
/* World rank of group rank `group_rank`. */
int armada_ga_group_world_rank(int group, int group_rank, int* world_rank);
/* Barrier of the group's members (after completing this rank's operations). */
int armada_ga_group_sync(int group);

/* ---- mutexes -------------------------------------------------------------------------------- */
/* A set of `count` mutexes on every member of `group` (count may differ per rank, may be 0).
 * Collective over the group. A mutex is named by (mutex index, the world rank holding it). */
int armada_ga_mutexes_create(int count, int group, int* set);
/* Collective over the set's group; no mutex of it may be held. */
int armada_ga_mutexes_destroy(int set);
int armada_ga_mutex_count(int set, int rank, int* count);
int armada_ga_mutex_lock(int set, int mutex, int rank);
/* Completes every operation this rank issued (a blocking put returns before its data arrives),
 * then unlocks: the next holder sees what was written under the lock. */
int armada_ga_mutex_unlock(int set, int mutex, int rank);
/* *acquired = 1 if the mutex was free and is now held by the caller, else 0. */
int armada_ga_mutex_trylock(int set, int mutex, int rank, int* acquired);

/* ---- creation and inquiry ------------------------------------------------------------------- */
/* Collective over the world (or `group`). chunk: NULL or ndim minimum block extents (<= 0: no
 * limit). */
int armada_ga_create(int type, int ndim, const int64_t dims[], const char* name, const int64_t chunk[],
                     int* handle);
/* Irregular blocks: nblock[d] blocks in dimension d; map holds the first index of each block,
 * dimension after dimension (sum of nblock entries). */
int armada_ga_create_irreg(int type, int ndim, const int64_t dims[], const char* name, const int64_t nblock[],
                           const int64_t map[], int* handle);
/* With ghost cells of width[d] in each dimension (chunk as above). */
int armada_ga_create_ghosts(int type, int ndim, const int64_t dims[], const int64_t width[], const char* name,
                            const int64_t chunk[], int* handle);
/* Every creation option; each of grid (blocks per dimension), chunk, nblock + map, width may be
 * NULL; nblock + map override grid and chunk. Collective over `group`. */
int armada_ga_create_full(int type, int ndim, const int64_t dims[], const char* name, const int64_t grid[],
                          const int64_t chunk[], const int64_t nblock[], const int64_t map[],
                          const int64_t width[], int group, int* handle);
/* Same type, distribution, ghosts and group; contents not copied. Collective over the group. */
int armada_ga_duplicate(int handle, ARMADA_OPTIONAL const char* name, int* new_handle);
/* Collective over the group. */
int armada_ga_destroy(int handle);
/* *flag = 1 if `handle` names a live array, else 0 (never an error). */
int armada_ga_valid(int handle, int* flag);
/* dims: room for ARMADA_GA_MAX_DIM entries; each output may be NULL. */
int armada_ga_inquire(int handle, int* type, int* ndim, int64_t dims[]);
int armada_ga_element_size(int handle, int64_t* bytes);
/* The name stays valid until the array is destroyed or renamed. */
int armada_ga_name(int handle, const char** name);
int armada_ga_set_name(int handle, const char* name);
/* The handle of the array's group (a new handle unless this group has one already). */
int armada_ga_group(int handle, int* group);
/* Ghost width and blocks per dimension (ndim entries each). */
int armada_ga_ghosts(int handle, int64_t width[]);
int armada_ga_grid(int handle, int64_t grid[]);
/* The block [lo, hi) of world rank `rank` (lo == hi: it owns nothing). */
int armada_ga_distribution(int handle, int rank, int64_t lo[], int64_t hi[]);
int armada_ga_locate(int handle, const int64_t index[], int* rank);
/* Owners of patch [lo, hi): *count of them; the first `max` are stored in ranks and, ndim
 * entries each, in los/his (each may be NULL). */
int armada_ga_locate_region(int handle, const int64_t lo[], const int64_t hi[], int max, int ranks[],
                            int64_t los[], int64_t his[], int* count);

/* ---- patch operations (any rank alone) ------------------------------------------------------ */
int armada_ga_get(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[]);
int armada_ga_put(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[]);
int armada_ga_acc(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                  const void* alpha);
/* Nonblocking: *request names the operation until armada_ga_nbwait. */
int armada_ga_nbget(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[],
                    int* request);
int armada_ga_nbput(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                    int* request);
int armada_ga_nbacc(int handle, const int64_t lo[], const int64_t hi[], const void* buf, const int64_t ld[],
                    const void* alpha, int* request);
/* Completes the request and retires its number. */
int armada_ga_nbwait(int request);
/* *done = 1 if the request has completed (the number stays valid: armada_ga_nbwait it, which
 * then returns at once), else 0. */
int armada_ga_nbtest(int request, int* done);
/* Every skip[d]-th element (buffer dense over the selected elements). */
int armada_ga_strided_get(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[], void* buf,
                          const int64_t ld[]);
int armada_ga_strided_put(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[],
                          const void* buf, const int64_t ld[]);
int armada_ga_strided_acc(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[],
                          const void* buf, const int64_t ld[], const void* alpha);
/* Indices wrap modulo dims (0 <= hi[d] - lo[d] <= dims[d]). */
int armada_ga_periodic_get(int handle, const int64_t lo[], const int64_t hi[], void* buf, const int64_t ld[]);
int armada_ga_periodic_put(int handle, const int64_t lo[], const int64_t hi[], const void* buf,
                           const int64_t ld[]);
int armada_ga_periodic_acc(int handle, const int64_t lo[], const int64_t hi[], const void* buf,
                           const int64_t ld[], const void* alpha);
/* Element lists: subscripts holds n index tuples (n * ndim entries). scatter: no element twice;
 * scatter_acc: repeated elements accumulate once per occurrence. */
int armada_ga_gather(int handle, int64_t n, const int64_t subscripts[], void* values);
int armada_ga_scatter(int handle, int64_t n, const int64_t subscripts[], const void* values);
int armada_ga_scatter_acc(int handle, int64_t n, const int64_t subscripts[], const void* values,
                          const void* alpha);
/* Atomic fetch-and-add on an int or long element. */
int armada_ga_read_inc(int handle, const int64_t index[], long increment, long* old_value);

/* ---- local access --------------------------------------------------------------------------- */
/* This rank's block: *ptr to element lo, strides[d] in elements; lo == hi if it owns nothing.
 * Pair with release (read only) or release_update (modified). */
int armada_ga_access(int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]);
int armada_ga_access_ghosts(int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]);
int armada_ga_release(int handle);
int armada_ga_release_update(int handle);

/* ---- collective operations (collective over the arrays' group; each starts and ends with a
 * barrier of that group). Arrays of one call have one type and one group; patches of one call
 * have equal extents. ------------------------------------------------------------------------ */
int armada_ga_fill(int handle, const void* value);
int armada_ga_zero(int handle);
int armada_ga_scale(int handle, const void* alpha);
int armada_ga_add_constant(int handle, const void* alpha);
int armada_ga_abs(int handle);
int armada_ga_reciprocal(int handle);
int armada_ga_fill_patch(int handle, const int64_t lo[], const int64_t hi[], const void* value);
int armada_ga_zero_patch(int handle, const int64_t lo[], const int64_t hi[]);
int armada_ga_scale_patch(int handle, const int64_t lo[], const int64_t hi[], const void* alpha);
int armada_ga_add_constant_patch(int handle, const int64_t lo[], const int64_t hi[], const void* alpha);
int armada_ga_abs_patch(int handle, const int64_t lo[], const int64_t hi[]);
int armada_ga_reciprocal_patch(int handle, const int64_t lo[], const int64_t hi[]);
/* b = a; b[blo, bhi) = a[alo, ahi) (transpose != 0: every dimension reversed). */
int armada_ga_copy(int a, int b);
int armada_ga_copy_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                         const int64_t bhi[], int transpose);
/* c = alpha * a + beta * b; c = a .* b, a ./ b, max(a, b), min(a, b). c may be a or b. */
int armada_ga_add(const void* alpha, int a, const void* beta, int b, int c);
int armada_ga_elem_multiply(int a, int b, int c);
int armada_ga_elem_divide(int a, int b, int c);
int armada_ga_elem_max(int a, int b, int c);
int armada_ga_elem_min(int a, int b, int c);
int armada_ga_add_patch(const void* alpha, int a, const int64_t alo[], const int64_t ahi[], const void* beta,
                        int b, const int64_t blo[], const int64_t bhi[], int c, const int64_t clo[],
                        const int64_t chi[]);
int armada_ga_elem_multiply_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                                  const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]);
int armada_ga_elem_divide_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                                const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]);
int armada_ga_elem_max_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                             const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]);
int armada_ga_elem_min_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                             const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]);
/* Sum of a[i] * b[i] (no conjugation) into *result (one element of the arrays' type). */
int armada_ga_dot(int a, int b, void* result);
int armada_ga_dot_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                        const int64_t bhi[], void* result);
/* 1-D and 2-D arrays only. */
int armada_ga_norm1(int handle, double* result);
int armada_ga_norm_infinity(int handle, double* result);
/* want_max != 0: the largest element, else the smallest (complex: by modulus; ties: the first
 * in row-major order); its index into index[]. */
int armada_ga_select_elem(int handle, int want_max, void* value, int64_t index[]);
int armada_ga_select_elem_patch(int handle, const int64_t lo[], const int64_t hi[], int want_max, void* value,
                                int64_t index[]);
/* Fills ghost cells (periodic != 0: wrapping around the edges). Barriers the array's group
 * before and after. */
int armada_ga_update_ghosts(int handle, int periodic);
/* Group rank 0 prints the array or patch to standard output. */
int armada_ga_print(int handle);
int armada_ga_print_patch(int handle, const int64_t lo[], const int64_t hi[]);
/* Prints this rank's table of live arrays to standard output. Not collective. */
int armada_ga_summary(void);

/* ---- the Fortran view: one-based, inclusive, column-major (see the top of this file) -------- */
/* The Fortran spelling of ARMADA_GA_* `type` ("real(8)"), for messages; "an unknown type" else. */
const char* armada_gaf_type_name(int type);
/* "array 'A' (real(8), dims [4, 6])": array `handle` as a Fortran program declares it, in `out`
 * (at most `size` bytes, always terminated); "" for a handle that names no live array. */
void armada_gaf_describe(int handle, char* out, size_t size);
/* Checks patch [lo, hi] of array `handle` and a buffer's ld (NULL: none) in the Fortran view's
 * own terms, without moving data: what armada_gaf_get would say of them. Not collective. */
int armada_gaf_check_patch(int handle, const int64_t lo[], const int64_t hi[],
                           ARMADA_OPTIONAL const int64_t ld[]);
int armada_gaf_create(int type, int ndim, const int64_t dims[], ARMADA_OPTIONAL const char* name,
                      ARMADA_OPTIONAL const int64_t chunk[], int* handle);
/* map: the first (one-based) index of each block, Fortran dimension after dimension. */
int armada_gaf_create_irreg(int type, int ndim, const int64_t dims[], ARMADA_OPTIONAL const char* name,
                            ARMADA_OPTIONAL const int64_t nblock[], ARMADA_OPTIONAL const int64_t map[],
                            int* handle);
int armada_gaf_create_ghosts(int type, int ndim, const int64_t dims[], ARMADA_OPTIONAL const int64_t width[],
                             ARMADA_OPTIONAL const char* name, ARMADA_OPTIONAL const int64_t chunk[],
                             int* handle);
int armada_gaf_create_full(int type, int ndim, const int64_t dims[], ARMADA_OPTIONAL const char* name,
                           ARMADA_OPTIONAL const int64_t grid[], ARMADA_OPTIONAL const int64_t chunk[],
                           ARMADA_OPTIONAL const int64_t nblock[], ARMADA_OPTIONAL const int64_t map[],
                           ARMADA_OPTIONAL const int64_t width[], int group, int* handle);
int armada_gaf_inquire(int handle, int* type, int* ndim, int64_t dims[]);
int armada_gaf_ghosts(int handle, ARMADA_OPTIONAL int64_t width[]);
int armada_gaf_grid(int handle, ARMADA_OPTIONAL int64_t grid[]);
/* lo > hi in some dimension: the rank owns nothing. */
int armada_gaf_distribution(int handle, int rank, int64_t lo[], int64_t hi[]);
int armada_gaf_locate(int handle, const int64_t index[], int* rank);
int armada_gaf_locate_region(int handle, const int64_t lo[], const int64_t hi[], int max,
                             ARMADA_OPTIONAL int ranks[], ARMADA_OPTIONAL int64_t los[],
                             ARMADA_OPTIONAL int64_t his[], int* count);
int armada_gaf_get(int handle, const int64_t lo[], const int64_t hi[], void* buf,
                   ARMADA_OPTIONAL const int64_t ld[]);
int armada_gaf_put(int handle, const int64_t lo[], const int64_t hi[], const void* buf,
                   ARMADA_OPTIONAL const int64_t ld[]);
int armada_gaf_acc(int handle, const int64_t lo[], const int64_t hi[], const void* buf,
                   ARMADA_OPTIONAL const int64_t ld[], const void* alpha);
int armada_gaf_nbget(int handle, const int64_t lo[], const int64_t hi[], void* buf,
                     ARMADA_OPTIONAL const int64_t ld[], int* request);
int armada_gaf_nbput(int handle, const int64_t lo[], const int64_t hi[], const void* buf,
                     ARMADA_OPTIONAL const int64_t ld[], int* request);
int armada_gaf_nbacc(int handle, const int64_t lo[], const int64_t hi[], const void* buf,
                     ARMADA_OPTIONAL const int64_t ld[], const void* alpha, int* request);
int armada_gaf_strided_get(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[],
                           void* buf, ARMADA_OPTIONAL const int64_t ld[]);
int armada_gaf_strided_put(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[],
                           const void* buf, ARMADA_OPTIONAL const int64_t ld[]);
int armada_gaf_strided_acc(int handle, const int64_t lo[], const int64_t hi[], const int64_t skip[],
                           const void* buf, ARMADA_OPTIONAL const int64_t ld[], const void* alpha);
int armada_gaf_periodic_get(int handle, const int64_t lo[], const int64_t hi[], void* buf,
                            ARMADA_OPTIONAL const int64_t ld[]);
int armada_gaf_periodic_put(int handle, const int64_t lo[], const int64_t hi[], const void* buf,
                            ARMADA_OPTIONAL const int64_t ld[]);
int armada_gaf_periodic_acc(int handle, const int64_t lo[], const int64_t hi[], const void* buf,
                            ARMADA_OPTIONAL const int64_t ld[], const void* alpha);
/* subscripts: n one-based index tuples of ndim entries (GA's subsarray(ndim, n)). */
int armada_gaf_gather(int handle, int64_t n, const int64_t subscripts[], void* values);
int armada_gaf_scatter(int handle, int64_t n, const int64_t subscripts[], const void* values);
int armada_gaf_scatter_acc(int handle, int64_t n, const int64_t subscripts[], const void* values,
                           const void* alpha);
int armada_gaf_read_inc(int handle, const int64_t index[], long increment, long* old_value);
/* lo/hi inclusive one-based; strides[i] in elements for Fortran dimension i (strides[0] == 1). */
int armada_gaf_access(int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]);
int armada_gaf_access_ghosts(int handle, void** ptr, int64_t lo[], int64_t hi[], int64_t strides[]);
int armada_gaf_fill_patch(int handle, const int64_t lo[], const int64_t hi[], const void* value);
int armada_gaf_zero_patch(int handle, const int64_t lo[], const int64_t hi[]);
int armada_gaf_scale_patch(int handle, const int64_t lo[], const int64_t hi[], const void* alpha);
int armada_gaf_add_constant_patch(int handle, const int64_t lo[], const int64_t hi[], const void* alpha);
int armada_gaf_abs_patch(int handle, const int64_t lo[], const int64_t hi[]);
int armada_gaf_reciprocal_patch(int handle, const int64_t lo[], const int64_t hi[]);
int armada_gaf_copy_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                          const int64_t bhi[], int transpose);
int armada_gaf_add_patch(const void* alpha, int a, const int64_t alo[], const int64_t ahi[], const void* beta,
                         int b, const int64_t blo[], const int64_t bhi[], int c, const int64_t clo[],
                         const int64_t chi[]);
int armada_gaf_elem_multiply_patch(int a, const int64_t alo[], const int64_t ahi[], int b,
                                   const int64_t blo[], const int64_t bhi[], int c, const int64_t clo[],
                                   const int64_t chi[]);
int armada_gaf_elem_divide_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                                 const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]);
int armada_gaf_elem_max_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                              const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]);
int armada_gaf_elem_min_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                              const int64_t bhi[], int c, const int64_t clo[], const int64_t chi[]);
int armada_gaf_dot_patch(int a, const int64_t alo[], const int64_t ahi[], int b, const int64_t blo[],
                         const int64_t bhi[], void* result);
/* 1-norm (largest column sum) and infinity norm (largest row sum) of the Fortran view's matrix;
 * a vector's norms as in the C view. */
int armada_gaf_norm1(int handle, double* result);
int armada_gaf_norm_infinity(int handle, double* result);
/* index: one-based. Ties go to the first element in the C view's (row-major) order. */
int armada_gaf_select_elem(int handle, int want_max, void* value, int64_t index[]);
int armada_gaf_select_elem_patch(int handle, const int64_t lo[], const int64_t hi[], int want_max,
                                 void* value, int64_t index[]);
int armada_gaf_print_patch(int handle, const int64_t lo[], const int64_t hi[]);
/* The C view (zero-based [clo, chi), dimensions reversed) of the Fortran-view patch [lo, hi] of
 * an ndim-dimensional array: for layers that take C-view patches (the linalg C API). */
int armada_gaf_to_c_patch(int ndim, const int64_t lo[], const int64_t hi[], int64_t clo[], int64_t chi[]);
/* The way back: the Fortran-view patch [lo, hi] of the C-view patch [clo, chi). */
int armada_gaf_from_c_patch(int ndim, const int64_t clo[], const int64_t chi[], int64_t lo[], int64_t hi[]);
/* A tuple of n extents (dims, chunk, skip, ld: no index shift) from the Fortran view to the C
 * view and back (ld of an ndim-dimensional array has n = ndim - 1 entries). */
int armada_gaf_to_c_extents(int n, const int64_t extents[], int64_t cextents[]);
int armada_gaf_from_c_extents(int n, const int64_t cextents[], int64_t extents[]);

/* ---- parallel HDF5 I/O (armada/arrays/io.hpp, docs/io.md) ---------------------------------- */
/* *flag = 1 if Armada was built with parallel HDF5; otherwise the functions below return
 * ARMADA_GA_ERR_UNSUPPORTED. Errors of the file system or HDF5 (missing, not HDF5, truncated or
 * corrupt file, full disk, a file another process holds) are ARMADA_GA_ERR_SYSTEM, a dataset of
 * another shape or type ARMADA_GA_ERR_ARG; every member gets the error, and no file is left
 * half-written. */
int armada_ga_io_available(int* flag);
/* Writes arrays handles[0 .. n) (one group, distinct names) to `file`, one dataset per array
 * named after it; replaces the file when complete. Collective over the arrays' group. */
int armada_ga_save(const char* file, int n, const int handles[]);
/* As armada_ga_save, but when `file` holds exactly these arrays' datasets (names, types, dims)
 * their data is rewritten in place: faster, but a job killed meanwhile leaves a file mixing old
 * and new data. Any other file is replaced as armada_ga_save does (SaveMode::in_place). */
int armada_ga_save_in_place(const char* file, int n, const int handles[]);
/* A new array (*handle) holding dataset `name`, regular distribution on `group`
 * (ARMADA_GA_GROUP_WORLD: the world), the ghost widths it was saved with. Collective over the
 * group. */
int armada_ga_load(const char* file, const char* name, int group, int* handle);
/* Dataset `name` into existing array `handle` (same dims and type). Collective over its group. */
int armada_ga_load_into(const char* file, const char* name, int handle);
/* Patch [lo, hi) of dataset `name` (C view; Fortran view: one-based inclusive, reversed) into
 * existing array `handle` whose dims are the patch's extents. Collective over its group. */
int armada_ga_load_patch(const char* file, const char* name, const int64_t lo[], const int64_t hi[],
                         int handle);
int armada_gaf_load_patch(const char* file, const char* name, const int64_t lo[], const int64_t hi[],
                          int handle);
/* Checkpoint `step` (>= 0) of handles[0 .. n) as "<prefix>.<step>.h5", complete or absent; keeps
 * the `keep` newest checkpoints of prefix. Collective over the arrays' group. */
int armada_ga_checkpoint(const char* prefix, long step, int n, const int handles[], int keep);
/* Loads handles[0 .. n) from the newest complete checkpoint of prefix and sets *step to its
 * step, or sets *step = -1 (arrays untouched) when there is none. Collective. */
int armada_ga_restart(const char* prefix, int n, const int handles[], long* step);

#ifdef __cplusplus
}
#endif

#endif
