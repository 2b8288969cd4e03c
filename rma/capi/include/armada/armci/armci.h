/*
 * armci.h: Armada's ARMCI-compatible C API (library libarmada_armci, CMake target armada::armci,
 * pkg-config package armada-armci). See docs/armci.md.
 *
 * Declarations, constants, enum values and struct layouts are those of ARMCI-MPI 0.3.1, so that
 * programs and libraries compiled against ARMCI-MPI (Debian's Global Arrays among them) link
 * against Armada unchanged. Layouts that compiled code depends on (checked by static_asserts in
 * the library and its tests): armci_hdl_t is 8 bytes and is stored by value, ARMCI_Group starts
 * with its MPI_Comm (40 bytes with Open MPI), armci_giov_t is 24 bytes.
 *
 * Rank arguments ("proc") are ranks of the ARMCI world: the communicator ARMCI was initialized
 * on. Remote addresses are addresses in the target's address space as ARMCI_Malloc returned them.
 *
 * Armada's additions are at the end, marked: size_t variants of the calls that take int byte
 * counts (suffix _c), three calls of Global Arrays' own ARMCI, and an error hook.
 */
#ifndef _ARMCI_H_
#define _ARMCI_H_

#include <mpi.h>
#include <stddef.h>

#define ARMCI_MPI 3

/* Marks Armada's implementation (programs may test for its extensions). */
#define ARMCI_ARMADA 1

#ifdef __cplusplus
extern "C" {
#endif

enum  ARMCI_Acc_e { ARMCI_ACC_INT /*     int */, ARMCI_ACC_LNG /*           long */,
                    ARMCI_ACC_FLT /*   float */, ARMCI_ACC_DBL /*         double */,
                    ARMCI_ACC_CPL /* complex */, ARMCI_ACC_DCP /* double complex */ };

typedef long armci_size_t;
#define ARMCII_MPI_SIZE_T MPI_LONG

/* ---- initialization (collective over the world) --------------------------------------------- */

int   ARMCI_Init(void);
int   ARMCI_Init_args(int *argc, char ***argv);
int   ARMCI_Init_thread(int armci_requested);
int   ARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm);
int   ARMCI_Initialized(void);

int   ARMCI_Finalize(void);
void  ARMCI_Cleanup(void);

void  ARMCI_Error(const char *msg, int code);

/* ---- memory --------------------------------------------------------------------------------- */

int   ARMCI_Malloc(void **base_ptrs, armci_size_t size);
int   ARMCI_Free(void *ptr);

void *ARMCI_Malloc_local(armci_size_t size);
int   ARMCI_Free_local(void *ptr);

/* ---- completion ----------------------------------------------------------------------------- */

void  ARMCI_Barrier(void);
void  ARMCI_Fence(int proc);
void  ARMCI_AllFence(void);

void  ARMCI_Access_begin(void *ptr);
void  ARMCI_Access_end(void *ptr);

/* ---- contiguous and strided ----------------------------------------------------------------- */

void  ARMCI_Copy(void *src, void *dst, int size);

int   ARMCI_Get(void *src, void *dst, int size, int target);
int   ARMCI_Put(void *src, void *dst, int size, int target);
int   ARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes, int proc);

int   ARMCI_PutS(void *src_ptr, int src_stride_ar[/*stride_levels*/],
                 void *dst_ptr, int dst_stride_ar[/*stride_levels*/],
                 int count[/*stride_levels+1*/], int stride_levels, int proc);
int   ARMCI_GetS(void *src_ptr, int src_stride_ar[/*stride_levels*/],
                 void *dst_ptr, int dst_stride_ar[/*stride_levels*/],
                 int count[/*stride_levels+1*/], int stride_levels, int proc);
int   ARMCI_AccS(int datatype, void *scale,
                 void *src_ptr, int src_stride_ar[/*stride_levels*/],
                 void *dst_ptr, int dst_stride_ar[/*stride_levels*/],
                 int count[/*stride_levels+1*/], int stride_levels, int proc);

int   ARMCI_Put_flag(void *src, void* dst, int size, int *flag, int value, int proc);
/* Put with notification (classic ARMCI): armci_notify(proc) completes this process's earlier
 * operations to proc, then raises proc's count of notifications from this process; it returns
 * the number of notifications sent to proc so far. armci_notify_wait(proc, &n) waits until proc
 * has notified this process as often as this process has waited on proc (this call included),
 * stores that number of waits in *n and returns the count of notifications received. */
