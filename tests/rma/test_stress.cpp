// Stress: every rank runs 2 threads that mix put/get, accumulate, fetch-and-add and mutex-guarded
// updates on random targets; at the end every total is exact. Run with 8 oversubscribed ranks
// on every transport (tests/rma/CMakeLists.txt). Bounded: ARMADA_TEST_STRESS_OPS operations per
// thread (default 400).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "test_seed.hpp"
#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

constexpr int kThreads = 2;

// Per rank's segment: [0] accumulate counter (double), [1] ticket counter (long),
// [2] mutex-guarded counter (long), then one private slot of 8 longs per (origin rank, thread).
struct Layout {
  static constexpr std::size_t acc = 0, ticket = 1, guarded = 2, slots = 8;
  static std::size_t slot(int origin, int thread) { return slots + 8 * static_cast<std::size_t>(origin * kThreads + thread); }
};

struct Counts {
  long acc = 0, mutex = 0, moves = 0;
  std::vector<long> tickets;
};

void worker(const Segment& seg, MutexSet& mutexes, int thread, std::uint64_t seed, int ops, Counts& out) {
  std::mt19937_64 rng(seed * 7919 + static_cast<std::uint64_t>(rank() * kThreads + thread));
  std::uniform_int_distribution<int> any_rank(0, size() - 1), any_kind(0, 3);
  long stamp = 0;
  for (int i = 0; i < ops; ++i) {
    const int t = any_rank(rng);
    switch (any_kind(rng)) {
      case 0: {  // accumulate 1.0 on t's counter
        const double one = 1.0, scale = 1.0;
        acc(AccType::Double, &scale, &one, seg.base<double>(t) + Layout::acc, sizeof one, t);
        ++out.acc;
        break;
      }
      case 1:  // a ticket of t's counter
        out.tickets.push_back(fetch_add(GlobalPtr<long>(t, seg.base<long>(t) + Layout::ticket), 1L) * size() + t);
        break;
      case 2: {  // get-increment-put under t's mutex
        mutexes.lock(0, t);
        const GlobalPtr<long> c(t, seg.base<long>(t) + Layout::guarded);
        put_value(get_value(c) + 1, c);
        fence(t);
        mutexes.unlock(0, t);
        ++out.mutex;
        break;
      }
      default: {  // write this thread's private slot at t, read it back
        long v[8], back[8];
        for (long& x : v) x = ++stamp * 1000 + rank() * 10 + thread;
        long* slot = seg.base<long>(t) + Layout::slot(rank(), thread);
        put(v, slot, sizeof v, t);
        get(slot, back, sizeof back, t);
        EXPECT_TRUE(std::equal(v, v + 8, back)) << "private slot at rank " << t << " read back wrong";
        ++out.moves;
        break;
      }
    }
  }
}

TEST(Stress, MixedOperationsFromTwoThreadsPerRankKeepExactTotals) {
  const char* env = std::getenv("ARMADA_TEST_STRESS_OPS");
  const int ops = env ? std::atoi(env) : 400;
  const std::uint64_t seed = armada::test::test_seed(4242);
  SEED_TRACE(seed);
  Segment seg((Layout::slots + 8 * static_cast<std::size_t>(size() * kThreads)) * sizeof(long));
  std::fill_n(seg.local<long>(), Layout::slots, 0L);
  MutexSet mutexes = MutexSet::create(1);
  barrier();
  std::vector<Counts> counts(kThreads);
  std::vector<std::thread> pool;
  for (int th = 0; th < kThreads; ++th)
    pool.emplace_back([&, th] { worker(seg, mutexes, th, seed, ops, counts[static_cast<std::size_t>(th)]); });
  for (auto& p : pool) p.join();
  barrier();

  long mine[3] = {0, 0, 0};  // accumulates, mutex updates, tickets issued
  std::vector<long> tickets;
  for (const Counts& c : counts) {
    mine[0] += c.acc, mine[1] += c.mutex, mine[2] += static_cast<long>(c.tickets.size());
    tickets.insert(tickets.end(), c.tickets.begin(), c.tickets.end());
  }
  long total[3];
  MPI_Allreduce(mine, total, 3, MPI_LONG, MPI_SUM, world_comm());
  // Sum of every rank's counters: exactly the operations issued.
  double acc_here = seg.local<double>()[Layout::acc];
  long here[2] = {seg.local<long>()[Layout::guarded], seg.local<long>()[Layout::ticket]};
  double acc_all = 0;
  long sums[2];
  MPI_Allreduce(&acc_here, &acc_all, 1, MPI_DOUBLE, MPI_SUM, world_comm());
  MPI_Allreduce(here, sums, 2, MPI_LONG, MPI_SUM, world_comm());
  EXPECT_EQ(acc_all, static_cast<double>(total[0])) << "accumulates lost or doubled";
  EXPECT_EQ(sums[0], total[1]) << "mutex-guarded updates lost";
  EXPECT_EQ(sums[1], total[2]) << "fetch-and-adds lost";
  // Every ticket (value, counter) was handed out exactly once.
  int n = static_cast<int>(tickets.size());
  std::vector<int> ns(static_cast<std::size_t>(size())), displs(static_cast<std::size_t>(size()));
  MPI_Allgather(&n, 1, MPI_INT, ns.data(), 1, MPI_INT, world_comm());
  int all_n = 0;
  for (int r = 0; r < size(); ++r) displs[static_cast<std::size_t>(r)] = all_n, all_n += ns[static_cast<std::size_t>(r)];
  std::vector<long> all(static_cast<std::size_t>(all_n));
  MPI_Allgatherv(tickets.data(), n, MPI_LONG, all.data(), ns.data(), displs.data(), MPI_LONG, world_comm());
  std::sort(all.begin(), all.end());
  EXPECT_TRUE(std::adjacent_find(all.begin(), all.end()) == all.end()) << "a ticket was handed out twice";
  barrier();
  mutexes.destroy();
}

}  // namespace
}  // namespace armada::rma
