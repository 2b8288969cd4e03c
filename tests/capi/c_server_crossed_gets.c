/* Reproducer of a core issue (not of the C API): two processes on different (virtual) nodes
 * that get vectors from each other at the same time, with descriptors too large to travel
 * inline (more than ARMADA_SERVER_INLINE bytes, here 1000 segments), hang or corrupt the heap.
 * The server transport tags client->server and server->client data of one peer pair alike
 * (server::data_tag(token)) on one communicator, and the two processes' tokens run in lockstep,
 * so a descriptor sent to the peer's server can match the peer client's posted receive for its
 * own get data. Registered DISABLED until the core separates the directions. */
#include <armci.h>

#include <stdio.h>

int main(int argc, char** argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  ARMCI_Init();
  enum { n = 1000 };
  const int me = armci_msg_me(), np = armci_msg_nproc(), peer = me ^ 1;
  void* bases[64];
  ARMCI_Malloc(bases, 2 * n * sizeof(int));
  int* mine = (int*)bases[me];
  for (int i = 0; i < 2 * n; ++i) mine[i] = me * 100000 + i;
  ARMCI_Barrier();
  int ok = 1;
  if (peer < np) {
    static int back[n];
    static void *src[n], *dst[n];
    for (int rep = 0; rep < 20; ++rep) {
      for (int i = 0; i < n; ++i) {
        src[i] = (int*)bases[peer] + 2 * i;
        dst[i] = &back[i];
      }
      armci_giov_t iov = {src, dst, sizeof(int), n};
      ARMCI_GetV(&iov, 1, peer);
      for (int i = 0; i < n; ++i) ok = ok && back[i] == peer * 100000 + 2 * i;
    }
  }
  armci_msg_igop(&ok, 1, "&&");
  if (me == 0) printf("c_server_crossed_gets: %s\n", ok ? "ok" : "FAILED");
  ARMCI_Free(mine);
  ARMCI_Finalize();
  MPI_Finalize();
  return ok ? 0 : 1;
}
