// Groups, allocation on groups, and collectives.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

TEST(Groups, WorldTranslatesToItself) {
  const Group w = Group::world();
  EXPECT_EQ(w.size(), size());
  EXPECT_EQ(w.rank(), rank());
  for (int r = 0; r < size(); ++r) {
    EXPECT_EQ(w.world_rank(r), r);
    EXPECT_EQ(w.group_rank(r), r);
  }
}

TEST(Groups, ReversedOddRanksTranslateBothWays) {
  // Odd world ranks, listed in reverse order.
  std::vector<int> ranks;
  for (int r = size() - 1; r >= 0; --r)
    if (r % 2 == 1) ranks.push_back(r);
  const Group g = Group::create(Group::world(), ranks);
  EXPECT_EQ(g.size(), static_cast<int>(ranks.size()));
  EXPECT_EQ(g.is_member(), rank() % 2 == 1);
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    EXPECT_EQ(g.world_rank(static_cast<int>(i)), ranks[i]);
    EXPECT_EQ(g.group_rank(ranks[i]), static_cast<int>(i));
  }
  if (size() > 0) {
    EXPECT_EQ(g.group_rank(0), -1);  // rank 0 is even: not a member
  }
  if (g.is_member()) {
    EXPECT_EQ(g.world_rank(g.rank()), rank());
    EXPECT_NE(g.comm(), MPI_COMM_NULL);
  } else {
    EXPECT_EQ(g.comm(), MPI_COMM_NULL);
  }
  barrier();
}

TEST(Groups, AllocationOnAGroupAndTrafficInsideIt) {
  std::vector<int> ranks;
  for (int r = 0; r < size(); r += 2) ranks.push_back(r);  // even ranks
  const Group g = Group::create(Group::world(), ranks);
  if (g.is_member()) {
    Segment seg(64 * sizeof(int), g);
    EXPECT_EQ(seg.bases().size(), ranks.size());
    std::memset(seg.local(), 0, 64 * sizeof(int));
    MPI_Barrier(g.comm());
    const int next = g.world_rank((g.rank() + 1) % g.size());  // world rank of next member
    std::vector<int> v(64, rank() + 1);
    put(v.data(), seg.at<int>(next), 64);
    fence(next);
    MPI_Barrier(g.comm());
    const int prev = g.world_rank((g.rank() + g.size() - 1) % g.size());
    for (int i = 0; i < 64; ++i) EXPECT_EQ(seg.local<int>()[i], prev + 1);
    // Mutexes on the group as well.
    MutexSet m = MutexSet::create(2, g);
    m.lock(1, ranks.back());
    m.unlock(1, ranks.back());
    MPI_Barrier(g.comm());
    m.destroy();
    MPI_Barrier(g.comm());
  }
  barrier();
}

TEST(Groups, GroupsWithoutTheNodesFirstRanksWorkAcrossNodes) {
  // Odd ranks only: under ARMADA_NODE_SIZE=2 neither node's first rank (whose thread serves the
  // node) is a member, so the servers must reach the segment through its creator's object.
  std::vector<int> ranks;
  for (int r = 1; r < size(); r += 2) ranks.push_back(r);
  if (ranks.empty()) GTEST_SKIP() << "needs at least 2 ranks";
  const Group g = Group::create(Group::world(), ranks);
  if (g.is_member()) {
    for (int round = 0; round < 5; ++round) {  // allocate and free repeatedly
      Segment seg(16 * sizeof(long), g);
      std::fill_n(seg.local<long>(), 16, 0L);
      MPI_Barrier(g.comm());
      const int next = g.world_rank((g.rank() + 1) % g.size());
      std::vector<long> v(8, 100L * rank() + round);
      put(v.data(), seg.at<long>(next), 8);
      fetch_add(seg.at<long>(next, 8), 1L);
      const long one = 1;
      acc(&one, seg.at<long>(next, 9), 1, 5L);
      fence(next);
      MutexSet m = MutexSet::create(1, g);
      m.lock(0, next);
      m.unlock(0, next);
      MPI_Barrier(g.comm());
      const int prev = g.world_rank((g.rank() + g.size() - 1) % g.size());
      for (int i = 0; i < 8; ++i) EXPECT_EQ(seg.local<long>()[i], 100L * prev + round);
      EXPECT_EQ(seg.local<long>()[8], 1);
      EXPECT_EQ(seg.local<long>()[9], 5);
      MPI_Barrier(g.comm());
      m.destroy();
    }
  }
  barrier();
}

