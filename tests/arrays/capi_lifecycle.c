/* A complete C program on the arrays C API alone: it starts and stops the runtime with
 * armada_ga_initialize/finalize (no ARMCI_Init, no C++), queries ranks and nodes, makes a group
 * and a mutex set, and checks the calls that need a running runtime fail cleanly without one.
 *
 *   capi_lifecycle            the C API starts MPI itself
 *   capi_lifecycle mpi        the program calls MPI_Init first (and MPI_Finalize last)
 *   capi_lifecycle mpi-thread the same with MPI_Init_thread(MPI_THREAD_MULTIPLE)
 * Exits 0 when every check passes, 1 otherwise (each failure is printed). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "armada/arrays/c_api.h"

static int failures = 0;
#define CHECK(cond)                                                                            \
  do {                                                                                         \
    if (!(cond)) {                                                                             \
      fprintf(stderr, "capi_lifecycle: %s:%d: %s failed; last message: %s\n", __FILE__,       \
              __LINE__, #cond, armada_ga_error_message());                                    \
      ++failures;                                                                              \
    }                                                                                          \
  } while (0)

/* Before initialize: state errors naming the function. */
static void before_start(void) {
  int flag = -1, rank = -1;
  CHECK(armada_ga_initialized(&flag) == ARMADA_GA_OK && flag == 0);
  CHECK(armada_ga_rank(&rank) == ARMADA_GA_ERR_STATE);
  CHECK(strstr(armada_ga_error_message(), "armada_ga_rank") != NULL);
  CHECK(armada_ga_sync() == ARMADA_GA_ERR_STATE);
  CHECK(armada_ga_finalize() == ARMADA_GA_ERR_STATE);
  CHECK(armada_ga_initialized(NULL) == ARMADA_GA_ERR_ARG);
  CHECK(strstr(armada_ga_error_message(), "'flag'") != NULL);
}

static void ranks_and_nodes(int* rank, int* size) {
  int nodes = 0, node = -1, on_node = 0, first = -1;
  CHECK(armada_ga_rank(rank) == ARMADA_GA_OK);
  CHECK(armada_ga_size(size) == ARMADA_GA_OK);
  CHECK(*rank >= 0 && *rank < *size);
  CHECK(armada_ga_node_count(&nodes) == ARMADA_GA_OK && nodes >= 1 && nodes <= *size);
  CHECK(armada_ga_node_of(*rank, &node) == ARMADA_GA_OK && node >= 0 && node < nodes);
  CHECK(armada_ga_node_size(node, &on_node) == ARMADA_GA_OK && on_node >= 1);
  CHECK(armada_ga_node_rank(node, 0, &first) == ARMADA_GA_OK && first <= *rank);
  CHECK(armada_ga_node_of(*size, &node) == ARMADA_GA_ERR_ARG);
  CHECK(strstr(armada_ga_error_message(), "'rank'") != NULL);
  CHECK(armada_ga_node_size(nodes, &on_node) == ARMADA_GA_ERR_ARG);
  CHECK(armada_ga_node_rank(0, -1, &first) == ARMADA_GA_ERR_ARG);
}

/* A group of the even ranks, an array on it, and a counter every rank increments under a lock. */
static void groups_and_mutexes(int rank, int size) {
  int evens[64], n = 0, g = -1, grank = -2, a = -1, set = -1, counter = -1, i;
  for (i = 0; i < size && n < 64; i += 2) evens[n++] = i;
  CHECK(armada_ga_group_create(ARMADA_GA_GROUP_WORLD, n, evens, &g) == ARMADA_GA_OK);
  CHECK(armada_ga_group_rank(g, &grank) == ARMADA_GA_OK);
  CHECK(grank == (rank % 2 == 0 ? rank / 2 : -1));
  if (rank % 2 == 0) {
    int64_t dims[1] = {10}, lo[1] = {0};
    long all[10], one = 1;
    CHECK(armada_ga_create_full(ARMADA_GA_LONG, 1, dims, "evens", NULL, NULL, NULL, NULL, NULL, g, &a) == ARMADA_GA_OK);
    CHECK(armada_ga_zero(a) == ARMADA_GA_OK);
    CHECK(armada_ga_acc(a, lo, dims, (long[10]){1, 1, 1, 1, 1, 1, 1, 1, 1, 1}, NULL, &one) == ARMADA_GA_OK);
    CHECK(armada_ga_sync_group(a) == ARMADA_GA_OK); /* only the even ranks take part */
    CHECK(armada_ga_get(a, lo, dims, all, NULL) == ARMADA_GA_OK);
    CHECK(all[9] == n);
  }
  /* A world counter, incremented under mutex 0 of rank size-1 by a get + put (not atomic by
   * itself: the lock makes it so). */
  {
    int64_t dims[1] = {1}, lo[1] = {0}, hi[1] = {1};
    long value = 0;
    CHECK(armada_ga_create(ARMADA_GA_LONG, 1, dims, "counter", NULL, &counter) == ARMADA_GA_OK);
    CHECK(armada_ga_zero(counter) == ARMADA_GA_OK);
    CHECK(armada_ga_mutexes_create(rank == size - 1 ? 1 : 0, ARMADA_GA_GROUP_WORLD, &set) == ARMADA_GA_OK);
    for (i = 0; i < 5; ++i) {
      CHECK(armada_ga_mutex_lock(set, 0, size - 1) == ARMADA_GA_OK);
      CHECK(armada_ga_get(counter, lo, hi, &value, NULL) == ARMADA_GA_OK);
      ++value;
      CHECK(armada_ga_put(counter, lo, hi, &value, NULL) == ARMADA_GA_OK);
      CHECK(armada_ga_mutex_unlock(set, 0, size - 1) == ARMADA_GA_OK);
    }
    CHECK(armada_ga_sync() == ARMADA_GA_OK);
    CHECK(armada_ga_get(counter, lo, hi, &value, NULL) == ARMADA_GA_OK);
    CHECK(value == 5L * size);
    CHECK(armada_ga_mutex_lock(set, 1, size - 1) == ARMADA_GA_ERR_ARG);
    CHECK(armada_ga_mutex_lock(set + 100, 0, size - 1) == ARMADA_GA_ERR_HANDLE);
    CHECK(strstr(armada_ga_error_message(), "armada_ga_mutex_lock") != NULL);
  }
  CHECK(armada_ga_sync() == ARMADA_GA_OK);
  /* The array on the group, the counter and the mutex set are left for finalize to release. */
  (void)a;
}

int main(int argc, char** argv) {
  int rank = -1, size = 0, own_mpi = argc > 1, flag = 0;
  if (own_mpi && strcmp(argv[1], "mpi-thread") == 0) {
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  } else if (own_mpi) {
    MPI_Init(&argc, &argv);
  }
  before_start();
  CHECK(armada_ga_initialize(&argc, &argv) == ARMADA_GA_OK);
  CHECK(armada_ga_initialize(&argc, &argv) == ARMADA_GA_ERR_STATE);
  CHECK(armada_ga_initialized(&flag) == ARMADA_GA_OK && flag == 1);
  ranks_and_nodes(&rank, &size);
  groups_and_mutexes(rank, size);
  CHECK(armada_ga_finalize() == ARMADA_GA_OK);
  if (own_mpi) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    CHECK(!finalized); /* the program started MPI: it stops it */
    MPI_Finalize();
  }
  if (failures) fprintf(stderr, "capi_lifecycle: rank %d: %d check(s) failed\n", rank, failures);
  return failures ? 1 : 0;
}
