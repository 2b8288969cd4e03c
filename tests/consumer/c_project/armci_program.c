/* An ARMCI program built outside Armada's tree, including the headers the way ARMCI programs
 * do ("message.h" by itself): puts to the right neighbour, sums with armci_msg_igop, exits 1 on
 * a wrong value. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include <armci.h>
#include "message.h"

int main(int argc, char** argv) {
  int rank, size, right, wrong = 0, sum;
  int** bases;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &sum);
  ARMCI_Init();
  rank = armci_msg_me();
  size = armci_msg_nproc();
  right = (rank + 1) % size;
  bases = malloc(sizeof(int*) * (size_t)size);
  ARMCI_Malloc((void**)bases, sizeof(int));
  ARMCI_Put(&rank, bases[right], sizeof(int), right);
  ARMCI_Barrier();
  wrong = *bases[rank] != (rank + size - 1) % size;
  sum = 1;
  armci_msg_igop(&sum, 1, "+");
  wrong |= sum != size;
  ARMCI_Free(bases[rank]);
  free(bases);
  ARMCI_Finalize();
  MPI_Finalize();
  if (wrong) fprintf(stderr, "armci_program: rank %d: wrong values\n", rank);
  else if (rank == 0) printf("armci_program: correct\n");
  return wrong;
}
