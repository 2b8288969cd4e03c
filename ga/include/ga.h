/* Armada's Global Arrays C API: GA 5.8's ga.h names, signatures and semantics on Armada's
 * distributed arrays (armada::arrays) and linear algebra (armada::linalg). A GA program builds
 * against it by changing its include path and link line (armada-ga-config, pkg-config
 * armada-ga); docs/ga.md lists which GA entry points are here and how they behave.
 *
 * Conventions, as GA's C interface: indices are zero-based, patches [lo, hi] are inclusive,
 * arrays are row-major (C order); ld[] (ndim - 1 entries) gives the caller's buffer extents in
 * dimensions 1 .. ndim-1. Array types are C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DBL, C_SCPL,
 * C_DCPL (and their F_ names). Values (alpha, beta, fill values) point to one element of the
 * array's type.
 *
 * Process groups: GA_Nodeid, GA_Nnodes, GA_Sync, the gop and broadcast functions and array
 * creation act on the default group (the world until GA_Pgroup_set_default); the world's handle
 * is GA_Pgroup_get_world().
 *
 * Errors: a bad argument (an unknown handle, a patch outside the array, an unknown type or
 * operator, ...) ends the whole job like GA_Error: the calling rank prints
 * "GA_Error: [rank r] <GA function>: <argument> = <value> ..." to stderr and aborts (MPI_Abort).
 * Nothing moves before the check. */
#ifndef ARMADA_GA_GA_H
#define ARMADA_GA_GA_H

#include <stdint.h>
#include <stdio.h>

#include "gacommon.h"
#include "typesf2c.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef Integer ga_nbhdl_t;

/* ---- start, stop, processes ------------------------------------------------------------- */
extern void GA_Initialize(void);
extern void GA_Initialize_args(int* argc, char*** argv);
extern int GA_Initialized(void);
extern void GA_Terminate(void);
extern int GA_Nodeid(void);
extern int GA_Nnodes(void);
extern void GA_Error(char* str, int code);
extern void GA_Sync(void);
extern int GA_Uses_ma(void);
/* 1: Armada always builds GA's Fortran API (libarmada_ga_fortran, _i8). */
extern int GA_Uses_fapi(void);
extern int GA_Memory_limited(void);
extern size_t GA_Inquire_memory(void);
extern int GA_Cluster_nnodes(void);
extern int GA_Cluster_nodeid(void);
extern int GA_Cluster_nprocs(int node);
extern int GA_Cluster_procid(int node, int loc_proc);

/* ---- process groups --------------------------------------------------------------------- */
extern int GA_Pgroup_create(int* list, int count);
extern int GA_Pgroup_destroy(int grp);
extern int GA_Pgroup_get_default(void);
extern void GA_Pgroup_set_default(int grp);
extern int GA_Pgroup_get_world(void);
/* The calling process's group of itself alone (made for every process by GA_Initialize). */
extern int GA_Pgroup_self(void);
extern int NGA_Pgroup_self(void);
extern int GA_Pgroup_nodeid(int grp);
extern int GA_Pgroup_nnodes(int grp);
extern void GA_Pgroup_sync(int grp);
extern int GA_Pgroup_split(int grp, int num_group);
extern void GA_Pgroup_dgop(int grp, double x[], int n, char* op);
extern void GA_Pgroup_fgop(int grp, float x[], int n, char* op);
extern void GA_Pgroup_igop(int grp, int x[], int n, char* op);
extern void GA_Pgroup_lgop(int grp, long x[], int n, char* op);
extern void GA_Pgroup_brdcst(int grp, void* buf, int lenbuf, int root);

/* ---- collectives on plain buffers (over the default group) ------------------------------ */
/* op: "+", "*", "max", "min", "absmax", "absmin". */
extern void GA_Dgop(double x[], int n, char* op);
extern void GA_Fgop(float x[], int n, char* op);
extern void GA_Igop(int x[], int n, char* op);
extern void GA_Lgop(long x[], int n, char* op);
extern void GA_Brdcst(void* buf, int lenbuf, int root);

/* ---- creation and destruction ----------------------------------------------------------- */
/* chunk: NULL or minimum block extents (<= 0: no constraint). Collective over the default
 * group (the _config forms: over p_handle). */
extern int NGA_Create(int type, int ndim, int dims[], char* name, int chunk[]);
extern int NGA_Create_config(int type, int ndim, int dims[], char* name, int chunk[], int p_handle);
/* block[d] blocks in dimension d; map: the first index of every block, dimension after
 * dimension. */
extern int NGA_Create_irreg(int type, int ndim, int dims[], char* name, int block[], int map[]);
extern int NGA_Create_irreg_config(int type, int ndim, int dims[], char* name, int block[], int map[], int p_handle);
extern int NGA_Create_ghosts(int type, int ndim, int dims[], int width[], char* name, int chunk[]);
extern int NGA_Create_ghosts_config(int type, int ndim, int dims[], int width[], char* name, int chunk[],
                                    int p_handle);
extern int NGA_Create_ghosts_irreg(int type, int ndim, int dims[], int width[], char* name, int nblock[], int map[]);
extern int NGA_Create64(int type, int ndim, int64_t dims[], char* name, int64_t chunk[]);
extern int NGA_Create_config64(int type, int ndim, int64_t dims[], char* name, int64_t chunk[], int p_handle);
extern int NGA_Create_irreg64(int type, int ndim, int64_t dims[], char* name, int64_t block[], int64_t map[]);
extern int NGA_Create_ghosts64(int type, int ndim, int64_t dims[], int64_t width[], char* name, int64_t chunk[]);

