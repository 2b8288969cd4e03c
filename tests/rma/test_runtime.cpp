// Runtime, topology, groups and allocation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <numeric>

#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::expect_error;
using test::Segment;

TEST(Runtime, RankAndSizeMatchMpi) {
  int r = 0, n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  EXPECT_EQ(rank(), r);
  EXPECT_EQ(size(), n);
  EXPECT_TRUE(initialized());
}

TEST(Runtime, InitTwiceIsAStateError) {
  expect_error<StateError>([] { init(MPI_COMM_WORLD); }, {"rma::init", "already initialized"});
}

TEST(Runtime, TopologyCoversEveryRankOnce) {
  std::vector<int> seen(static_cast<std::size_t>(size()), 0);
  for (int n = 0; n < node_count(); ++n)
    for (int r : node_ranks(n)) {
      ++seen[static_cast<std::size_t>(r)];
      EXPECT_EQ(node_of(r), n);
    }
  for (int c : seen) EXPECT_EQ(c, 1);
  EXPECT_TRUE(same_node(rank(), rank()));
  // Without ARMADA_NODE_SIZE, one machine is one node.
  if (config().node_size == 0) {
    EXPECT_EQ(node_count(), 1);
  } else {
    EXPECT_EQ(node_count(), (size() + config().node_size - 1) / config().node_size);
  }
}

TEST(Runtime, BadRanksAreRejected) {
  expect_error<InvalidArgument>([] { node_of(size()); }, {"rma::node_of", "world_rank", "not a rank"});
  expect_error<InvalidArgument>([] { node_of(-1); }, {"'world_rank' = -1"});
  expect_error<InvalidArgument>([] { node_ranks(node_count()); }, {"rma::node_ranks", "'node'"});
}

TEST(Allocate, EveryRankSeesEveryBase) {
  const std::size_t bytes = 1000 + 24 * static_cast<std::size_t>(rank());
  Segment seg(bytes);
  ASSERT_EQ(seg.bases().size(), static_cast<std::size_t>(size()));
  EXPECT_EQ(segment_size(seg.local()), bytes);
  // Fill mine, barrier, read everyone's through get.
  std::memset(seg.local(), rank() + 1, bytes);
  barrier();
  for (int r = 0; r < size(); ++r) {
    if (!same_node(rank(), r) && config().transport == "none") continue;
    std::vector<unsigned char> buf(1000 + 24 * static_cast<std::size_t>(r));
    get(seg.base(r), buf.data(), buf.size(), r);
    for (unsigned char c : buf) EXPECT_EQ(c, r + 1) << "from rank " << r;
  }
  barrier();
}

TEST(Allocate, SegmentsEmptyEverywhereAreFreedWithNull) {
  // Every rank asks for 0 bytes (ARMCI programs do this); every rank frees with null.
  auto bases = allocate(0);
  for (void* b : bases) EXPECT_EQ(b, nullptr);
  free(nullptr);
  MutexSet none = MutexSet::create(0);
  none.destroy();
  // With nothing left to free, null everywhere is an error naming the argument.
  test::expect_error<InvalidArgument>([] { free(nullptr); }, {"rma::free", "'my_base'", "empty on every rank"});
  barrier();
}

TEST(Allocate, SegmentsStartZeroedAndPageAligned) {
  // Whoever provides the memory (node shared memory, or MPI_Win_allocate under mpi-rma), a new
  // segment reads as zeros everywhere, also where a freed one was just scribbled on, and each
  // slice starts on a page.
  for (int round = 0; round < 3; ++round) {
    const std::size_t bytes = 5000 + 8 * static_cast<std::size_t>(rank()) + 1000 * static_cast<std::size_t>(round);
    Segment seg(bytes);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(seg.local()) % 4096, 0u) << "round " << round;
    const auto* mine = seg.local<unsigned char>();
    EXPECT_EQ(std::count(mine, mine + bytes, 0), static_cast<long>(bytes)) << "round " << round;
    barrier();
    for (int r = 0; r < size(); ++r) {
      if (!same_node(rank(), r) && config().transport == "none") continue;
      std::vector<unsigned char> buf(5000 + 8 * static_cast<std::size_t>(r) + 1000 * static_cast<std::size_t>(round), 0xEE);
      get(seg.base(r), buf.data(), buf.size(), r);
      EXPECT_EQ(std::count(buf.begin(), buf.end(), 0), static_cast<long>(buf.size())) << "rank " << r;
    }
    barrier();
    std::memset(seg.local(), 0xA5, bytes);  // dirty it before it is freed
    barrier();
  }
}

