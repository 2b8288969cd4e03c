// Steady traffic for the fault rows (tests/cluster/CMakeLists.txt, docs/cluster.md#faults): every
// rank moves and checks bytes with every other rank for ARMADA_TEST_TRAFFIC_SECONDS (default 20),
// however fast the transport is, so a fault injected a few seconds in always lands mid-run. A
// fixed amount of work does not: a faster transport finished test_transfer before the fault.
//
// Each round, towards one target in turn: a small and a large put into this origin's own slot
// at the target, both read back and compared, and one fetch-and-add on the target's counter.
// At the end the counters must add up to the fetch-and-adds issued.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "../rma/test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

constexpr std::size_t kSmall = 8, kLarge = 64 * 1024 / sizeof(long);  // longs: 64 B and 64 KiB
constexpr std::size_t kSlot = kSmall + kLarge;                          // per origin, at every target

double traffic_seconds() {
  const char* env = std::getenv("ARMADA_TEST_TRAFFIC_SECONDS");
  const double s = env ? std::atof(env) : 20.0;
  if (!(s > 0)) ADD_FAILURE() << "ARMADA_TEST_TRAFFIC_SECONDS must be a positive number of seconds, got '" << env << "'";
  return s > 0 ? s : 20.0;
}

// Writes `values` (stamped with this origin, the round and the position) to `slot` at `target`
// and reads them back; false when a byte came back different.
bool put_and_read_back(long* slot, std::vector<long>& values, long round, int target) {
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = (round * 1000 + rank()) * 100000 + static_cast<long>(i);
  std::vector<long> back(values.size(), -1);
  put(values.data(), slot, values.size() * sizeof(long), target);
  get(slot, back.data(), back.size() * sizeof(long), target);
  return back == values;
}

TEST(Traffic, EveryRankMovesAndChecksBytesForTheWholeDuration) {
  using clock = std::chrono::steady_clock;
  const double seconds = traffic_seconds();
  const auto start = clock::now();
  const auto deadline = start + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double>(seconds));
  // [0] the fetch-and-add counter, then one slot per origin rank.
  Segment seg((1 + kSlot * static_cast<std::size_t>(size())) * sizeof(long));
  seg.local<long>()[0] = 0;
  barrier();

  std::vector<long> small(kSmall), large(kLarge);
  long rounds = 0, adds = 0;
  auto next_report = start + std::chrono::seconds(2);
  while (clock::now() < deadline) {
    const int target = static_cast<int>((rank() + 1 + rounds) % size());
    long* slot = seg.base<long>(target) + 1 + kSlot * static_cast<std::size_t>(rank());
    ASSERT_TRUE(put_and_read_back(slot, small, rounds, target)) << "small slot at rank " << target << ", round " << rounds;
    ASSERT_TRUE(put_and_read_back(slot + kSmall, large, rounds, target)) << "large slot at rank " << target << ", round " << rounds;
    fetch_add(seg.at<long>(target, 0), 1L);
    ++adds, ++rounds;
    if (rank() == 0 && clock::now() >= next_report) {  // progress, so a log shows where a fault landed
      std::printf("traffic: rank 0 at %.0f s, %ld rounds\n", std::chrono::duration<double>(clock::now() - start).count(), rounds);
      std::fflush(stdout);
      next_report += std::chrono::seconds(2);
    }
  }
  barrier();
  long here = seg.local<long>()[0], counted = 0, issued = 0;
  MPI_Allreduce(&here, &counted, 1, MPI_LONG, MPI_SUM, world_comm());
  MPI_Allreduce(&adds, &issued, 1, MPI_LONG, MPI_SUM, world_comm());
  EXPECT_EQ(counted, issued) << "fetch-and-adds lost or doubled";
  EXPECT_GT(rounds, 0) << "no round in " << seconds << " s";
  barrier();
}

}  // namespace
}  // namespace armada::rma
