// The segment registry on its own (rma/src/common/registry.cpp; no MPI): lookups by (rank,
// address), removal, readers racing allocate and free, and (issue 53) that allocate and free
// rewrite only the rows of the segment's members, not the whole table, and that slices are made
// only for the ranks looked up, from segments kept compactly.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "common/registry.hpp"

namespace armada::rma::detail {
namespace {

// Slices of `segment` for `owners`, rank r's at base + r * stride, `size` bytes each.
std::vector<Slice> slices_of(std::int64_t segment, const std::vector<int>& owners, std::uintptr_t base,
                             std::uintptr_t stride, std::size_t size) {
  std::vector<Slice> out;
  for (int r : owners) {
    Slice s;
    s.base = base + static_cast<std::uintptr_t>(r) * stride;
    s.size = size;
    s.segment = segment;
    s.owner = r;
    out.push_back(s);
  }
  return out;
}

std::vector<int> ranks(int n) {
  std::vector<int> v(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = i;
  return v;
}

const void* at(std::uintptr_t a) { return reinterpret_cast<const void*>(a); }

TEST(Registry, FindsTheSliceHoldingAnExtent) {
  Registry reg(4);
  reg.add(slices_of(0, ranks(4), 0x10000, 0x1000, 256));
  reg.add(slices_of(1, {1, 3}, 0x5000, 0x10, 64));  // below segment 0 on rank 1, above it on rank 3
  const Slice* s = reg.find(2, at(0x12000 + 8), 8);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->segment, 0);
  EXPECT_EQ(s->owner, 2);
  EXPECT_EQ(reg.find(2, at(0x12000 + 250), 8), nullptr);  // runs past the slice's end
  EXPECT_EQ(reg.find(2, at(0x12000 + 256), 0)->segment, 0);  // the end itself, zero bytes
  EXPECT_EQ(reg.find(0, at(0x5000), 1), nullptr);           // rank 0 has no slice of segment 1
  EXPECT_EQ(reg.find(1, at(0x5010 + 63), 1)->segment, 1);
  EXPECT_EQ(reg.find(3, at(0x5030), 64)->owner, 3);
  EXPECT_EQ(reg.find(3, at(0x13000), 256)->segment, 0);
  reg.remove(0);
  EXPECT_EQ(reg.find(2, at(0x12000), 8), nullptr);
  EXPECT_EQ(reg.find(3, at(0x5030), 64)->segment, 1);
  reg.remove(1);
  EXPECT_EQ(reg.find(3, at(0x5030), 1), nullptr);
  EXPECT_EQ(reg.live_tables(), 1u);  // nothing retired is kept without a reader
}

// Allocating or freeing a segment of m members costs O(m x that member's segments), not a copy
// of every rank's entries: with 40 world segments on 2,000 ranks a pair's segment copies at most
// its two members' rows (the old registry copied all 80,000 entries at each call).
TEST(Registry, AllocateAndFreeRewriteOnlyTheMembersRows) {
  constexpr int kRanks = 2000, kSegments = 40;
  Registry reg(kRanks);
  for (int s = 0; s < kSegments; ++s) reg.add(slices_of(s, ranks(kRanks), 0x100000 * (s + 1), 0x10, 16));
  const std::size_t before = reg.entries_copied();
  reg.add(slices_of(kSegments, {7, 1500}, 0x100000 * (kSegments + 1), 0x10, 16));
  const std::size_t added = reg.entries_copied() - before;
  EXPECT_LE(added, 2u * kSegments);
  reg.remove(kSegments);
  EXPECT_LE(reg.entries_copied() - before - added, 2u * (kSegments + 1));
  EXPECT_EQ(reg.find(1500, at(0x100000 * (kSegments + 1) + 1500 * 0x10), 16), nullptr);
  EXPECT_EQ(reg.find(1500, at(0x100000 * kSegments + 1500 * 0x10), 16)->segment, kSegments - 1);
}

// A segment keeps 8 B a member when members are ranks 0..m-1 of one size and no handle: no
// slice is made until a rank is looked up, and then only that rank's, one per segment; a segment
// added later makes a slice at once only for the ranks already looked up.
TEST(Registry, SlicesAreMadeOnlyForTheRanksLookedUp) {
  constexpr int kRanks = 2000, kSegments = 40;
  Registry reg(kRanks);
  for (int s = 0; s < kSegments; ++s) reg.add(slices_of(s, ranks(kRanks), 0x100000 * (s + 1), 0x10, 16));
  EXPECT_EQ(reg.slices_made(), 0u);
  EXPECT_LE(reg.member_bytes(), kSegments * (8u * kRanks + 512u));  // a base a member, a header a segment
  const Slice* s = reg.find(7, at(0x100000 * 4 + 7 * 0x10 + 8), 8);
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->segment, 3);
  EXPECT_EQ(s->owner, 7);
  EXPECT_EQ(s->size, 16u);
  EXPECT_EQ(reg.slices_made(), static_cast<std::size_t>(kSegments));  // rank 7's, one per segment
  EXPECT_EQ(reg.find(7, at(0x100000 * 4 + 7 * 0x10 + 8), 8), s);       // the same slice: made once
  reg.add(slices_of(kSegments, ranks(kRanks), 0x100000 * (kSegments + 1), 0x10, 16));
  EXPECT_EQ(reg.slices_made(), static_cast<std::size_t>(kSegments + 1));  // rank 7's only
  EXPECT_EQ(reg.find(7, at(0x100000 * (kSegments + 1) + 7 * 0x10), 16)->segment, kSegments);
  EXPECT_EQ(reg.find(1999, at(0x100000 * (kSegments + 1) + 1999 * 0x10), 16)->owner, 1999);
  EXPECT_EQ(reg.slices_made(), static_cast<std::size_t>(2 * (kSegments + 1)));
  reg.remove(kSegments);
  EXPECT_EQ(reg.find(7, at(0x100000 * (kSegments + 1) + 7 * 0x10), 16), nullptr);
  EXPECT_EQ(reg.find(1999, at(0x100000 * kSegments + 1999 * 0x10), 16)->segment, kSegments - 1);
}

// What a transport wrote into its slices at allocation (handles, this node's mappings) and what
// differs by member (sizes, owners in group order) comes back in the slices made later.
TEST(Registry, SlicesMadeLaterKeepHandlesMappingsSizesAndOwners) {
  Registry reg(16);
  std::byte node_memory[64];
  std::vector<Slice> slices;
  for (int owner : {9, 2, 5}) {  // group order, not rank order
    Slice s;
    s.owner = owner;
    s.segment = 4;
    s.base = 0x7000 + static_cast<std::uintptr_t>(owner) * 0x100;
    s.size = 16 * static_cast<std::size_t>(owner);
    slices.push_back(s);
  }
  struct Handle {
    int pid, fd;
    std::uint64_t offset;
  };
  slices[1].set_handle(Handle{1234, 7, 4096});
  slices[2].local = node_memory;
  reg.add(slices);
  for (const Slice& want : slices) {
    const Slice* got = reg.find(want.owner, at(want.base + want.size - 1), 1);
    ASSERT_NE(got, nullptr) << "rank " << want.owner;
    EXPECT_EQ(got->owner, want.owner);
    EXPECT_EQ(got->size, want.size);
    EXPECT_EQ(got->local, want.local);
    EXPECT_EQ(reg.find(want.owner, at(want.base + want.size - 1), 2), nullptr) << "past rank " << want.owner << "'s size";
  }
  EXPECT_EQ(reg.find(2, at(0x7200), 1)->handle<Handle>().fd, 7);
  EXPECT_EQ(reg.find(2, at(0x7200), 1)->handle<Handle>().offset, 4096u);
  EXPECT_EQ(reg.find(9, at(0x7900), 1)->handle<Handle>().pid, 0);
  EXPECT_EQ(reg.find(5, at(0x7500), 1)->map(at(0x7508)), node_memory + 8);
  EXPECT_EQ(reg.find(3, at(0x7300), 1), nullptr);  // not a member
}

// A handle every member shares (an MPI window and its group) is kept once, not per member; where
// only some members have one (rdma: this node's keys) only theirs are kept; every made slice
// carries the right one.
TEST(Registry, HandlesAreKeptOncePerSegmentOrOnlyWhereSet) {
  constexpr int kRanks = 1000;
  struct Handle {
    std::uint64_t window, group, offset;
  };
  auto segment = [] { return slices_of(0, ranks(kRanks), 0x100000, 0x10, 16); };
  Registry bare(kRanks), shared(kRanks), sparse(kRanks);
  bare.add(segment());
  std::vector<Slice> one = segment();
  for (Slice& s : one) s.set_handle(Handle{0xabc, 0xdef, 0});
  shared.add(one);
  EXPECT_EQ(shared.member_bytes(), bare.member_bytes()) << "a handle every member shares is kept per member";
  std::vector<Slice> some = segment();
  for (int r : {3, 500, 998}) some[static_cast<std::size_t>(r)].set_handle(Handle{7, 8, static_cast<std::uint64_t>(r)});
  sparse.add(some);
  EXPECT_LE(sparse.member_bytes(), bare.member_bytes() + 3 * (sizeof(std::uint32_t) + kSliceHandleBytes) + 64);
  for (int r : {0, 3, 499, 500, 998, 999}) {
    const std::uintptr_t base = 0x100000 + static_cast<std::uintptr_t>(r) * 0x10;
    const Slice* s = shared.find(r, at(base), 16);
    ASSERT_NE(s, nullptr) << "rank " << r;
    EXPECT_EQ(s->handle<Handle>().window, 0xabcu);
    EXPECT_EQ(s->handle<Handle>().group, 0xdefu);
    const Slice* t = sparse.find(r, at(base), 16);
    ASSERT_NE(t, nullptr) << "rank " << r;
    const bool set = r == 3 || r == 500 || r == 998;
    EXPECT_EQ(t->handle<Handle>().window, set ? 7u : 0u) << "rank " << r;
    EXPECT_EQ(t->handle<Handle>().offset, set ? static_cast<std::uint64_t>(r) : 0u) << "rank " << r;
  }
}

// Readers never lock: while one thread adds and removes segments, others keep finding a segment
// that stays, and every superseded row is freed once they are gone.
// A segment described by one origin (the symmetric arena) keeps no base per member, and its
// slices are found where the description puts them; a description the slices do not follow is
// not taken (the bases are kept).
TEST(Registry, SymmetricSegmentsKeepNoBasesAndAreFound) {
  constexpr int kRanks = 64;
  constexpr std::uintptr_t kOrigin = 0x200000000000, kSlot = 0x3000;
  // Nodes of 4 ranks: rank r is the (r % 4)-th member of its node's object, all objects at kOrigin.
  auto place = std::make_shared<std::vector<std::uint32_t>>();
  for (int r = 0; r < kRanks; ++r) place->push_back(static_cast<std::uint32_t>(r % 4));
  std::vector<Slice> slices;
  for (int r = 0; r < kRanks; ++r) {
    Slice s;
    s.base = kOrigin + (*place)[static_cast<std::size_t>(r)] * kSlot;
    s.size = 0x2800;
    s.segment = 1;
    s.owner = r;
    slices.push_back(s);
  }
  Registry symmetric(kRanks), explicit_bases(kRanks);
  symmetric.add(slices, SymmetricBases{kOrigin, kSlot, place});
  std::vector<Slice> moved = slices;
  moved[17].base += 0x1000;  // one member elsewhere: the description does not hold
  explicit_bases.add(moved, SymmetricBases{kOrigin, kSlot, place});
  EXPECT_LE(symmetric.member_bytes() + kRanks * sizeof(std::uintptr_t), explicit_bases.member_bytes());
  for (int r = 0; r < kRanks; ++r) {
    const std::uintptr_t base = kOrigin + static_cast<std::uintptr_t>(r % 4) * kSlot;
    const Slice* s = symmetric.find(r, at(base + 0x27f8), 8);
    ASSERT_NE(s, nullptr) << "rank " << r;
    EXPECT_EQ(s->base, base);
    EXPECT_EQ(s->owner, r);
    EXPECT_EQ(symmetric.find(r, at(base + 0x27f8), 9), nullptr) << "past the end of rank " << r << "'s slice";
    const Slice* e = explicit_bases.find(r, at(moved[static_cast<std::size_t>(r)].base), 8);
    ASSERT_NE(e, nullptr) << "rank " << r;
    EXPECT_EQ(e->base, moved[static_cast<std::size_t>(r)].base);
  }
}

TEST(Registry, ReadersRaceAllocateAndFree) {
  constexpr int kRanks = 16;
  Registry reg(kRanks);
  reg.add(slices_of(0, ranks(kRanks), 0x800000, 0x1000, 512));
  std::atomic<bool> stop{false};
  std::atomic<long> misses{0}, reads{0};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t)
    readers.emplace_back([&, t] {
      for (int i = 0; !stop.load(std::memory_order_relaxed); ++i) {
        const int r = (i + t) % kRanks;
        const Slice* s = reg.find(r, at(0x800000 + static_cast<std::uintptr_t>(r) * 0x1000 + 64), 8);
        if (!s || s->segment != 0 || s->owner != r) misses.fetch_add(1);
        reads.fetch_add(1, std::memory_order_relaxed);
      }
    });
  while (reads.load() < 3) std::this_thread::yield();  // the readers are searching
  const long before = reads.load();
  // At least 300 rounds, and until the readers searched 1,000 times meanwhile.
  for (int round = 1; round <= 300 || (reads.load() - before < 1000 && round < 1000000); ++round) {
    // Below and above segment 0 in every member's row, so its entry moves.
    reg.add(slices_of(round, ranks(kRanks), round % 2 ? 0x100000 : 0x4000000, 0x1000, 512));
    reg.remove(round);
  }
  const long during = reads.load() - before;
  stop = true;
  for (auto& t : readers) t.join();
  EXPECT_EQ(misses.load(), 0);
  EXPECT_GE(during, 1000);
  reg.add(slices_of(9999, {0}, 0x9000000, 0x10, 8));  // a writer call with no reader left reclaims
  EXPECT_EQ(reg.live_tables(), 1u);
}

}  // namespace
}  // namespace armada::rma::detail
