// Unilateral progress and stress through whatever transport reaches the target.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <vector>
#include <thread>

#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

// The target computes, without a single library call, until every origin has set its flag in
// the target's memory. Each origin first completes a put, a get of a value the target wrote
// before its loop, an accumulate and a fetch-and-add, all of which must finish while the target
// is still inside the loop: without unilateral progress this test cannot end.
TEST(Progress, OperationsCompleteWhileTheTargetComputes) {
  const int target = size() - 1;
  // Layout of the target's segment (longs): [0] value it publishes, [1] fetch-add counter,
  // [2..2+N) accumulators, [2+N..2+2N) origin flags, [2+2N..) put area.
  const std::size_t n = static_cast<std::size_t>(size());
  Segment seg((2 + 3 * n) * sizeof(long));
  long* mine = seg.local<long>();
  for (std::size_t i = 0; i < 2 + 3 * n; ++i) mine[i] = 0;
  if (rank() == target) mine[0] = 4242;
  barrier();
  if (rank() == target) {
    // Busy computation; the flags are read as atomics, nothing else touches the library.
    double x = 1.0;
    long spins = 0;
    auto flag_count = [&] {
      int set = 0;
      for (std::size_t r = 0; r < n; ++r)
        if (static_cast<int>(r) != target)
          set += std::atomic_ref<long>(mine[2 + n + r]).load(std::memory_order_acquire) != 0;
      return set;
    };
    while (flag_count() < size() - 1) {
      for (int k = 0; k < 1000; ++k) x = x * 1.0000001 + 1e-9;
      ++spins;
    }
    EXPECT_GT(x, 0.0);
    for (std::size_t r = 0; r < n; ++r) {
      if (static_cast<int>(r) == target) continue;
      EXPECT_EQ(mine[2 + r], static_cast<long>(r) + 1) << "accumulate from rank " << r;
      EXPECT_EQ(mine[2 + 2 * n + r], 1000 + static_cast<long>(r)) << "put from rank " << r;
    }
    EXPECT_EQ(mine[1], size() - 1);
  } else {
    const long v = 1000 + rank();
    put(&v, seg.base<long>(target) + 2 + 2 * n + static_cast<std::size_t>(rank()), sizeof v, target);
    EXPECT_EQ(get_value(seg.at<long>(target, 0)), 4242);
    const long one = rank() + 1;
    acc(&one, GlobalPtr<long>(target, seg.base<long>(target) + 2 + rank()), 1);
    fetch_add(seg.at<long>(target, 1), 1L);
    fence(target);
    put_value(1L, seg.at<long>(target, 2 + n + static_cast<std::size_t>(rank())));
    fence(target);
  }
  barrier();
}

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_ignore_thread_begin();
extern "C" void __tsan_ignore_thread_end();
#endif

// The origin side of progress: a nonblocking get's data must arrive while the origin computes
// without a library call (the server transport's completer thread receives it; shared memory
// and MPI one-sided move it at once). Every rank gets 1 MiB from the next rank, then spins,
// watching the last word of every 64 KiB of its buffer, until all have arrived; only then does
// it wait. Without origin-side progress the data cannot arrive and the watch times out (seen
// with ARMADA_SERVER_ORIGIN_PROGRESS=0 under server.vnode2 at 4 ranks: ranks 1 and 3 host no
// node server, whose polling would otherwise progress their process's receives too).
TEST(Progress, NonblockingGetDataArrivesWhileTheOriginComputes) {
  constexpr std::size_t kWords = (1u << 20) / sizeof(std::uint64_t);
  constexpr std::size_t kStride = (64u << 10) / sizeof(std::uint64_t);
  const int from = (rank() + 1) % size();
  Segment seg(kWords * sizeof(std::uint64_t));
  auto* mine = seg.local<std::uint64_t>();
  for (std::size_t i = 0; i < kWords; ++i) mine[i] = (static_cast<std::uint64_t>(rank()) << 40) + i + 1;
  std::vector<std::uint64_t> into(kWords, 0);
  barrier();
  auto expected = [&](std::size_t i) { return (static_cast<std::uint64_t>(from) << 40) + i + 1; };
  Handle h = get_nb(seg.base<std::uint64_t>(from), into.data(), kWords * sizeof(std::uint64_t), from);
  // The watch reads memory the communication layer writes on this rank's behalf, like a
  // remote agent: outside ThreadSanitizer's view (the wait below orders it for real use).
#if defined(__SANITIZE_THREAD__)
  __tsan_ignore_thread_begin();
#endif
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  bool arrived = false;
  double x = 1.0;
  while (!arrived && std::chrono::steady_clock::now() < deadline) {
    for (int k = 0; k < 1000; ++k) x = x * 1.0000001 + 1e-9;
    arrived = true;
    for (std::size_t i = kStride - 1; i < kWords && arrived; i += kStride)
      arrived = std::atomic_ref<std::uint64_t>(into[i]).load(std::memory_order_relaxed) == expected(i);
  }
#if defined(__SANITIZE_THREAD__)
  __tsan_ignore_thread_end();
#endif
  EXPECT_GT(x, 0.0);
  EXPECT_TRUE(arrived) << "the get from rank " << from << " (" << transport_name(from)
                       << ") did not deliver while this rank computed";
  h.wait();
  for (std::size_t i = 0; i < kWords; ++i) EXPECT_EQ(into[i], expected(i)) << "word " << i;
  barrier();
}

// Every rank hammers one target with puts to its own slots, accumulates into shared slots and
// fetch-and-adds on one counter, interleaved; all totals must be exact.
TEST(Stress, MixedOperationsOnOneTargetKeepExactTotals) {
  const int target = 0;
  const int K = 400;
  const std::size_t n = static_cast<std::size_t>(size());
  const std::size_t shared = 64;
  Segment seg((1 + shared + n * 4) * sizeof(long));
  long* mine = seg.local<long>();
  for (std::size_t i = 0; i < 1 + shared + n * 4; ++i) mine[i] = 0;
  barrier();
  long* base = seg.base<long>(target);
  std::vector<long> ones(shared, 1);
  std::vector<long> tickets;
  for (int k = 0; k < K; ++k) {
    const long v[4] = {k, k + 1, k + 2, rank()};
    put(v, base + 1 + shared + 4 * static_cast<std::size_t>(rank()), sizeof v, target);
    acc(ones.data(), GlobalPtr<long>(target, base + 1), shared, 2L);
    tickets.push_back(fetch_add(GlobalPtr<long>(target, base), 1L));
    if (k % 50 == 0) {
      long back[4];
      get(base + 1 + shared + 4 * static_cast<std::size_t>(rank()), back, sizeof back, target);
      EXPECT_EQ(back[0], k);  // my own last put, read back in issue order
    }
  }
  barrier();
  if (rank() == target) {
    EXPECT_EQ(mine[0], static_cast<long>(K) * size());
    for (std::size_t i = 0; i < shared; ++i) EXPECT_EQ(mine[1 + i], 2L * K * size()) << "slot " << i;
    for (std::size_t r = 0; r < n; ++r) {
      EXPECT_EQ(mine[1 + shared + 4 * r], K - 1);
      EXPECT_EQ(mine[1 + shared + 4 * r + 3], static_cast<long>(r));
    }
  }
  // Tickets are distinct across all ranks.
  std::vector<long> all(tickets.size() * n);
  MPI_Allgather(tickets.data(), K, MPI_LONG, all.data(), K, MPI_LONG, world_comm());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<long>(i));
  barrier();
}

}  // namespace
}  // namespace armada::rma
