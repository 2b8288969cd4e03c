/* Reproducer: threads of every rank issue MPI_Fetch_and_op + MPI_Win_flush on one osc ucx window
 * while a progress thread of each rank calls MPI_Iprobe every 100 us (what Armada's mpi-rma
 * transport does), on cores that the threads share.
 *
 * Open MPI 4.1.4 osc ucx, UCX 1.13: UCX guards a worker that MPI_THREAD_MULTIPLE made
 * multi-threaded with a spin lock by default. A thread that finds it held spins through its time
 * slice while the holder is preempted, and everything in the worker waits for the holder's next
 * slice. Across two emulated hosts (2 x 2 ranks on 2 cores, UCX over TCP, docs/cluster.md), this
 * program's slowest rank, two launches each, alternated (an ASan build running beside them):
 *   UCX_USE_MT_MUTEX=n  (UCX's default)        1.54 s, 3.89 s
 *   UCX_USE_MT_MUTEX=y  (what rma::init sets)  0.20 s, 0.48 s
 * and Armada's test_atomic threaded cases 17-32 s (or no end) against 2-4 s. The program prints
 * the slowest rank's time and checks only that every ticket is handed out once (the time is not
 * asserted: timings belong in benchmarks). Run it across hosts:
 *   scripts/cluster.sh --hosts 2 --ranks-per-host 2 -x OMPI_MCA_osc=ucx [-x UCX_USE_MT_MUTEX=y] \
 *       -- build/tests/mpi_quirks/osc_ucx_thread_lock */
#include <mpi.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "iprobe_thread.h"

enum { kThreads = 2, kTicketsPerThread = 200 };

static MPI_Win win;
static int world_rank, world_size;
static int64_t* taken; /* tickets this rank drew, per thread */
static void* draw(void* arg) {
  const int t = (int)(intptr_t)arg;
  const int64_t one = 1;
  for (int i = 0; i < kTicketsPerThread; ++i) {
    int64_t ticket = -1;
    MPI_Fetch_and_op(&one, &ticket, MPI_INT64_T, 0, 0, MPI_SUM, win);
    MPI_Win_flush(0, win);
    taken[t * kTicketsPerThread + i] = ticket;
  }
  return NULL;
}

static int compare(const void* a, const void* b) {
  const int64_t x = *(const int64_t*)a, y = *(const int64_t*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (provided < MPI_THREAD_MULTIPLE) {
    if (world_rank == 0) printf("MPI_THREAD_MULTIPLE not provided: nothing to reproduce\n");
    MPI_Finalize();
    return 0;
  }
  int64_t* counter;
  MPI_Win_allocate(sizeof(int64_t), sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &counter, &win);
  *counter = 0;
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  MPI_Barrier(MPI_COMM_WORLD);
  const int mine = kThreads * kTicketsPerThread;
  taken = malloc(sizeof(int64_t) * (size_t)mine);
  pthread_t drawers[kThreads];
  iprobe_thread_t helper;
  iprobe_thread_start(&helper);
  const double start = MPI_Wtime();
  for (int t = 0; t < kThreads; ++t) pthread_create(&drawers[t], NULL, draw, (void*)(intptr_t)t);
  for (int t = 0; t < kThreads; ++t) pthread_join(drawers[t], NULL);
  double seconds = MPI_Wtime() - start;
  MPI_Allreduce(MPI_IN_PLACE, &seconds, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);  /* the slowest rank */
  iprobe_thread_stop(&helper);

  /* Every ticket 0 .. total-1 drawn exactly once over all ranks and threads. */
  const int total = mine * world_size;
  int64_t* all = world_rank == 0 ? malloc(sizeof(int64_t) * (size_t)total) : NULL;
  MPI_Gather(taken, mine, MPI_INT64_T, all, mine, MPI_INT64_T, 0, MPI_COMM_WORLD);
  int bad = 0;
  if (world_rank == 0) {
    qsort(all, (size_t)total, sizeof(int64_t), compare);
    for (int i = 0; i < total; ++i) bad |= all[i] != i;
    const char* lock = getenv("UCX_USE_MT_MUTEX");
    printf("%d ranks x %d threads x %d fetch-and-adds with a progress thread (UCX_USE_MT_MUTEX=%s): %.2f s, %s\n",
           world_size, kThreads, kTicketsPerThread, lock ? lock : "unset", seconds,
           bad ? "TICKETS WRONG" : "every ticket once");
  }
  MPI_Bcast(&bad, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  free(taken);
  free(all);
  MPI_Finalize();
  return bad;
}
