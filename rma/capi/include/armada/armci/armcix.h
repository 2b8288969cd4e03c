/*
 * armcix.h: the ARMCI-MPI 0.3.1 extensions (group split/dup, mutex handles) of Armada's
 * ARMCI-compatible C API, with ARMCI-MPI's declarations and struct layout.
 */
#ifndef _ARMCIX_H_
#define _ARMCIX_H_

#include <stdint.h>

#include "armci.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Processor group extensions. Collective over the parent group; return 0 on success. */

int ARMCIX_Group_split(ARMCI_Group *parent, int color, int key, ARMCI_Group *new_group);
int ARMCIX_Group_dup(ARMCI_Group *parent, ARMCI_Group *new_group);

/** Mutex handles: independent batches of mutexes, each on a group, so that libraries can have
  * mutexes of their own. Create and destroy are collective over the group; the proc argument of
  * Lock/Trylock/Unlock is an absolute (world) rank. Armada fills my_count, max_count and grp;
  * windows and bases are NULL (its mutexes are not MPI windows). */

struct armcix_mutex_hdl_s {
  int         my_count;   /* mutexes on the calling process */
  int         max_count;  /* most mutexes on any member */
  ARMCI_Group grp;        /* the group the batch was created on */
  MPI_Win    *windows;
  uint8_t   **bases;
};

typedef struct armcix_mutex_hdl_s * armcix_mutex_hdl_t;

armcix_mutex_hdl_t ARMCIX_Create_mutexes_hdl(int count, ARMCI_Group *pgroup);
int  ARMCIX_Destroy_mutexes_hdl(armcix_mutex_hdl_t hdl);
void ARMCIX_Lock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);
/* Returns 0 if the mutex was taken, nonzero if someone else holds it. */
int  ARMCIX_Trylock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);
void ARMCIX_Unlock_hdl(armcix_mutex_hdl_t hdl, int mutex, int proc);

/* Progress is unilateral in Armada: this returns at once. */
void ARMCIX_Progress(void);

#ifdef __cplusplus
}
#endif

#endif /* _ARMCIX_H_ */
