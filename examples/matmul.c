/* Task-counter matrix multiply in C: the tiles of C = A * B are handed out by a shared counter
 * (armada_ga_read_inc); each rank gets the panels of A and B its tile needs, multiplies, puts
 * the tile. Checks every element of C and exits 1 on a wrong one. */
#include "example_c.h"

enum { N = 60, TILE = 16, TILES = (N + TILE - 1) / TILE };

static double a_elem(long i, long k) { return (double)((i + 2 * k) % 5) - 1.0; }
static double b_elem(long k, long j) { return (double)((3 * k + j) % 4) + 0.5; }

static void fill_local(int handle, double (*f)(long, long)) {
  double* p;
  int64_t lo[2], hi[2], st[2];
  long i, j;
  CALL(armada_ga_access(handle, (void**)&p, lo, hi, st));
  for (i = lo[0]; i < hi[0]; ++i)
    for (j = lo[1]; j < hi[1]; ++j) p[(i - lo[0]) * st[0] + (j - lo[1])] = f(i, j);
  CALL(armada_ga_release_update(handle));
}

int main(int argc, char** argv) {
  int a, b, c, counter, rank;
  int64_t dims[2] = {N, N}, one[1] = {1}, first[1] = {0}, lo[2], hi[2], st[2];
  static double arow[TILE * N], bcol[N * TILE], ctile[TILE * TILE];
  double* p;
  long t, i, j, k, wrong = 0, total;

  CALL(armada_ga_initialize(&argc, &argv));
  CALL(armada_ga_rank(&rank));
  CALL(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "A", NULL, &a));
  CALL(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "B", NULL, &b));
  CALL(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "C", NULL, &c));
  CALL(armada_ga_create(ARMADA_GA_LONG, 1, one, "next tile", NULL, &counter));
  CALL(armada_ga_zero(counter));
  fill_local(a, a_elem);
  fill_local(b, b_elem);
  CALL(armada_ga_sync());

  for (;;) {
    CALL(armada_ga_read_inc(counter, first, 1, &t)); /* the next tile nobody has taken */
    if (t >= TILES * TILES) break;
    const long i0 = (t / TILES) * TILE, j0 = (t % TILES) * TILE;
    const long ni = N - i0 < TILE ? N - i0 : TILE, nj = N - j0 < TILE ? N - j0 : TILE;
    int64_t alo[2] = {i0, 0}, ahi[2] = {i0 + ni, N}, blo[2] = {0, j0}, bhi[2] = {N, j0 + nj};
    CALL(armada_ga_get(a, alo, ahi, arow, NULL)); /* ni x N */
    CALL(armada_ga_get(b, blo, bhi, bcol, NULL)); /* N x nj */
    for (i = 0; i < ni * nj; ++i) ctile[i] = 0;
    for (i = 0; i < ni; ++i)
      for (k = 0; k < N; ++k)
        for (j = 0; j < nj; ++j) ctile[i * nj + j] += arow[i * N + k] * bcol[k * nj + j];
    {
      int64_t clo[2] = {i0, j0}, chi[2] = {i0 + ni, j0 + nj};
      CALL(armada_ga_put(c, clo, chi, ctile, NULL));
    }
  }
  CALL(armada_ga_sync());

  CALL(armada_ga_access(c, (void**)&p, lo, hi, st));
  for (i = lo[0]; i < hi[0]; ++i)
    for (j = lo[1]; j < hi[1]; ++j) {
      double want = 0;
      for (k = 0; k < N; ++k) want += a_elem(i, k) * b_elem(k, j);
      if (p[(i - lo[0]) * st[0] + (j - lo[1])] != want) ++wrong;
    }
  CALL(armada_ga_release(c));
  total = total_wrong(wrong);
  if (rank == 0) printf("matmul (C): %d x %d in %d tiles from a shared counter: %s\n", N, N, TILES * TILES,
                        total == 0 ? "correct" : "WRONG");
  CALL(armada_ga_finalize());
  return total == 0 ? 0 : 1;
}
