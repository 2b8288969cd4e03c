/* Reproducer: MPI_Get from an MPI_Win_allocate window whose size is not a multiple of the page.
 *
 * MPICH 4.0.2 (Debian 12, ch4, ranks on one host): with such sizes (e.g. 1000, 3000 or 5096
 * bytes; per-rank sizes may differ or not) a get from rank r reads another rank's memory. Sizes
 * rounded up to a multiple of 4096 bytes are fine, as is Open MPI.
 * Armada's mpi-rma transport rounds every window it allocates up to whole pages. This program
 * checks that workaround (exit 0) and reports whether the unrounded sizes read wrong data. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kPage = 4096 };

/* Allocates a window of `window_bytes` (page rounded or not) holding `bytes` bytes of value
 * rank + 1, gets every rank's bytes; returns how many ranks' data came back wrong. */
static int wrong_gets(int bytes_of_rank0, int step, int round_to_page) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int mine = bytes_of_rank0 + step * rank;
  const int window = round_to_page ? (mine + kPage - 1) / kPage * kPage : mine;
  unsigned char* base = NULL;
  MPI_Win win;
  MPI_Win_allocate(window, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  memset(base, rank + 1, (size_t)mine);
  MPI_Win_sync(win);
  MPI_Barrier(MPI_COMM_WORLD);
  int wrong = 0;
  for (int r = 0; r < size; ++r) {
    const int n = bytes_of_rank0 + step * r;
    unsigned char* got = calloc((size_t)n, 1);
    MPI_Get(got, n, MPI_BYTE, r, 0, n, MPI_BYTE, win);
    MPI_Win_flush_local(r, win);
    for (int i = 0; i < n; ++i)
      if (got[i] != r + 1) {
        ++wrong;
        break;
      }
    free(got);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Allreduce(MPI_IN_PLACE, &wrong, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return wrong;
}

int main(int argc, char** argv) {
  int provided, rank;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  static const int kSizes[] = {1000, 3000, 5096};
  int bug = 0, still_wrong = 0;
  for (int k = 0; k < 3; ++k)
    for (int step = 0; step <= 24; step += 24) {
      bug += wrong_gets(kSizes[k], step, 0);
      still_wrong += wrong_gets(kSizes[k], step, 1);
    }
  if (rank == 0) {
    printf("win_allocate_size: unrounded window sizes: %s\n",
           bug ? "gets read the wrong rank's memory (bug present)" : "correct (bug absent)");
    printf("win_allocate_size: page-rounded sizes (the workaround): %s\n", still_wrong ? "WRONG" : "correct");
  }
  MPI_Finalize();
  return still_wrong ? 1 : 0;
}
