/* A plain C (C11) ARMCI program against Armada's armci.h: it compiles as C, checks the ABI the
 * headers promise, and exercises a bit of every area. The exit code tells the truth: 0 only if
 * every check passed on every rank. ARMCI_Init_args starts MPI itself (an Armada extension) and
 * ARMCI_Finalize then finalizes it. */
#include <armci.h>
#include <armcix.h>
#include <message.h>

#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "c_check.h"

_Static_assert(sizeof(armci_hdl_t) == 8, "armci_hdl_t is 8 bytes");
_Static_assert(offsetof(ARMCI_Group, comm) == 0, "ARMCI_Group starts with its MPI_Comm");
_Static_assert(sizeof(ARMCI_Group) == (sizeof(MPI_Comm) == 8 ? 40 : 32), "ARMCI_Group layout");
_Static_assert(sizeof(armci_giov_t) == 24, "armci_giov_t is 24 bytes");
_Static_assert(ARMCI_ACC_DCP == 5 && ARMCI_SWAP_LONG == 3 && SCOPE_MASTERS == 2 && ARMCI_DOUBLE == 4,
               "ARMCI-MPI 0.3.1 enum values");


int main(int argc, char** argv) {
  if (ARMCI_Init_args(&argc, &argv) != 0) return 1;
  const int me = armci_msg_me(), n = armci_msg_nproc(), right = (me + 1) % n, left = (me + n - 1) % n;

  void* bases[64];
  CHECK(n <= 64);
  CHECK(ARMCI_Malloc(bases, 16 * sizeof(double)) == 0);
  double* mine = (double*)bases[me];
  for (int i = 0; i < 16; ++i) mine[i] = 0;
  ARMCI_Barrier();

  /* contiguous, strided, vector, accumulate */
  double v[16];
  for (int i = 0; i < 16; ++i) v[i] = me * 100 + i;
  CHECK(ARMCI_Put(v, bases[right], 4 * sizeof(double), right) == 0);
  int stride = 2 * sizeof(double), count[2] = {sizeof(double), 4};
  CHECK(ARMCI_PutS(v, &stride, (double*)bases[right] + 4, &stride, count, 1, right) == 0);
  void* src[2] = {&v[0], &v[1]};
  void* dst[2] = {(double*)bases[right] + 14, (double*)bases[right] + 15};
  armci_giov_t iov = {src, dst, sizeof(double), 2};
  CHECK(ARMCI_PutV(&iov, 1, right) == 0);
  double one = 1;
  CHECK(ARMCI_Acc(ARMCI_ACC_DBL, &one, v, (double*)bases[right] + 12, 2 * sizeof(double), right) == 0);
  ARMCI_Barrier();
  CHECK(mine[3] == left * 100 + 3);
  CHECK(mine[6] == left * 100 + 2);
  CHECK(mine[15] == left * 100 + 1);
  CHECK(mine[13] == left * 100 + 1);

  /* nonblocking with an aggregate handle, then Wait */
  armci_hdl_t h;
  ARMCI_INIT_HANDLE(&h);
  ARMCI_SET_AGGREGATE_HANDLE(&h);
  double got[2] = {0, 0};
  CHECK(ARMCI_NbGet(bases[right], &got[0], sizeof(double), right, &h) == 0);
  CHECK(ARMCI_NbGet((double*)bases[right] + 1, &got[1], sizeof(double), right, &h) == 0);
  CHECK(ARMCI_Wait(&h) == 0);
  CHECK(got[0] == me * 100 && got[1] == me * 100 + 1);

  /* read-modify-write and mutexes */
  long* counter = (long*)bases[0];
  ARMCI_Barrier();
  if (me == 0) *counter = 0;
  ARMCI_Barrier();
  long old = -1;
  CHECK(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, counter, 2, 0) == 0);
  CHECK(old >= 0 && old % 2 == 0);
  CHECK(ARMCI_Create_mutexes(1) == 0);
  ARMCI_Lock(0, 0);
  ARMCI_Unlock(0, 0);
  ARMCI_Barrier();
  CHECK(ARMCI_GetValueLong(counter, 0) == 2L * n);
  CHECK(ARMCI_Destroy_mutexes() == 0);

  /* groups and the message layer */
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  int sum = me;
  armci_msg_group_igop(&sum, 1, "+", &world);
  CHECK(sum == n * (n - 1) / 2);
  double mx = -me;
  armci_msg_dgop(&mx, 1, "absmax");
  CHECK(mx == n - 1);
  int bits = 1 << me;
  armci_msg_igop(&bits, 1, "or");
  CHECK(bits == (1 << n) - 1);
  CHECK(ARMCI_Same_node(me) == 1 && armci_domain_count(ARMCI_DOMAIN_SMP) == n);

  CHECK(ARMCI_Free(bases[me]) == 0);
  /* Every rank learns whether any rank failed, so the exit code is the same everywhere. */
  armci_msg_igop(&failures, 1, "+");
  if (me == 0) printf("c_program: %d ranks, %s\n", n, failures ? "FAILED" : "all checks passed");
  ARMCI_Finalize();
  return failures ? 1 : 0;
}