/* The handle path: a handle, its properties, then GA_Allocate (collective; returns 1). */
extern int GA_Create_handle(void);
extern void NGA_Set_data(int g_a, int ndim, int dims[], int type);
extern void GA_Set_data(int g_a, int ndim, int dims[], int type);
extern void NGA_Set_data64(int g_a, int ndim, int64_t dims[], int type);
extern void GA_Set_chunk(int g_a, int chunk[]);
extern void GA_Set_ghosts(int g_a, int width[]);
extern void GA_Set_irreg_distr(int g_a, int map[], int block[]);
extern void GA_Set_array_name(int g_a, char* name);
extern void GA_Set_pgroup(int g_a, int p_handle);
extern void GA_Set_property(int g_a, char* property);
extern void GA_Unset_property(int g_a);
extern int GA_Allocate(int g_a);
/* GA's irregular-distribution flag, which GA's own dgemm reads to choose its algorithm: it
 * changes nothing here (the handle, planned or allocated, is checked). */
extern void GA_Set_irreg_flag(int g_a, int flag);
extern void NGA_Set_irreg_flag(int g_a, int flag);
/* Frees the array's memory (collective; refunds GA's memory limit) and keeps the handle planned
 * with the array's properties and distribution: GA_Allocate allocates it again (contents not
 * kept), GA_Destroy frees the handle. Returns 1, or 0 for a handle with nothing allocated. */
extern int GA_Deallocate(int g_a);
extern int NGA_Deallocate(int g_a);

extern int GA_Duplicate(int g_a, char* array_name);
/* Destroys the array, or frees a planned handle. */
extern void GA_Destroy(int g_a);

/* ---- inquiry ---------------------------------------------------------------------------- */
extern void NGA_Inquire(int g_a, int* type, int* ndim, int dims[]);
extern void NGA_Inquire64(int g_a, int* type, int* ndim, int64_t dims[]);
extern char* GA_Inquire_name(int g_a);
extern int GA_Ndim(int g_a);
extern int GA_Valid_handle(int g_a);
/* The block of process iproc (a rank of the array's group), inclusive; a process that owns
 * nothing gets hi[d] < lo[d]. */
extern void NGA_Distribution(int g_a, int iproc, int lo[], int hi[]);
extern void NGA_Distribution64(int g_a, int iproc, int64_t lo[], int64_t hi[]);
extern int NGA_Locate(int g_a, int subscript[]);
/* 0 when g_a and g_b have the same dims and block boundaries (GA's answer; types, ghost widths
 * and groups are not compared), 1 otherwise. */
extern int GA_Compare_distr(int g_a, int g_b);
extern int NGA_Compare_distr(int g_a, int g_b);
/* Armada creates no mirrored arrays: 0 for every handle. */
extern int GA_Is_mirrored(int g_a);
extern int NGA_Is_mirrored(int g_a);
/* The owners of [lo, hi]: returns their number; map gets 2 * ndim entries per owner (its part's
 * lo, then hi), procs their process ids. */
extern int NGA_Locate_region(int g_a, int lo[], int hi[], int map[], int procs[]);
extern int GA_Has_ghosts(int g_a);
extern int NGA_Has_ghosts(int g_a);
extern int GA_Get_dimension(int g_a);
extern int NGA_Get_dimension(int g_a);
extern double GA_Wtime(void);
extern double NGA_Wtime(void);
extern int NGA_Get_pgroup(int g_a);
extern int GA_Get_pgroup(int g_a);
/* The number of processes of group grp_id. */
extern int GA_Get_pgroup_size(int grp_id);
extern int NGA_Get_pgroup_size(int grp_id);

/* ---- one-sided patch operations (any process alone) ------------------------------------- */
extern void NGA_Get(int g_a, int lo[], int hi[], void* buf, int ld[]);
extern void NGA_Put(int g_a, int lo[], int hi[], void* buf, int ld[]);
extern void NGA_Acc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha);
extern void NGA_Get64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);
extern void NGA_Put64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);
extern void NGA_Acc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha);
extern void NGA_Strided_get(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[]);
extern void NGA_Strided_put(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[]);
extern void NGA_Strided_acc(int g_a, int lo[], int hi[], int skip[], void* buf, int ld[], void* alpha);
extern void NGA_NbGet(int g_a, int lo[], int hi[], void* buf, int ld[], ga_nbhdl_t* nbhandle);
extern void NGA_NbPut(int g_a, int lo[], int hi[], void* buf, int ld[], ga_nbhdl_t* nbhandle);
extern void NGA_NbAcc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha, ga_nbhdl_t* nbhandle);
extern void NGA_NbGet64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], ga_nbhdl_t* nbhandle);
extern void NGA_NbPut64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], ga_nbhdl_t* nbhandle);
extern void NGA_NbAcc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha,
                        ga_nbhdl_t* nbhandle);
