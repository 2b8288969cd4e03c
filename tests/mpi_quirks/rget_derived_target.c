/* Reproducer: MPI_Rget whose target datatype is derived (noncontiguous), then MPI_Wait.
 *
 * MPICH 4.0.2 (Debian 12): MPI_Wait returns, but the data is not in the origin buffer yet; it
 * arrives with a following MPI_Win_flush_local. A contiguous target type, and MPI_Get +
 * MPI_Win_flush_local, are fine. Open MPI is fine.
 * Armada's mpi-rma transport flushes a get locally after waiting for its request. This program
 * checks that the workaround delivers the data (exit 0) and says whether the bug is present. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { kCount = 128 };

int main(int argc, char** argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double* mem = malloc(8 * kCount * sizeof(double));
  for (int i = 0; i < 8 * kCount; ++i) mem[i] = 1000.0 * rank + i;
  MPI_Win win;
  MPI_Win_create(mem, 8 * kCount * sizeof(double), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);

  /* Every 8th double of the target, from the 5th on, into a contiguous buffer. */
  MPI_Datatype every8th;
  MPI_Type_vector(kCount, 1, 8, MPI_DOUBLE, &every8th);
  MPI_Type_commit(&every8th);
  const int target = (rank + 1) % size;
  double* out = calloc(kCount, sizeof(double));
  MPI_Request request;
  MPI_Rget(out, kCount, MPI_DOUBLE, target, 4 * sizeof(double), 1, every8th, win, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  int missing_after_wait = 0;
  for (int k = 0; k < kCount; ++k) missing_after_wait += out[k] != 1000.0 * target + 8 * k + 4;
  MPI_Win_flush_local(target, win);  /* the workaround */
  int wrong = 0;
  for (int k = 0; k < kCount; ++k) wrong += out[k] != 1000.0 * target + 8 * k + 4;

  MPI_Type_free(&every8th);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Allreduce(MPI_IN_PLACE, &missing_after_wait, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("Rget with a derived target type: %s after MPI_Wait; %s after MPI_Win_flush_local\n",
           missing_after_wait ? "data MISSING (the bug)" : "data in place",
           wrong ? "STILL WRONG" : "data in place");
  free(out);
  free(mem);
  MPI_Finalize();
  return wrong != 0;
}
