/* Shared by the Global Arrays test programs: start-up, checks, and a truthful exit code.
 *
 * These are ordinary GA programs, built twice: here with Debian's static libga (built against
 * ARMCI-MPI's armci.h) linked with Armada's libarmada_armci in place of ARMCI-MPI, and in
 * tests/ga against Armada's own ga.h (armada::ga), with tests/ga's programs. MPI is initialized with
 * MPI_THREAD_MULTIPLE (the server transport across nodes needs it), or with a plain MPI_Init
 * when the program's first argument is "plain-init", as most GA programs do (across nodes
 * Armada then runs mpi-rma without its progress thread). */
#ifndef ARMADA_GA_CHECK_H
#define ARMADA_GA_CHECK_H

#include <ga.h>
#include <macdecls.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static int ga_failures = 0;

#define CHECK(cond)                                                                          \
  do {                                                                                       \
    if (!(cond)) {                                                                           \
      if (ga_failures < 20)                                                                  \
        fprintf(stderr, "[rank %d] %s:%d: check failed: %s\n", GA_Nodeid(), __FILE__, __LINE__, #cond); \
      ++ga_failures;                                                                         \
    }                                                                                        \
  } while (0)

static inline void ga_start(int* argc, char*** argv) {
  int provided;
  if (*argc > 1 && strcmp((*argv)[1], "plain-init") == 0)
    MPI_Init(argc, argv);
  else
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000);
}

/* Every rank learns the total, so the exit code is the same everywhere. */
static int ga_finish(const char* name) {
  int total = ga_failures;
  GA_Igop(&total, 1, "+");
  if (GA_Nodeid() == 0) printf("%s: %d ranks, %s (%d failed checks)\n", name, GA_Nnodes(), total ? "FAILED" : "passed", total);
  GA_Terminate();
  MPI_Finalize();
  return total ? 1 : 0;
}

#endif
