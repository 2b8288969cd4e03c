/* Reproducer: MPI_Win_create on the disjoint halves of an MPI_Comm_split, at the same time.
 *
 * Open MPI 4.1.4, osc rdma: window creation fails on one half ("A system call failed during
 * shared memory initialization ... open(2) No such file or directory", then MPI_ERR_WIN). The
 * halves get the same context id, and osc rdma names its shared-memory backing file after it,
 * so one half's file is unlinked under the other. A communicator of one rank fails the same way.
 *   OMPI_MCA_osc=rdma mpiexec -n 4 osc_split_window  -> fails
 *   OMPI_MCA_osc=ucx  mpiexec -n 4 osc_split_window  -> passes (what Armada's mpi-rma uses)
 * Armada creates one window per segment on the segment's group communicator, so allocations
 * on groups (GA process groups) hit this. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_set_errhandler(half, MPI_ERRORS_RETURN);
  int64_t* cell = calloc(1, sizeof *cell);
  MPI_Win win;
  int bad = MPI_Win_create(cell, sizeof *cell, 1, MPI_INFO_NULL, half, &win) != MPI_SUCCESS;
  if (!bad) {
    /* Use it: every rank adds 1 to rank 0 of its half. */
    MPI_Win_lock_all(0, win);
    const int64_t one = 1;
    int64_t old;
    MPI_Fetch_and_op(&one, &old, MPI_INT64_T, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    MPI_Win_unlock_all(win);
    MPI_Barrier(half);
    int n;
    MPI_Comm_size(half, &n);
    int hr;
    MPI_Comm_rank(half, &hr);
    if (hr == 0) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      MPI_Win_unlock(0, win);
      bad = *cell != n;
    }
    MPI_Win_free(&win);
  }
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("windows on both halves of a split: %s\n", bad ? "FAILED" : "ok");
  MPI_Comm_free(&half);
  free(cell);
  MPI_Finalize();
  return bad;
}
