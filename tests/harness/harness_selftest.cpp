// Tests of the MPI test harness itself. Registered in tests/CMakeLists.txt:
//   harness_selftest              must pass: results combine across ranks
//   --gtest_filter=*FailsOnOneRank  must fail, printing the failing rank once
//   --gtest_filter=*HangsOnOneRank  must be killed at the launch timeout
//   ARMADA_TEST_HARNESS_ENV=setup|teardown  a global environment (the library's init or
//                                   finalize) fails on the last rank: the run must fail
//   --gtest_filter=NoSuchTest       no test runs: the run must fail
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

int world_rank();
int world_size();

// Stands for a library's init/finalize in a global environment: fails on the last rank when
// ARMADA_TEST_HARNESS_ENV names the step, as rma::init does when a transport cannot start.
class MaybeFailingEnvironment : public ::testing::Environment {
 public:
  void SetUp() override { maybe_fail("setup"); }
  void TearDown() override { maybe_fail("teardown"); }

 private:
  static void maybe_fail(const char* step) {
    const char* when = std::getenv("ARMADA_TEST_HARNESS_ENV");
    if (when && std::strcmp(when, step) == 0 && world_rank() == world_size() - 1)
      throw std::runtime_error(std::string("deliberate failure of the environment's ") + step);
  }
};
const auto* const registered = ::testing::AddGlobalTestEnvironment(new MaybeFailingEnvironment);

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}
int world_size() {
  int s = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  return s;
}

TEST(Harness, EveryRankRunsEveryTest) {
  int ran = 1, total = 0;
  MPI_Allreduce(&ran, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(total, world_size());
}

TEST(Harness, RanksSeeEachOther) {
  int mine = world_rank(), sum = 0;
  MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(sum, world_size() * (world_size() - 1) / 2);
}

// The last rank fails; the others pass. The whole test must fail, reporting that rank.
TEST(HarnessMustFail, FailsOnOneRank) {
  EXPECT_NE(world_rank(), world_size() - 1) << "deliberate failure on the last rank only";
}

// Rank 0 never arrives at the barrier the others wait in: only the launch timeout ends this.
TEST(HarnessMustHang, HangsOnOneRank) {
  if (world_rank() == 0 && world_size() > 1) {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (world_size() == 1) {
    for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
