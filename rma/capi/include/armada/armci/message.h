/*
 * message.h: the ARMCI message layer (armci_msg_*) of Armada's ARMCI-compatible C API, with the
 * declarations and enum values of ARMCI-MPI 0.3.1. Included by armci.h.
 *
 * Ranks are ranks of the ARMCI world; roots are world ranks too, also in the group variants (as
 * in ARMCI-MPI: Global Arrays passes ARMCI_Absolute_id of its group root). Every call is
 * collective over its scope except snd/rcv/rcvany, me/nproc, timer and abort.
 *
 * Scopes follow the SMP domains of armci_domain_* (one process each, see docs/armci.md):
 * SCOPE_ALL is every process of the world (or group), SCOPE_NODE the calling process alone,
 * SCOPE_MASTERS every domain's master, i.e. every process, as in ARMCI-MPI.
 *
 * Reduction op strings: "+", "*", "max", "min", "absmax", "absmin" (reduce |x|), and for the
 * integer types the bitwise "or" (also "|"), "and" ("&"), "xor" ("^") and the logical "||", "&&".
 * armci_msg_sel and _sel_scope select with "min" or "max".
 */
#ifndef HAVE_ARMCI_MSG_H
#define HAVE_ARMCI_MSG_H

#include "armci.h"

#ifdef __cplusplus
extern "C" {
#endif

enum armci_scope_e { SCOPE_ALL, SCOPE_NODE, SCOPE_MASTERS};

enum armci_type_e  { ARMCI_INT, ARMCI_LONG, ARMCI_LONG_LONG, ARMCI_FLOAT, ARMCI_DOUBLE };

/* Utility routines */

/* From Global Arrays' own ARMCI (not in ARMCI-MPI): armci_msg_init starts MPI unless it runs
 * (MPI_THREAD_MULTIPLE, like ARMCI_Init); armci_msg_finalize ends ARMCI if it is still
 * initialized, then finalizes MPI unless it is finalized already. */
void armci_msg_init(int *argc, char ***argv);
void armci_msg_finalize(void);

int  armci_msg_me(void);
int  armci_msg_nproc(void);

void armci_msg_abort(int code);
double armci_timer(void);

/* Send/Recv */

void armci_msg_snd(int tag, void *buffer, int len, int to);
void armci_msg_rcv(int tag, void *buffer, int buflen, int *msglen, int from);
int  armci_msg_rcvany(int tag, void *buffer, int buflen, int *msglen);

/* Assorted Collectives */

void armci_msg_barrier(void);
void armci_msg_group_barrier(ARMCI_Group *group);
void armci_msg_bintree(int scope, int *Root, int *Up, int *Left, int *Right);

void armci_msg_bcast(void *buffer, int len, int root);
void armci_msg_bcast_scope(int scope, void *buffer, int len, int root);
void armci_msg_brdcst(void *buffer, int len, int root);
void armci_msg_group_bcast_scope(int scope, void *buf, int len, int root, ARMCI_Group *group);

/* Reduce to world rank 0 (the others' x is left unchanged). */
void armci_msg_reduce(void *x, int n, char *op, int type);
void armci_msg_reduce_scope(int scope, void *x, int n, char *op, int type);

void armci_msg_sel(void *x, int n, char *op, int type, int contribute);
void armci_msg_sel_scope(int scope, void *x, int n, char *op, int type, int contribute);

/* Every process sets ptr_ar[me] (n = number of processes); afterwards all entries are filled. */
void armci_exchange_address(void *ptr_ar[], int n);

/* "clus" operations act within the caller's SMP domain (the calling process). */
void armci_msg_clus_brdcst(void *buf, int len);
void armci_msg_clus_igop(int *x, int n, char *op);
void armci_msg_clus_fgop(float *x, int n, char *op);
void armci_msg_clus_lgop(long *x, int n, char *op);
void armci_msg_clus_llgop(long long *x, int n, char *op);
void armci_msg_clus_dgop(double *x, int n, char *op);

void armci_exchange_address_grp(void *ptr_arr[], int n, ARMCI_Group *group);
void armci_grp_clus_brdcst(void *buf, int len, int grp_master, int grp_clus_nproc,ARMCI_Group *mastergroup);

/* Global Operations / Reduction Operations */

void armci_msg_gop_scope(int scope, void *x, int n, char *op, int type);
void armci_msg_igop(int *x, int n, char *op);
void armci_msg_lgop(long *x, int n, char *op);
void armci_msg_llgop(long long *x, int n, char *op);
void armci_msg_fgop(float *x, int n, char *op);
void armci_msg_dgop(double *x, int n, char *op);

void armci_msg_group_gop_scope(int scope, void *x, int n, char *op, int type, ARMCI_Group *group);
void armci_msg_group_igop(int *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_lgop(long *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_llgop(long long *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_fgop(float *x, int n, char *op, ARMCI_Group *group);
void armci_msg_group_dgop(double *x, int n,char *op, ARMCI_Group *group);

#ifdef __cplusplus
}
#endif

#endif /* HAVE_ARMCI_MSG_H */
