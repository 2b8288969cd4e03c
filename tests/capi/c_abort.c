/* Failures that must end the job with a message (no error hook installed, as ARMCI programs
 * expect). argv[1]: "error" calls ARMCI_Error; "error0" calls ARMCI_Error with code 0 and
 * "msgabort0" armci_msg_abort(0), as Global Arrays' ARMCI test programs report failures (the job
 * must still end with a nonzero status); "badput" puts to a rank that does not exist; "badgop"
 * reduces with an unknown op string. Registered as tests that must fail and print. */
#include <armci.h>

#include <stdio.h>
#include <string.h>

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  ARMCI_Init();
  const char* mode = argc > 1 ? argv[1] : "";
  void* bases[64];
  ARMCI_Malloc(bases, 64);
  char buf[8] = {0};
  if (strcmp(mode, "error") == 0 && armci_msg_me() == armci_msg_nproc() - 1) ARMCI_Error("deliberate failure", 3);
  if (strcmp(mode, "error0") == 0) ARMCI_Error("deliberate failure", 0);
  if (strcmp(mode, "msgabort0") == 0) armci_msg_abort(0);
  if (strcmp(mode, "badput") == 0) ARMCI_Put(buf, bases[0], 8, armci_msg_nproc() + 2);
  if (strcmp(mode, "badgop") == 0) {
    int x = 1;
    armci_msg_igop(&x, 1, "sum");
  }
  ARMCI_Barrier();
  printf("c_abort: the job survived mode '%s'\n", mode);
  ARMCI_Free(bases[armci_msg_me()]);
  ARMCI_Finalize();
  MPI_Finalize();
  return 0;
}