TEST(Groups, NonMembersCannotAllocateOnTheGroup) {
  const int zero[] = {0};
  const Group g = Group::create(Group::world(), zero);
  if (!g.is_member())
    test::expect_error<InvalidArgument>([&] { allocate(8, g); }, {"rma::allocate", "not a member"});
  barrier();
}

TEST(Groups, OneGroupPerNodeCreatedTogetherAsGlobalArraysDoes) {
  // GA's read-only arrays: one group per node, collective over the world, every rank passing
  // its own node's list (disjoint lists, as MPI_Comm_create allows).
  const std::span<const int> mine = node_ranks(node_of(rank()));
  const std::vector<int> list(mine.begin(), mine.end());
  const Group g = Group::create(Group::world(), list);
  ASSERT_TRUE(g.is_member());
  EXPECT_EQ(g.size(), static_cast<int>(list.size()));
  for (int i = 0; i < g.size(); ++i) EXPECT_EQ(g.world_rank(i), list[static_cast<std::size_t>(i)]);
  for (int r = 0; r < size(); ++r) EXPECT_EQ(g.group_rank(r) >= 0, same_node(r, rank()));
  long sum = rank();
  allreduce(std::span<long>(&sum, 1), ReduceOp::Sum, g);
  long expected = 0;
  for (int r : list) expected += r;
  EXPECT_EQ(sum, expected);  // the reduction stays inside the node's group
  Segment seg(sizeof(long), g);
  *seg.local<long>() = 0;
  MPI_Barrier(g.comm());
  fetch_add(seg.at<long>(list[0]), 1L + rank());
  MPI_Barrier(g.comm());
  if (rank() == list[0]) {
    EXPECT_EQ(*seg.local<long>(), expected + static_cast<long>(list.size()));
  }
  MPI_Barrier(g.comm());
}

TEST(Groups, DisjointGroupsWithRanksInNone) {
  // Even ranks form one group, ranks 3, 7, ... another; the others are in none (empty list).
  std::vector<int> evens, threes;
  for (int r = 0; r < size(); ++r) {
    if (r % 2 == 0) evens.push_back(r);
    if (r % 4 == 3) threes.push_back(r);
  }
  const std::vector<int> mine = rank() % 2 == 0 ? evens : rank() % 4 == 3 ? threes : std::vector<int>{};
  const Group g = Group::create(Group::world(), mine);
  EXPECT_EQ(g.is_member(), !mine.empty());
  EXPECT_EQ(g.size(), static_cast<int>(mine.size()));
  if (g.is_member()) {
    int count = 1;
    allreduce(std::span<int>(&count, 1), ReduceOp::Sum, g);
    EXPECT_EQ(count, static_cast<int>(mine.size()));
  } else {
    EXPECT_EQ(g.comm(), MPI_COMM_NULL);
  }
  barrier();
}

TEST(Groups, ListsThatOverlapInconsistentlyFailOnEveryRank) {
  if (size() < 2) GTEST_SKIP() << "needs two ranks to pass different lists";
  // Every rank passes [0]; the last passes [0, last]: rank 0 is in two different lists.
  const int last = size() - 1;
  const std::vector<int> mine = rank() == last ? std::vector<int>{0, last} : std::vector<int>{0};
  test::expect_error<InvalidArgument>([&] { Group::create(Group::world(), mine); },
                                      {"rma::Group::create", "listed parent rank 0 in [0, " , "but rank 0 passed [0]"});
  // The same members in another order are another list.
  if (size() >= 2) {
    const std::vector<int> order = rank() == 0 ? std::vector<int>{0, 1} : std::vector<int>{1, 0};
    if (rank() <= 1)
      test::expect_error<InvalidArgument>([&] { Group::create(Group::world(), order); }, {"rma::Group::create", "same order"});
    else
      test::expect_error<InvalidArgument>([&] { Group::create(Group::world(), std::vector<int>{}); }, {"rma::Group::create"});
  }
  const Group ok = Group::create(Group::world(), std::vector<int>{0});  // still usable
  EXPECT_EQ(ok.is_member(), rank() == 0);
  barrier();
}

