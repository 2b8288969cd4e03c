// A job that dies with its segments mapped. Every rank allocates, announces its pid ("pid <n>"
// on stdout, and a file pid.<n> in $ARMADA_TEST_MARKS), then the last rank kills itself with
// SIGKILL (mode "kill") or calls MPI_Abort (mode "abort"). tests/rma/check_shm_cleanup.sh checks /dev/shm afterwards. Mode "churn"
// allocates and frees segments of changing sizes (and mutex sets) until it is killed from
// outside at a random moment (tests/rma/check_shm_churn.sh); mode "start" allocates, frees and
// ends cleanly (the start after the kills, which must remove what they left).
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <thread>
#include <unistd.h>

#include "armada/rma/rma.hpp"

namespace rma = armada::rma;

namespace {

// Tells the checking script a fact by an empty file in $ARMADA_TEST_MARKS (and people by a line
// on stdout): launchers forward the ranks' output in pieces, and MPICH's splits one rank's line
// with another's ("allocatingpid 21400" in CI), where a file's name arrives whole.
void announce(const std::string& line, const std::string& file) {
  std::printf("%s\n", line.c_str());
  std::fflush(stdout);
  const char* dir = std::getenv("ARMADA_TEST_MARKS");
  if (dir == nullptr) return;
  const std::string path = std::string(dir) + "/" + file;
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) {
    std::perror(path.c_str());
    std::abort();
  }
  ::close(fd);
}

void announce_pid() {
  const std::string pid = std::to_string(getpid());
  announce("pid " + pid, "pid." + pid);
}

}  // namespace

int main(int argc, char** argv) {
  const bool kill_mode = argc > 1 && std::strcmp(argv[1], "kill") == 0;
  const bool churn_mode = argc > 1 && std::strcmp(argv[1], "churn") == 0;
  const bool start_mode = argc > 1 && std::strcmp(argv[1], "start") == 0;
  rma::Session session(&argc, &argv);
  if (start_mode) {
    auto bases = rma::allocate(4096);
    rma::free(bases[static_cast<std::size_t>(rma::rank())]);
    return 0;
  }
  if (churn_mode) {
    announce_pid();
    rma::barrier();  // every pid is announced before "allocating"
    if (rma::rank() == 0) announce("allocating", "allocating");
    for (std::size_t round = 0;; ++round) {
      const std::size_t bytes = (std::size_t{4096} << (round % 12)) + 64 * (round % 7);
      auto bases = rma::allocate(bytes);
      rma::MutexSet m = rma::MutexSet::create(2);
      rma::free(bases[static_cast<std::size_t>(rma::rank())]);
      m.destroy();
    }
  }
  auto small = rma::allocate(4096);
  auto big = rma::allocate(64 << 20);
  rma::MutexSet m = rma::MutexSet::create(4);
  announce_pid();
  rma::barrier();
  if (rma::rank() == rma::size() - 1) {
    if (kill_mode) raise(SIGKILL);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  // The others wait to be torn down by the launcher.
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}
