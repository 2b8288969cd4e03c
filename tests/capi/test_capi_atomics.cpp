// ARMCI_Rmw with every op code, ARMCI mutexes, and ARMCI-MPI's mutex handles with trylock.
#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

#include "capi_util.hpp"

namespace armada::armci::test {
namespace {

// Every process adds to counters on every process: the fetched values are distinct (atomic
// fetch-and-add hands out each ticket once) and the totals are exact.
TEST(Rmw, FetchAndAddIsAtomic) {
  constexpr int rounds = 200;
  Segment seg(sizeof(long) * 2);
  seg.local<int>()[0] = 0;
  seg.local<long>()[1] = 0;
  ARMCI_Barrier();
  std::vector<int> tickets;
  for (int i = 0; i < rounds; ++i) {
    int old = -1;
    EXPECT_EQ(ARMCI_Rmw(ARMCI_FETCH_AND_ADD, &old, seg.at<int>(0), 1, 0), 0);
    tickets.push_back(old);
    long old_long = -1;
    EXPECT_EQ(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old_long, seg.at<long>(right(), 1), 3, right()), 0);
    EXPECT_EQ(old_long % 3, 0);
  }
  ARMCI_Barrier();
  if (me() == 0) {
    EXPECT_EQ(seg.local<int>()[0], rounds * nproc());
  }
  EXPECT_EQ(seg.local<long>()[1], 3L * rounds);
  // All tickets of all processes are distinct: gather them on everyone.
  std::vector<int> all(static_cast<std::size_t>(rounds * nproc()));
  MPI_Allgather(tickets.data(), rounds, MPI_INT, all.data(), rounds, MPI_INT, MPI_COMM_WORLD);
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<int>(i));
  ARMCI_Barrier();
}

TEST(Rmw, SwapIntAndLong) {
  Segment seg(sizeof(long) * 2);
  seg.local<int>()[0] = -1;
  seg.local<long>()[1] = -1;
  ARMCI_Barrier();
  // Everyone swaps its rank into rank 0's location; the values seen form a chain that ends in
  // what stays there.
  int mine = me();
  EXPECT_EQ(ARMCI_Rmw(ARMCI_SWAP, &mine, seg.at<int>(0), 0, 0), 0);
  long mine_long = 10L * me();
  EXPECT_EQ(ARMCI_Rmw(ARMCI_SWAP_LONG, &mine_long, seg.at<long>(0, 1), 0, 0), 0);
  std::vector<int> seen(static_cast<std::size_t>(nproc()));
  MPI_Allgather(&mine, 1, MPI_INT, seen.data(), 1, MPI_INT, MPI_COMM_WORLD);
  ARMCI_Barrier();
  int last = ARMCI_GetValueInt(seg.at<int>(0), 0);
  seen.push_back(last);
  std::sort(seen.begin(), seen.end());
  for (int i = 0; i <= nproc(); ++i) EXPECT_EQ(seen[static_cast<std::size_t>(i)], i - 1);
  EXPECT_EQ(ARMCI_GetValueLong(seg.at<long>(0, 1), 0) % 10, 0);
  ARMCI_Barrier();
}

// A read-modify-write of plain puts and gets under a mutex loses no update.
TEST(Mutexes, LockProtectsPlainUpdates) {
  constexpr int rounds = 50;
  Segment seg(sizeof(long) * 3);
  std::fill_n(seg.local<long>(), 3, 0L);
  ASSERT_EQ(ARMCI_Create_mutexes(3), 0);
  ARMCI_Barrier();
  for (int i = 0; i < rounds; ++i) {
    const int owner = i % nproc();
    const int m = i % 3;
    ARMCI_Lock(m, owner);
    long v = 0;
    EXPECT_EQ(ARMCI_Get(seg.at<long>(owner, static_cast<std::size_t>(m)), &v, sizeof v, owner), 0);
    ++v;
    EXPECT_EQ(ARMCI_Put(&v, seg.at<long>(owner, static_cast<std::size_t>(m)), sizeof v, owner), 0);
    ARMCI_Fence(owner);
    ARMCI_Unlock(m, owner);
  }
  ARMCI_Barrier();
  long total = seg.local<long>()[0] + seg.local<long>()[1] + seg.local<long>()[2];
  armci_msg_lgop(&total, 1, const_cast<char*>("+"));
  EXPECT_EQ(total, static_cast<long>(rounds) * nproc());
  EXPECT_EQ(ARMCI_Destroy_mutexes(), 0);
  // Created again after destruction, with a count that differs per process.
  ASSERT_EQ(ARMCI_Create_mutexes(me() + 1), 0);
  ARMCI_Lock(nproc() - 1, nproc() - 1);
  ARMCI_Unlock(nproc() - 1, nproc() - 1);
  ARMCI_Barrier();
  EXPECT_EQ(ARMCI_Destroy_mutexes(), 0);
}