int   armci_notify(int proc);
int   armci_notify_wait(int proc, int *pval);
int   ARMCI_PutS_flag(void *src_ptr, int src_stride_ar[/*stride_levels*/],
                 void *dst_ptr, int dst_stride_ar[/*stride_levels*/],
                 int count[/*stride_levels+1*/], int stride_levels,
                 int *flag, int value, int proc);

/* ---- nonblocking ---------------------------------------------------------------------------- */

/* A handle is a value (programs copy it): Armada keeps the number of its request in `target` and
 * the aggregate mark in `aggregate`. Only the ARMCI calls below may change them. */
typedef struct armci_hdl_s
{
    int target;
    int aggregate;
}
armci_hdl_t;

void  ARMCI_INIT_HANDLE(armci_hdl_t *hdl);
void  ARMCI_SET_AGGREGATE_HANDLE(armci_hdl_t* handle);
void  ARMCI_UNSET_AGGREGATE_HANDLE(armci_hdl_t* handle);

int   ARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int   ARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int   ARMCI_NbAcc(int datatype, void *scale, void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);

int   ARMCI_Wait(armci_hdl_t* hdl);
int   ARMCI_Test(armci_hdl_t* hdl);
int   ARMCI_WaitProc(int proc);
int   ARMCI_WaitAll(void);

int   ARMCI_NbPutS(void *src_ptr, int src_stride_ar[/*stride_levels*/],
                   void *dst_ptr, int dst_stride_ar[/*stride_levels*/],
                   int count[/*stride_levels+1*/], int stride_levels, int proc, armci_hdl_t *hdl);
int   ARMCI_NbGetS(void *src_ptr, int src_stride_ar[/*stride_levels*/],
                   void *dst_ptr, int dst_stride_ar[/*stride_levels*/],
                   int count[/*stride_levels+1*/], int stride_levels, int proc, armci_hdl_t *hdl);
int   ARMCI_NbAccS(int datatype, void *scale,
                   void *src_ptr, int src_stride_ar[/*stride_levels*/],
                   void *dst_ptr, int dst_stride_ar[/*stride_levels*/],
                   int count[/*stride_levels+1*/], int stride_levels, int proc, armci_hdl_t *hdl);

void armci_write_strided(void *ptr, int stride_levels, int stride_arr[], int count[], char *buf);
void armci_read_strided(void *ptr, int stride_levels, int stride_arr[], int count[], char *buf);

/* ---- generalized I/O vectors ---------------------------------------------------------------- */

typedef struct {
  void **src_ptr_array;  /* source address of each segment */
  void **dst_ptr_array;  /* destination address of each segment */
  int    bytes;          /* length of every segment in bytes */
  int    ptr_array_len;  /* number of segments */
} armci_giov_t;

int ARMCI_PutV(armci_giov_t *iov, int iov_len, int proc);
int ARMCI_GetV(armci_giov_t *iov, int iov_len, int proc);
int ARMCI_AccV(int datatype, void *scale, armci_giov_t *iov, int iov_len, int proc);

int ARMCI_NbPutV(armci_giov_t *iov, int iov_len, int proc, armci_hdl_t* handle);
int ARMCI_NbGetV(armci_giov_t *iov, int iov_len, int proc, armci_hdl_t* handle);
int ARMCI_NbAccV(int datatype, void *scale, armci_giov_t *iov, int iov_len, int proc, armci_hdl_t* handle);

/* ---- values --------------------------------------------------------------------------------- */

int ARMCI_PutValueInt(int src, void *dst, int proc);
int ARMCI_PutValueLong(long src, void *dst, int proc);
int ARMCI_PutValueFloat(float src, void *dst, int proc);
int ARMCI_PutValueDouble(double src, void *dst, int proc);

int ARMCI_NbPutValueInt(int src, void *dst, int proc, armci_hdl_t *hdl);
int ARMCI_NbPutValueLong(long src, void *dst, int proc, armci_hdl_t *hdl);
int ARMCI_NbPutValueFloat(float src, void *dst, int proc, armci_hdl_t *hdl);
int ARMCI_NbPutValueDouble(double src, void *dst, int proc, armci_hdl_t *hdl);

