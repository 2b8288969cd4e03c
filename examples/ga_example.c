/* A Global Arrays program in GA's C style, built against Armada's ga.h with GA's own build
 * recipe (no CMake):
 *   mpicc $(armada-ga-config --cflags) ga_example.c -o ga_example $(armada-ga-config --libs) -lm
 *   mpiexec -n 4 ./ga_example
 * It fills a matrix A(i,j) = 1/(i+j+1) (the Hilbert matrix) patch by patch, computes
 * B = A A with GA_Dgemm, and checks the trace of B (the sum of squares of A's entries, as A is
 * symmetric) with GA_Ddot and against a serial sum. Exits nonzero if anything is wrong. */
#include <ga.h>
#include <macdecls.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>

enum { N = 60 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  GA_Initialize();
  MA_init(C_DBL, 100000, 100000);
  const int me = GA_Nodeid(), np = GA_Nnodes();

  int dims[2] = {N, N};
  const int g_a = NGA_Create(C_DBL, 2, dims, "A", NULL);
  const int g_b = GA_Duplicate(g_a, "B");
  /* Each process writes the rows it owns. */
  int lo[2], hi[2];
  NGA_Distribution(g_a, me, lo, hi);
  if (hi[0] >= lo[0]) {
    double row[N];
    for (int i = lo[0]; i <= hi[0]; ++i) {
      for (int j = lo[1]; j <= hi[1]; ++j) row[j - lo[1]] = 1.0 / (i + j + 1);
      int rlo[2] = {i, lo[1]}, rhi[2] = {i, hi[1]}, ld[1] = {N};
      NGA_Put(g_a, rlo, rhi, row, ld);
    }
  }
  GA_Sync();
  GA_Dgemm('N', 'N', N, N, N, 1.0, g_a, g_a, 0.0, g_b);

  /* trace(B) read element by element (a gather of the diagonal). */
  int subs[N][2], *ptrs[N];
  for (int i = 0; i < N; ++i) {
    subs[i][0] = subs[i][1] = i;
    ptrs[i] = subs[i];
  }
  double diag[N], trace = 0, serial = 0;
  NGA_Gather(g_b, diag, ptrs, N);
  for (int i = 0; i < N; ++i) trace += diag[i];
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) serial += 1.0 / ((i + j + 1.0) * (i + j + 1.0));
  const double dot = GA_Ddot(g_a, g_a);
  int bad = fabs(trace - serial) > 1e-10 * serial || fabs(dot - serial) > 1e-10 * serial;
  GA_Igop(&bad, 1, "max");
  if (me == 0) printf("ga_example: %d processes, trace(A A) = %.12f, %s\n", np, trace, bad ? "FAILED" : "passed");
  GA_Destroy(g_b);
  GA_Destroy(g_a);
  GA_Terminate();
  MPI_Finalize();
  return bad ? 1 : 0;
}