TEST(MutexHandles, BatchesOnGroupsAndTrylock) {
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  armcix_mutex_hdl_t a = ARMCIX_Create_mutexes_hdl(2, &world);
  armcix_mutex_hdl_t b = ARMCIX_Create_mutexes_hdl(me() == 0 ? 1 : 0, &world);
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->my_count, 2);
  EXPECT_EQ(a->max_count, 2);
  EXPECT_EQ(b->my_count, me() == 0 ? 1 : 0);
  EXPECT_EQ(b->max_count, 1);
  EXPECT_EQ(a->grp.comm, world.comm);
  // Rank 0 takes mutex 1 on the last rank; everyone else's trylock fails until it lets go.
  const int last = nproc() - 1;
  if (me() == 0) {
    EXPECT_EQ(ARMCIX_Trylock_hdl(a, 1, last), 0);
  }
  ARMCI_Barrier();
  if (me() != 0) {
    EXPECT_NE(ARMCIX_Trylock_hdl(a, 1, last), 0);
  }
  ARMCI_Barrier();
  if (me() == 0) ARMCIX_Unlock_hdl(a, 1, last);
  ARMCI_Barrier();
  // Now each takes it in turn (trylock until it succeeds), and batch b's only mutex too.
  while (ARMCIX_Trylock_hdl(a, 1, last) != 0) {
  }
  ARMCIX_Lock_hdl(b, 0, 0);
  ARMCIX_Unlock_hdl(b, 0, 0);
  ARMCIX_Unlock_hdl(a, 1, last);
  ARMCI_Barrier();
  EXPECT_EQ(ARMCIX_Destroy_mutexes_hdl(b), 0);
  EXPECT_EQ(ARMCIX_Destroy_mutexes_hdl(a), 0);
  // A batch on a group of the even ranks.
  std::vector<int> evens;
  for (int p = 0; p < nproc(); p += 2) evens.push_back(p);
  ARMCI_Group g;
  ARMCI_Group_create(static_cast<int>(evens.size()), evens.data(), &g);
  if (g.comm != MPI_COMM_NULL) {
    armcix_mutex_hdl_t c = ARMCIX_Create_mutexes_hdl(1, &g);
    ARMCIX_Lock_hdl(c, 0, 0);  // proc: an absolute (world) rank
    ARMCIX_Unlock_hdl(c, 0, 0);
    EXPECT_EQ(ARMCIX_Destroy_mutexes_hdl(c), 0);
  }
  ARMCI_Group_free(&g);
  ARMCI_Barrier();
}

// Several threads per process issue atomics, handle-based puts (own handles) and implicit
// puts at once: the C API's request table and the core are shared safely.
TEST(Threads, ConcurrentRmwAndHandles) {
  constexpr int threads = 3, rounds = 200;
  Segment seg(sizeof(long) * (1 + threads * rounds));
  std::fill_n(seg.local<long>(), 1 + threads * rounds, 0L);
  ARMCI_Barrier();
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (int i = 0; i < rounds; ++i) {
        long old = 0;
        ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, seg.at<long>(0), 1, 0);
        const long v = me() * 1000000L + t * 1000 + i;
        armci_hdl_t h;
        ARMCI_INIT_HANDLE(&h);
        ARMCI_NbPut(const_cast<long*>(&v), seg.at<long>(right(), 1 + static_cast<std::size_t>(t * rounds + i)),
                    sizeof v, right(), i % 2 ? &h : nullptr);
        if (i % 2) ARMCI_Wait(&h);
        else ARMCI_WaitProc(right());
      }
    });
  for (auto& th : pool) th.join();
  ARMCI_Barrier();
  if (me() == 0) {
    EXPECT_EQ(seg.local<long>()[0], static_cast<long>(threads) * rounds * nproc());
  }
  for (int t = 0; t < threads; ++t)
    for (int i = 0; i < rounds; ++i)
      EXPECT_EQ(seg.local<long>()[1 + t * rounds + i], left() * 1000000L + t * 1000 + i);
  ARMCI_Barrier();
}

TEST(Mutexes, ZeroEverywhere) {
  ASSERT_EQ(ARMCI_Create_mutexes(0), 0);
  EXPECT_EQ(ARMCI_Destroy_mutexes(), 0);
}

}  // namespace
}  // namespace armada::armci::test