int    ARMCI_GetValueInt(void *src, int proc);
long   ARMCI_GetValueLong(void *src, int proc);
float  ARMCI_GetValueFloat(void *src, int proc);
double ARMCI_GetValueDouble(void *src, int proc);

/* ---- mutexes -------------------------------------------------------------------------------- */

int   ARMCI_Create_mutexes(int count);
int   ARMCI_Destroy_mutexes(void);
void  ARMCI_Lock(int mutex, int proc);
void  ARMCI_Unlock(int mutex, int proc);

/* ---- read-modify-write ---------------------------------------------------------------------- */

enum ARMCI_Rmw_e { ARMCI_FETCH_AND_ADD, ARMCI_FETCH_AND_ADD_LONG,
                   ARMCI_SWAP, ARMCI_SWAP_LONG };

int ARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc);

/* ---- groups --------------------------------------------------------------------------------- */

typedef struct {
  MPI_Comm  comm;                 /* the group's communicator (MPI_COMM_NULL on non-members) */
  MPI_Comm  noncoll_pgroup_comm;  /* not used by Armada: MPI_COMM_NULL */
  int      *grp_to_abs;           /* group rank -> absolute (world) rank */
  int      *abs_to_grp;           /* world rank -> group rank, MPI_UNDEFINED for non-members */
  int       rank;                 /* this process's group rank, -1 if not a member */
  int       size;                 /* number of members, 0 on non-members */
} ARMCI_Group;

void ARMCI_Group_create(int grp_size, int *pid_list, ARMCI_Group *group_out);
void ARMCI_Group_create_child(int grp_size, int *pid_list, ARMCI_Group *group_out, ARMCI_Group *group_parent);
void ARMCI_Group_free(ARMCI_Group *group);

int  ARMCI_Group_rank(ARMCI_Group *group, int *rank);
void ARMCI_Group_size(ARMCI_Group *group, int *size);

void ARMCI_Group_set_default(ARMCI_Group *group);
void ARMCI_Group_get_default(ARMCI_Group *group_out);
void ARMCI_Group_get_world(ARMCI_Group *group_out);

int ARMCI_Absolute_id(ARMCI_Group *group,int group_rank);

int ARMCI_Malloc_group(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group);
int ARMCI_Free_group(void *ptr, ARMCI_Group *group);

#ifdef __cplusplus
}
#endif

/* The message layer (armci_msg_*) is declared in its own file; it needs ARMCI_Group. */
#include "message.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- topology ------------------------------------------------------------------------------- */

enum armci_domain_e { ARMCI_DOMAIN_SMP };

typedef int armci_domain_t;

int armci_domain_nprocs(armci_domain_t domain, int id);
int armci_domain_id(armci_domain_t domain, int glob_proc_id);
int armci_domain_glob_proc_id(armci_domain_t domain, int id, int loc_proc_id);
int armci_domain_my_id(armci_domain_t domain);
int armci_domain_count(armci_domain_t domain);
int armci_domain_same_id(armci_domain_t domain, int proc);

int ARMCI_Same_node(int proc);

/* ---- odds and ends -------------------------------------------------------------------------- */

int  ARMCI_Uses_shm(void);
void ARMCI_Set_shm_limit(unsigned long shmemlimit);
int  ARMCI_Uses_shm_grp(ARMCI_Group *group);

/* ---- PARMCI: the profiling interface ---------------------------------------------------------
 * PARMCI_X is the implementation and ARMCI_X a weak alias of it: a tool that defines ARMCI_X
 * itself takes its place and forwards to PARMCI_X. */

int     PARMCI_Init(void);
int     PARMCI_Init_args(int *argc, char ***argv);
int     PARMCI_Init_thread(int armci_requested);
int     PARMCI_Init_thread_comm(int armci_requested, MPI_Comm comm);
int     PARMCI_Initialized(void);
int     PARMCI_Finalize(void);

int     PARMCI_Malloc(void **base_ptrs, armci_size_t size);
int     PARMCI_Free(void *ptr);
void   *PARMCI_Malloc_local(armci_size_t size);
int     PARMCI_Free_local(void *ptr);

