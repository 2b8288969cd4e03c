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
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../counted_check.h"

static int ga_failures = 0;

#define CHECK(cond) COUNTED_CHECK(cond, #cond, GA_Nodeid(), ga_failures, 20)

static inline void ga_start(int* argc, char*** argv) {
  int provided;
  if (*argc > 1 && strcmp((*argv)[1], "plain-init") == 0)
    MPI_Init(argc, argv);
  else
    MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
  GA_Initialize();
  MA_init(C_DBL, 1000000, 1000000);
}

/* The largest |C(i, j) - (alpha sum_l A(i, l) B(l, j) + beta)| over the m x n double array c,
 * against A and B given element by element (k: their inner dimension). */
static inline double ga_worst_product_error(int c, int m, int n, int k, double (*a)(int, int),
                                            double (*b)(int, int), double alpha, double beta) {
  double* got = (double*)malloc(sizeof(double) * (size_t)m * (size_t)n);
  int lo[2] = {0, 0}, hi[2] = {m - 1, n - 1}, ld[1] = {n};
  NGA_Get(c, lo, hi, got, ld);
  double worst = 0;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      double s = 0;
      for (int l = 0; l < k; ++l) s += a(i, l) * b(l, j);
      worst = fmax(worst, fabs(got[(size_t)i * n + j] - (alpha * s + beta)));
    }
  free(got);
  return worst;
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
