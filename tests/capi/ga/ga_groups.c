/* Global Arrays on Armada: processor groups (ARMCI groups underneath): create, arrays on a
 * group, group sync/gop/broadcast, the default group, split, destroy; read-only arrays (GA makes
 * one group per node, each rank passing its own node's members to one collective call). */
#include "ga_check.h"

#include <stdlib.h>

int main(int argc, char** argv) {
  ga_start(&argc, &argv);
  const int me = GA_Nodeid(), np = GA_Nnodes();
  /* The even ranks, and separately the odd ranks (the latter empty on 1 rank). */
  int evens[32], odds[32], ne = 0, no = 0;
  for (int p = 0; p < np; ++p) {
    if (p % 2 == 0) evens[ne++] = p;
    else odds[no++] = p;
  }
  const int ge = GA_Pgroup_create(evens, ne);
  const int go = no ? GA_Pgroup_create(odds, no) : -1;
  const int mine = me % 2 == 0 ? ge : go;
  const int gsize = me % 2 == 0 ? ne : no;
  CHECK(GA_Pgroup_nnodes(mine) == gsize);
  CHECK(GA_Pgroup_nodeid(mine) == me / 2);

  /* An array on my group: every member puts its row, everyone in the group reads all. */
  int dims[2] = {gsize, 5}, chunk[2] = {1, -1};
  int g = NGA_Create_config(C_DBL, 2, dims, "grouped", chunk, mine);
  CHECK(g != 0);
  double row[5];
  for (int j = 0; j < 5; ++j) row[j] = me * 10 + j;
  int lo[2] = {me / 2, 0}, hi[2] = {me / 2, 4}, ld[1] = {5};
  NGA_Put(g, lo, hi, row, ld);
  GA_Pgroup_sync(mine);
  double* all = malloc(sizeof(double) * 5 * (size_t)gsize);
  int alo[2] = {0, 0}, ahi[2] = {gsize - 1, 4};
  NGA_Get(g, alo, ahi, all, ld);
  for (int r = 0; r < gsize; ++r)
    for (int j = 0; j < 5; ++j) CHECK(all[r * 5 + j] == (2 * r + me % 2) * 10 + j);
  CHECK(GA_Ddot(g, g) > 0);
  free(all);
  GA_Pgroup_sync(mine);
  GA_Destroy(g);

  /* Group reductions and broadcast (root: group rank). */
  double x = me;
  GA_Pgroup_dgop(mine, &x, 1, "+");
  double expected = 0;
  for (int p = me % 2; p < np; p += 2) expected += p;
  CHECK(x == expected);
  int iv = 1;
  GA_Pgroup_igop(mine, &iv, 1, "+");
  CHECK(iv == gsize);
  int token = GA_Pgroup_nodeid(mine) == gsize - 1 ? 4242 + me % 2 : 0;
  GA_Pgroup_brdcst(mine, &token, sizeof token, gsize - 1);
  CHECK(token == 4242 + me % 2);

  /* With my group as the default, NGA_Create makes arrays on it and GA_Nodeid is the group rank. */
  GA_Pgroup_set_default(mine);
  CHECK(GA_Nnodes() == gsize);
  int d1[1] = {10}, c1[1] = {-1};
  int h = NGA_Create(C_INT, 1, d1, "on-default", c1);
  int seven = 7;
  GA_Fill(h, &seven);
  CHECK(GA_Idot(h, h) == 49 * 10);
  GA_Destroy(h);
  GA_Pgroup_set_default(GA_Pgroup_get_world());
  CHECK(GA_Nnodes() == np);

  /* Split the world into two halves by rank. */
  const int halves = np > 1 ? GA_Pgroup_split(GA_Pgroup_get_world(), 2) : -1;
  if (halves >= 0) {
    int one = 1;
    GA_Pgroup_igop(halves, &one, 1, "+");
    CHECK(one == (me < np / 2 ? np / 2 : np - np / 2));
    GA_Pgroup_destroy(halves);
  }
  /* Read-only arrays: GA_Set_property creates a group per node over every rank at once, each rank
   * passing its own node's list (disjoint lists; this once aborted with "the members of the parent
   * group passed different lists"), and copies the array into each node. */
  int rdims[2] = {3 * np, 7}, rchunk[2] = {-1, -1};
  int ro = NGA_Create(C_DBL, 2, rdims, "read-only", rchunk);
  double rrow[7];
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 7; ++j) rrow[j] = 100.0 * (3 * me + i) + j;
    int rlo[2] = {3 * me + i, 0}, rhi[2] = {3 * me + i, 6}, rld[1] = {7};
    NGA_Put(ro, rlo, rhi, rrow, rld);
  }
  GA_Sync();
  GA_Set_property(ro, "read_only");
  double* whole = malloc(sizeof(double) * 21 * (size_t)np);
  int wlo[2] = {0, 0}, whi[2] = {3 * np - 1, 6}, wld[1] = {7};
  NGA_Get(ro, wlo, whi, whole, wld);
  for (int i = 0; i < 3 * np; ++i)
    for (int j = 0; j < 7; ++j) CHECK(whole[i * 7 + j] == 100.0 * i + j);
  free(whole);
  GA_Unset_property(ro);
  GA_Destroy(ro);

  GA_Sync();
  if (go >= 0) GA_Pgroup_destroy(go);
  GA_Pgroup_destroy(ge);
  return ga_finish("ga_groups");
}