/* lo may lie outside the array: indices wrap around (0 <= hi[d] - lo[d] < dims[d]). */
extern void NGA_Periodic_get(int g_a, int lo[], int hi[], void* buf, int ld[]);
extern void NGA_Periodic_put(int g_a, int lo[], int hi[], void* buf, int ld[]);
extern void NGA_Periodic_acc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha);
extern void NGA_Periodic_get64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);
extern void NGA_Periodic_put64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]);
extern void NGA_Periodic_acc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha);
extern void NGA_NbWait(ga_nbhdl_t* nbhandle);
extern int NGA_NbTest(ga_nbhdl_t* nbhandle);
extern long NGA_Read_inc(int g_a, int subscript[], long inc);
extern long NGA_Read_inc64(int g_a, int64_t subscript[], long inc);
/* subsArray: n pointers, each to ndim indices. */
extern void NGA_Scatter(int g_a, void* v, int* subsArray[], int n);
extern void NGA_Scatter_acc(int g_a, void* v, int* subsArray[], int n, void* alpha);
extern void NGA_Gather(int g_a, void* v, int* subsArray[], int n);
/* subsArray: n * ndim indices, one subscript after another. */
extern void NGA_Scatter_flat(int g_a, void* v, int subsArray[], int n);
extern void NGA_Scatter_acc_flat(int g_a, void* v, int subsArray[], int n, void* alpha);
extern void NGA_Gather_flat(int g_a, void* v, int subsArray[], int n);
extern void GA_Fence(void);
extern void GA_Init_fence(void);

/* ---- mutexes: `number` mutexes spread over the world's processes (collective create and
 * destroy); any process locks any of them. ------------------------------------------------- */
extern int GA_Create_mutexes(int number);
extern int GA_Destroy_mutexes(void);
extern void GA_Lock(int mutex);
extern void GA_Unlock(int mutex);
extern void NGA_Lock(int mutex);
extern void NGA_Unlock(int mutex);
extern int NGA_Destroy_mutexes(void);

/* ---- local access ----------------------------------------------------------------------- */
/* ptr is a void**: it receives the address of element lo of this process's block; ld the
 * block's extents (with ghosts) in dimensions 1 .. ndim-1. */
extern void NGA_Access(int g_a, int lo[], int hi[], void* ptr, int ld[]);
extern void NGA_Access64(int g_a, int64_t lo[], int64_t hi[], void* ptr, int64_t ld[]);
/* The block with its ghost cells: dims receives its extents, ptr its first (ghost) element. */
extern void NGA_Access_ghosts(int g_a, int dims[], void* ptr, int ld[]);
extern void NGA_Release(int g_a, int lo[], int hi[]);
extern void NGA_Release_update(int g_a, int lo[], int hi[]);
extern void NGA_Release64(int g_a, int64_t lo[], int64_t hi[]);
extern void NGA_Release_update64(int g_a, int64_t lo[], int64_t hi[]);
extern void NGA_Release_ghosts(int g_a);
extern void NGA_Release_update_ghosts(int g_a);
/* One element of the block with its ghost cells: subscript[d] counts from the block's first
 * ghost cell (0 .. block extent + 2 * width - 1); ptr (a void**) receives its address, ld the
 * block's extents (with ghosts) in dimensions 1 .. ndim-1. Not collective. Pair with
 * NGA_Release_ghost_element or NGA_Release_update_ghost_element (same subscript). */
extern void NGA_Access_ghost_element(int g_a, void* ptr, int subscript[], int ld[]);
extern void NGA_Access_ghost_element64(int g_a, void* ptr, int64_t subscript[], int64_t ld[]);
extern void NGA_Release_ghost_element(int g_a, int subscript[]);
extern void NGA_Release_ghost_element64(int g_a, int64_t subscript[]);
extern void NGA_Release_update_ghost_element(int g_a, int subscript[]);
extern void NGA_Release_update_ghost_element64(int g_a, int64_t subscript[]);

/* ---- ghost cells: every update wraps around the edges (periodic), as GA's ---------------- */
/* Fills the ghost cells, with the corners unless GA_Set_ghost_corner_flag(g_a, 0). Collective;
 * synchronizes before and after. */
extern void GA_Update_ghosts(int g_a);
/* Whether GA_Update_ghosts and NGA_Update_ghosts_nb of g_a fill the corner ghost cells (cells
 * outside the block in more than one dimension); 1 until set. Local: every process of the
 * array's group sets the same flag (an update with flags that differ fails on every process). */
extern void GA_Set_ghost_corner_flag(int g_a, int flag);
/* Fills the ghost cells on one side of one dimension: dimension 0 .. ndim-1, idir -1 (below the
 * block) or +1 (above it), cflag non-zero: the corners on that side too. Collective (every
 * process passes the same arguments); synchronizes before and after; returns 1. */
extern int NGA_Update_ghost_dir(int g_a, int dimension, int idir, int cflag);
/* Starts GA_Update_ghosts and returns a request; NGA_NbWait completes it. Collective; it
 * synchronizes before, not after. Until the wait, the ghost cells may not be used; until every
 * process has waited and synchronized (GA_Sync), no process may change its block. */
extern void NGA_Update_ghosts_nb(int g_a, ga_nbhdl_t* nbhandle);
/* Starts filling the one region of this process's ghost cells that mask names (per dimension
 * -1 below the block, +1 above it, 0 its extent; all 0: nothing to fill); NGA_NbWait completes
 * it. Not collective: the owners' values must be final (GA_Sync) and stay so until the wait. */
extern void NGA_NbGet_ghost_dir(int g_a, int mask[], ga_nbhdl_t* handle);
extern void NGA_NbGet_ghost_dir64(int g_a, int64_t mask[], ga_nbhdl_t* handle);

/* ---- whole-array and patch operations (collective over the arrays' group) -------------- */
extern void GA_Zero(int g_a);
extern void GA_Fill(int g_a, void* value);
extern void GA_Scale(int g_a, void* value);
extern void GA_Copy(int g_a, int g_b);
/* trans 'T' or 't': B's patch gets A's transposed (2-D). */
extern void NGA_Copy_patch(char trans, int g_a, int alo[], int ahi[], int g_b, int blo[], int bhi[]);
extern void NGA_Zero_patch(int g_a, int lo[], int hi[]);
extern void NGA_Fill_patch(int g_a, int lo[], int hi[], void* val);
extern void NGA_Scale_patch(int g_a, int lo[], int hi[], void* alpha);
extern void GA_Add(void* alpha, int g_a, void* beta, int g_b, int g_c);
extern void NGA_Add_patch(void* alpha, int g_a, int alo[], int ahi[], void* beta, int g_b, int blo[], int bhi[],
                          int g_c, int clo[], int chi[]);
