/* Global Arrays on Armada: scatter, gather and scatter-accumulate (vector operations), with
 * repeated subscripts for both scatter and scatter-accumulate. */
#include "ga_check.h"

#include <stdlib.h>

enum { R = 31, C = 17, K = 60 };

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  const int me = GA_Nodeid(), np = GA_Nnodes();
  int dims[2] = {R, C}, chunk[2] = {-1, -1};
  int g = NGA_Create(C_DBL, 2, dims, "s", chunk);
  GA_Zero(g);

  /* Element e (0 <= e < R*C) belongs to rank e % np; each rank scatters its elements, spread
   * over every owner. */
  int count = 0;
  for (int e = me; e < R * C; e += np) ++count;
  int* subs = malloc(sizeof(int) * 2 * (size_t)count);
  int** ptrs = malloc(sizeof(int*) * (size_t)count);
  double* values = malloc(sizeof(double) * (size_t)count);
  for (int k = 0, e = me; e < R * C; e += np, ++k) {
    subs[2 * k] = e / C;
    subs[2 * k + 1] = e % C;
    ptrs[k] = &subs[2 * k];
    values[k] = e + 0.25;
  }
  NGA_Scatter(g, values, ptrs, count);
  GA_Sync();
  /* Gather the whole array in reverse element order. */
  int** all = malloc(sizeof(int*) * R * C);
  int* allsubs = malloc(sizeof(int) * 2 * R * C);
  double* got = malloc(sizeof(double) * R * C);
  for (int e = 0; e < R * C; ++e) {
    const int r = R * C - 1 - e;
    allsubs[2 * e] = r / C;
    allsubs[2 * e + 1] = r % C;
    all[e] = &allsubs[2 * e];
  }
  NGA_Gather(g, got, all, R * C);
  for (int e = 0; e < R * C; ++e) CHECK(got[e] == (R * C - 1 - e) + 0.25);
  GA_Sync();

  /* Scatter-accumulate: everyone adds 1 (times alpha = 2) K times, spread over 5 elements with
   * repeats; the totals count every hit. */
  GA_Zero(g);
  int* asubs = malloc(sizeof(int) * 2 * K);
  int** aptr = malloc(sizeof(int*) * K);
  double* ones = malloc(sizeof(double) * K);
  for (int k = 0; k < K; ++k) {
    asubs[2 * k] = (k % 5) * 7;
    asubs[2 * k + 1] = (k % 5) * 3;
    aptr[k] = &asubs[2 * k];
    ones[k] = 1;
  }
  double alpha = 2;
  NGA_Scatter_acc(g, ones, aptr, K, &alpha);
  GA_Sync();
  double v[5];
  NGA_Gather(g, v, aptr, 5);
  for (int k = 0; k < 5; ++k) CHECK(v[k] == 2.0 * (K / 5) * np);
  GA_Sync();  /* everyone has read before rank 0 overwrites below */
  /* Scatter with repeated subscripts (one vector put whose destinations repeat): each of the
   * 5 elements receives one of the values sent to it, from any rank. */
  GA_Zero(g);
  double* tagged = malloc(sizeof(double) * K);
  for (int k = 0; k < K; ++k) tagged[k] = 1000.0 * me + k;
  NGA_Scatter(g, tagged, aptr, K);
  GA_Sync();
  NGA_Gather(g, v, aptr, 5);
  for (int k = 0; k < 5; ++k) {
    const int from = (int)(v[k] / 1000), sent = (int)(v[k] - 1000.0 * from);
    CHECK(from >= 0 && from < np && sent >= 0 && sent < K && sent % 5 == k && v[k] == 1000.0 * from + sent);
  }
  free(tagged);
  GA_Sync();
  /* Flat forms. */
  int flat[4] = {0, 0, R - 1, C - 1};
  double two[2] = {-1, -2};
  if (me == 0) NGA_Scatter_flat(g, two, flat, 2);
  GA_Sync();
  double back[2];
  NGA_Gather_flat(g, back, flat, 2);
  CHECK(back[0] == -1 && back[1] == -2);

  free(ones);
  free(aptr);
  free(asubs);
  free(got);
  free(allsubs);
  free(all);
  free(values);
  free(ptrs);
  free(subs);
  GA_Destroy(g);
  return ga_finish("ga_scatter");
}
