// A collective whose members do not all arrive says so after ARMADA_STALL_WARN seconds, once,
// naming the members that have not arrived and where each is (core/arrival.hpp), and completes
// when they come.
//
// Run with ARMADA_STALL_WARN=1. Rank 0's stderr during rma::barrier goes to a file, which it
// checks. First the last rank sleeps kAwaySeconds outside Armada: the warning names it "in no
// collective call" and no other rank. With 4 ranks, then, rank 2 sleeps while rank 3 waits for it
// in an agreement of their own group: the warning names rank 2 in no collective call and rank 3
// in that other call, and neither rank 1. Prints "agree_stall: ... ok" on rank 0 when all holds.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include <mpi.h>

#include "armada/rma/rma.hpp"
#include "stderr_capture.hpp"

namespace rma = armada::rma;
namespace test = armada::test;
using test::count;

namespace {

constexpr int kAwaySeconds = 3;

std::string barrier_capturing_stderr() {
  return test::capturing_stderr("/tmp/armada-agree-stall-" + std::to_string(getpid()) + ".txt", [] { rma::barrier(); });
}

void away() { std::this_thread::sleep_for(std::chrono::seconds(kAwaySeconds)); }

// Rank 0's checks of one phase: one warning; `expected` in it, `absent` not.
int check(const std::string& phase, const std::string& captured, const std::vector<std::string>& expected,
          const std::vector<std::string>& absent) {
  std::fprintf(stderr, "%s", captured.c_str());
  int failures = 0;
  const int warnings = count(captured, "have not arrived");
  if (warnings != 1) ++failures, std::printf("FAIL (%s): %d warnings, expected 1\n", phase.c_str(), warnings);
  for (const auto& e : expected)
    if (count(captured, e) != 1) ++failures, std::printf("FAIL (%s): no \"%s\"\n", phase.c_str(), e.c_str());
  for (const auto& a : absent)
    if (count(captured, a) != 0) ++failures, std::printf("FAIL (%s): \"%s\" named\n", phase.c_str(), a.c_str());
  return failures;
}

std::string on_host(int rank) {
  char host[MPI_MAX_PROCESSOR_NAME] = {};
  int length = 0;
  MPI_Get_processor_name(host, &length);  // one host here
  return "rank " + std::to_string(rank) + " (host " + host + ") is in ";
}

}  // namespace

int main(int argc, char** argv) {
  rma::init(&argc, &argv);
  const int me = rma::rank(), n = rma::size(), last = n - 1;
  int failures = 0;
  // Phase 1: the last rank is away.
  if (me == last) {
    away();
    rma::barrier();
  } else if (me == 0) {
    std::vector<std::string> absent;
    for (int r = 1; r < last; ++r) absent.push_back("rank " + std::to_string(r) + " (host");
    failures += check("away", barrier_capturing_stderr(), {on_host(last) + "no collective call"}, absent);
  } else {
    rma::barrier();
  }
  // Phase 2 (4 ranks): rank 3 waits for rank 2 in their own group's agreement.
  if (n >= 4) {
    const std::vector<int> mine = me < 2 ? std::vector<int>{0, 1} : std::vector<int>{2, 3};
    const rma::Group pair = rma::Group::create(rma::Group::world(), mine);
    if (me == 2) away();
    if (me >= 2) rma::agree_on("agree_stall::pair", nullptr, pair);
    if (me == 0)
      failures += check("elsewhere", barrier_capturing_stderr(),
                        {on_host(2) + "no collective call", on_host(3) + "another collective call or on another group: "
                                                                         "agree_stall::pair"},
                        {"rank 1 (host"});
    else
      rma::barrier();
  }
  if (me == 0)
    std::printf("agree_stall: ARMADA_STALL_WARN=%d, %d ranks: %s\n", rma::config().stall_warn_s, n,
                failures ? "FAILED" : "ok");
  std::fflush(stdout);
  rma::finalize();
  return failures ? 1 : 0;
}
