/* Which MPI one-sided operations complete without the target's help, per window flavour.
 *
 * Rank 1 sleeps in nanosleep (no MPI calls) while rank 0 times blocking put, get,
 * fetch-and-op and accumulate (each + MPI_Win_flush) and 1 MiB gets to it, on windows made with
 * MPI_Win_allocate, MPI_Win_create over malloc memory, MPI_Win_create over POSIX shared memory
 * (what Armada's node segments are), and MPI_Win_allocate_shared. An operation that needs the
 * target's progress engine shows up as ~sleep / count per operation (milliseconds).
 * Why it exists: docs/mpi-quirks.md (the choice of ARMADA_MPI_MEMORY and OMPI_MCA_osc).
 *
 *   mpiexec -n 2 armada-osc-probe [sleep_ms=300]
 *   e.g. OMPI_MCA_osc=ucx, =sm,ucx, =rdma to compare Open MPI components.
 */
#include <fcntl.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

enum { kOps = 200, kBigReps = 20, kBig = 1 << 20 };

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* One measurement while the target sleeps: op 0 put, 1 get, 2 fetch-and-op, 3 acc, 4 get 1 MiB.
 * Returns us/op (or GB/s for op 4) on rank 0. */
static double phase(MPI_Win win, int rank, int op, long sleep_ms, char* big) {
  double result = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    const struct timespec ts = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
  } else if (rank == 0) {
    double v = 1, r = 0;
    long one = 1, old = 0;
    const int n = op == 4 ? kBigReps : kOps;
    const double t0 = now();
    for (int i = 0; i < n; ++i) {
      switch (op) {
        case 0: MPI_Put(&v, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win); break;
        case 1: MPI_Get(&r, 1, MPI_DOUBLE, 1, 0, 1, MPI_DOUBLE, win); break;
        case 2: MPI_Fetch_and_op(&one, &old, MPI_LONG, 1, 8, MPI_SUM, win); break;
        case 3: MPI_Accumulate(&v, 1, MPI_DOUBLE, 1, 16, 1, MPI_DOUBLE, MPI_SUM, win); break;
        default: MPI_Get(big, kBig, MPI_BYTE, 1, 64, kBig, MPI_BYTE, win); break;
      }
      MPI_Win_flush(1, win);
    }
    const double t = now() - t0;
    result = op == 4 ? (double)n * kBig / t / 1e9 : t / n * 1e6;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  return result;
}

static void probe(const char* flavour, MPI_Win win, int rank, long sleep_ms, char* big) {
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  /* Warm-up with both sides inside MPI: connection setup is not what is measured. */
  if (rank < 2) {
    double v = 1, r = 0;
    long one = 1, old = 0;
    MPI_Put(&v, 1, MPI_DOUBLE, 1 - rank, 0, 1, MPI_DOUBLE, win);
    MPI_Get(&r, 1, MPI_DOUBLE, 1 - rank, 0, 1, MPI_DOUBLE, win);
    MPI_Fetch_and_op(&one, &old, MPI_LONG, 1 - rank, 8, MPI_SUM, win);
    MPI_Win_flush_all(win);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  double r[5];
  for (int op = 0; op < 5; ++op) r[op] = phase(win, rank, op, sleep_ms, big);
  if (rank == 0)
    printf("%-30s %10.3f %10.3f %10.3f %10.3f %10.2f\n", flavour, r[0], r[1], r[2], r[3], r[4]);
  MPI_Win_unlock_all(win);
}

int main(int argc, char** argv) {
  int provided = 0, rank = 0, size = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const long sleep_ms = argc > 1 ? atol(argv[1]) : 300;
  if (size < 2 || sleep_ms <= 0) {
    if (rank == 0) fprintf(stderr, "armada-osc-probe: needs 2 or more ranks and sleep_ms > 0 (got %d ranks, %ld)\n", size, sleep_ms);
    MPI_Finalize();
    return 2;
  }
  const size_t bytes = kBig + 4096;
  char* big = malloc(kBig);
  if (rank == 0) {
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(version, &len);
    const char* osc = getenv("OMPI_MCA_osc");
    printf("# %.*s", (int)strcspn(version, "\n"), version);
    printf("  OMPI_MCA_osc=%s; target sleeps %ld ms per column\n", osc ? osc : "(unset)", sleep_ms);
    printf("%-30s %10s %10s %10s %10s %10s\n", "window (8 B ops: us/op)", "put", "get", "fetch_op", "acc", "get1M GB/s");
  }

  MPI_Win win;
  void* base = NULL;
  MPI_Win_allocate((MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  probe("MPI_Win_allocate", win, rank, sleep_ms, big);
  MPI_Win_free(&win);

  void* heap = calloc(1, bytes);
  MPI_Win_create(heap, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  probe("MPI_Win_create (malloc)", win, rank, sleep_ms, big);
  MPI_Win_free(&win);
  free(heap);

  char name[64];
  snprintf(name, sizeof name, "/armada-osc-probe-%d-%d", (int)getpid(), rank);
  const int fd = shm_open(name, O_CREAT | O_RDWR | O_EXCL, 0600);
  void* shared = MAP_FAILED;
  if (fd >= 0 && ftruncate(fd, (off_t)bytes) == 0)
    shared = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (fd >= 0) {
    shm_unlink(name);
    close(fd);
  }
  if (shared == MAP_FAILED) {
    fprintf(stderr, "armada-osc-probe: rank %d: cannot map POSIX shared memory %s\n", rank, name);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Win_create(shared, (MPI_Aint)bytes, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  probe("MPI_Win_create (POSIX shm)", win, rank, sleep_ms, big);
  MPI_Win_free(&win);
  munmap(shared, bytes);

  /* Only where every rank shares a host, and only with a component that supports it. */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  if (node_size == size) {
    MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
    int ok = MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, node, &base, &win) == MPI_SUCCESS;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (ok) {
      probe("MPI_Win_allocate_shared", win, rank, sleep_ms, big);
      MPI_Win_free(&win);
    } else if (rank == 0) {
      printf("%-30s not supported by this component\n", "MPI_Win_allocate_shared");
    }
  }
  MPI_Comm_free(&node);
  free(big);
  MPI_Finalize();
  return 0;
}
