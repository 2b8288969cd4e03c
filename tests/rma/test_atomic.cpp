// Read-modify-write atomics and mutexes.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <thread>

#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::expect_error;
using test::Segment;

TEST(Atomic, FetchAddHandsOutEveryTicketExactlyOnce) {
  // N ranks x K fetch-and-adds on one counter return a permutation of 0..NK-1.
  const int K = 2000;
  Segment seg(2 * sizeof(long));
  seg.local<long>()[0] = 0;
  seg.local<int>()[2] = 0;
  barrier();
  std::vector<long> mine;
  std::vector<int> mine_i;
  for (int k = 0; k < K; ++k) {
    mine.push_back(fetch_add(seg.at<long>(0), 1L));
    mine_i.push_back(fetch_add(GlobalPtr<int>(0, seg.base<int>(0) + 2), 1));
  }
  std::vector<long> all(static_cast<std::size_t>(K * size()));
  MPI_Allgather(mine.data(), K, MPI_LONG, all.data(), K, MPI_LONG, world_comm());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<long>(i));
  std::vector<int> all_i(static_cast<std::size_t>(K * size()));
  MPI_Allgather(mine_i.data(), K, MPI_INT, all_i.data(), K, MPI_INT, world_comm());
  std::sort(all_i.begin(), all_i.end());
  for (std::size_t i = 0; i < all_i.size(); ++i) EXPECT_EQ(all_i[i], static_cast<int>(i));
  barrier();
}

TEST(Atomic, SwapAndCompareSwap) {
  Segment seg(sizeof(long));
  *seg.local<long>() = -1;
  barrier();
  // Every rank tries to claim rank 0's slot with compare_swap; exactly one wins.
  const long seen = compare_swap(seg.at<long>(0), -1L, static_cast<long>(rank()));
  int won = seen == -1;
  MPI_Allreduce(MPI_IN_PLACE, &won, 1, MPI_INT, MPI_SUM, world_comm());
  EXPECT_EQ(won, 1);
  barrier();
  // Swaps chain: the values returned plus the final one are exactly {winner} + every rank.
  const long old = swap(seg.at<long>(0), 100L + rank());
  std::vector<long> olds(static_cast<std::size_t>(size()));
  MPI_Allgather(&old, 1, MPI_LONG, olds.data(), 1, MPI_LONG, world_comm());
  barrier();
  olds.push_back(get_value(seg.at<long>(0)));
  std::sort(olds.begin(), olds.end());
  std::vector<long> expect;
  for (int r = 0; r < size(); ++r) expect.push_back(100L + r);
  // The first swap returned the compare_swap winner's rank (< 100), the rest are 100+r.
  EXPECT_LT(olds.front(), 100);
  EXPECT_EQ(std::vector<long>(olds.begin() + 1, olds.end()), expect);
  barrier();
}

TEST(Atomic, BadLocationsAreRejected) {
  Segment seg(16);
  expect_error<InvalidArgument>(
      [&] { fetch_add(GlobalPtr<long>(0, reinterpret_cast<long*>(seg.base(0) + 4)), 1L); },
      {"rma::fetch_add", "location", "not aligned"});
  expect_error<InvalidArgument>([&] { swap(GlobalPtr<long>(0, reinterpret_cast<long*>(seg.base(0) + 16)), 1L); },
                                {"rma::swap", "not inside a segment"});
  long local = 0;
  expect_error<InvalidArgument>([&] { fetch_add(GlobalPtr<long>(0, &local), 1L); }, {"not inside a segment"});
  expect_error<InvalidArgument>([&] { fetch_add(GlobalPtr<long>(size(), seg.base<long>(0)), 1L); },
                                {"'target'", std::to_string(size()).c_str()});
  barrier();
}

TEST(Mutex, CounterUnderAMutexIsExact) {
  // A plain (non-atomic) get-increment-put under mutex 1 of rank size-1: no update lost.
  const int K = 300;
  MutexSet mutexes = MutexSet::create(3);
  Segment seg(sizeof(long));
  *seg.local<long>() = 0;
  barrier();
  const int owner = size() - 1;
  for (int k = 0; k < K; ++k) {
    mutexes.lock(1, owner);
    const long v = get_value(seg.at<long>(owner));
    put_value(v + 1, seg.at<long>(owner));
    fence(owner);
    mutexes.unlock(1, owner);
  }
  barrier();
  EXPECT_EQ(get_value(seg.at<long>(owner)), static_cast<long>(K) * size());
  barrier();
  mutexes.destroy();
}