void    PARMCI_Barrier(void);
void    PARMCI_Fence(int proc);
void    PARMCI_AllFence(void);
void    PARMCI_Access_begin(void *ptr);
void    PARMCI_Access_end(void *ptr);

int     PARMCI_Get(void *src, void *dst, int size, int target);
int     PARMCI_Put(void *src, void *dst, int size, int target);
int     PARMCI_Acc(int datatype, void *scale, void *src, void *dst, int bytes, int proc);

int     PARMCI_PutS(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                 int count[], int stride_levels, int proc);
int     PARMCI_GetS(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                 int count[], int stride_levels, int proc);
int     PARMCI_AccS(int datatype, void *scale, void *src_ptr, int src_stride_ar[],
                 void *dst_ptr, int dst_stride_ar[], int count[], int stride_levels, int proc);
int     PARMCI_Put_flag(void *src, void* dst, int size, int *flag, int value, int proc);
int     PARMCI_PutS_flag(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                 int count[], int stride_levels, int *flag, int value, int proc);

int     PARMCI_PutV(armci_giov_t *iov, int iov_len, int proc);
int     PARMCI_GetV(armci_giov_t *iov, int iov_len, int proc);
int     PARMCI_AccV(int datatype, void *scale, armci_giov_t *iov, int iov_len, int proc);

int     PARMCI_Wait(armci_hdl_t* hdl);
int     PARMCI_Test(armci_hdl_t* hdl);
int     PARMCI_WaitProc(int proc);
int     PARMCI_WaitAll(void);

int     PARMCI_NbPut(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int     PARMCI_NbGet(void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int     PARMCI_NbAcc(int datatype, void *scale, void *src, void *dst, int bytes, int proc, armci_hdl_t *hdl);
int     PARMCI_NbPutS(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                   int count[], int stride_levels, int proc, armci_hdl_t *hdl);
int     PARMCI_NbGetS(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                   int count[], int stride_levels, int proc, armci_hdl_t *hdl);
int     PARMCI_NbAccS(int datatype, void *scale, void *src_ptr, int src_stride_ar[],
                   void *dst_ptr, int dst_stride_ar[], int count[], int stride_levels, int proc, armci_hdl_t *hdl);
int     PARMCI_NbPutV(armci_giov_t *iov, int iov_len, int proc, armci_hdl_t* handle);
int     PARMCI_NbGetV(armci_giov_t *iov, int iov_len, int proc, armci_hdl_t* handle);
int     PARMCI_NbAccV(int datatype, void *scale, armci_giov_t *iov, int iov_len, int proc, armci_hdl_t* handle);

int     PARMCI_PutValueInt(int src, void *dst, int proc);
int     PARMCI_PutValueLong(long src, void *dst, int proc);
int     PARMCI_PutValueFloat(float src, void *dst, int proc);
int     PARMCI_PutValueDouble(double src, void *dst, int proc);
int     PARMCI_NbPutValueInt(int src, void *dst, int proc, armci_hdl_t *hdl);
int     PARMCI_NbPutValueLong(long src, void *dst, int proc, armci_hdl_t *hdl);
int     PARMCI_NbPutValueFloat(float src, void *dst, int proc, armci_hdl_t *hdl);
int     PARMCI_NbPutValueDouble(double src, void *dst, int proc, armci_hdl_t *hdl);

int     PARMCI_GetValueInt(void *src, int proc);
long    PARMCI_GetValueLong(void *src, int proc);
float   PARMCI_GetValueFloat(void *src, int proc);
double  PARMCI_GetValueDouble(void *src, int proc);

int     PARMCI_Create_mutexes(int count);
int     PARMCI_Destroy_mutexes(void);
void    PARMCI_Lock(int mutex, int proc);
void    PARMCI_Unlock(int mutex, int proc);
int     PARMCI_Rmw(int op, void *ploc, void *prem, int value, int proc);

void    parmci_msg_barrier(void);
void    parmci_msg_group_barrier(ARMCI_Group *group);

/* Memory placement hints of ARMCI-MPI (SICM); Armada ignores the device. */

int ARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes, const char* device);
int ARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group, const char *device);
int ARMCI_Free_memdev(void *ptr);

