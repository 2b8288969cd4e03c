/* ARMCI under MPI_THREAD_SINGLE: asking ARMCI for more than MPI provides fails with a message;
 * plain ARMCI_Init works on one node (shared memory needs no thread); across virtual nodes the
 * server transport needs MPI_THREAD_MULTIPLE and ARMCI_Init aborts saying so. */
#include <armci.h>

#include <stdio.h>
#include <string.h>

static int failed_code = 0;
static char failed_message[512];

static void hook(const char* function, int code, const char* message, void* context) {
  (void)function, (void)context;
  failed_code = code;
  strncpy(failed_message, message, sizeof failed_message - 1);
}

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SINGLE, &provided);
  int ok = 1;
  if (provided < MPI_THREAD_MULTIPLE) {
    armada_armci_set_error_hook(hook, NULL);
    ok = ARMCI_Init_thread(MPI_THREAD_MULTIPLE) == ARMADA_ARMCI_EARG && failed_code == ARMADA_ARMCI_EARG &&
         strstr(failed_message, "'armci_requested'") != NULL;
    if (!ok) fprintf(stderr, "c_thread_level: unexpected: code %d, '%s'\n", failed_code, failed_message);
    armada_armci_set_error_hook(NULL, NULL);
  }
  if (ARMCI_Init() != 0) return 1;  /* aborts here when the server transport is needed */
  const int me = armci_msg_me(), n = armci_msg_nproc();
  void* bases[64];
  ARMCI_Malloc(bases, sizeof(int));
  int v = me;
  ARMCI_Put(&v, bases[(me + 1) % n], sizeof v, (me + 1) % n);
  ARMCI_Barrier();
  ok = ok && *(int*)bases[me] == (me + n - 1) % n;
  MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  if (me == 0) printf("c_thread_level: provided %d, %s\n", provided, ok ? "ok" : "FAILED");
  ARMCI_Free(bases[me]);
  ARMCI_Finalize();
  MPI_Finalize();
  return ok ? 0 : 1;
}