TEST(Mutex, TryLockAndOwnership) {
  MutexSet mutexes = MutexSet::create(rank() + 1);  // counts differ per rank
  for (int r = 0; r < size(); ++r) EXPECT_EQ(mutexes.count(r), r + 1);
  barrier();
  if (rank() == 0) {
    EXPECT_TRUE(mutexes.try_lock(0, 0));
    EXPECT_FALSE(mutexes.try_lock(0, 0));  // held (by us): not free right now
  }
  barrier();
  if (rank() != 0) {
    EXPECT_FALSE(mutexes.try_lock(0, 0));
    expect_error<InvalidArgument>([&] { mutexes.unlock(0, 0); }, {"rma::MutexSet::unlock", "does not hold"});
  }
  barrier();
  if (rank() == 0) mutexes.unlock(0, 0);
  barrier();
  expect_error<InvalidArgument>([&] { mutexes.lock(rank() + 1, rank()); }, {"rma::MutexSet::lock", "'mutex'"});
  expect_error<InvalidArgument>([&] { mutexes.lock(0, size()); }, {"'rank'"});
  expect_error<InvalidArgument>([&] { mutexes.lock(-1, 0); }, {"'mutex' = -1"});
  barrier();
  mutexes.destroy();
  expect_error<InvalidArgument>([&] { mutexes.lock(0, 0); }, {"empty MutexSet"});
}

TEST(Mutex, LockIsFifoFair) {
  // While rank 0 holds the lock, the others queue in rank order (each queues only after the
  // previous one is queued, told through a counter); they must then get it in that order.
  if (size() < 3) GTEST_SKIP() << "needs at least 3 ranks to observe an order among waiters";
  MutexSet mutexes = MutexSet::create(1);
  Segment seg(4 * sizeof(long));
  std::fill_n(seg.local<long>(), 4, 0L);
  barrier();
  if (rank() == 0) mutexes.lock(0, 0);
  barrier();
  if (rank() > 0) {
    while (get_value(seg.at<long>(0, 1)) != rank() - 1) {
    }
    // Announce, then queue. The announcement comes just before taking a ticket, so the next
    // rank may still overtake; give the ticket a head start of 50 ms (generous on 2 cores).
    std::thread announce([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      put_value(static_cast<long>(rank()), seg.at<long>(0, 1));
    });
    mutexes.lock(0, 0);
    const long pos = fetch_add(seg.at<long>(0, 2), 1L);
    EXPECT_EQ(pos, rank() - 1) << "rank " << rank() << " got the mutex out of turn";
    mutexes.unlock(0, 0);
    announce.join();
  } else {
    while (get_value(seg.at<long>(0, 1)) != size() - 1) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    mutexes.unlock(0, 0);
  }
  barrier();
  mutexes.destroy();
}

}  // namespace
}  // namespace armada::rma

namespace armada::rma {
namespace {

TEST(Atomic, ThreadsOfEveryRankTakeDistinctTickets) {
  const int threads = 4, K = 500;
  test::Segment seg(sizeof(long));
  *seg.local<long>() = 0;
  barrier();
  std::vector<std::vector<long>> got(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int k = 0; k < K; ++k) got[static_cast<std::size_t>(t)].push_back(fetch_add(seg.at<long>(0), 1L));
    });
  for (auto& th : pool) th.join();
  std::vector<long> mine;
  for (auto& v : got) mine.insert(mine.end(), v.begin(), v.end());
  std::vector<long> all(mine.size() * static_cast<std::size_t>(size()));
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_LONG, all.data(), static_cast<int>(mine.size()),
                MPI_LONG, world_comm());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<long>(i));
  barrier();
}

TEST(Mutex, TwoThreadsOfOneRankShareARemoteMutex) {
  // Regression (server transport deadlock): while one thread holds the mutex and fences before
  // unlocking, the other thread's lock request is queued at the owner's server. A fence must not
  // wait for that grant, which can only come after the unlock.
  const int threads = 2, K = 150;
  MutexSet mutexes = MutexSet::create(1);
  test::Segment seg(sizeof(long));
  *seg.local<long>() = 0;
  barrier();
  const int owner = size() - 1;
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (int k = 0; k < K; ++k) {
        mutexes.lock(0, owner);
        const long v = get_value(seg.at<long>(owner));
        put_value(v + 1, seg.at<long>(owner));
        fence_all();
        mutexes.unlock(0, owner);
      }
    });
  for (auto& th : pool) th.join();
  barrier();
  EXPECT_EQ(get_value(seg.at<long>(owner)), static_cast<long>(threads) * K * size());
  barrier();
  mutexes.destroy();
}

}  // namespace
}  // namespace armada::rma
