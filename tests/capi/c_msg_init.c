/* armci_msg_init / armci_msg_finalize (Global Arrays' ARMCI message layer), around ARMCI.
 * argv[1]:
 *   "msg-first"  armci_msg_init starts MPI (MPI_THREAD_MULTIPLE), ARMCI_Init_args finds it
 *                running, ARMCI_Finalize leaves it running, armci_msg_finalize ends it;
 *   "armci-first" ARMCI_Init_args starts MPI, so the last ARMCI_Finalize ends it and
 *                armci_msg_finalize afterwards does nothing;
 *   "no-armci-finalize" ARMCI initialized twice and never finalized: armci_msg_finalize ends
 *                ARMCI, then MPI.
 * MPI is finalized at the end, so every rank checks by itself and exits nonzero on a failure. */
#include <armci.h>
#include <message.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void check(int ok, const char* what) {
  if (!ok) {
    fprintf(stderr, "c_msg_init: %s\n", what);
    ++failures;
  }
}

static int mpi_initialized(void) {
  int flag = 0;
  MPI_Initialized(&flag);
  return flag;
}

static int mpi_finalized(void) {
  int flag = 0;
  MPI_Finalized(&flag);
  return flag;
}

/* One put to the right neighbour and a get of what the left one put: ARMCI works. */
static void exchange(void) {
  int me = armci_msg_me(), n = armci_msg_nproc();
  void* bases[256];
  check(n <= 256, "too many ranks for this test");
  ARMCI_Malloc(bases, sizeof(int));
  int value = 100 + me, got = -1;
  ARMCI_Put(&value, bases[(me + 1) % n], sizeof(int), (me + 1) % n);
  ARMCI_Barrier();
  ARMCI_Get(bases[me], &got, sizeof(int), me);
  check(got == 100 + (me + n - 1) % n, "the value the left neighbour put");
  ARMCI_Barrier();
  ARMCI_Free(bases[me]);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "msg-first") == 0) {
    armci_msg_init(&argc, &argv);
    check(mpi_initialized(), "armci_msg_init started MPI");
    int provided = -1;
    MPI_Query_thread(&provided);
    check(provided == MPI_THREAD_MULTIPLE, "armci_msg_init asked for MPI_THREAD_MULTIPLE");
    armci_msg_init(&argc, &argv); /* a second call leaves MPI as it is */
    ARMCI_Init_args(&argc, &argv);
    exchange();
    ARMCI_Finalize();
    check(!ARMCI_Initialized(), "ARMCI_Finalize ended ARMCI");
    check(!mpi_finalized(), "ARMCI_Finalize left the MPI that armci_msg_init started running");
    armci_msg_finalize();
    check(mpi_finalized(), "armci_msg_finalize finalized MPI");
  } else if (strcmp(mode, "armci-first") == 0) {
    ARMCI_Init_args(&argc, &argv);
    exchange();
    ARMCI_Finalize();
    check(mpi_finalized(), "the last ARMCI_Finalize ended the MPI that ARMCI started");
    armci_msg_finalize(); /* MPI is finalized already: nothing to do */
    check(mpi_finalized(), "MPI stays finalized");
  } else if (strcmp(mode, "no-armci-finalize") == 0) {
    armci_msg_init(&argc, &argv);
    ARMCI_Init_args(&argc, &argv);
    ARMCI_Init(); /* nested: two ARMCI_Finalize calls would be needed */
    exchange();
    armci_msg_finalize();
    check(!ARMCI_Initialized(), "armci_msg_finalize ended ARMCI first");
    check(mpi_finalized(), "armci_msg_finalize finalized MPI");
  } else {
    fprintf(stderr, "c_msg_init: unknown mode '%s'\n", mode);
    return 2;
  }
  if (failures == 0) printf("c_msg_init %s: OK\n", mode);
  return failures == 0 ? 0 : 1;
}