extern double GA_Ddot(int g_a, int g_b);
extern int GA_Idot(int g_a, int g_b);
extern long GA_Ldot(int g_a, int g_b);
extern float GA_Fdot(int g_a, int g_b);
/* t_a, t_b: 'N' or 'T' (the patch transposed, 2-D). */
extern double NGA_Ddot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[], int bhi[]);
/* C = alpha op(A) op(B) + beta C on the leading m x n (k) parts; ta, tb: 'N', 'T' or 'C'. */
extern void GA_Dgemm(char ta, char tb, int m, int n, int k, double alpha, int g_a, int g_b, double beta, int g_c);
extern void GA_Dgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, double alpha, int g_a, int g_b,
                       double beta, int g_c);
extern void GA_Transpose(int g_a, int g_b);
/* A = (A + A') / 2. */
extern void GA_Symmetrize(int g_a);
/* C(patch) = alpha op(A(patch)) op(B(patch)) + beta C(patch): patches as stored, op applied to
 * them; alpha, beta of the arrays' type (float, double, complex). */
extern void NGA_Matmul_patch(char transa, char transb, void* alpha, void* beta, int g_a, int alo[], int ahi[],
                             int g_b, int blo[], int bhi[], int g_c, int clo[], int chi[]);
extern void NGA_Matmul_patch64(char transa, char transb, void* alpha, void* beta, int g_a, int64_t alo[],
                               int64_t ahi[], int g_b, int64_t blo[], int64_t bhi[], int g_c, int64_t clo[],
                               int64_t chi[]);
extern void GA_Matmul_patch(char transa, char transb, void* alpha, void* beta, int g_a, int ailo, int aihi, int ajlo,
                            int ajhi, int g_b, int bilo, int bihi, int bjlo, int bjhi, int g_c, int cilo, int cihi,
                            int cjlo, int cjhi);
extern void GA_Matmul_patch64(char transa, char transb, void* alpha, void* beta, int g_a, int64_t ailo, int64_t aihi,
                              int64_t ajlo, int64_t ajhi, int g_b, int64_t bilo, int64_t bihi, int64_t bjlo,
                              int64_t bjhi, int g_c, int64_t cilo, int64_t cihi, int64_t cjlo, int64_t cjhi);
/* Solvers (ScaLAPACK through linalg): B is overwritten by the solution, A is unchanged.
 * GA_Llt_solve returns 0, or the order of the leading minor that is not positive definite (B
 * unchanged); GA_Solve tries Cholesky (returns 0) and falls back to LU (returns that order). */
extern void GA_Lu_solve(char tran, int g_a, int g_b);
extern int GA_Llt_solve(int g_a, int g_b);
extern int GA_Solve(int g_a, int g_b);
/* Eigenvalues (ascending, into eval: n values of the real type) and eigenvectors (columns of
 * g_v) of the symmetric g_a. */
extern void GA_Diag_std(int g_a, int g_v, void* eval);
/* The same (GA computes it on one process). */
extern void GA_Diag_std_seq(int g_a, int g_v, void* eval);
/* The generalized problem g_a v = lambda g_s v, g_s positive definite: eigenvalues ascending
 * into eval, eigenvectors the columns of g_v with V^T S V = I. GA_Diag_seq is the same;
 * GA_Diag_reuse(control, ...): control 0 solves and keeps g_s's factor, > 0 reuses the kept
 * factor (g_s unchanged since), < 0 only frees it. Collective. */
extern void GA_Diag(int g_a, int g_s, int g_v, void* eval);
extern void GA_Diag_seq(int g_a, int g_s, int g_v, void* eval);
extern void GA_Diag_reuse(int control, int g_a, int g_s, int g_v, void* eval);
/* g_a = g_a's inverse, for a symmetric positive definite g_a (read from its lower triangle;
 * Cholesky): 0, or the order of the leading minor that is not positive definite (g_a unchanged). */
extern int GA_Spd_invert(int g_a);
/* Element-wise: a = |a|, a += alpha, a = 1/a; c = a .* b, a ./ b, max(a, b), min(a, b). */
extern void GA_Abs_value(int g_a);
extern void GA_Abs_value_patch(int g_a, int* lo, int* hi);
extern void GA_Add_constant(int g_a, void* alpha);
extern void GA_Add_constant_patch(int g, int* lo, int* hi, void* alpha);
extern void GA_Recip(int g_a);
extern void GA_Recip_patch(int g_a, int* lo, int* hi);
extern void GA_Elem_multiply(int g_a, int g_b, int g_c);
extern void GA_Elem_multiply_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo, int* chi);
extern void GA_Elem_divide(int g_a, int g_b, int g_c);
extern void GA_Elem_divide_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo, int* chi);
extern void GA_Elem_maximum(int g_a, int g_b, int g_c);
extern void GA_Elem_maximum_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo, int* chi);
extern void GA_Elem_minimum(int g_a, int g_b, int g_c);
extern void GA_Elem_minimum_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo, int* chi);
extern void GA_Abs_value_patch64(int g_a, int64_t* lo, int64_t* hi);
extern void GA_Add_constant_patch64(int g, int64_t* lo, int64_t* hi, void* alpha);
extern void GA_Recip_patch64(int g_a, int64_t* lo, int64_t* hi);
extern void GA_Elem_multiply_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi, int g_c,
                                     int64_t* clo, int64_t* chi);
