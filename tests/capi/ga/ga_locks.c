/* Global Arrays on Armada: GA mutexes (ARMCI mutexes underneath) protecting plain
 * get-modify-put updates, next to read_inc (ARMCI_Rmw) on the same array. */
#include "ga_check.h"

enum { ROUNDS = 40, LOCKS = 3 };

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  const int np = GA_Nnodes();
  int dims[1] = {LOCKS + 1}, chunk[1] = {-1};
  int g = NGA_Create(C_LONG, 1, dims, "counters", chunk);
  GA_Zero(g);
  CHECK(GA_Create_mutexes(LOCKS) == 1);  /* GA returns TRUE on success */
  int one[1] = {1};
  for (int r = 0; r < ROUNDS; ++r) {
    const int m = r % LOCKS;
    int sub[1] = {m};
    GA_Lock(m);
    long v = 0;
    NGA_Get(g, sub, sub, &v, one);
    ++v;
    NGA_Put(g, sub, sub, &v, one);
    GA_Unlock(m);
    int last[1] = {LOCKS};
    NGA_Read_inc(g, last, 2);
  }
  GA_Sync();
  long all[LOCKS + 1];
  int lo[1] = {0}, hi[1] = {LOCKS};
  NGA_Get(g, lo, hi, all, one);
  long total = 0;
  for (int m = 0; m < LOCKS; ++m) total += all[m];
  CHECK(total == (long)ROUNDS * np);
  for (int m = 0; m < LOCKS; ++m) CHECK(all[m] == (long)np * ((ROUNDS - m + LOCKS - 1) / LOCKS));
  CHECK(all[LOCKS] == 2L * ROUNDS * np);
  CHECK(GA_Destroy_mutexes() == 1);
  GA_Destroy(g);
  return ga_finish("ga_locks");
}
