/* Ghost-cell stencil in C: the heat-equation Jacobi steps of stencil.cpp on a periodic grid,
 * with one-cell ghost frames refreshed by armada_ga_update_ghosts. Checks against the serial
 * steps and exits 1 if any rank differs. */
#include <math.h>
#include <string.h>

#include "example_c.h"

enum { ROWS = 24, COLS = 20, STEPS = 10 };

static double initial(long i, long j) { return sin(0.3 * (double)i) + 0.1 * (double)(j % 7); }

static void serial_steps(double* u) {
  static double next[ROWS * COLS];
  long i, j;
  int s;
  for (i = 0; i < ROWS; ++i)
    for (j = 0; j < COLS; ++j) u[i * COLS + j] = initial(i, j);
  for (s = 0; s < STEPS; ++s) {
    for (i = 0; i < ROWS; ++i)
      for (j = 0; j < COLS; ++j)
        next[i * COLS + j] = 0.25 * (u[((i + ROWS - 1) % ROWS) * COLS + j] + u[((i + 1) % ROWS) * COLS + j] +
                                     u[i * COLS + (j + COLS - 1) % COLS] + u[i * COLS + (j + 1) % COLS]);
    memcpy(u, next, sizeof next);
  }
}

int main(int argc, char** argv) {
  int u, next, rank, s;
  int64_t dims[2] = {ROWS, COLS}, width[2] = {1, 1}, lo[2], hi[2], st[2], glo[2], ghi[2], gst[2];
  double *p, *g;
  static double want[ROWS * COLS];
  long i, j, wrong = 0, total;

  CALL(armada_ga_initialize(&argc, &argv));
  CALL(armada_ga_rank(&rank));
  CALL(armada_ga_create_ghosts(ARMADA_GA_DOUBLE, 2, dims, width, "u", NULL, &u));
  CALL(armada_ga_duplicate(u, "next", &next));

  CALL(armada_ga_access(u, (void**)&p, lo, hi, st));
  for (i = lo[0]; i < hi[0]; ++i)
    for (j = lo[1]; j < hi[1]; ++j) p[(i - lo[0]) * st[0] + (j - lo[1])] = initial(i, j);
  CALL(armada_ga_release_update(u));

  for (s = 0; s < STEPS; ++s) {
    int t;
    CALL(armada_ga_update_ghosts(u, 1)); /* periodic; barriers u's group before and after */
    CALL(armada_ga_access_ghosts(u, (void**)&g, glo, ghi, gst));
    CALL(armada_ga_access(next, (void**)&p, lo, hi, st));
    for (i = lo[0]; i < hi[0]; ++i)
      for (j = lo[1]; j < hi[1]; ++j) {
        const double* c = g + (i - glo[0]) * gst[0] + (j - glo[1]); /* element (i, j) in u */
        p[(i - lo[0]) * st[0] + (j - lo[1])] = 0.25 * (c[-gst[0]] + c[gst[0]] + c[-1] + c[1]);
      }
    CALL(armada_ga_release(u));
    CALL(armada_ga_release_update(next));
    t = u; u = next; next = t;
  }
  CALL(armada_ga_sync());

  serial_steps(want);
  CALL(armada_ga_access(u, (void**)&p, lo, hi, st));
  for (i = lo[0]; i < hi[0]; ++i)
    for (j = lo[1]; j < hi[1]; ++j)
      if (fabs(p[(i - lo[0]) * st[0] + (j - lo[1])] - want[i * COLS + j]) > 1e-12) ++wrong;
  CALL(armada_ga_release(u));
  total = total_wrong(wrong);
  if (rank == 0)
    printf("stencil (C): %d x %d grid, %d steps: %s\n", ROWS, COLS, STEPS,
           total == 0 ? "matches the serial result" : "WRONG");
  CALL(armada_ga_finalize()); /* destroys u and next */
  return total == 0 ? 0 : 1;
}