extern void GA_Elem_divide_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi, int g_c,
                                   int64_t* clo, int64_t* chi);
extern void GA_Elem_maximum_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi, int g_c,
                                    int64_t* clo, int64_t* chi);
extern void GA_Elem_minimum_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi, int g_c,
                                    int64_t* clo, int64_t* chi);
/* The largest ("max") or smallest ("min") element and its subscript (complex: by modulus). */
extern void NGA_Select_elem(int g_a, char* op, void* val, int* index);
extern void GA_Print(int g_a);
extern void GA_Print_distribution(int g_a);
extern void GA_Summarize(int verbose);

/* ---- NGA_ spellings of the same functions ----------------------------------------------- */
extern void NGA_Initialize(void);
extern void NGA_Terminate(void);
extern int NGA_Nodeid(void);
extern int NGA_Nnodes(void);
extern void NGA_Sync(void);
extern void NGA_Zero(int g_a);
extern void NGA_Fill(int g_a, void* value);
extern void NGA_Destroy(int g_a);
extern int NGA_Duplicate(int g_a, char* array_name);
extern void NGA_Dgop(double x[], int n, char* op);
extern void NGA_Igop(int x[], int n, char* op);
extern void NGA_Error(char* str, int code);
extern int NGA_Pgroup_create(int* list, int count);
extern int NGA_Pgroup_get_default(void);
extern void NGA_Pgroup_set_default(int p_handle);
extern void NGA_Set_array_name(int g_a, char* name);
extern void NGA_Set_chunk(int g_a, int chunk[]);
extern void NGA_Set_ghosts(int g_a, int width[]);
extern void NGA_Set_irreg_distr(int g_a, int map[], int block[]);
extern void NGA_Set_pgroup(int g_a, int p_handle);
extern void NGA_Set_property(int g_a, char* property);
extern void NGA_Unset_property(int g_a);
extern int NGA_Allocate(int g_a);
extern int NGA_Create_handle(void);
extern void NGA_Update_ghosts(int g_a);

/* ---- more 64-bit and NGA_ spellings of the functions above ------------------------------ */
extern int NGA_Create_irreg_config64(int type, int ndim, int64_t dims[], char* name, int64_t block[], int64_t map[],
                                     int p_handle);
extern int NGA_Create_ghosts_config64(int type, int ndim, int64_t dims[], int64_t width[], char* name,
                                      int64_t chunk[], int p_handle);
extern int NGA_Create_ghosts_irreg64(int type, int ndim, int64_t dims[], int64_t width[], char* name,
                                     int64_t nblock[], int64_t map[]);
extern int NGA_Create_ghosts_irreg_config(int type, int ndim, int dims[], int width[], char* name, int nblock[],
                                          int map[], int p_handle);
extern int NGA_Create_ghosts_irreg_config64(int type, int ndim, int64_t dims[], int64_t width[], char* name,
                                            int64_t nblock[], int64_t map[], int p_handle);
extern void GA_Set_data64(int g_a, int ndim, int64_t dims[], int type);
extern void GA_Set_chunk64(int g_a, int64_t chunk[]);
extern void GA_Set_ghosts64(int g_a, int64_t width[]);
extern void NGA_Set_ghosts64(int g_a, int64_t width[]);
extern void GA_Set_irreg_distr64(int g_a, int64_t map[], int64_t block[]);
extern void NGA_Set_irreg_distr64(int g_a, int64_t map[], int64_t block[]);
extern int NGA_Locate64(int g_a, int64_t subscript[]);
extern int NGA_Ndim(int g_a);
extern int NGA_Valid_handle(int g_a);
extern char* NGA_Inquire_name(int g_a);
extern void NGA_Strided_get64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf, int64_t ld[]);
extern void NGA_Strided_put64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf, int64_t ld[]);
extern void NGA_Strided_acc64(int g_a, int64_t lo[], int64_t hi[], int64_t skip[], void* buf, int64_t ld[],
                              void* alpha);
extern void NGA_Scatter64(int g_a, void* v, int64_t* subsArray[], int64_t n);
extern void NGA_Scatter_acc64(int g_a, void* v, int64_t* subsArray[], int64_t n, void* alpha);
extern void NGA_Gather64(int g_a, void* v, int64_t* subsArray[], int64_t n);
extern void NGA_Scatter_flat64(int g_a, void* v, int64_t subsArray[], int64_t n);
extern void NGA_Scatter_acc_flat64(int g_a, void* v, int64_t subsArray[], int64_t n, void* alpha);
extern void NGA_Gather_flat64(int g_a, void* v, int64_t subsArray[], int64_t n);
extern void NGA_Access_ghosts64(int g_a, int64_t dims[], void* ptr, int64_t ld[]);
extern void NGA_Copy_patch64(char trans, int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[], int64_t bhi[]);
extern void NGA_Zero_patch64(int g_a, int64_t lo[], int64_t hi[]);
extern void NGA_Fill_patch64(int g_a, int64_t lo[], int64_t hi[], void* val);
extern void NGA_Scale_patch64(int g_a, int64_t lo[], int64_t hi[], void* alpha);
extern void NGA_Add_patch64(void* alpha, int g_a, int64_t alo[], int64_t ahi[], void* beta, int g_b, int64_t blo[],
                            int64_t bhi[], int g_c, int64_t clo[], int64_t chi[]);
extern double NGA_Ddot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b, int64_t blo[],
                               int64_t bhi[]);
