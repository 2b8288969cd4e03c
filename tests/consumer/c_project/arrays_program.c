/* An arrays C API program built outside Armada's tree: starts the runtime itself, fills a
 * distributed array through the Fortran view, reads it back through the C view, and exits 1 on
 * a wrong value. */
#include <stdio.h>

#include <armada/arrays/c_api.h>

int main(int argc, char** argv) {
  int g = -1, rank = -1, wrong = 0;
  int64_t fdims[2] = {3, 5}, flo[2] = {1, 1}, clo[2] = {0, 0}, chi[2] = {5, 3};
  double col[15], row[15];
  long i, j;
  if (armada_ga_initialize(&argc, &argv) != ARMADA_GA_OK || armada_ga_rank(&rank) != ARMADA_GA_OK ||
      armada_gaf_create(ARMADA_GA_DOUBLE, 2, fdims, "F", NULL, &g) != ARMADA_GA_OK) {
    fprintf(stderr, "arrays_program: %s\n", armada_ga_error_message());
    return 1;
  }
  for (j = 0; j < 5; ++j)
    for (i = 0; i < 3; ++i) col[j * 3 + i] = 10.0 * (i + 1) + (j + 1); /* A(i+1, j+1), column-major */
  if (rank == 0 && armada_gaf_put(g, flo, fdims, col, NULL) != ARMADA_GA_OK) wrong = 1;
  armada_ga_sync();
  if (armada_ga_get(g, clo, chi, row, NULL) != ARMADA_GA_OK) wrong = 1;
  for (j = 0; j < 5; ++j)
    for (i = 0; i < 3; ++i) wrong |= row[j * 3 + i] != 10.0 * (i + 1) + (j + 1); /* C element [j][i] */
  if (wrong) fprintf(stderr, "arrays_program: rank %d: wrong values (%s)\n", rank, armada_ga_error_message());
  armada_ga_finalize();
  if (rank == 0 && !wrong) printf("arrays_program: correct\n");
  return wrong;
}
