/* PMPI-style interposition: this program defines ARMCI_Put and ARMCI_Barrier itself; the
 * library's ARMCI_* are weak aliases of PARMCI_*, so the program's definitions win, and they
 * forward to PARMCI_*. The counts prove the interposers ran and the data proves the forwarding. */
#include <armci.h>

#include <stdio.h>

static int puts_seen = 0, barriers_seen = 0;

int ARMCI_Put(void* src, void* dst, int size, int target) {
  ++puts_seen;
  return PARMCI_Put(src, dst, size, target);
}

void ARMCI_Barrier(void) {
  ++barriers_seen;
  PARMCI_Barrier();
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (ARMCI_Init() != 0) return 1;
  const int me = armci_msg_me(), n = armci_msg_nproc(), right = (me + 1) % n;
  void* bases[64];
  ARMCI_Malloc(bases, sizeof(int));
  int v = 1000 + me;
  ARMCI_Put(&v, bases[right], sizeof v, right);
  ARMCI_Barrier();
  int ok = *(int*)bases[me] == 1000 + (me + n - 1) % n && puts_seen == 1 && barriers_seen == 1;
  armci_msg_igop(&ok, 1, "&&");
  if (me == 0) printf("c_profiling: interposed ARMCI_Put/ARMCI_Barrier %s\n", ok ? "ran and forwarded" : "FAILED");
  ARMCI_Free(bases[me]);
  ARMCI_Finalize();
  MPI_Finalize();
  return ok ? 0 : 1;
}