extern int NGA_Pgroup_destroy(int grp);
extern int NGA_Pgroup_get_world(void);
extern int NGA_Pgroup_nodeid(int grp);
extern int NGA_Pgroup_nnodes(int grp);
extern void NGA_Pgroup_sync(int grp);
extern int NGA_Pgroup_split(int grp, int num_group);
extern void NGA_Pgroup_dgop(int grp, double x[], int n, char* op);
extern void NGA_Pgroup_fgop(int grp, float x[], int n, char* op);
extern void NGA_Pgroup_igop(int grp, int x[], int n, char* op);
extern void NGA_Pgroup_lgop(int grp, long x[], int n, char* op);
extern int NGA_Initialized(void);
extern void NGA_Fence(void);
extern void NGA_Init_fence(void);
extern int NGA_Uses_ma(void);
extern int NGA_Memory_limited(void);
extern size_t NGA_Inquire_memory(void);

/* ---- GA's memory limit, GA-managed memory, handles, debugging (docs/ga.md, "Memory") ---- */
/* A limit in bytes per process on GA memory: the blocks of arrays (ghost frames included) and
 * GA_Getmem's memory. A creation, duplicate or GA_Allocate that would pass it on some process
 * of the group fails on every process of it (returns 0). A limit that is negative as a signed
 * count ((size_t)-1) removes it. GA_Memory_avail: bytes left under the limit, (size_t)-1
 * without a limit (GA's "cannot be determined"). Local. */
extern void GA_Initialize_ltd(size_t limit);
extern void NGA_Initialize_ltd(size_t limit);
extern void GA_Set_memory_limit(size_t limit);
extern void NGA_Set_memory_limit(size_t limit);
extern size_t GA_Memory_avail(void);
extern size_t NGA_Memory_avail(void);
/* nelem elements of GA type `type` on every process of group grp_id (<= 0: the world, as GA),
 * charged to the limit; collective. GA_Freemem frees them, collective over the same group. */
extern void* GA_Getmem(int type, int nelem, int grp_id);
extern void GA_Freemem(void* ptr);
/* Armada's temporaries come from the C++ heap: the functions are kept (GA_Register_stack_memory
 * checks them, nothing calls them); gather/scatter need no buffer set aside in advance. */
extern void GA_Register_stack_memory(void* (*ext_alloc)(size_t, int, char*), void (*ext_free)(void*));
extern void NGA_Alloc_gatscat_buf(int nelems);
extern void NGA_Free_gatscat_buf(void);
/* 1 for a live array handle, 0 otherwise; GA_Check_handle ends the job with `string` and the
 * reason for any other handle. */
extern int GA_Verify_handle(int g_a);
extern int NGA_Verify_handle(int g_a);
extern void GA_Check_handle(int g_a, char* string);
/* A flag the program sets and reads back (Armada prints nothing more for it). */
extern void GA_Set_debug(int flag);
extern void NGA_Set_debug(int flag);
extern int GA_Get_debug(void);
extern int NGA_Get_debug(void);
/* GA may leave out the synchronization at the start (first = 0) or end (last = 0) of the next
 * collective; Armada's collectives always synchronize, which gives the same results. */
extern void GA_Mask_sync(int first, int last);
extern void NGA_Mask_sync(int first, int last);
/* Calls and bytes of this process's GA operations, and the most GA memory it held. Local. */
extern void GA_Print_stats(void);

/* ---- other element types, matrix-vector operations, topology (docs/ga.md) ---------------- */
/* Dot products without conjugation, of arrays of the named type (C_LONGLONG arrays are C_LONG's
 * 8-byte integers); matrix products of the named type (ta, tb: 'N', 'T' or 'C'). Collective. */
extern long long GA_Lldot(int g_a, int g_b);
extern SingleComplex GA_Cdot(int g_a, int g_b);
extern DoubleComplex GA_Zdot(int g_a, int g_b);
extern int NGA_Idot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[], int bhi[]);
extern long NGA_Ldot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[], int bhi[]);
extern long long NGA_Lldot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[], int bhi[]);
extern float NGA_Fdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[], int bhi[]);
extern SingleComplex NGA_Cdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                                    int bhi[]);
extern DoubleComplex NGA_Zdot_patch(int g_a, char t_a, int alo[], int ahi[], int g_b, char t_b, int blo[],
                                    int bhi[]);
extern int NGA_Idot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b, int64_t blo[],
                            int64_t bhi[]);
extern long NGA_Ldot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b, int64_t blo[],
                             int64_t bhi[]);
extern long long NGA_Lldot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                                   int64_t blo[], int64_t bhi[]);
extern float NGA_Fdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b, int64_t blo[],
                              int64_t bhi[]);
extern SingleComplex NGA_Cdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                                      int64_t blo[], int64_t bhi[]);
extern DoubleComplex NGA_Zdot_patch64(int g_a, char t_a, int64_t alo[], int64_t ahi[], int g_b, char t_b,
                                      int64_t blo[], int64_t bhi[]);
extern void GA_Sgemm(char ta, char tb, int m, int n, int k, float alpha, int g_a, int g_b, float beta, int g_c);
extern void GA_Cgemm(char ta, char tb, int m, int n, int k, SingleComplex alpha, int g_a, int g_b,
                     SingleComplex beta, int g_c);
extern void GA_Zgemm(char ta, char tb, int m, int n, int k, DoubleComplex alpha, int g_a, int g_b,
                     DoubleComplex beta, int g_c);
extern void GA_Sgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, float alpha, int g_a, int g_b, float beta,
                       int g_c);
