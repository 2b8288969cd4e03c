/* Global Arrays on Armada: GA_Dgemm (all four transpose combinations) against a local
 * reference, and GA_Transpose. Matrix sizes are uneven so blocks differ per owner. */
#include "ga_check.h"

#include <stdlib.h>

enum { M = 37, N = 29, K = 23 };

static double a_at(int i, int j) { return 0.5 * i - 0.25 * j + 1; }
static double b_at(int i, int j) { return (i % 7) - 0.125 * j; }

/* Creates a rows x cols array filled with at(i, j) (or at(j, i) if transposed). */
static int filled(int rows, int cols, double (*at)(int, int), int transposed, const char* name) {
  int dims[2] = {rows, cols}, chunk[2] = {-1, -1};
  int g = NGA_Create(C_DBL, 2, dims, (char*)name, chunk);
  int lo[2], hi[2];
  NGA_Distribution(g, GA_Nodeid(), lo, hi);
  if (lo[0] <= hi[0] && lo[1] <= hi[1]) {
    const int r = hi[0] - lo[0] + 1, c = hi[1] - lo[1] + 1;
    double* buf = malloc(sizeof(double) * (size_t)(r * c));
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j) buf[i * c + j] = transposed ? at(lo[1] + j, lo[0] + i) : at(lo[0] + i, lo[1] + j);
    int ld[1] = {c};
    NGA_Put(g, lo, hi, buf, ld);
    free(buf);
  }
  GA_Sync();
  return g;
}

static void check_dgemm(char ta, char tb) {
  const int a = ta == 'N' ? filled(M, K, a_at, 0, "A") : filled(K, M, a_at, 1, "At");
  const int b = tb == 'N' ? filled(K, N, b_at, 0, "B") : filled(N, K, b_at, 1, "Bt");
  int dims[2] = {M, N}, chunk[2] = {-1, -1};
  const int c = NGA_Create(C_DBL, 2, dims, "C", chunk);
  double one = 1;
  GA_Fill(c, &one);
  GA_Dgemm(ta, tb, M, N, K, 2.0, a, b, 0.5, c);
  const double worst = ga_worst_product_error(c, M, N, K, a_at, b_at, 2, 0.5);
  CHECK(worst < 1e-9);
  if (worst >= 1e-9 && GA_Nodeid() == 0) fprintf(stderr, "dgemm %c%c: worst error %g\n", ta, tb, worst);
  GA_Destroy(c);
  GA_Destroy(b);
  GA_Destroy(a);
}

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  check_dgemm('N', 'N');
  check_dgemm('T', 'N');
  check_dgemm('N', 'T');
  check_dgemm('T', 'T');
  /* GA_Transpose: t = a^T. */
  const int a = filled(M, K, a_at, 0, "A");
  int tdims[2] = {K, M}, chunk[2] = {-1, -1};
  const int t = NGA_Create(C_DBL, 2, tdims, "T", chunk);
  GA_Transpose(a, t);
  double x;
  int s[2] = {K - 2, M - 3}, one[1] = {1};
  NGA_Get(t, s, s, &x, one);
  CHECK(x == a_at(M - 3, K - 2));
  GA_Destroy(t);
  GA_Destroy(a);
  return ga_finish("ga_dgemm");
}
