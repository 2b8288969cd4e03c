/* Patch arithmetic in GA's style: copies (plain and transposed), linear combinations, scaling,
 * fills and zeroes, element-wise products and absolute values of patches of differently shaped
 * and differently distributed arrays, and dot products of patches (with a transpose). Every
 * process keeps a serial copy of each array, applies the same operations to it, and the whole
 * arrays must equal the copies after every step. */
#include "ga_check.h"

#include <math.h>
#include <stdlib.h>

enum { M = 13, N = 11, P = 9 };

static double A[M][N], B[M][N], C[P][M]; /* the serial copies */

static void put_all(int g, int rows, int cols, const double* v) {
  GA_Sync();
  int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
  if (GA_Nodeid() == 0) NGA_Put(g, lo, hi, (void*)v, ld);
  GA_Sync();
}

/* The whole array g equals the serial copy v exactly. */
static int same(int g, int rows, int cols, const double* v) {
  double* got = malloc(sizeof(double) * (size_t)(rows * cols));
  int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols}, ok = 1;
  NGA_Get(g, lo, hi, got, ld);
  for (int i = 0; i < rows * cols; ++i) ok = ok && got[i] == v[i];
  free(got);
  return ok;
}

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  int mn[2] = {M, N}, pm[2] = {P, M}, chunk[2] = {-1, N}; /* B: blocks of whole rows */
  const int ga = NGA_Create(C_DBL, 2, mn, "A", NULL), gb = NGA_Create(C_DBL, 2, mn, "B", chunk);
  const int gc = NGA_Create(C_DBL, 2, pm, "C", NULL);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      A[i][j] = 1.0 + i - 0.25 * j;
      B[i][j] = (i * 7 + j * 3) % 5 - 2.0;
    }
  for (int i = 0; i < P; ++i)
    for (int j = 0; j < M; ++j) C[i][j] = 0;
  put_all(ga, M, N, &A[0][0]);
  put_all(gb, M, N, &B[0][0]);
  GA_Zero(gc);

  /* C[1..5, 2..8] = A[3..9, 4..8]^T (5 x 7 from 7 x 5) */
  int alo[2] = {3, 4}, ahi[2] = {9, 8}, clo[2] = {1, 2}, chi[2] = {5, 8};
  NGA_Copy_patch('T', ga, alo, ahi, gc, clo, chi);
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) C[1 + i][2 + j] = A[3 + j][4 + i];
  CHECK(same(gc, P, M, &C[0][0]));

  /* B[0..3, 5..10] = 2 A[8..11, 0..5] - 0.5 B[4..7, 2..7] (aliasing B on both sides) */
  int b1lo[2] = {8, 0}, b1hi[2] = {11, 5}, b2lo[2] = {4, 2}, b2hi[2] = {7, 7}, blo[2] = {0, 5}, bhi[2] = {3, 10};
  double two = 2, minus_half = -0.5;
  NGA_Add_patch(&two, ga, b1lo, b1hi, &minus_half, gb, b2lo, b2hi, gb, blo, bhi);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j) B[i][5 + j] = 2 * A[8 + i][j] - 0.5 * B[4 + i][2 + j];
  CHECK(same(gb, M, N, &B[0][0]));

  /* Scale, fill, zero, add a constant to patches of A. */
  int slo[2] = {2, 1}, shi[2] = {10, 3}, flo[2] = {0, 9}, fhi[2] = {12, 10}, zlo[2] = {5, 5}, zhi[2] = {6, 7};
  double three = 3, seven = 7, half = 0.5;
  NGA_Scale_patch(ga, slo, shi, &three);
  NGA_Fill_patch(ga, flo, fhi, &seven);
  NGA_Zero_patch(ga, zlo, zhi);
  GA_Add_constant_patch(ga, slo, shi, &half);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      if (i >= 2 && i <= 10 && j >= 1 && j <= 3) A[i][j] = 3 * A[i][j] + 0.5;
      if (j >= 9) A[i][j] = 7;
      if (i >= 5 && i <= 6 && j >= 5 && j <= 7) A[i][j] = 0;
    }
  CHECK(same(ga, M, N, &A[0][0]));

  /* C[0..3, 0..3] = A[0..3, 0..3] .* B[9..12, 7..10]; then |C| on C[0..8, 0..2]. */
  int plo[2] = {0, 0}, phi[2] = {3, 3}, qlo[2] = {9, 7}, qhi[2] = {12, 10}, rlo[2] = {0, 0}, rhi[2] = {8, 2};
  GA_Elem_multiply_patch(ga, plo, phi, gb, qlo, qhi, gc, plo, phi);
  GA_Abs_value_patch(gc, rlo, rhi);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) C[i][j] = A[i][j] * B[9 + i][7 + j];
  for (int i = 0; i < P; ++i)
    for (int j = 0; j < 3; ++j) C[i][j] = fabs(C[i][j]);
  CHECK(same(gc, P, M, &C[0][0]));

  /* Dot products of patches: A[2..7, 1..4] with B[6..11, 3..6], and with C[1..4, 2..7]^T. */
  int dlo[2] = {2, 1}, dhi[2] = {7, 4}, elo[2] = {6, 3}, ehi[2] = {11, 6}, tlo[2] = {1, 2}, thi[2] = {4, 7};
  double dot = 0, dot_t = 0;
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 4; ++j) {
      dot += A[2 + i][1 + j] * B[6 + i][3 + j];
      dot_t += A[2 + i][1 + j] * C[1 + j][2 + i];
    }
  CHECK(fabs(NGA_Ddot_patch(ga, 'N', dlo, dhi, gb, 'N', elo, ehi) - dot) < 1e-12 * (1 + fabs(dot)));
  CHECK(fabs(NGA_Ddot_patch(ga, 'N', dlo, dhi, gc, 'T', tlo, thi) - dot_t) < 1e-12 * (1 + fabs(dot_t)));
  CHECK(fabs(dot) > 1 && fabs(dot_t) > 1);

  /* A patch copied within one array, overlapping nothing: A[0..2, 0..2] -> A[10..12, 4..6]. */
  int olo[2] = {0, 0}, ohi[2] = {2, 2}, nlo[2] = {10, 4}, nhi[2] = {12, 6};
  NGA_Copy_patch('N', ga, olo, ohi, ga, nlo, nhi);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) A[10 + i][4 + j] = A[i][j];
  CHECK(same(ga, M, N, &A[0][0]));

  GA_Destroy(ga);
  GA_Destroy(gb);
  GA_Destroy(gc);
  return ga_finish("patch_arith");
}