extern void GA_Cgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, SingleComplex alpha, int g_a, int g_b,
                       SingleComplex beta, int g_c);
extern void GA_Zgemm64(char ta, char tb, int64_t m, int64_t n, int64_t k, DoubleComplex alpha, int g_a, int g_b,
                       DoubleComplex beta, int g_c);
/* gop of other types over the default group (complex: real and imaginary parts reduced each on
 * its own, as GA); GA_Gop takes the GA type: C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DBL, C_SCPL,
 * C_DCPL. */
extern void GA_Llgop(long long x[], int n, char* op);
extern void GA_Cgop(SingleComplex x[], int n, char* op);
extern void GA_Zgop(DoubleComplex x[], int n, char* op);
extern void GA_Gop(int type, void* x, int n, char* op);
extern void GA_Pgroup_llgop(int grp, long long x[], int n, char* op);
extern void GA_Pgroup_cgop(int grp, SingleComplex x[], int n, char* op);
extern void GA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char* op);
extern void NGA_Pgroup_llgop(int grp, long long x[], int n, char* op);
extern void NGA_Pgroup_zgop(int grp, DoubleComplex x[], int n, char* op);
/* Groups: the world rank of a group's process; a copy of a group (collective over it); groups by
 * color (collective over grp; the processes passing one color, in grp's order). */
extern int GA_Pgroup_absolute_id(int pgroup, int pid);
extern int GA_Pgroup_duplicate(int grp);
extern int GA_Pgroup_split_irreg(int grp_id, int color);
extern int NGA_Pgroup_absolute_id(int pgroup, int pid);
extern int NGA_Pgroup_duplicate(int grp);
extern int NGA_Pgroup_split_irreg(int grp_id, int color);
/* Nodes: the node of world process proc; GA's process list (list[i] = i: no GA_Set_proclist). */
extern int GA_Cluster_proc_nodeid(int proc);
extern void GA_List_nodeid(int* list, int nprocs);
extern void NGA_List_nodeid(int* list, int nprocs);
/* The diagonal of a 2-D array g_a (vector g_v: min(rows, columns) elements of g_a's type), rows
 * and columns scaled by a vector (rows: a(i,j) *= v(i); columns: a(i,j) *= v(j)), the 1-norm
 * (vector: sum |x|; matrix: largest column sum) and the infinity norm (vector: max |x|; matrix:
 * largest row sum). Collective over g_a's group. */
extern void GA_Get_diag(int g_a, int g_v);
extern void GA_Set_diagonal(int g_a, int g_v);
extern void GA_Add_diagonal(int g_a, int g_v);
extern void GA_Shift_diagonal(int g_a, void* c);
extern void GA_Zero_diagonal(int g_a);
extern void GA_Scale_rows(int g_a, int g_v);
extern void GA_Scale_cols(int g_a, int g_v);
extern void GA_Norm1(int g_a, double* nm);
extern void GA_Norm_infinity(int g_a, double* nm);
/* Every element a uniform random value in [0, *value] (complex: each part in [0, its part]).
 * Collective. */
extern void GA_Randomize(int g_a, void* value);
extern void NGA_Randomize(int g_a, void* value);
/* Printing as GA_Print, of a patch (pretty is accepted; one format) or to a FILE*. */
extern void GA_Print_patch(int g_a, int ilo, int ihi, int jlo, int jhi, int pretty);
extern void NGA_Print_patch(int g_a, int lo[], int hi[], int pretty);
extern void NGA_Print_patch64(int g_a, int64_t lo[], int64_t hi[], int pretty);
extern void GA_Print_file(FILE* file, int g_a);
/* Owners and the process grid: the number of owners of [lo, hi]; the 64-bit Locate_region and
 * Select_elem; the blocks per dimension; the grid coordinates of a process's block (-1 each for
 * a process that owns none). */
extern int NGA_Locate_nnodes(int g_a, int lo[], int hi[]);
extern int NGA_Locate_nnodes64(int g_a, int64_t lo[], int64_t hi[]);
extern int NGA_Locate_region64(int g_a, int64_t lo[], int64_t hi[], int64_t map[], int procs[]);
extern void NGA_Select_elem64(int g_a, char* op, void* val, int64_t* index);
extern void GA_Get_proc_grid(int g_a, int dims[]);
extern void NGA_Get_proc_grid(int g_a, int dims[]);
extern void GA_Get_proc_index(int g_a, int iproc, int subscript[]);
extern void NGA_Get_proc_index(int g_a, int iproc, int subscript[]);
extern void NGA_Proc_topology(int g_a, int proc, int coord[]);
/* Sparse-data operations on 1-D arrays over [lo, hi] (inclusive, zero-based), collective over
 * the arrays' group. g_sbit / g_mask: an integer array (C_INT or C_LONG); a nonzero element
 * starts a segment (scans; lo always does) or selects an element (pack, unpack).
 * Patch_enum: a[i] = *start + (i - lo) * *inc (values of the array's type). Scan_copy: each
 * element of a segment gets the segment's first source element. Scan_add: running sums within
 * segments (excl = 1: exclusive, 0 at a segment's start). Pack: the selected source elements
 * into g_dest from element 0, their number in *icount. Unpack: g_src's first *icount elements
 * into the selected elements of g_dest (the others unchanged). */
