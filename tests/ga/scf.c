/* An SCF-like Fock build in GA's style. Model two-electron integrals (ij|kl) = g(i,j) g(k,l)
 * (g symmetric) make the Fock matrix F = H + 2 J - K checkable: J(i,j) = g(i,j) (g . D) and
 * K = g D g. The density D = C C^T comes from GA_Dgemm; the blocks (I, J), I <= J, of F are
 * tasks handed out by NGA_Read_inc; each task fetches the rows of g it needs and D with NGA_Get
 * and adds its block with NGA_Acc (off-diagonal blocks twice), and GA_Symmetrize completes F
 * (F = (F + F^T) / 2), as NWChem's Fock builds do. Then the orbital Fock matrix C^T F C (two
 * GA_Dgemm) and the energy sum D (H + F) (GA_Ddot). Each result against a serial computation. */
#include "ga_check.h"

#include <math.h>
#include <stdlib.h>

enum { N = 26, NOCC = 5, BS = 6, NB = (N + BS - 1) / BS };

static double core(int i, int j) { return -1.0 / (1.0 + abs(i - j)) - (i == j ? 0.1 * i : 0.0); }
static double gint(int i, int j) { return exp(-0.1 * (i - j) * (i - j)); }
static double coef(int i, int a) { return sin(0.7 * (i + 1) * (a + 1)) / sqrt((double)N); }

/* Every element f(i, j) of the rows x cols array g, written by process 0. */
static void fill(int g, int rows, int cols, double (*f)(int, int)) {
  GA_Sync();
  if (GA_Nodeid() == 0) {
    double* v = malloc(sizeof(double) * (size_t)(rows * cols));
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < cols; ++j) v[i * cols + j] = f(i, j);
    int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
    NGA_Put(g, lo, hi, v, ld);
    free(v);
  }
  GA_Sync();
}

static void get_all(int g, int rows, int cols, double* v) {
  int lo[2] = {0, 0}, hi[2] = {rows - 1, cols - 1}, ld[1] = {cols};
  NGA_Get(g, lo, hi, v, ld);
}

/* out = a d for a (rows x N) and d (N x N), row-major. */
static void times(int rows, const double* a, const double* d, double* out) {
  for (int i = 0; i < rows; ++i)
    for (int l = 0; l < N; ++l) {
      double s = 0;
      for (int k = 0; k < N; ++k) s += a[i * N + k] * d[k * N + l];
      out[i * N + l] = s;
    }
}

/* One task: block (bi, bj) of 2 J - K, scaled by `weight`, accumulated into F. */
static void fock_block(int gF, int gG, int gD, int bi, int bj, double gdotd, double weight) {
  const int i0 = bi * BS, i1 = i0 + BS < N ? i0 + BS : N, j0 = bj * BS, j1 = j0 + BS < N ? j0 + BS : N;
  const int ni = i1 - i0, nj = j1 - j0;
  static double gi[BS * N], gj[BS * N], d[N * N], gd[BS * N], blk[BS * BS];
  int lo[2] = {i0, 0}, hi[2] = {i1 - 1, N - 1}, ld[1] = {N};
  NGA_Get(gG, lo, hi, gi, ld); /* rows i0..i1-1 of g */
  lo[0] = j0, hi[0] = j1 - 1;
  NGA_Get(gG, lo, hi, gj, ld); /* rows j0..j1-1 of g = columns (g symmetric) */
  get_all(gD, N, N, d);
  times(ni, gi, d, gd); /* gd = g(I, :) D */
  for (int a = 0; a < ni; ++a)
    for (int b = 0; b < nj; ++b) {
      double k = 0;
      for (int l = 0; l < N; ++l) k += gd[a * N + l] * gj[b * N + l];
      blk[a * nj + b] = 2.0 * gi[a * N + j0 + b] * gdotd - k;
    }
  int blo[2] = {i0, j0}, bhi[2] = {i1 - 1, j1 - 1}, bld[1] = {nj};
  NGA_Acc(gF, blo, bhi, blk, bld, &weight);
}

