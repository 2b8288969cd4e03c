/* Reproducer: batches of small MPI_Rget completed by MPI_Waitall on an osc ucx window, while a
 * progress thread of each rank calls MPI_Iprobe every 100 us (the mpi-rma transport's pattern for
 * a nonblocking vector get until it dropped request-based operations).
 *
 * Open MPI 4.1.4 osc ucx, UCX 1.13 over TCP, 2 emulated hosts x 2 ranks (docs/cluster.md), 5 rounds
 * of 256 gets per rank, at load ~7:
 *   osc_ucx_rget_waitall 5 requests   (Rget + Waitall, progress thread) -> no end within 80 s
 *   osc_ucx_rget_waitall 5 alone      (Rget + Waitall, no thread)       -> 2.4 s
 *   osc_ucx_rget_waitall 5 flush      (MPI_Get + MPI_Win_flush_local, progress thread: what the
 *                                      mpi-rma transport does now)      -> passes (ctest runs it)
 * Each round every rank reads kBatch elements from random ranks and checks them, then all ranks
 * meet in a barrier. A hang shows as the launch's timeout:
 *   scripts/cluster.sh --hosts 2 --ranks-per-host 2 -x OMPI_MCA_osc=ucx -x UCX_USE_MT_MUTEX=y \
 *       -- build/tests/mpi_quirks/osc_ucx_rget_waitall 5 requests */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "iprobe_thread.h"

enum { kElements = 4096, kBatch = 256 };

static int64_t value_at(int rank, int i) { return (int64_t)rank * 1000003 + i; }

int main(int argc, char** argv) {
  int provided, rank, size;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? atoi(argv[1]) : 20;
  const char* mode = argc > 2 ? argv[2] : "flush";  /* requests | alone | flush */
  const int use_requests = mode[0] != 'f';
  int64_t* mine;
  MPI_Win win;
  MPI_Win_allocate(kElements * sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &mine, &win);
  for (int i = 0; i < kElements; ++i) mine[i] = value_at(rank, i);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Barrier(MPI_COMM_WORLD);
  iprobe_thread_t helper;
  const int with_thread = provided == MPI_THREAD_MULTIPLE && mode[0] != 'a';
  if (with_thread) iprobe_thread_start(&helper);

  unsigned seed = 12345u + (unsigned)rank;
  int64_t got[kBatch];
  int from[kBatch], index[kBatch];
  MPI_Request requests[kBatch];
  long bad = 0;
  const double start = MPI_Wtime();
  for (int r = 0; r < rounds; ++r) {
    for (int k = 0; k < kBatch; ++k) {
      from[k] = rand_r(&seed) % size;
      index[k] = rand_r(&seed) % kElements;
      if (use_requests)
        MPI_Rget(&got[k], 1, MPI_INT64_T, from[k], index[k], 1, MPI_INT64_T, win, &requests[k]);
      else
        MPI_Get(&got[k], 1, MPI_INT64_T, from[k], index[k], 1, MPI_INT64_T, win);
    }
    if (use_requests) MPI_Waitall(kBatch, requests, MPI_STATUSES_IGNORE);
    for (int k = 0; k < kBatch; ++k) {
      MPI_Win_flush_local(from[k], win);
      bad += got[k] != value_at(from[k], index[k]);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double seconds = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &bad, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  if (with_thread) iprobe_thread_stop(&helper);
  if (rank == 0)
    printf("%d ranks x %d rounds x %d %s%s: %.2f s, %s\n", size, rounds, kBatch,
           use_requests ? "MPI_Rget + MPI_Waitall" : "MPI_Get + MPI_Win_flush_local",
           with_thread ? " beside a progress thread" : "", seconds, bad ? "WRONG VALUES" : "every value right");
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  MPI_Finalize();
  return bad != 0;
}