extern void GA_Patch_enum(int g_a, int lo, int hi, void* start, void* inc);
extern void GA_Patch_enum64(int g_a, int64_t lo, int64_t hi, void* start, void* inc);
extern void GA_Scan_copy(int g_a, int g_b, int g_sbit, int lo, int hi);
extern void GA_Scan_copy64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi);
extern void GA_Scan_add(int g_a, int g_b, int g_sbit, int lo, int hi, int excl);
extern void GA_Scan_add64(int g_a, int g_b, int g_sbit, int64_t lo, int64_t hi, int excl);
extern void GA_Pack(int g_src, int g_dest, int g_mask, int lo, int hi, int* icount);
extern void GA_Pack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t* icount);
extern void GA_Unpack(int g_src, int g_dest, int g_mask, int lo, int hi, int* icount);
extern void GA_Unpack64(int g_src, int g_dest, int g_mask, int64_t lo, int64_t hi, int64_t* icount);
/* g_m = the element-wise median of g_a, g_b, g_c (complex: by modulus), any rank, all types. */
extern void GA_Median(int g_a, int g_b, int g_c, int g_m);
extern void GA_Median_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo, int* chi,
                            int g_m, int* mlo, int* mhi);
extern void GA_Median_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi, int g_c,
                              int64_t* clo, int64_t* chi, int g_m, int64_t* mlo, int64_t* mhi);
/* Line-search steps (C_INT, C_LONG, C_FLOAT, C_DBL; results of the arrays' type). Step_max: the
 * largest s with a + s b >= 0 (a must be >= 0; GA's infinity, e.g. 1e307 for doubles, when no
 * element of b is negative). Step_bound_info: the steps from xx along vv to the box
 * [xxll, xxuu] (docs/arrays.md). */
extern void GA_Step_max(int g_a, int g_b, void* step);
extern void GA_Step_max_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, void* step);
extern void GA_Step_max_patch64(int g_a, int64_t alo[], int64_t ahi[], int g_b, int64_t blo[], int64_t bhi[],
                                void* step);
extern void GA_Step_bound_info(int g_xx, int g_vv, int g_xxll, int g_xxuu, void* boundmin, void* wolfemin,
                               void* boundmax);
extern void GA_Step_bound_info_patch(int g_xx, int* xxlo, int* xxhi, int g_vv, int* vvlo, int* vvhi, int g_xxll,
                                     int* xxlllo, int* xxllhi, int g_xxuu, int* xxuulo, int* xxuuhi, void* boundmin,
                                     void* wolfemin, void* boundmax);
/* GA 5.8 declares g_xxuu as int64_t here (the other handles are int). */
extern void GA_Step_bound_info_patch64(int g_xx, int64_t xxlo[], int64_t xxhi[], int g_vv, int64_t vvlo[],
                                       int64_t vvhi[], int g_xxll, int64_t xxlllo[], int64_t xxllhi[],
                                       int64_t g_xxuu, int64_t xxuulo[], int64_t xxuuhi[], void* boundmin,
                                       void* wolfemin, void* boundmax);

/* Block-cyclic arrays (docs/ga.md, "Block-cyclic arrays"): set on a planned handle before
 * GA_Allocate. Simple layout: blocks of dims[] elements, block b (row-major over the block grid)
 * on process b % nprocs. Proc-grid layout: ScaLAPACK's, on a proc_grid[] of nprocs processes. */
extern void GA_Set_block_cyclic(int g_a, int dims[]);
extern void NGA_Set_block_cyclic(int g_a, int dims[]);
extern void GA_Set_block_cyclic64(int g_a, int64_t dims[]);
extern void NGA_Set_block_cyclic64(int g_a, int64_t dims[]);
extern void GA_Set_block_cyclic_proc_grid(int g_a, int block[], int proc_grid[]);
extern void NGA_Set_block_cyclic_proc_grid(int g_a, int block[], int proc_grid[]);
extern void GA_Set_block_cyclic_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]);
extern void NGA_Set_block_cyclic_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]);
/* Tiled: blocks owned as in the proc-grid layout, each process's tiles stored one after another. */
extern void GA_Set_tiled_proc_grid(int g_a, int block[], int proc_grid[]);
extern void NGA_Set_tiled_proc_grid(int g_a, int block[], int proc_grid[]);
extern void GA_Set_tiled_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]);
extern void NGA_Set_tiled_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]);
extern int GA_Total_blocks(int g_a);
extern int NGA_Total_blocks(int g_a);
extern int GA_Uses_proc_grid(int g_a);
extern int NGA_Uses_proc_grid(int g_a);
extern void GA_Get_block_info(int g_a, int num_blocks[], int block_dims[]);
extern void NGA_Get_block_info(int g_a, int num_blocks[], int block_dims[]);
extern void GA_Nblock(int g_a, int* nblock);
extern void NGA_Nblock(int g_a, int* nblock);
extern int NGA_Locate_num_blocks(int g_a, int lo[], int hi[]);
extern void NGA_Access_block(int g_a, int idx, void* ptr, int ld[]);
extern void NGA_Access_block64(int g_a, int64_t idx, void* ptr, int64_t ld[]);
extern void NGA_Access_block_grid(int g_a, int index[], void* ptr, int ld[]);
extern void NGA_Access_block_grid64(int g_a, int64_t index[], void* ptr, int64_t ld[]);
extern void NGA_Access_block_segment(int g_a, int proc, void* ptr, int* len);
extern void NGA_Access_block_segment64(int g_a, int proc, void* ptr, int64_t* len);
extern void NGA_Release_block(int g_a, int idx);
extern void NGA_Release_block_grid(int g_a, int index[]);
extern void NGA_Release_block_segment(int g_a, int idx);
extern void NGA_Release_update_block(int g_a, int idx);
extern void NGA_Release_update_block_grid(int g_a, int index[]);
extern void NGA_Release_update_block_segment(int g_a, int idx);

#ifdef __cplusplus
}
#endif

#endif
