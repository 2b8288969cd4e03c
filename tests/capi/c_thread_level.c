/* An ARMCI program that starts MPI itself below MPI_THREAD_MULTIPLE, as most ARMCI and Global
 * Arrays programs do: `c_thread_level [plain|single|funneled] [warn]`.
 *   plain: MPI_Init; single/funneled: MPI_Init_thread at that level.
 *   warn:  rank 0 must print exactly one "MPI runs at ..." warning at ARMCI_Init (ranks on
 *          several nodes: no helper thread may call MPI, so Armada runs mpi-rma without its
 *          progress thread); without it no rank may print one. Other ranks never print it.
 * Asking ARMCI for more than MPI provides fails with a message naming the argument. Then every
 * rank puts, accumulates, fetch-adds and locks across nodes, and the exit code tells whether all
 * ranks saw the right data. */
#define _POSIX_C_SOURCE 200809L
#include <armci.h>
#include <message.h>

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "c_check.h"

static int failed_code = 0;
static char failed_message[512];

static void hook(const char* function, int code, const char* message, void* context) {
  (void)function, (void)context;
  failed_code = code;
  strncpy(failed_message, message, sizeof failed_message - 1);
}


/* Asks ARMCI for more than MPI provides (when it does provide less: refused, naming the
 * argument, before anything starts), then runs ARMCI_Init, with stderr going to a temporary
 * file; returns how many thread-level warnings both printed (and copies the captured text to
 * the real stderr), or -1 if ARMCI_Init failed. */
static int init_counting_warnings(int provided, int* ok_refusal) {
  fflush(stderr);
  FILE* capture = tmpfile();
  const int saved = dup(2);
  if (!capture || saved < 0) return -1;
  dup2(fileno(capture), 2);
  if (provided < MPI_THREAD_MULTIPLE) {
    armada_armci_set_error_hook(hook, NULL);
    *ok_refusal = ARMCI_Init_thread(MPI_THREAD_MULTIPLE) == ARMADA_ARMCI_EARG && failed_code == ARMADA_ARMCI_EARG &&
                  strstr(failed_message, "'armci_requested'") != NULL;
    armada_armci_set_error_hook(NULL, NULL);
  }
  const int rc = ARMCI_Init();
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  if (rc != 0) return -1;
  int warnings = 0;
  char line[4096];
  rewind(capture);
  while (fgets(line, sizeof line, capture)) {
    fputs(line, stderr);
    if (strstr(line, "warning: MPI runs at MPI_THREAD_")) ++warnings;
  }
  fclose(capture);
  return warnings;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "plain";
  const int expect_warning = argc > 2 && strcmp(argv[2], "warn") == 0;
  int provided = MPI_THREAD_SINGLE;
  if (strcmp(mode, "plain") == 0)
    MPI_Init(&argc, &argv);
  else
    MPI_Init_thread(&argc, &argv, strcmp(mode, "funneled") == 0 ? MPI_THREAD_FUNNELED : MPI_THREAD_SINGLE, &provided);
  MPI_Query_thread(&provided);

  int ok_refusal = 1;
  const int warnings = init_counting_warnings(provided, &ok_refusal);
  if (warnings < 0) {
    fprintf(stderr, "c_thread_level: ARMCI_Init failed\n");
    return 1;
  }
  CHECK(ok_refusal);
  if (!ok_refusal) fprintf(stderr, "c_thread_level: refusal: code %d, '%s'\n", failed_code, failed_message);
  const int me = armci_msg_me(), n = armci_msg_nproc(), right = (me + 1) % n, left = (me + n - 1) % n;
  CHECK(warnings == (expect_warning && me == 0 && provided < MPI_THREAD_MULTIPLE ? 1 : 0));

  void* bases[64];
  CHECK(n <= 64);
  ARMCI_Malloc(bases, 4 * sizeof(long));
  long* mine = (long*)bases[me];
  for (int i = 0; i < 4; ++i) mine[i] = 0;
  ARMCI_Barrier();
  long v = me + 1;
  CHECK(ARMCI_Put(&v, bases[right], sizeof v, right) == 0);                 /* mine[0] = left + 1 */
  long one = 1;
  for (int r = 0; r < n; ++r)                                               /* mine[1] = n */
    CHECK(ARMCI_Acc(ARMCI_ACC_LNG, &one, &one, (long*)bases[r] + 1, sizeof one, r) == 0);
  long old = -1;
  CHECK(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, (long*)bases[0] + 2, 3, 0) == 0);
  CHECK(old >= 0 && old % 3 == 0);
  CHECK(ARMCI_Create_mutexes(1) == 0);
  ARMCI_Lock(0, 0);                                                         /* mutex-guarded increment */
  long c = ARMCI_GetValueLong((long*)bases[0] + 3, 0);
  ARMCI_PutValueLong(c + 1, (long*)bases[0] + 3, 0);
  ARMCI_Unlock(0, 0);
  ARMCI_Barrier();
  CHECK(mine[0] == left + 1);
  CHECK(mine[1] == n);
  if (me == 0) CHECK(mine[2] == 3L * n && mine[3] == n);
  CHECK(ARMCI_Destroy_mutexes() == 0);

  armci_msg_igop(&failures, 1, "+");
  if (me == 0) printf("c_thread_level: %s, provided %d, %d ranks: %s\n", mode, provided, n, failures ? "FAILED" : "ok");
  ARMCI_Free(bases[me]);
  ARMCI_Finalize();
  MPI_Finalize();
  return failures ? 1 : 0;
}
