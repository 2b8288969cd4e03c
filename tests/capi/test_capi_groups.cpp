// Collective allocation (world, groups, zero-size slices, memdev), groups (create, child,
// default, world, absolute id, split, dup, free) and the topology queries.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "capi_util.hpp"

namespace armada::armci::test {
namespace {

// Odd ranks ask for nothing: their entries are NULL everywhere, and they free NULL.
TEST(Malloc, ZeroSizeSlicesAreNull) {
  std::vector<void*> bases(static_cast<std::size_t>(nproc()), reinterpret_cast<void*>(1));
  const long bytes = me() % 2 ? 0 : 100 + me();
  ASSERT_EQ(ARMCI_Malloc(bases.data(), bytes), 0);
  for (int p = 0; p < nproc(); ++p) {
    if (p % 2)
      EXPECT_EQ(bases[static_cast<std::size_t>(p)], nullptr) << p;
    else
      EXPECT_NE(bases[static_cast<std::size_t>(p)], nullptr) << p;
  }
  // Everyone writes one byte at the end of rank 0's slice.
  const char c = static_cast<char>('A' + me());
  EXPECT_EQ(ARMCI_Put(const_cast<char*>(&c), static_cast<char*>(bases[0]) + 99, 1, 0), 0);
  ARMCI_Barrier();
  if (me() == 0) {
    EXPECT_GE(static_cast<char*>(bases[0])[99], 'A');
  }
  EXPECT_EQ(ARMCI_Free(bases[static_cast<std::size_t>(me())]), 0);
}

TEST(Malloc, ZeroEverywhereAndMemdev) {
  std::vector<void*> bases(static_cast<std::size_t>(nproc()), reinterpret_cast<void*>(1));
  ASSERT_EQ(ARMCI_Malloc(bases.data(), 0), 0);
  for (void* b : bases) EXPECT_EQ(b, nullptr);
  EXPECT_EQ(ARMCI_Free(nullptr), 0);
  ASSERT_EQ(ARMCI_Malloc_memdev(bases.data(), 256, "ddr"), 0);
  for (void* b : bases) EXPECT_NE(b, nullptr);
  EXPECT_EQ(ARMCI_Free_memdev(bases[static_cast<std::size_t>(me())]), 0);
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  ASSERT_EQ(ARMCI_Malloc_group_memdev(bases.data(), 64, &world, "hbm"), 0);
  EXPECT_EQ(ARMCI_Free_group(bases[static_cast<std::size_t>(me())], &world), 0);
}

TEST(Groups, WorldAndDefault) {
  ARMCI_Group world, dflt;
  ARMCI_Group_get_world(&world);
  ARMCI_Group_get_default(&dflt);
  EXPECT_EQ(world.comm, dflt.comm);
  EXPECT_NE(world.comm, MPI_COMM_NULL);
  int rank = -5, size = -5;
  EXPECT_EQ(ARMCI_Group_rank(&world, &rank), 0);
  ARMCI_Group_size(&world, &size);
  EXPECT_EQ(rank, me());
  EXPECT_EQ(size, nproc());
  EXPECT_EQ(world.rank, me());
  EXPECT_EQ(world.size, nproc());
  for (int p = 0; p < nproc(); ++p) {
    EXPECT_EQ(world.grp_to_abs[p], p);
    EXPECT_EQ(world.abs_to_grp[p], p);
    EXPECT_EQ(ARMCI_Absolute_id(&world, p), p);
  }
  // The group's communicator is the program's to use (ARMCI's own duplicate).
  int sum = 1;
  EXPECT_EQ(MPI_Allreduce(MPI_IN_PLACE, &sum, 1, MPI_INT, MPI_SUM, world.comm), MPI_SUCCESS);
  EXPECT_EQ(sum, nproc());
  // Freeing a copy of the world group empties the copy only.
  ARMCI_Group copy = world;
  ARMCI_Group_free(&copy);
  EXPECT_EQ(copy.comm, MPI_COMM_NULL);
  ARMCI_Group again;
  ARMCI_Group_get_world(&again);
  EXPECT_EQ(again.comm, world.comm);
}

// The even ranks, in reverse order: group rank g is world rank evens[g].
TEST(Groups, CreateAllocateAndUse) {
  std::vector<int> evens;
  for (int p = nproc() - 1; p >= 0; --p)
    if (p % 2 == 0) evens.push_back(p);
  ARMCI_Group g;
  ARMCI_Group_create(static_cast<int>(evens.size()), evens.data(), &g);
  int grank = -5;
  const bool member = me() % 2 == 0;
  EXPECT_EQ(ARMCI_Group_rank(&g, &grank), member ? 0 : 1);
  if (!member) {
    EXPECT_EQ(g.comm, MPI_COMM_NULL);
    EXPECT_EQ(grank, -1);
    EXPECT_EQ(g.size, 0);
    ARMCI_Group_free(&g);  // a non-member's group: nothing to free
    ARMCI_Barrier();
    return;
  }
  int gsize = 0;
  ARMCI_Group_size(&g, &gsize);
  EXPECT_EQ(gsize, static_cast<int>(evens.size()));
  EXPECT_EQ(evens[static_cast<std::size_t>(grank)], me());
  for (int r = 0; r < gsize; ++r) {
    EXPECT_EQ(ARMCI_Absolute_id(&g, r), evens[static_cast<std::size_t>(r)]);
    EXPECT_EQ(g.grp_to_abs[r], evens[static_cast<std::size_t>(r)]);
    EXPECT_EQ(g.abs_to_grp[evens[static_cast<std::size_t>(r)]], r);
  }
  if (nproc() > 1) {
    EXPECT_EQ(g.abs_to_grp[1], MPI_UNDEFINED);
  }
  {
    // Bases are indexed by group rank; operations name world ranks.
    Segment seg(sizeof(int) * 4, &g);
    const int next = (grank + 1) % gsize;
    const int next_world = ARMCI_Absolute_id(&g, next);
    const int v = 1000 + me();
    EXPECT_EQ(ARMCI_Put(const_cast<int*>(&v), seg.at<int>(next), sizeof v, next_world), 0);
    armci_msg_group_barrier(&g);
    ARMCI_GroupFence(&g);
    armci_msg_group_barrier(&g);
    const int prev_world = ARMCI_Absolute_id(&g, (grank + gsize - 1) % gsize);
    EXPECT_EQ(*seg.local<int>(), 1000 + prev_world);
    armci_msg_group_barrier(&g);
  }
  // A child of the group: its first member only.
  int first = 0;
  ARMCI_Group child;
  ARMCI_Group_create_child(1, &first, &child, &g);
  EXPECT_EQ(child.size, grank == 0 ? 1 : 0);
  if (grank == 0) {
    EXPECT_EQ(ARMCI_Absolute_id(&child, 0), me());
  }
  ARMCI_Group_free(&child);
  // With g as the default group, ARMCI_Group_create takes g's ranks.
  ARMCI_Group_set_default(&g);
  ARMCI_Group dflt;
  ARMCI_Group_get_default(&dflt);
  EXPECT_EQ(dflt.comm, g.comm);
  std::vector<int> all(static_cast<std::size_t>(gsize));
  std::iota(all.begin(), all.end(), 0);
  ARMCI_Group same;
  ARMCI_Group_create(gsize, all.data(), &same);
  EXPECT_EQ(same.size, gsize);
  EXPECT_EQ(ARMCI_Absolute_id(&same, grank), me());
  ARMCI_Group_free(&same);
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  ARMCI_Group_set_default(&world);
  ARMCI_Group_free(&g);
  EXPECT_EQ(g.comm, MPI_COMM_NULL);
  ARMCI_Barrier();
}

// Global Arrays' pattern for read-only arrays: one group per node, created by one collective
// call in which each rank passes its own node's members (regression: "the members of the parent
// group passed different lists"). ARMCI's SMP domains are single processes here (one rank per
// group); pairs of ranks stand for nodes of two.
void one_group_per_node(const std::vector<int>& members) {
  const int n = static_cast<int>(members.size());
  ARMCI_Group group;
  ARMCI_Group_create(n, const_cast<int*>(members.data()), &group);
  int grank = -1, gsize = 0;
  ARMCI_Group_rank(&group, &grank);
  ARMCI_Group_size(&group, &gsize);
  ASSERT_EQ(gsize, n);
  EXPECT_EQ(ARMCI_Absolute_id(&group, grank), me());
  // Memory on the node's group, and an atomic from every member to its first rank.
  std::vector<void*> bases(static_cast<std::size_t>(n));
  ASSERT_EQ(ARMCI_Malloc_group(bases.data(), sizeof(long), &group), 0);
  *static_cast<long*>(bases[static_cast<std::size_t>(grank)]) = 0;
  armci_msg_group_barrier(&group);
  long old = 0;
  EXPECT_EQ(ARMCI_Rmw(ARMCI_FETCH_AND_ADD_LONG, &old, bases[0], 1, members[0]), 0);
  armci_msg_group_barrier(&group);
  if (grank == 0) EXPECT_EQ(*static_cast<long*>(bases[0]), n);
  armci_msg_group_barrier(&group);
  EXPECT_EQ(ARMCI_Free_group(bases[static_cast<std::size_t>(grank)], &group), 0);
  ARMCI_Group_free(&group);
}

TEST(Groups, OneGroupPerNodeInOneCall) {
  const int node = armci_domain_my_id(ARMCI_DOMAIN_SMP);
  std::vector<int> domain(static_cast<std::size_t>(armci_domain_nprocs(ARMCI_DOMAIN_SMP, node)));
  for (std::size_t i = 0; i < domain.size(); ++i)
    domain[i] = armci_domain_glob_proc_id(ARMCI_DOMAIN_SMP, node, static_cast<int>(i));
  one_group_per_node(domain);
  std::vector<int> pair{me() - me() % 2};
  if (pair[0] + 1 < nproc()) pair.push_back(pair[0] + 1);
  one_group_per_node(pair);
  ARMCI_Barrier();
}

TEST(Groups, SplitAndDup) {
  ARMCI_Group world, halves, dup;
  ARMCI_Group_get_world(&world);
  // Two colors; reversed order inside each (key = -rank).
  EXPECT_EQ(ARMCIX_Group_split(&world, me() % 2, -me(), &halves), 0);
  int expected_size = 0;
  for (int p = 0; p < nproc(); ++p) expected_size += p % 2 == me() % 2;
  EXPECT_EQ(halves.size, expected_size);
  // Largest rank of my color first.
  int largest = me();
  while (largest + 2 < nproc()) largest += 2;
  EXPECT_EQ(ARMCI_Absolute_id(&halves, 0), largest);
  EXPECT_EQ(ARMCIX_Group_dup(&halves, &dup), 0);
  EXPECT_NE(dup.comm, halves.comm);
  EXPECT_EQ(dup.size, halves.size);
  EXPECT_EQ(dup.rank, halves.rank);
  long x = 1;
  armci_msg_group_lgop(&x, 1, const_cast<char*>("+"), &dup);
  EXPECT_EQ(x, expected_size);
  ARMCI_Group_free(&dup);
  ARMCI_Group_free(&halves);
  // MPI_UNDEFINED leaves a process out.
  ARMCI_Group some;
  EXPECT_EQ(ARMCIX_Group_split(&world, me() == 0 ? MPI_UNDEFINED : 1, 0, &some), 0);
  EXPECT_EQ(some.comm == MPI_COMM_NULL, me() == 0);
  EXPECT_EQ(some.size, me() == 0 ? 0 : nproc() - 1);
  ARMCI_Group_free(&some);
}

// SMP domains are single processes (a peer's memory is not load/store accessible here).
TEST(Topology, DomainsAreProcesses) {
  EXPECT_EQ(armci_domain_count(ARMCI_DOMAIN_SMP), nproc());
  EXPECT_EQ(armci_domain_my_id(ARMCI_DOMAIN_SMP), me());
  EXPECT_EQ(armci_domain_nprocs(ARMCI_DOMAIN_SMP, -1), 1);
  for (int p = 0; p < nproc(); ++p) {
    EXPECT_EQ(armci_domain_nprocs(ARMCI_DOMAIN_SMP, p), 1);
    EXPECT_EQ(armci_domain_id(ARMCI_DOMAIN_SMP, p), p);
    EXPECT_EQ(armci_domain_glob_proc_id(ARMCI_DOMAIN_SMP, p, 0), p);
    EXPECT_EQ(armci_domain_same_id(ARMCI_DOMAIN_SMP, p), p == me());
    EXPECT_EQ(ARMCI_Same_node(p), p == me());
  }
  EXPECT_EQ(ARMCI_Uses_shm(), 0);
  ARMCI_Group world;
  ARMCI_Group_get_world(&world);
  EXPECT_EQ(ARMCI_Uses_shm_grp(&world), 0);
  ARMCI_Set_shm_limit(1UL << 30);
  ARMCI_Cleanup();
  ARMCIX_Progress();
}

}  // namespace
}  // namespace armada::armci::test