TEST(Collectives, ReductionsIncludingAbsMaxAbsMin) {
  const int n = size(), me = rank();
  std::vector<double> d{static_cast<double>(me + 1), -static_cast<double>(me + 1) * 2, me % 2 ? -0.5 : 0.25};
  auto sum = d;
  allreduce(std::span<double>(sum), ReduceOp::Sum);
  EXPECT_EQ(sum[0], n * (n + 1) / 2.0);
  EXPECT_EQ(sum[1], -static_cast<double>(n * (n + 1)));
  auto amax = d;
  allreduce(std::span<double>(amax), ReduceOp::AbsMax);
  EXPECT_EQ(amax[0], n);
  EXPECT_EQ(amax[1], 2.0 * n);
  EXPECT_EQ(amax[2], n > 1 ? 0.5 : 0.25);
  auto amin = d;
  allreduce(std::span<double>(amin), ReduceOp::AbsMin);
  EXPECT_EQ(amin[0], 1);
  EXPECT_EQ(amin[1], 2);
  EXPECT_EQ(amin[2], 0.25);
  long bits = 1L << me;
  allreduce(std::span<long>(&bits, 1), ReduceOp::BitOr);
  EXPECT_EQ(bits, (1L << n) - 1);
  int imin = 10 - me;
  allreduce(std::span<int>(&imin, 1), ReduceOp::Min);
  EXPECT_EQ(imin, 10 - (n - 1));
  long long prod = 2;
  allreduce(std::span<long long>(&prod, 1), ReduceOp::Prod);
  EXPECT_EQ(prod, 1LL << n);
  int extreme = rank() == 0 ? std::numeric_limits<int>::min() : 5;  // |INT_MIN| saturates
  allreduce(std::span<int>(&extreme, 1), ReduceOp::AbsMax);
  EXPECT_EQ(extreme, std::numeric_limits<int>::max());
  float f = 1.0f;
  test::expect_error<InvalidArgument>([&] { allreduce(std::span<float>(&f, 1), ReduceOp::BitXor); },
                                      {"rma::allreduce", "integer type"});
}

TEST(Collectives, BroadcastFromEveryRoot) {
  for (int root = 0; root < size(); ++root) {
    std::vector<int> v(1000, rank() == root ? root * 7 : -1);
    broadcast(v.data(), v.size() * sizeof(int), root);
    for (int x : v) EXPECT_EQ(x, root * 7);
  }
  test::expect_error<InvalidArgument>([&] { int x; broadcast(&x, 4, size()); }, {"rma::broadcast", "'root'"});
}

TEST(Collectives, ArgumentsThatDifferBetweenMembersFailOnEveryMember) {
  if (size() < 2) GTEST_SKIP() << "needs two ranks to pass different arguments";
  const int last = size() - 1;
  // A root that differs: MPI would hang or mix buffers; every rank gets the error instead.
  int x = 5;
  test::expect_error<InvalidArgument>([&] { broadcast(&x, sizeof x, rank() == last ? 1 : 0); },
                                      {"rma::broadcast", "'root'", "must be the same on every member", "rank 0 passed 0",
                                       "passed 1"});
  test::expect_error<InvalidArgument>([&] { broadcast(&x, rank() == last ? 2 : 4, 0); },
                                      {"rma::broadcast", "'bytes'", "passed 4", "passed 2"});
  // A count, an operation or a type that differs.
  std::vector<double> d(rank() == last ? 3 : 2, 1.0);
  test::expect_error<InvalidArgument>([&] { allreduce(std::span<double>(d), ReduceOp::Sum); },
                                      {"rma::allreduce", "'count'", "passed 2", "passed 3"});
  test::expect_error<InvalidArgument>(
      [&] { allreduce(std::span<double>(d.data(), 2), rank() == last ? ReduceOp::Max : ReduceOp::Sum); },
      {"rma::allreduce", "'op'"});
  long l = 1;
  float f = 1;
  test::expect_error<InvalidArgument>(
      [&] {
        if (rank() == last) allreduce(std::span<float>(&f, 1), ReduceOp::Sum);
        else allreduce(std::span<long>(&l, 1), ReduceOp::Sum);
      },
      {"rma::allreduce", "'type'", "passed long", "passed float"});
  // A bad argument on one member only: every member fails, naming it.
  test::expect_error<InvalidArgument>([&] { broadcast(rank() == last ? nullptr : &x, sizeof x, 0); },
                                      {"rma::broadcast", "'buffer'"});
  // Still usable.
  double y = 1;
  allreduce(std::span<double>(&y, 1), ReduceOp::Sum);
  EXPECT_EQ(y, size());
}

// finalize's barrier is an agreement too: a member that finalizes while the others are in another
// collective fails with them, naming both calls, and the runtime stays up (it used to meet the
// other call's MPI collective).
TEST(Collectives, FinalizeWhileOthersAreInAnotherCallFailsOnEveryMember) {
  if (size() < 2) GTEST_SKIP() << "needs two ranks, one in another call";
  const bool last = rank() == size() - 1;
  test::expect_error<InvalidArgument>([&] { last ? finalize() : barrier(); },
                                      {"different collective calls", "rma::finalize", "rma::barrier"});
  ASSERT_TRUE(initialized());
  barrier();
}

}  // namespace
}  // namespace armada::rma