TEST(Allocate, ZeroSizedSlicesAreNull) {
  const bool zero = rank() % 2 == 1;
  Segment seg(zero ? 0 : 64);
  for (int r = 0; r < size(); ++r) {
    if (r % 2 == 1)
      EXPECT_EQ(seg.bases()[static_cast<std::size_t>(r)], nullptr);
    else
      EXPECT_NE(seg.bases()[static_cast<std::size_t>(r)], nullptr);
  }
  barrier();
}

}  // namespace
}  // namespace armada::rma

namespace armada::rma {
namespace {

TEST(VirtualNodes, OffNodeTargetsUseTheInterNodeTransportOrNameItsAbsence) {
  // Under ARMADA_NODE_SIZE=k, ranks on other virtual nodes are reached through the inter-node
  // transport; with ARMADA_TRANSPORT=none, operations to them fail with Unsupported before
  // anything moves.
  test::Segment seg(64);
  std::memset(seg.local(), 0x21, 64);
  barrier();
  int off = -1;
  for (int r = 0; r < size(); ++r)
    if (!same_node(rank(), r)) off = r;
  const bool none = config().transport == "none";
  if (off >= 0) {
    char buf[8];
    std::memset(buf, 0x42, 8);
    if (none) {
      test::expect_error<Unsupported>([&] { put(buf, seg.base(off), 8, off); },
                                      {"rma::put", "no inter-node transport is configured"});
      test::expect_error<Unsupported>([&] { fetch_add(seg.at<long>(off), 1L); }, {"rma::fetch_add"});
    } else {
      put(buf, seg.base(off) + 8 * (rank() % 4), 8, off);  // distinct 8-byte slots per origin
      fence(off);
    }
  }
  barrier();
  // Slots 0..3 may have been written by off-node origins r with r % 4 == slot.
  for (int slot = 0; slot < 8; ++slot) {
    bool written = false;
    for (int r = 0; r < size(); ++r)
      if (!none && r % 4 == slot && !same_node(r, rank())) {
        int last_off = -1;
        for (int q = 0; q < size(); ++q)
          if (!same_node(r, q)) last_off = q;
        written |= last_off == rank();
      }
    for (int i = 0; i < 8; ++i)
      EXPECT_EQ(seg.local<unsigned char>()[8 * slot + i], written ? 0x42 : 0x21) << "slot " << slot;
  }
  barrier();
}

TEST(VirtualNodes, TransportNamesFollowTheSetting) {
  // With several nodes, off-node targets use the configured transport. One that declares
  // exclusive_atomics (its accumulates and atomics are atomic only with its own: mpi-rma, rdma)
  // takes on-node targets too; otherwise on-node targets are shared memory.
  const std::string configured = config().transport;
  bool takes_on_node = false;
  for (int r = 0; r < size(); ++r)
    if (!same_node(rank(), r)) takes_on_node = transport_info(r).caps.exclusive_atomics;
  for (int r = 0; r < size(); ++r) {
    const std::string name = transport_name(r);
    std::string expected = configured;
    if (node_count() == 1 || (same_node(rank(), r) && !takes_on_node)) expected = "shm";
    EXPECT_EQ(name, expected) << "rank " << r;
  }
}

}  // namespace
}  // namespace armada::rma
