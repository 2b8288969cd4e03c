// A wait for another node's reply that outlasts ARMADA_STALL_WARN seconds names the rank and host
// that have not answered (common/stall.hpp), once, and the operation still completes.
//
// 2 ranks on 2 nodes (server transport, ARMADA_NODE_SIZE=1): rank 1, whose process runs its
// node's server, stops itself with SIGSTOP for kStoppedSeconds (a child it forked sends SIGCONT),
// while rank 0 gets a word from it. Rank 0's stderr during the get goes to a file, which it then
// checks: with ARMADA_STALL_WARN in (0, kStoppedSeconds) exactly one warning naming rank 1 and
// rank 1's host; with 0, none. Exits 0 when all holds (and echoes what was captured), 1 otherwise.
#include <mpi.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

#include "armada/rma/rma.hpp"
#include "stderr_capture.hpp"

namespace rma = armada::rma;
namespace test = armada::test;
using test::count;

namespace {

constexpr int kStoppedSeconds = 3;
constexpr long kValue = 424242;

// Forks a child that continues this process after kStoppedSeconds, then stops the process.
void stop_for_a_while() {
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child == 0) {
    sleep(kStoppedSeconds);
    kill(parent, SIGCONT);
    _exit(0);
  }
  raise(SIGSTOP);
  waitpid(child, nullptr, 0);
}

// Rank 0: the get, with stderr captured in `path`; returns what was captured.
std::string get_capturing_stderr(const long* remote, long& value, const char* path) {
  return test::capturing_stderr(path, [&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));  // rank 1 has stopped by then
    rma::get(remote, &value, sizeof value, 1);
  });
}

}  // namespace

int main(int argc, char** argv) {
  rma::init(&argc, &argv);
  const int me = rma::rank();
  if (rma::size() != 2) {
    if (me == 0) std::fprintf(stderr, "stall_warning: needs 2 ranks\n");
    rma::finalize();
    return 1;
  }
  const long warn_after = rma::config().stall_warn_s;
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(host, &length);  // both ranks share this host here

  std::vector<void*> bases = rma::allocate(sizeof(long));
  *static_cast<long*>(bases[static_cast<std::size_t>(me)]) = kValue;
  rma::barrier();
  int failures = 0;
  if (me == 1) {
    stop_for_a_while();
  } else {
    long value = 0;
    const std::string path = "/tmp/armada-stall-warning-" + std::to_string(getpid()) + ".txt";
    const auto start = std::chrono::steady_clock::now();
    const std::string captured = get_capturing_stderr(static_cast<long*>(bases[1]), value, path.c_str());
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "%s", captured.c_str());
    // Its request may stall in MPI's send (shared memory: a stopped peer takes nothing) or its
    // reply: either way the warning names rank 1 and its host.
    const std::string expected = "rank 1 (host " + std::string(host) + ")";
    const int warnings = count(captured, "no answer for");
    const bool should_warn = warn_after > 0 && warn_after < kStoppedSeconds;
    if (value != kValue) ++failures, std::printf("FAIL: the get returned %ld, not %ld\n", value, kValue);
    if (waited < kStoppedSeconds - 1) ++failures, std::printf("FAIL: the get took %.1f s: rank 1 did not stop\n", waited);
    if (should_warn && (warnings != 1 || count(captured, "no answer for " + std::to_string(warn_after) + " s from") != 1 ||
                        count(captured, expected) != 1))
      ++failures, std::printf("FAIL: expected one warning containing \"%s\"; got %d warning(s)\n", expected.c_str(),
                              warnings);
    if (!should_warn && warnings != 0) ++failures, std::printf("FAIL: ARMADA_STALL_WARN=%ld, yet a warning\n", warn_after);
    std::printf("stall_warning: ARMADA_STALL_WARN=%ld, the get took %.1f s, %d warning(s): %s\n", warn_after, waited,
                warnings, failures ? "FAILED" : "ok");
  }
  rma::barrier();
  rma::free(bases[static_cast<std::size_t>(me)]);
  rma::finalize();
  return failures ? 1 : 0;
}
