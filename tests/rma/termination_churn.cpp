// Helper of test_termination: a process that follows UCX's SysV pattern (shmget, shmat,
// IPC_RMID) in a deferral without pause, in a thread that never takes SIGTERM, while its main
// thread waits for SIGTERM with the default action. A fresh process, so that the deferring
// handler is installed over the default disposition (the test binary has installed its own).
// Exits 3 if shmget fails.
#include <pthread.h>
#include <signal.h>
#include <sys/shm.h>
#include <unistd.h>

#include <thread>

#include "transport/base/termination.hpp"

int main() {
  sigset_t term;
  sigemptyset(&term);
  sigaddset(&term, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &term, nullptr);  // the churn thread inherits the block
  std::thread churn([] {
    for (;;) {
      const armada::rma::detail::TerminationDeferred deferred;
      const int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
      if (id < 0) _exit(3);
      void* at = shmat(id, nullptr, 0);
      shmctl(id, IPC_RMID, nullptr);
      if (at != reinterpret_cast<void*>(-1)) shmdt(at);
    }
  });
  { const armada::rma::detail::TerminationDeferred installs_the_handler; }
  pthread_sigmask(SIG_UNBLOCK, &term, nullptr);  // this thread takes SIGTERM
  for (;;) pause();
}
