// Contiguous put/get, nonblocking handles, implicit handles, aggregates and values,
// every rank to every rank, checked against what the target must hold.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

// Pattern byte that rank `from` writes at offset i of rank `to`'s block.
unsigned char pattern(int from, int to, std::size_t i) {
  return static_cast<unsigned char>((from * 31 + to * 7 + i * 13) & 0xff);
}

TEST(Contiguous, PutToEveryRankThenGetBack) {
  const std::size_t block = 4099;  // odd size: no alignment luck
  const int n = size(), me = rank();
  Segment seg(block * static_cast<std::size_t>(n));
  std::memset(seg.local(), 0, block * static_cast<std::size_t>(n));
  barrier();
  // Rank me writes block `me` of every rank's segment.
  std::vector<unsigned char> out(block);
  for (int t = 0; t < n; ++t) {
    for (std::size_t i = 0; i < block; ++i) out[i] = pattern(me, t, i);
    put(out.data(), seg.base(t) + block * static_cast<std::size_t>(me), block, t);
  }
  barrier();
  for (int from = 0; from < n; ++from)
    for (std::size_t i = 0; i < block; ++i)
      EXPECT_EQ(seg.local<unsigned char>()[block * static_cast<std::size_t>(from) + i], pattern(from, me, i))
          << "byte " << i << " of block from rank " << from;
  // And get every rank's full segment back.
  std::vector<unsigned char> in(block * static_cast<std::size_t>(n));
  for (int t = 0; t < n; ++t) {
    get(seg.base(t), in.data(), in.size(), t);
    for (int from = 0; from < n; ++from)
      for (std::size_t i = 0; i < block; ++i)
        EXPECT_EQ(in[block * static_cast<std::size_t>(from) + i], pattern(from, t, i));
  }
  barrier();
}

TEST(Contiguous, BlockingPutsToOneTargetAreOrdered) {
  // Location consistency: later puts to the same place win, as issued.
  Segment seg(sizeof(long));
  const int t = (rank() + 1) % size();
  barrier();
  if (rank() == 0) {
    for (long v = 0; v < 1000; ++v) put_value(v, seg.at<long>(t));
    EXPECT_EQ(get_value(seg.at<long>(t)), 999);
  }
  barrier();
}

TEST(Contiguous, ZeroBytesMovesNothingButChecksTheRank) {
  Segment seg(8);
  put(nullptr, nullptr, 0, rank());
  get(nullptr, nullptr, 0, rank());
  test::expect_error<InvalidArgument>([&] { put(nullptr, nullptr, 0, size()); }, {"rma::put", "target"});
  barrier();
}

// node_address: a rank maps its own slice, never another node's, and its node's ranks' slices
// where the node's shared memory holds them: always under the server transport and mpi-rma with
// ARMADA_MPI_MEMORY=shm, never under mpi-rma's MPI memory; under rdma where UCX can map a peer's
// keys (shared-memory transports). Loads and stores through the address are the target's
// memory, ordered by a barrier as gets and puts are.
TEST(NodeAddress, MapsTheNodesSharedMemoryAndReadsAndWritesIt) {
  const std::size_t n = 1000;
  const int me = rank();
  Segment seg(n * sizeof(long));
  for (std::size_t i = 0; i < n; ++i) seg.local<long>()[i] = me * 100000 + static_cast<long>(i);
  barrier();
  const Config& c = config();
  const bool mpi_rma = c.transport == "mpi-rma";
  const bool peers_mapped = c.transport == "server" || (mpi_rma && c.text("ARMADA_MPI_MEMORY") == "shm");
  const bool peers_unmapped = mpi_rma && c.text("ARMADA_MPI_MEMORY") == "mpi";
  int mapped_peers = 0, peers = 0;
  for (int t = 0; t < size(); ++t) {
    auto* p = static_cast<long*>(node_address(t, seg.base<long>(t), n * sizeof(long)));
    const std::string where = "target " + std::to_string(t) + " (same node: " + std::to_string(same_node(me, t)) + ")";
    if (t == me) {
      EXPECT_EQ(p, seg.local<long>());
    } else if (!same_node(me, t)) {
      EXPECT_EQ(p, nullptr) << where;
    } else {
      ++peers;
      mapped_peers += p != nullptr;
      if (peers_mapped) {
        EXPECT_NE(p, nullptr) << where;
      }
      if (peers_unmapped) {
        EXPECT_EQ(p, nullptr) << where;
      }
    }
    if (!p) continue;
    EXPECT_EQ(static_cast<long*>(node_address(t, seg.base<long>(t) + 7, sizeof(long))), p + 7);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(p[i], t * 100000 + static_cast<long>(i)) << where;
  }
  EXPECT_TRUE(mapped_peers == 0 || mapped_peers == peers) << "a node's ranks are all mapped or none is";
  barrier();
  // Every rank stores its number into slot me of every rank it maps; the others' slots by put.
  for (int t = 0; t < size(); ++t) {
    const long v = -1 - me;
    if (auto* p = static_cast<long*>(node_address(t, seg.base<long>(t) + me, sizeof(long)))) {
      *p = v;
    } else {
      put_value(v, seg.at<long>(t, static_cast<std::size_t>(me)));
    }
  }
  barrier();
  for (int from = 0; from < size(); ++from) EXPECT_EQ(seg.local<long>()[from], -1 - from) << "from rank " << from;
  // Bad input: a rank that is none, a range past the segment, memory no segment holds.
  test::expect_error<InvalidArgument>([&] { node_address(size(), seg.local(), 8); }, {"rma::node_address", "target"});
  test::expect_error<InvalidArgument>([&] { node_address(me, seg.local<long>() + n - 1, 2 * sizeof(long)); },
                                      {"rma::node_address", "remote", "past the end of its segment"});
  long unrelated = 0;
  test::expect_error<InvalidArgument>([&] { node_address(me, &unrelated, sizeof(long)); },
                                      {"rma::node_address", "remote", "not inside any segment"});
  barrier();
}

