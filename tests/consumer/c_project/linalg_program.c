/* A linalg C API program built outside Armada's tree: C = A·B on distributed arrays with
 * armada_la_gemm, checked on every rank against the product of the same matrices in plain loops. */
#include <math.h>
#include <stdio.h>

#include <armada/linalg/c_api.h>

enum { M = 7, K = 5, N = 6 };

int main(int argc, char** argv) {
  int ga = -1, gb = -1, gc = -1, rank = -1, wrong = 0;
  int64_t adims[2] = {M, K}, bdims[2] = {K, N}, cdims[2] = {M, N}, zero[2] = {0, 0};
  double a[M * K], b[K * N], c[M * N], expected[M * N], one = 1.0, none = 0.0;
  long i, j, l;
  for (i = 0; i < M * K; ++i) a[i] = 1.0 + i % 11;
  for (i = 0; i < K * N; ++i) b[i] = 2.0 - i % 7;
  for (i = 0; i < M; ++i)
    for (j = 0; j < N; ++j) {
      expected[i * N + j] = 0.0;
      for (l = 0; l < K; ++l) expected[i * N + j] += a[i * K + l] * b[l * N + j];
    }
  if (armada_ga_initialize(&argc, &argv) != ARMADA_GA_OK || armada_ga_rank(&rank) != ARMADA_GA_OK ||
      armada_ga_create(ARMADA_GA_DOUBLE, 2, adims, "A", NULL, &ga) != ARMADA_GA_OK ||
      armada_ga_create(ARMADA_GA_DOUBLE, 2, bdims, "B", NULL, &gb) != ARMADA_GA_OK ||
      armada_ga_create(ARMADA_GA_DOUBLE, 2, cdims, "C", NULL, &gc) != ARMADA_GA_OK) {
    fprintf(stderr, "linalg_program: %s\n", armada_ga_error_message());
    return 1;
  }
  if (rank == 0 && (armada_ga_put(ga, zero, adims, a, NULL) != ARMADA_GA_OK ||
                    armada_ga_put(gb, zero, bdims, b, NULL) != ARMADA_GA_OK))
    wrong = 1;
  if (armada_la_gemm(ARMADA_LA_NOTRANS, ARMADA_LA_NOTRANS, &one, ga, gb, &none, gc) != ARMADA_GA_OK) {
    fprintf(stderr, "linalg_program: %s\n", armada_la_error_message());
    wrong = 1;
  } else if (armada_ga_get(gc, zero, cdims, c, NULL) != ARMADA_GA_OK) {
    wrong = 1;
  } else {
    for (i = 0; i < M * N; ++i) wrong |= fabs(c[i] - expected[i]) > 1e-12;
  }
  printf("linalg_program rank %d: %s\n", rank, wrong ? "WRONG" : "correct");
  armada_ga_finalize();
  return wrong;
}
