// The symmetric arena (core/arena.hpp): a segment whose members hold one size lies at one offset
// on every member, so the registry keeps no base per member (issue 53); any other segment keeps
// its bases; either way every operation reaches every member.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "core/state.hpp"  // the registry's member_bytes, the arena
#include "test_util.hpp"

namespace armada::rma {
namespace {

detail::State& state() { return *detail::g_state; }

// A transport that allocates segment memory itself (mpi-rma's MPI_Win_allocate, rdma's UCX
// memory) places them; the arena places the core's node shared memory, and the memory of a
// transport that places_segments() (rdma's: every rank's slice at one address).
bool node_memory_segments() {
  return std::none_of(state().routes.started.begin(), state().routes.started.end(),
                      [](const auto& t) { return t->allocates_segments(); });
}
bool transport_places_segments() {
  return std::any_of(state().routes.started.begin(), state().routes.started.end(),
                     [](const auto& t) { return t->allocates_segments() && t->places_segments(); });
}

// Each member's place among the members of its node (world order: the world group's order).
std::size_t node_place(int r) {
  const auto ranks = node_ranks(node_of(r));
  return static_cast<std::size_t>(std::find(ranks.begin(), ranks.end(), r) - ranks.begin());
}

// Puts its rank to each member's slice (first and last word) and checks what arrived.
void expect_reachable(const std::vector<void*>& bases, std::size_t bytes) {
  for (int t = 0; t < size(); ++t) {
    const long v = rank();
    auto* at = static_cast<std::byte*>(bases[static_cast<std::size_t>(t)]);
    if (t == (rank() + 1) % size()) {
      put(&v, at, sizeof v, t);
      put(&v, at + bytes - sizeof v, sizeof v, t);
    }
  }
  barrier();
  const auto* mine = static_cast<std::byte*>(bases[static_cast<std::size_t>(rank())]);
  long first = -1, last = -1;
  std::memcpy(&first, mine, sizeof first);
  std::memcpy(&last, mine + bytes - sizeof last, sizeof last);
  const long from = (rank() + size() - 1) % size();
  EXPECT_EQ(first, from);
  EXPECT_EQ(last, from);
  barrier();
}

TEST(Symmetric, OneSizeSegmentsLieAtOneOffsetAndKeepNoBases) {
  const detail::SymmetricArena& arena = *state().arena;
#if defined(__SANITIZE_THREAD__)
  EXPECT_FALSE(arena.on());
  EXPECT_NE(arena.reason().find("ThreadSanitizer"), std::string::npos) << arena.reason();
  GTEST_SKIP() << "the arena is off under ThreadSanitizer: " << arena.reason();
#endif
  if (config().integer("ARMADA_SYMMETRIC_GIB") == 0) {
    EXPECT_FALSE(arena.on());
    EXPECT_NE(symmetric_arena().find("ARMADA_SYMMETRIC_GIB=0"), std::string::npos) << symmetric_arena();
    GTEST_SKIP() << "ARMADA_SYMMETRIC_GIB=0 in this row";
  }
  // A user's address-space limit (ulimit -v) below the arena turns it off, saying so.
  if (!arena.on() && arena.reason().find("RLIMIT_AS") != std::string::npos) GTEST_SKIP() << arena.reason();
  ASSERT_TRUE(arena.on()) << arena.reason();
  EXPECT_EQ(symmetric_arena().rfind("on: ", 0), 0u) << symmetric_arena();
  // A transport that allocates segment memory itself places them (its bases are kept), unless
  // it places them in the arena.
  const bool node_memory = node_memory_segments(), placed = transport_places_segments();
  constexpr std::size_t kBytes = 3 * 4096 + 100;  // a slot is rounded to whole pages
  const std::size_t before = state().registry->member_bytes();
  const std::vector<void*> bases = allocate(kBytes);
  const std::size_t growth = state().registry->member_bytes() - before;
  if (node_memory) {
    const auto origin = reinterpret_cast<std::uintptr_t>(bases[0]) - node_place(0) * 4 * 4096;
    for (int r = 0; r < size(); ++r)
      EXPECT_EQ(reinterpret_cast<std::uintptr_t>(bases[static_cast<std::size_t>(r)]), origin + node_place(r) * 4 * 4096)
          << "rank " << r;
    EXPECT_GE(origin, reinterpret_cast<std::uintptr_t>(arena.base()));
    EXPECT_LT(origin, reinterpret_cast<std::uintptr_t>(arena.base()) + arena.size());
  }
  if (placed) {  // each rank's own memory, all at one address
    for (int r = 0; r < size(); ++r) EXPECT_EQ(bases[static_cast<std::size_t>(r)], bases[0]) << "rank " << r;
    EXPECT_GE(static_cast<std::byte*>(bases[0]), arena.base());
    EXPECT_LT(static_cast<std::byte*>(bases[0]), arena.base() + arena.size());
    EXPECT_TRUE(symmetric_layout(bases[static_cast<std::size_t>(rank())]).has_value());
  }
  if (node_memory || placed) {
    // Nothing per member of another node, whatever the transport: this node's members' mappings
    // (16 B each) and, on rdma, their keys ((4 + 24) B each); a handle every member shares (the
    // mpi-rma window) once, the server's none (its node server maps what it must itself).
    const std::size_t on_node = node_ranks(node_of(rank())).size();
    EXPECT_LE(growth, on_node * (16 + 4 + detail::kSliceHandleBytes))
        << "a one-size segment keeps " << growth << " B for " << size() << " members, " << on_node << " on this node";
  }
  expect_reachable(bases, kBytes);
  // Against a segment of sizes that differ (its bases and sizes kept: 16 B a member) on the same
  // ranks: the one-size segment keeps neither.
  const std::size_t before_irregular = state().registry->member_bytes();
  const std::vector<void*> irregular = allocate(kBytes + 4096 * static_cast<std::size_t>(rank() % 2));
  const std::size_t irregular_growth = state().registry->member_bytes() - before_irregular;
  if ((node_memory || placed) && size() > 1) {
    EXPECT_EQ(irregular_growth - growth, 16u * static_cast<std::size_t>(size()))
        << "one size: " << growth << " B kept, sizes that differ: " << irregular_growth << " B";
  }
  free(irregular[static_cast<std::size_t>(rank())]);
  free(bases[static_cast<std::size_t>(rank())]);
}

TEST(Symmetric, SegmentsOfDifferentSizesKeepTheirBasesAndWork) {
  const std::size_t mine = 4096 * static_cast<std::size_t>(1 + rank() % 2) + 64;
  const std::size_t before = state().registry->member_bytes();
  const std::vector<void*> bases = allocate(mine);
  const std::size_t growth = state().registry->member_bytes() - before;
  if (size() > 1) {
    EXPECT_GE(growth, static_cast<std::size_t>(size()) * sizeof(std::uintptr_t));
  }
  // Every member writes the first word of its right neighbour.
  const int t = (rank() + 1) % size();
  const long v = 100 + rank();
  put(&v, bases[static_cast<std::size_t>(t)], sizeof v, t);
  barrier();
  long got = 0;
  std::memcpy(&got, bases[static_cast<std::size_t>(rank())], sizeof got);
  EXPECT_EQ(got, 100 + (rank() + size() - 1) % size());
  barrier();
  free(bases[static_cast<std::size_t>(rank())]);
}

// Freed ranges are taken again: allocating and freeing many segments stays in the arena, and
// one segment allocated after the others were freed reuses the lowest range.
TEST(Symmetric, FreedRangesAreTakenAgain) {
  const detail::SymmetricArena& arena = *state().arena;
  if (!arena.on()) GTEST_SKIP() << arena.reason();  // checked by the test above
  if (!node_memory_segments() && !transport_places_segments())
    GTEST_SKIP() << "a transport allocates the segments here, not the arena";
  std::vector<void*> first = allocate(4096);
  const void* where = first[static_cast<std::size_t>(rank())];
  free(const_cast<void*>(where));
  for (int i = 0; i < 50; ++i) {
    std::vector<void*> b = allocate(4096 * static_cast<std::size_t>(1 + i % 3));
    free(b[static_cast<std::size_t>(rank())]);
  }
  std::vector<void*> again = allocate(4096);
  EXPECT_EQ(again[static_cast<std::size_t>(rank())], where);
  expect_reachable(again, 4096);
  free(again[static_cast<std::size_t>(rank())]);
}

// rma::symmetric_layout of anything but a segment's local base is an error naming the call.
TEST(Symmetric, LayoutOfWhatIsNoSegmentBaseIsAnError) {
  using test::expect_error;
  long local = 0;
  expect_error<InvalidArgument>([&] { (void)symmetric_layout(&local); },
                                {"rma::symmetric_layout", "'my_base'", "not the local base of a segment"});
  test::Segment seg(64);
  expect_error<InvalidArgument>([&] { (void)symmetric_layout(seg.local() + 8); }, {"rma::symmetric_layout", "'my_base'"});
  EXPECT_NO_THROW((void)symmetric_layout(seg.local()));
  barrier();
}

// Subgroups: members in another order than the world's, some ranks not members.
TEST(Symmetric, SubgroupSegmentsWork) {
  if (size() < 2) GTEST_SKIP() << "needs 2 ranks";
  std::vector<int> members;
  for (int r = size() - 1; r >= 0; r -= 1) members.push_back(r);  // reversed
  if (size() > 2) members.pop_back();                               // without rank 0
  Group g = Group::create(Group::world(), members);
  if (g.is_member()) {
    std::vector<void*> bases = allocate(4096, g);
    const int next = members[static_cast<std::size_t>((g.rank() + 1) % g.size())];
    const long v = 7 + rank();
    put(&v, bases[static_cast<std::size_t>(g.group_rank(next))], sizeof v, next);
    fence_all();  // a put may return at local completion (rdma); the fence completes it remotely
    MPI_Barrier(g.comm());
    long got = 0;
    std::memcpy(&got, bases[static_cast<std::size_t>(g.rank())], sizeof got);
    const int prev = members[static_cast<std::size_t>((g.rank() + g.size() - 1) % g.size())];
    EXPECT_EQ(got, 7 + prev);
    MPI_Barrier(g.comm());
    free(bases[static_cast<std::size_t>(g.rank())], g);
  }
  barrier();
}

}  // namespace
}  // namespace armada::rma
