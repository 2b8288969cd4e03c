// The library's allgather over the world (allocate's sizes and bases, ...) is Bruck's algorithm
// on a private communicator (core/runtime.cpp): every member still learns every member's block,
// at any job size (powers of two and not), and a rank sends to at most ceil(log2 P) ranks per
// allgather instead of every other (MPI_Iallgather's linear algorithm in Open MPI 4.1, which left
// every rank holding the MPI library's per-peer state for the whole job: docs/scaling.md). The
// public building block allgather_serving (ARMCI's armci_msg_sel and pointer exchange, arrays'
// scans, GA's pgroup split) gathers alike on the world and on a group, and refuses null buffers.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

#include "armada/rma/collectives.hpp"
#include "test_util.hpp"

namespace {
// The point-to-point sends this process starts, by communicator and destination, while counting.
bool g_counting = false;
std::set<std::pair<MPI_Comm, int>> g_sent_to;
}  // namespace

// Interposed on the MPI library's MPI_Isend (the profiling interface): the library's own sends
// reach it, as they would a tool's.
extern "C" int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                         MPI_Request* request) {
  if (g_counting) g_sent_to.insert({comm, dest});
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

// MPI_Iallgather counts as a send to every other member: Open MPI 4.1's (libnbc's linear
// algorithm, the default here) sends to each, below the interface.
extern "C" int MPI_Iallgather(const void* send, int send_count, MPI_Datatype send_type, void* recv, int recv_count,
                              MPI_Datatype recv_type, MPI_Comm comm, MPI_Request* request) {
  if (g_counting) {
    int members = 0, me = 0;
    PMPI_Comm_size(comm, &members);
    PMPI_Comm_rank(comm, &me);
    for (int r = 0; r < members; ++r)
      if (r != me) g_sent_to.insert({comm, r});
  }
  return PMPI_Iallgather(send, send_count, send_type, recv, recv_count, recv_type, comm, request);
}

namespace armada::rma {
namespace {

int ceil_log2(int p) {
  int rounds = 0;
  while ((1 << rounds) < p) ++rounds;
  return rounds;
}

TEST(WorldAllgather, EveryMemberLearnsEveryBaseAndSize) {
  // Sizes differ per rank, so a block in the wrong place shows.
  const std::size_t mine = 64 * static_cast<std::size_t>(rank() + 1);
  for (int round = 0; round < 3; ++round) {
    const std::vector<void*> bases = allocate(mine);
    ASSERT_EQ(bases.size(), static_cast<std::size_t>(size()));
    std::vector<std::uint64_t> told(static_cast<std::size_t>(size()));
    const auto my_base = reinterpret_cast<std::uint64_t>(bases[static_cast<std::size_t>(rank())]);
    MPI_Allgather(&my_base, 1, MPI_UINT64_T, told.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (int r = 0; r < size(); ++r)
      EXPECT_EQ(reinterpret_cast<std::uint64_t>(bases[static_cast<std::size_t>(r)]), told[static_cast<std::size_t>(r)])
          << "rank " << r << "'s base, round " << round;
    EXPECT_EQ(segment_size(bases[static_cast<std::size_t>(rank())]), mine);
    // The slices are where the bases say: each rank writes its number to the next rank's slice.
    const int next = (rank() + 1) % size();
    long me = rank();
    put(&me, bases[static_cast<std::size_t>(next)], sizeof me, next);
    barrier();
    EXPECT_EQ(*static_cast<long*>(bases[static_cast<std::size_t>(rank())]), (rank() + size() - 1) % size());
    barrier();
    free(bases[static_cast<std::size_t>(rank())]);
  }
}

TEST(WorldAllgather, ARankSendsToLogarithmicallyManyRanks) {
  barrier();
  g_sent_to.clear();
  g_counting = true;
  const std::vector<void*> bases = allocate(128);
  g_counting = false;
  // Per communicator the job's size (the world's duplicates): destinations of this rank's sends.
  std::size_t most = 0;
  for (const auto& [comm, dest] : g_sent_to) {
    int members = 0;
    MPI_Comm_size(comm, &members);
    if (members != size()) continue;
    std::size_t to_comm = 0;
    for (const auto& [c, d] : g_sent_to) to_comm += c == comm;
    most = std::max(most, to_comm);
  }
  EXPECT_LE(most, static_cast<std::size_t>(ceil_log2(size())))
      << "an allocation's allgathers sent to " << most << " ranks of " << size();
  free(bases[static_cast<std::size_t>(rank())]);
}

TEST(WorldAllgather, AGroupGathersLinearlyUpTo16MembersAndLogarithmicallyBeyond) {
  // Every rank but 0: 17 members on the 18-rank row (Bruck's on the group's private duplicate),
  // fewer elsewhere (MPI_Iallgather, counted as a send to every other member).
  std::vector<int> members;
  for (int r = 1; r < size(); ++r) members.push_back(r);
  if (members.empty()) return;  // one rank: no group to make
  const Group g = Group::create(Group::world(), members);
  if (g.is_member()) {
    g_sent_to.clear();
    g_counting = true;
    const std::vector<void*> bases = allocate(64, g);
    g_counting = false;
    std::size_t most = 0;
    for (const auto& [comm, dest] : g_sent_to) {
      int m = 0;
      MPI_Comm_size(comm, &m);
      if (m != g.size()) continue;
      std::size_t to_comm = 0;
      for (const auto& [c, d] : g_sent_to) to_comm += c == comm;
      most = std::max(most, to_comm);
    }
    const std::size_t expected = g.size() > 16 ? static_cast<std::size_t>(ceil_log2(g.size())) : static_cast<std::size_t>(g.size() - 1);
    if (g.size() > 16) {
      EXPECT_LE(most, expected) << "a group of " << g.size() << " sent to " << most << " members";
    } else {
      EXPECT_EQ(most, expected) << "a group of " << g.size() << " gathers with MPI_Iallgather";
    }
    free(bases[static_cast<std::size_t>(g.rank())], g);
  }
  barrier();
}

TEST(WorldAllgather, AllgatherServingOnTheWorldAndOnAGroup) {
  // Three bytes from each member, different per member, on the world and on the even ranks.
  auto check = [](const Group& g, const char* what) {
    if (!g.is_member()) return;
    const unsigned char mine[3] = {static_cast<unsigned char>(g.rank()), 0xA5, static_cast<unsigned char>(2 * g.rank() + 1)};
    std::vector<unsigned char> all(3 * static_cast<std::size_t>(g.size()), 0);
    allgather_serving(mine, sizeof mine, all.data(), g, "test: allgather_serving");
    for (int r = 0; r < g.size(); ++r) {
      const std::size_t at = 3 * static_cast<std::size_t>(r);
      EXPECT_EQ(all[at], r) << what << ", member " << r;
      EXPECT_EQ(all[at + 1], 0xA5) << what << ", member " << r;
      EXPECT_EQ(all[at + 2], 2 * r + 1) << what << ", member " << r;
    }
  };
  check(Group::world(), "the world");
  std::vector<int> evens;
  for (int r = 0; r < size(); r += 2) evens.push_back(r);
  check(Group::create(Group::world(), evens), "the even ranks");
  barrier();
}

TEST(WorldAllgather, AllgatherServingRefusesNullBuffersOnEveryRank) {
  long mine = rank();
  test::expect_error<InvalidArgument>([&] { allgather_serving(&mine, sizeof mine, nullptr, Group::world(), "test: gather"); },
                                      {"test: gather", "'all'", "null"});
  test::expect_error<InvalidArgument>([&] { allgather_serving(nullptr, 8, &mine, Group::world(), "test: gather"); },
                                      {"test: gather", "'mine'", "null"});
  barrier();  // nobody moved a byte: the world is still in step
}

}  // namespace
}  // namespace armada::rma
