// Tests of the MPI test harness itself. Registered three ways in tests/CMakeLists.txt:
//   harness_selftest              must pass: results combine across ranks
//   --gtest_filter=*FailsOnOneRank  must fail, printing the failing rank once
//   --gtest_filter=*HangsOnOneRank  must be killed at the launch timeout
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <thread>

namespace {

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