int PARMCI_Malloc_memdev(void **ptr_arr, armci_size_t bytes, const char* device);
int PARMCI_Malloc_group_memdev(void **ptr_arr, armci_size_t bytes, ARMCI_Group *group, const char *device);
int PARMCI_Free_memdev(void *ptr);

/* ==== Armada additions ======================================================================= */

/* ---- from Global Arrays' own ARMCI -----------------------------------------------------------
 * Init on a communicator (thread level MPI_THREAD_SINGLE), fence every member of a group, and the
 * "direct" flag put (every put is direct here). */
int  ARMCI_Init_mpi_comm(MPI_Comm comm);
int  PARMCI_Init_mpi_comm(MPI_Comm comm);
void ARMCI_GroupFence(ARMCI_Group *group);
int  ARMCI_PutS_flag_dir(void *src_ptr, int src_stride_ar[], void *dst_ptr, int dst_stride_ar[],
                         int count[], int stride_levels, int *flag, int value, int proc);

/* ---- size_t variants -------------------------------------------------------------------------
 * Same semantics as the call without _c; byte counts, strides, counts and lengths are size_t, so
 * one call may move more than 2 GiB. */

typedef struct {
  void  **src_ptr_array;
  void  **dst_ptr_array;
  size_t  bytes;
  size_t  ptr_array_len;
} armci_giov_c_t;

void ARMCI_Copy_c(void *src, void *dst, size_t size);
int  ARMCI_Put_c(void *src, void *dst, size_t bytes, int proc);
int  ARMCI_Get_c(void *src, void *dst, size_t bytes, int proc);
int  ARMCI_Acc_c(int datatype, void *scale, void *src, void *dst, size_t bytes, int proc);
int  ARMCI_NbPut_c(void *src, void *dst, size_t bytes, int proc, armci_hdl_t *hdl);
int  ARMCI_NbGet_c(void *src, void *dst, size_t bytes, int proc, armci_hdl_t *hdl);
int  ARMCI_NbAcc_c(int datatype, void *scale, void *src, void *dst, size_t bytes, int proc,
                   armci_hdl_t *hdl);
int  ARMCI_Put_flag_c(void *src, void *dst, size_t bytes, int *flag, int value, int proc);

int  ARMCI_PutS_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr, size_t dst_stride_ar[],
                  size_t count[], int stride_levels, int proc);
int  ARMCI_GetS_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr, size_t dst_stride_ar[],
                  size_t count[], int stride_levels, int proc);
int  ARMCI_AccS_c(int datatype, void *scale, void *src_ptr, size_t src_stride_ar[],
                  void *dst_ptr, size_t dst_stride_ar[], size_t count[], int stride_levels, int proc);
int  ARMCI_NbPutS_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr, size_t dst_stride_ar[],
                    size_t count[], int stride_levels, int proc, armci_hdl_t *hdl);
int  ARMCI_NbGetS_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr, size_t dst_stride_ar[],
                    size_t count[], int stride_levels, int proc, armci_hdl_t *hdl);
int  ARMCI_NbAccS_c(int datatype, void *scale, void *src_ptr, size_t src_stride_ar[],
                    void *dst_ptr, size_t dst_stride_ar[], size_t count[], int stride_levels,
                    int proc, armci_hdl_t *hdl);
int  ARMCI_PutS_flag_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr,
                       size_t dst_stride_ar[], size_t count[], int stride_levels, int *flag,
                       int value, int proc);

int  ARMCI_PutV_c(armci_giov_c_t *iov, size_t iov_len, int proc);
int  ARMCI_GetV_c(armci_giov_c_t *iov, size_t iov_len, int proc);
int  ARMCI_AccV_c(int datatype, void *scale, armci_giov_c_t *iov, size_t iov_len, int proc);
int  ARMCI_NbPutV_c(armci_giov_c_t *iov, size_t iov_len, int proc, armci_hdl_t *handle);
int  ARMCI_NbGetV_c(armci_giov_c_t *iov, size_t iov_len, int proc, armci_hdl_t *handle);
int  ARMCI_NbAccV_c(int datatype, void *scale, armci_giov_c_t *iov, size_t iov_len, int proc,
                    armci_hdl_t *handle);

