/* Shared by the GA-style C programs of tests/ga: start-up as GA programs do (MPI_Init, then
 * GA_Initialize and MA_init), a check macro, and an exit code every rank agrees on. */
#ifndef ARMADA_TESTS_GA_PROG_H
#define ARMADA_TESTS_GA_PROG_H

#include <ga.h>
#include <macdecls.h>
#include <mpi.h>
#include <stdio.h>

static int prog_failures = 0;

#define CHECK(cond)                                                                             \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      if (prog_failures < 20)                                                                   \
        fprintf(stderr, "[rank %d] %s:%d: check failed: %s\n", GA_Nodeid(), __FILE__, __LINE__, #cond); \
      ++prog_failures;                                                                          \
    }                                                                                           \
  } while (0)

static void prog_start(int* argc, char*** argv) {
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
#ifdef PROG_INIT_ARGS
  GA_Initialize_args(argc, argv);
#else
  GA_Initialize();
#endif
  MA_init(C_DBL, 100000, 100000);
}

static int prog_finish(const char* name) {
  int total = prog_failures;
  GA_Igop(&total, 1, "+");
  if (GA_Nodeid() == 0) printf("%s: %d ranks, %s (%d failed checks)\n", name, GA_Nnodes(), total ? "FAILED" : "passed", total);
  GA_Terminate();
  MPI_Finalize();
  return total ? 1 : 0;
}

#endif