/* The same F, D, orbital Fock matrix and energy, serially. */
static void serial(double* f, double* dm, double* fmo, double* energy) {
  static double g[N * N], gd[N * N];
  double gdotd = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int a = 0; a < NOCC; ++a) s += coef(i, a) * coef(j, a);
      dm[i * N + j] = s;
      g[i * N + j] = gint(i, j);
    }
  for (int i = 0; i < N * N; ++i) gdotd += g[i] * dm[i];
  times(N, g, dm, gd);
  *energy = 0;
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < N; ++j) {
      double k = 0;
      for (int l = 0; l < N; ++l) k += gd[i * N + l] * g[l * N + j];
      f[i * N + j] = core(i, j) + 2.0 * g[i * N + j] * gdotd - k;
      *energy += dm[i * N + j] * (core(i, j) + f[i * N + j]);
    }
  for (int a = 0; a < NOCC; ++a)
    for (int b = 0; b < NOCC; ++b) {
      double s = 0;
      for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) s += coef(i, a) * f[i * N + j] * coef(j, b);
      fmo[a * NOCC + b] = s;
    }
}

static double worst(const double* a, const double* b, int n) {
  double w = 0;
  for (int i = 0; i < n; ++i) w = fmax(w, fabs(a[i] - b[i]));
  return w;
}

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  int nn[2] = {N, N}, no[2] = {N, NOCC}, oo[2] = {NOCC, NOCC}, one[1] = {1};
  const int gH = NGA_Create(C_DBL, 2, nn, "core", NULL), gG = GA_Duplicate(gH, "g");
  const int gD = GA_Duplicate(gH, "density"), gF = GA_Duplicate(gH, "fock");
  const int gC = NGA_Create(C_DBL, 2, no, "coefficients", NULL), gT = GA_Duplicate(gC, "fc");
  const int gE = NGA_Create(C_DBL, 2, oo, "fock mo", NULL), counter = NGA_Create(C_INT, 1, one, "next", NULL);
  fill(gH, N, N, core);
  fill(gG, N, N, gint);
  fill(gC, N, NOCC, coef);
  GA_Dgemm('N', 'T', N, N, NOCC, 1.0, gC, gC, 0.0, gD); /* D = C C^T */
  const double gdotd = GA_Ddot(gG, gD);
  GA_Zero(gF);
  GA_Zero(counter);
  int zero[1] = {0}, tasks_done = 0;
  for (long t = NGA_Read_inc(counter, zero, 1); t < NB * (NB + 1) / 2; t = NGA_Read_inc(counter, zero, 1)) {
    int bi = 0, rest = (int)t; /* task t: the t-th block (bi, bj) with bi <= bj, row by row */
    while (rest >= NB - bi) rest -= NB - bi++;
    const int bj = bi + rest;
    fock_block(gF, gG, gD, bi, bj, gdotd, bi == bj ? 1.0 : 2.0);
    ++tasks_done;
  }
  GA_Sync();
  GA_Symmetrize(gF);
  GA_Add((double[]){1.0}, gF, (double[]){1.0}, gH, gF); /* F = H + 2J - K */
  GA_Dgemm('N', 'N', N, NOCC, N, 1.0, gF, gC, 0.0, gT);    /* F C */
  GA_Dgemm('T', 'N', NOCC, NOCC, N, 1.0, gC, gT, 0.0, gE); /* C^T F C */
  const double energy = GA_Ddot(gD, gH) + GA_Ddot(gD, gF);
  GA_Igop(&tasks_done, 1, "+");
  CHECK(tasks_done == NB * (NB + 1) / 2); /* each block once */
  static double f[N * N], dm[N * N], fmo[NOCC * NOCC], ref_f[N * N], ref_d[N * N], ref_mo[NOCC * NOCC];
  double ref_energy;
  serial(ref_f, ref_d, ref_mo, &ref_energy);
  get_all(gF, N, N, f);
  get_all(gD, N, N, dm);
  get_all(gE, NOCC, NOCC, fmo);
  CHECK(worst(dm, ref_d, N * N) < 1e-13);
  CHECK(worst(f, ref_f, N * N) < 1e-11);
  CHECK(worst(fmo, ref_mo, NOCC * NOCC) < 1e-11);
  CHECK(fabs(energy - ref_energy) < 1e-10 * fabs(ref_energy));
  CHECK(fabs(ref_f[3 * N + 8] - core(3, 8)) > 1e-3); /* the two-electron part is not negligible */
  for (int i = 0; i < N; ++i)
    for (int j = 0; j < i; ++j) CHECK(f[i * N + j] == f[j * N + i]);
  if (GA_Nodeid() == 0) printf("scf: %d Fock blocks, energy %.12f\n", NB * (NB + 1) / 2, energy);
  const int all[] = {gH, gG, gD, gF, gC, gT, gE, counter};
  for (int k = 0; k < 8; ++k) GA_Destroy(all[k]);
  return ga_finish("scf");
}
