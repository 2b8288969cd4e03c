/* Global Arrays on Armada: create (regular, irregular, 3-d), put/get/acc of patches that span
 * several owners, nonblocking put/get, read_inc, duplicate/copy/copy_patch, dot products,
 * fill/zero/scale/add, and sync. */
#include "ga_check.h"

#include <stdlib.h>

enum { M = 40, N = 30 };

static double f(int i, int j) { return i * 1000.0 + j; }

static void test_put_get_acc(void) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  int dims[2] = {M, N}, chunk[2] = {-1, -1};
  int g = NGA_Create(C_DBL, 2, dims, "a", chunk);
  CHECK(g != 0);
  GA_Zero(g);
  /* Each rank puts a band of rows (crossing owners), then everyone reads it all back. */
  for (int i0 = me; i0 < M; i0 += np) {
    double row[N];
    for (int j = 0; j < N; ++j) row[j] = f(i0, j);
    int lo[2] = {i0, 0}, hi[2] = {i0, N - 1}, ld[1] = {N};
    NGA_Put(g, lo, hi, row, ld);
  }
  GA_Sync();
  static double all[M][N];
  int lo[2] = {0, 0}, hi[2] = {M - 1, N - 1}, ld[1] = {N};
  NGA_Get(g, lo, hi, all, ld);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) CHECK(all[i][j] == f(i, j));
  /* An interior patch, read into a padded buffer (strided on both sides). */
  double sub[5][8];
  int plo[2] = {17, 3}, phi[2] = {21, 9}, pld[1] = {8};
  NGA_Get(g, plo, phi, sub, pld);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) CHECK(sub[i][j] == f(17 + i, 3 + j));
  GA_Sync();
  /* Everyone accumulates (me+1) * 1 into one patch that spans every owner. */
  static double ones[M][N];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) ones[i][j] = 1;
  double alpha = me + 1;
  int alo[2] = {5, 2}, ahi[2] = {M - 3, N - 5};
  NGA_Acc(g, alo, ahi, ones, ld, &alpha);
  GA_Sync();
  NGA_Get(g, lo, hi, all, ld);
  const double added = np * (np + 1) / 2.0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      const int inside = i >= 5 && i <= M - 3 && j >= 2 && j <= N - 5;
      CHECK(all[i][j] == f(i, j) + (inside ? added : 0));
    }
  /* Integer accumulate. */
  int gi = NGA_Create(C_INT, 2, dims, "i", chunk);
  GA_Zero(gi);
  static int iones[M][N];
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) iones[i][j] = i + j;
  int ialpha = 2;
  NGA_Acc(gi, lo, hi, iones, ld, &ialpha);
  GA_Sync();
  static int iall[M][N];
  NGA_Get(gi, lo, hi, iall, ld);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) CHECK(iall[i][j] == 2 * np * (i + j));
  GA_Destroy(gi);
  GA_Destroy(g);
}

static void test_nonblocking_and_3d(void) {
  const int me = GA_Nodeid(), np = GA_Nnodes();
  int dims[3] = {6, 7, 8}, chunk[3] = {-1, -1, -1};
  int g = NGA_Create(C_DBL, 3, dims, "cube", chunk);
  GA_Zero(g);
  double block[6][7][8];
  for (int a = 0; a < 6; ++a)
    for (int b = 0; b < 7; ++b)
      for (int c = 0; c < 8; ++c) block[a][b][c] = a * 100 + b * 10 + c;
  int lo[3] = {0, 0, 0}, hi[3] = {5, 6, 7}, ld[2] = {7, 8};
  ga_nbhdl_t h;
  if (me == np - 1) {
    NGA_NbPut(g, lo, hi, block, ld, &h);
    NGA_NbWait(&h);
  }
  GA_Sync();
  double back[2][3][4];
  int blo[3] = {2, 3, 4}, bhi[3] = {3, 5, 7}, bld[2] = {3, 4};
  NGA_NbGet(g, blo, bhi, back, bld, &h);
  NGA_NbWait(&h);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 4; ++c) CHECK(back[a][b][c] == (a + 2) * 100 + (b + 3) * 10 + (c + 4));
  GA_Sync();
  GA_Destroy(g);
}

