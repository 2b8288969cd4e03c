/* Scatter/gather in C: the program of scatter_gather.cpp on the C API. Every rank scatters values
 * to a permutation of slots, adds into a histogram with repeated subscripts, and gathers what the
 * next rank scattered. Checks everything and exits 1 on a wrong value. */
#include "example_c.h"

enum { N = 97, BINS = 10 };

static long slot(long i) { return (i * 37) % N; }

int main(int argc, char** argv) {
  int values, histogram, rank, size;
  int64_t n[1] = {N}, nbins[1] = {BINS}, zero[1] = {0}, where[N], hits[N];
  long what[N], ones[N], got[N], want[N], h[BINS], one = 1, i, b, count = 0, wrong = 0, total;

  CALL(armada_ga_initialize(&argc, &argv));
  CALL(armada_ga_rank(&rank));
  CALL(armada_ga_size(&size));
  CALL(armada_ga_create(ARMADA_GA_LONG, 1, n, "values", NULL, &values));
  CALL(armada_ga_create(ARMADA_GA_LONG, 1, nbins, "histogram", NULL, &histogram));
  CALL(armada_ga_zero(values));
  CALL(armada_ga_zero(histogram));

  for (i = rank; i < N; i += size, ++count) {
    where[count] = slot(i);
    what[count] = 1000 + i;
  }
  CALL(armada_ga_scatter(values, count, where, what));
  for (i = 0; i < N; ++i) {
    hits[i] = i % BINS;
    ones[i] = 1;
  }
  CALL(armada_ga_scatter_acc(histogram, N, hits, ones, &one));
  CALL(armada_ga_sync());

  count = 0;
  for (i = (rank + 1) % size; i < N; i += size, ++count) {
    where[count] = slot(i);
    want[count] = 1000 + i;
  }
  CALL(armada_ga_gather(values, count, where, got));
  for (i = 0; i < count; ++i) wrong += got[i] != want[i];
  CALL(armada_ga_get(histogram, zero, nbins, h, NULL));
  for (b = 0; b < BINS; ++b) wrong += h[b] != size * ((N - b + BINS - 1) / BINS);
  total = total_wrong(wrong);
  if (rank == 0) printf("scatter_gather (C): %d elements, %d-bin histogram: %s\n", N, BINS, total == 0 ? "correct" : "WRONG");
  CALL(armada_ga_finalize());
  return total == 0 ? 0 : 1;
}
