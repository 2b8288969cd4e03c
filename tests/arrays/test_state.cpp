// What an array keeps per member of its group (issue 53): its base address, 8 B, not a stored
// block (patch, strides, base, owner: 208 B a member, 2 GB for 100 arrays at 100k ranks). The
// remote blocks are derived from the distribution: puts and gets to every owner still land.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/rma.hpp"

namespace armada::arrays::detail {
std::size_t member_state_bytes(const Array& a);  // arrays/src/check.cpp
}  // namespace armada::arrays::detail

namespace armada::arrays::test {
namespace {

// Writes 1..n from the last rank into every owner's block, reads it back on every rank.
template <class T>
void round_trip(Array& a) {
  const Coord dims = a.dims();
  const Coord lo = Coord::filled(dims.size(), 0);
  std::vector<T> all(static_cast<std::size_t>(dims.product()));
  std::iota(all.begin(), all.end(), T(1));
  if (rma::rank() == rma::size() - 1) a.put(lo, dims, all.data());
  a.sync();
  std::vector<T> back(all.size());
  a.get(lo, dims, back.data());
  EXPECT_EQ(back, all);
  a.sync();
}

TEST(ArrayState, OneBasePerMember) {
  const int p = rma::size();
  ArrayOptions ghosts;
  ghosts.ghosts = {1, 2};
  Array blocks = Array::create(ElemType::Double, {4 * p + 3, 5}, ghosts);
  ArrayOptions bc;
  bc.distribution = Distribution::block_cyclic({6 * p, 7}, {2, 3}, p);
  Array cyclic = Array::create(ElemType::Int, {6 * p, 7}, bc);
  for (Array* a : {&blocks, &cyclic}) {
    SCOPED_TRACE(a->distribution().str());
    EXPECT_LE(detail::member_state_bytes(*a), sizeof(void*) * static_cast<std::size_t>(p));
  }
  // Blocks of nearly one size: every member allocates one size, and where rma places the
  // segment symmetrically (the arena on, node memory) the array keeps no base per member.
  void* probe_base = rma::allocate(64)[static_cast<std::size_t>(rma::rank())];
  const bool symmetric = rma::symmetric_layout(probe_base).has_value();
  rma::free(probe_base);
  if (symmetric) {
    EXPECT_EQ(detail::member_state_bytes(blocks), 0u);
  }
  // Most of the array on one rank: its own sizes, a base per member.
  if (p > 1) {
    ArrayOptions lopsided;
    lopsided.distribution = Distribution::irregular({4096 * p, 3}, {{0, 1}, {0}}, p);
    Array skewed = Array::create(ElemType::Double, {4096 * p, 3}, lopsided);
    EXPECT_EQ(detail::member_state_bytes(skewed), sizeof(void*) * static_cast<std::size_t>(p));
    round_trip<double>(skewed);
    skewed.destroy();
  }
  round_trip<double>(blocks);
  round_trip<int>(cyclic);
  // read_inc and a remote view take the owner's block the same way.
  if (rma::rank() == 0) {
    EXPECT_EQ(cyclic.read_inc({6 * p - 1, 6}, 5), 6 * p * 7);
  }
  cyclic.sync();
  if (rma::rank() == 0) {
    EXPECT_EQ(cyclic.read_inc({6 * p - 1, 6}, 0), 6 * p * 7 + 5);
  }
  blocks.destroy();
  cyclic.destroy();
}

}  // namespace
}  // namespace armada::arrays::test