static void test_irregular(void) {
  const int np = GA_Nnodes();
  /* Rows split unevenly: block boundaries at 0, 1, 4, ... (np blocks along the first dim). */
  int dims[2] = {3 * np + 5, 9}, block[2] = {np, 1}, map[64 + 1];
  for (int p = 0; p < np; ++p) map[p] = p == 0 ? 0 : 3 * p - 1;
  map[np] = 0;
  int g = NGA_Create_irreg(C_DBL, 2, dims, "irreg", block, map);
  CHECK(g != 0);
  int lo[2], hi[2];
  NGA_Distribution(g, GA_Nodeid(), lo, hi);
  CHECK(lo[0] == map[GA_Nodeid()]);
  double v = 0;
  GA_Fill(g, &v);
  if (GA_Nodeid() == 0) {
    double* buf = malloc(sizeof(double) * dims[0] * dims[1]);
    for (int i = 0; i < dims[0] * dims[1]; ++i) buf[i] = i;
    int alo[2] = {0, 0}, ahi[2] = {dims[0] - 1, dims[1] - 1}, ld[1] = {dims[1]};
    NGA_Put(g, alo, ahi, buf, ld);
    free(buf);
  }
  GA_Sync();
  double x;
  int s[2] = {dims[0] - 1, 8}, one[1] = {1};
  NGA_Get(g, s, s, &x, one);
  CHECK(x == dims[0] * dims[1] - 1);
  GA_Destroy(g);
}

static void test_read_inc(void) {
  const int np = GA_Nnodes();
  enum { rounds = 100 };
  int dims[1] = {np}, chunk[1] = {1};
  int g = NGA_Create(C_LONG, 1, dims, "counter", chunk);
  GA_Zero(g);
  long seen[rounds];
  int sub[1] = {np - 1};
  for (int i = 0; i < rounds; ++i) seen[i] = NGA_Read_inc(g, sub, 1);
  for (int i = 1; i < rounds; ++i) CHECK(seen[i] > seen[i - 1]);
  /* Every ticket 0 .. rounds*np-1 was handed out exactly once. */
  long* all = calloc((size_t)rounds * np, sizeof(long));
  for (int i = 0; i < rounds; ++i) all[(GA_Nodeid() * rounds) + i] = seen[i];
  GA_Lgop(all, rounds * np, "+");
  int* hits = calloc((size_t)rounds * np, sizeof(int));
  for (int i = 0; i < rounds * np; ++i)
    if (all[i] >= 0 && all[i] < rounds * np) ++hits[all[i]];
  for (int i = 0; i < rounds * np; ++i) CHECK(hits[i] == 1);
  free(hits);
  free(all);
  GA_Sync();
  long last = 0;
  int one[1] = {1};
  NGA_Get(g, sub, sub, &last, one);
  CHECK(last == (long)rounds * np);
  GA_Destroy(g);
}

static void test_copy_dot_and_arithmetic(void) {
  int dims[2] = {M, N}, chunk[2] = {-1, -1};
  int a = NGA_Create(C_DBL, 2, dims, "a", chunk);
  if (GA_Nodeid() == 0) {
    static double all[M][N];
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) all[i][j] = f(i, j) / 1000.0;
    int lo[2] = {0, 0}, hi[2] = {M - 1, N - 1}, ld[1] = {N};
    NGA_Put(a, lo, hi, all, ld);
  }
  GA_Sync();
  int b = GA_Duplicate(a, "b");
  CHECK(b != 0);
  GA_Copy(a, b);
  double expected = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) expected += (f(i, j) / 1000.0) * (f(i, j) / 1000.0);
  const double dot = GA_Ddot(a, b);
  CHECK(dot > expected * (1 - 1e-12) && dot < expected * (1 + 1e-12));
  /* b = 2a - a = a; then scale by 3 and compare one element. */
  double two = 2, minus_one = -1, three = 3;
  GA_Add(&two, a, &minus_one, b, b);
  GA_Scale(b, &three);
  double x;
  int s[2] = {M - 1, N - 1}, one[1] = {1};
  NGA_Get(b, s, s, &x, one);
  CHECK(x == 3 * (f(M - 1, N - 1) / 1000.0));
  /* Transposed patch copy: c[j][i] = a[i][j] over a 10x12 block. */
  int tdims[2] = {N, M};
  int c = NGA_Create(C_DBL, 2, tdims, "c", chunk);
  GA_Zero(c);
  int alo[2] = {3, 4}, ahi[2] = {12, 15}, clo[2] = {4, 3}, chi[2] = {15, 12};
  NGA_Copy_patch('T', a, alo, ahi, c, clo, chi);
  GA_Sync();
  int q[2] = {15, 12};
  NGA_Get(c, q, q, &x, one);
  CHECK(x == f(12, 15) / 1000.0);
  /* Integer dot. */
  int gi = NGA_Create(C_INT, 2, dims, "ints", chunk);
  int v = 2;
  GA_Fill(gi, &v);
  CHECK(GA_Idot(gi, gi) == 4 * M * N);
  GA_Destroy(gi);
  GA_Destroy(c);
  GA_Destroy(b);
  GA_Destroy(a);
}

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  test_put_get_acc();
  test_nonblocking_and_3d();
  test_irregular();
  test_read_inc();
  test_copy_dot_and_arithmetic();
  return ga_finish("ga_patches");
}
