/* Reproducer: an 8-byte MPI_Compare_and_swap that a rank issues to itself in a lock_all epoch
 * on a window from MPI_Win_create.
 *
 * Open MPI 4.1.4, osc rdma over btl vader (no RDMA-capable BTL, so atomics are emulated with
 * active messages): segmentation fault in mca_btl_vader_emu_acswap -> mca_btl_vader_send (the
 * self peer has no vader endpoint). 4-byte CAS and MPI_Fetch_and_op are fine.
 *   OMPI_MCA_osc=rdma mpiexec -n 2 osc_cas_self      -> crashes
 *   OMPI_MCA_osc=ucx  mpiexec -n 2 osc_cas_self      -> passes (what Armada's mpi-rma uses)
 * Armada's mpi-rma transport issues every RMW through MPI, self included (MPI atomics are
 * atomic only with respect to each other), so it hits this. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>

int main(int argc, char** argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int64_t cell[2] = {0, 0};
  MPI_Win win;
  MPI_Win_create(cell, sizeof cell, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  const int64_t desired = rank + 1, expected = 0;
  int64_t old = -1;
  MPI_Compare_and_swap(&desired, &expected, &old, MPI_INT64_T, rank, 0, win);
  MPI_Win_flush(rank, win);
  MPI_Win_unlock_all(win);
  int bad = old != 0 || cell[0] != rank + 1;
  MPI_Win_free(&win);
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("8-byte compare-and-swap to self: %s\n", bad ? "WRONG RESULT" : "ok");
  MPI_Finalize();
  return bad;
}
