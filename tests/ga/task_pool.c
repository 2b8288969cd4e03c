/* A GA-style task pool: tasks (blocks of C = A B) are handed out by NGA_Read_inc on a shared
 * counter, so each is done exactly once by whichever process asks first. Each task reads its
 * blocks of A and B with NGA_Get and accumulates its block of C with NGA_Acc. Checks: every task
 * was taken once (a second counter array records who took it), and C equals the serial product. */
#include "ga_check.h"

#include <stdlib.h>

enum { N = 32, B = 8, NB = N / B, TASKS = NB * NB * NB };

static double a_of(int i, int j) { return 1.0 / (1 + i + 2 * j); }
static double b_of(int i, int j) { return (i - j) * 0.01; }

int main(int argc, char** argv) {
  /* Started as GA_Initialize_args programs are (tests/capi/ga's ga_start uses GA_Initialize). */
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  GA_Initialize_args(&argc, &argv);
  MA_init(C_DBL, 100000, 100000);
  const int me = GA_Nodeid();
  int dims[2] = {N, N}, one[1] = {1}, ntask[1] = {TASKS};
  const int ga = NGA_Create(C_DBL, 2, dims, "A", NULL);
  const int gb = NGA_Create(C_DBL, 2, dims, "B", NULL);
  const int gc = NGA_Create(C_DBL, 2, dims, "C", NULL);
  const int counter = NGA_Create(C_INT, 1, one, "counter", NULL);
  const int taken = NGA_Create(C_INT, 1, ntask, "taken", NULL);
  GA_Zero(gc);
  GA_Zero(counter);
  GA_Zero(taken);
  if (me == 0) {
    static double x[N * N], y[N * N];
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < N; ++j) {
        x[i * N + j] = a_of(i, j);
        y[i * N + j] = b_of(i, j);
      }
    int lo[2] = {0, 0}, hi[2] = {N - 1, N - 1}, ld[1] = {N};
    NGA_Put(ga, lo, hi, x, ld);
    NGA_Put(gb, lo, hi, y, ld);
  }
  GA_Sync();
  int zero[1] = {0}, ldb[1] = {B}, mine = 0;
  for (long t = NGA_Read_inc(counter, zero, 1); t < TASKS; t = NGA_Read_inc(counter, zero, 1)) {
    const int bi = (int)(t / (NB * NB)), bj = (int)(t / NB % NB), bk = (int)(t % NB);
    double x[B * B], y[B * B], z[B * B] = {0};
    int alo[2] = {bi * B, bk * B}, ahi[2] = {bi * B + B - 1, bk * B + B - 1};
    int blo[2] = {bk * B, bj * B}, bhi[2] = {bk * B + B - 1, bj * B + B - 1};
    int clo[2] = {bi * B, bj * B}, chi[2] = {bi * B + B - 1, bj * B + B - 1};
    NGA_Get(ga, alo, ahi, x, ldb);
    NGA_Get(gb, blo, bhi, y, ldb);
    for (int i = 0; i < B; ++i)
      for (int k = 0; k < B; ++k)
        for (int j = 0; j < B; ++j) z[i * B + j] += x[i * B + k] * y[k * B + j];
    double alpha = 1;
    NGA_Acc(gc, clo, chi, z, ldb, &alpha);
    int idx[1] = {(int)t}, mark = 1, imark = 1;
    NGA_Acc(taken, idx, idx, &mark, NULL, &imark);
    ++mine;
  }
  GA_Sync();
  int total = mine;
  GA_Igop(&total, 1, "+");
  CHECK(total == TASKS);
  static int marks[TASKS];
  int tlo[1] = {0}, thi[1] = {TASKS - 1};
  NGA_Get(taken, tlo, thi, marks, NULL);
  for (int t = 0; t < TASKS; ++t) CHECK(marks[t] == 1);
  CHECK(ga_worst_product_error(gc, N, N, N, a_of, b_of, 1, 0) < 1e-12);
  GA_Destroy(taken);
  GA_Destroy(counter);
  GA_Destroy(gc);
  GA_Destroy(gb);
  GA_Destroy(ga);
  return ga_finish("task_pool");
}