/* PARMCI twins of the size_t variants. */
int  PARMCI_Put_c(void *src, void *dst, size_t bytes, int proc);
int  PARMCI_Get_c(void *src, void *dst, size_t bytes, int proc);
int  PARMCI_Acc_c(int datatype, void *scale, void *src, void *dst, size_t bytes, int proc);
int  PARMCI_NbPut_c(void *src, void *dst, size_t bytes, int proc, armci_hdl_t *hdl);
int  PARMCI_NbGet_c(void *src, void *dst, size_t bytes, int proc, armci_hdl_t *hdl);
int  PARMCI_NbAcc_c(int datatype, void *scale, void *src, void *dst, size_t bytes, int proc,
                    armci_hdl_t *hdl);
int  PARMCI_Put_flag_c(void *src, void *dst, size_t bytes, int *flag, int value, int proc);
int  PARMCI_PutS_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr, size_t dst_stride_ar[],
                   size_t count[], int stride_levels, int proc);
int  PARMCI_GetS_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr, size_t dst_stride_ar[],
                   size_t count[], int stride_levels, int proc);
int  PARMCI_AccS_c(int datatype, void *scale, void *src_ptr, size_t src_stride_ar[],
                   void *dst_ptr, size_t dst_stride_ar[], size_t count[], int stride_levels, int proc);
int  PARMCI_NbPutS_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr, size_t dst_stride_ar[],
                     size_t count[], int stride_levels, int proc, armci_hdl_t *hdl);
int  PARMCI_NbGetS_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr, size_t dst_stride_ar[],
                     size_t count[], int stride_levels, int proc, armci_hdl_t *hdl);
int  PARMCI_NbAccS_c(int datatype, void *scale, void *src_ptr, size_t src_stride_ar[],
                     void *dst_ptr, size_t dst_stride_ar[], size_t count[], int stride_levels,
                     int proc, armci_hdl_t *hdl);
int  PARMCI_PutS_flag_c(void *src_ptr, size_t src_stride_ar[], void *dst_ptr,
                        size_t dst_stride_ar[], size_t count[], int stride_levels, int *flag,
                        int value, int proc);
int  PARMCI_PutV_c(armci_giov_c_t *iov, size_t iov_len, int proc);
int  PARMCI_GetV_c(armci_giov_c_t *iov, size_t iov_len, int proc);
int  PARMCI_AccV_c(int datatype, void *scale, armci_giov_c_t *iov, size_t iov_len, int proc);
int  PARMCI_NbPutV_c(armci_giov_c_t *iov, size_t iov_len, int proc, armci_hdl_t *handle);
int  PARMCI_NbGetV_c(armci_giov_c_t *iov, size_t iov_len, int proc, armci_hdl_t *handle);
int  PARMCI_NbAccV_c(int datatype, void *scale, armci_giov_c_t *iov, size_t iov_len, int proc,
                     armci_hdl_t *handle);

/* ---- errors ----------------------------------------------------------------------------------
 * By default a failed call (a bad argument, a call in the wrong state, a refusal of the OS or of
 * MPI) prints one line naming the rank, the function, the argument and its value, and aborts the
 * job, as ARMCI-MPI does. With a hook installed, the hook receives that message instead and the
 * call returns: int calls return one of the codes below, pointer calls NULL, value calls 0, void
 * calls nothing. ARMCI_Error and armci_msg_abort call the hook too, then always abort. */

enum armada_armci_error_e {
  ARMADA_ARMCI_EARG         = -1,  /* an argument is out of range or inconsistent */
  ARMADA_ARMCI_ESTATE       = -2,  /* wrong state: not initialized, no mutexes, ... */
  ARMADA_ARMCI_EUNSUPPORTED = -3,  /* no path to the target in this configuration */
  ARMADA_ARMCI_ESYSTEM      = -4,  /* the OS or MPI refused (the message says why) */
  ARMADA_ARMCI_EINTERNAL    = -5   /* anything else */
};

typedef void (*armada_armci_error_hook_t)(const char *function, int code, const char *message,
                                          void *context);

/* Installs `hook` with `context` (NULL restores aborting) and returns the previous hook.
 * Process-wide and thread-safe; may be called before ARMCI_Init. */
armada_armci_error_hook_t armada_armci_set_error_hook(armada_armci_error_hook_t hook,
                                                      void *context);

#ifdef __cplusplus
}
#endif

#endif /* _ARMCI_H_ */