TEST(Nonblocking, ExplicitHandlesCompleteTheirOperation) {
  const std::size_t n = 1 << 14;
  Segment seg(n * sizeof(int));
  const int t = (rank() + 1) % size();
  std::vector<int> out(n), in(n);
  std::iota(out.begin(), out.end(), rank() * 100000);
  Handle h = put_nb(out.data(), seg.base(t), n * sizeof(int), t);
  EXPECT_EQ(h.target(), t);
  h.wait();
  EXPECT_TRUE(h.test());
  fence(t);
  Handle g = get_nb(seg.base(t), in.data(), n * sizeof(int), t);
  while (!g.test()) {
  }
  EXPECT_EQ(in, out);
  // Many outstanding handles at once: no fixed small limit.
  std::vector<Handle> handles;
  for (std::size_t i = 0; i < 5000; ++i)
    handles.push_back(put_nb(&out[i % n], seg.base(t) + (i % n) * sizeof(int), sizeof(int), t));
  for (auto& x : handles) x.wait();
  barrier();
  EXPECT_EQ(std::memcmp(seg.local(), std::vector<int>(out.begin(), out.end()).data(), 0), 0);
  const int from = (rank() + size() - 1) % size();
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(seg.local<int>()[i], from * 100000 + static_cast<int>(i));
  barrier();
}

TEST(Nonblocking, ImplicitHandlesCompleteAtWaitAllAndWaitTarget) {
  const std::size_t n = 512;
  Segment seg(n * sizeof(double));
  std::vector<double> out(n);
  std::iota(out.begin(), out.end(), 0.5 + rank());
  const int t = (rank() + 1) % size();
  for (std::size_t i = 0; i < n; ++i) put_nbi(&out[i], seg.base<double>(t) + i, sizeof(double), t);
  wait_target(t);
  std::vector<double> back(n);
  for (std::size_t i = 0; i < n; ++i) get_nbi(seg.base<double>(t) + i, &back[i], sizeof(double), t);
  wait_all();
  EXPECT_EQ(back, out);
  const double two = 2.0;
  for (std::size_t i = 0; i < n; ++i) acc_nbi(AccType::Double, &two, &out[i], seg.base<double>(t) + i, sizeof(double), t);
  wait_all();
  get(seg.base<double>(t), back.data(), n * sizeof(double), t);
  for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(back[i], 3 * out[i]);
  barrier();
}

TEST(Aggregate, ManySmallPutsAndGetsMoveAtWait) {
  const std::size_t slots = 2000;
  Segment seg(slots * sizeof(long));
  for (std::size_t i = 0; i < slots; ++i) seg.local<long>()[i] = -1;
  barrier();
  const int t = (rank() + 1) % size();
  std::vector<long> out(slots);
  {
    Aggregate agg(t);
    // Every 2nd slot, descending, with a few 16-byte puts mixed in (a second set size).
    for (std::size_t i = slots; i-- > 0;) {
      out[i] = static_cast<long>(rank() * 1000000 + i);
      if (i % 2 == 0) agg.put(&out[i], seg.base<long>(t) + i, sizeof(long));
    }
    agg.put(&out[1], seg.base<long>(t) + 1, 2 * sizeof(long));  // slots 1 and 2 (2 again: same value)
    EXPECT_GT(agg.pending(), 0u);
    agg.wait();
    EXPECT_EQ(agg.pending(), 0u);
    fence(t);
    std::vector<long> in(slots, 0);
    for (std::size_t i = 0; i < slots; ++i) agg.get(seg.base<long>(t) + i, &in[i], sizeof(long));
    agg.wait();
    for (std::size_t i = 0; i < slots; ++i) {
      const long want = (i % 2 == 0 || i == 1) ? out[i] : -1;
      EXPECT_EQ(in[i], want) << "slot " << i;
    }
  }
  barrier();
}

TEST(Values, PutAndGetEveryValueType) {
  Segment seg(64);
  const int t = (rank() + 1) % size();
  auto* b = seg.base(t);
  barrier();
  put_value(-7 - rank(), GlobalPtr<int>(t, reinterpret_cast<int*>(b)));
  put_value(1L << 40, GlobalPtr<long>(t, reinterpret_cast<long*>(b + 8)));
  put_value(1.5f, GlobalPtr<float>(t, reinterpret_cast<float*>(b + 16)));
  put_value(-2.25, GlobalPtr<double>(t, reinterpret_cast<double*>(b + 24)));
  EXPECT_EQ(get_value(GlobalPtr<int>(t, reinterpret_cast<int*>(b))), -7 - rank());
  EXPECT_EQ(get_value(GlobalPtr<long>(t, reinterpret_cast<long*>(b + 8))), 1L << 40);
  EXPECT_EQ(get_value(GlobalPtr<float>(t, reinterpret_cast<float*>(b + 16))), 1.5f);
  EXPECT_EQ(get_value(GlobalPtr<double>(t, reinterpret_cast<double*>(b + 24))), -2.25);
  barrier();
}

}  // namespace
}  // namespace armada::rma
