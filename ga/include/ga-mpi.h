/* Armada's Global Arrays C API: the MPI communicators behind GA's process groups (GA 5.8's
 * ga-mpi.h). Each is a communicator of Armada's runtime: use it, do not free it. */
#ifndef ARMADA_GA_GA_MPI_H
#define ARMADA_GA_GA_MPI_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The world's communicator (every rank GA_Initialize started on). */
extern MPI_Comm GA_MPI_Comm(void);
/* The communicator of process group `pgroup` (MPI_COMM_NULL on a rank outside it). */
extern MPI_Comm GA_MPI_Comm_pgroup(int pgroup);
/* The communicator of the default process group. */
extern MPI_Comm GA_MPI_Comm_pgroup_default(void);

#ifdef __cplusplus
}
#endif

#endif
