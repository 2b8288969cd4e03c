// I/O vector put/get/acc, and the destination-overlap rule (puts and accumulates may overlap,
// gets may not).
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "test_seed.hpp"
#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::expect_error;
using test::Segment;

TEST(Vector, ScatterAndGatherTwoSetsOfDifferentSizes) {
  const std::size_t slots = 1024;
  Segment seg(slots * sizeof(double));
  std::fill_n(seg.local<double>(), slots, -1.0);
  barrier();
  const int t = (rank() + 1) % size();
  // Set A: 128 single doubles at slots 8k+4 in random order (the sorting overlap check).
  // Set B: 100 pairs of doubles at slots 8k+1, 8k+2.
  const std::uint64_t seed = armada::test::test_seed(42);
  SEED_TRACE(seed);
  std::mt19937 rng(static_cast<unsigned>(seed) + static_cast<unsigned>(rank()));
  std::vector<std::size_t> a_slots(128);
  for (std::size_t k = 0; k < a_slots.size(); ++k) a_slots[k] = 8 * k + 4;
  std::shuffle(a_slots.begin(), a_slots.end(), rng);
  std::vector<double> src(slots);
  std::iota(src.begin(), src.end(), 1000.0 * rank());
  std::vector<void*> a_src, a_dst, b_src, b_dst;
  for (std::size_t s : a_slots) {
    a_src.push_back(&src[s]);
    a_dst.push_back(seg.base<double>(t) + s);
  }
  for (std::size_t k = 0; k < 100; ++k) {
    b_src.push_back(&src[8 * k + 1]);
    b_dst.push_back(seg.base<double>(t) + 8 * k + 1);
  }
  const IoSet sets[] = {{a_src, a_dst, sizeof(double)}, {b_src, b_dst, 2 * sizeof(double)}};
  put_vector(sets, t);
  barrier();
  const int from = (rank() + size() - 1) % size();
  for (std::size_t s = 0; s < slots; ++s) {
    const bool written = (s % 8 == 4 && s / 8 < 128) || ((s % 8 == 1 || s % 8 == 2) && s / 8 < 100);
    EXPECT_EQ(seg.local<double>()[s], written ? 1000.0 * from + static_cast<double>(s) : -1.0) << "slot " << s;
  }
  barrier();
  // Gather the same slots back into a zeroed buffer.
  std::vector<double> back(slots, 0);
  std::vector<void*> ga_src, ga_dst;
  for (std::size_t s : a_slots) {
    ga_src.push_back(seg.base<double>(t) + s);
    ga_dst.push_back(&back[s]);
  }
  const IoSet gsets[] = {{ga_src, ga_dst, sizeof(double)}};
  Handle h = get_vector_nb(gsets, t);
  h.wait();
  for (std::size_t s : a_slots) EXPECT_EQ(back[s], src[s]);
  barrier();
}

TEST(Vector, AccumulateAllowsRepeatedDestinations) {
  // Like Global Arrays' scatter-accumulate with repeated indices: every hit counts.
  Segment seg(16 * sizeof(long));
  std::fill_n(seg.local<long>(), 16, 0L);
  barrier();
  std::vector<long> ones(64, 1);
  std::vector<void*> src, dst;
  for (int i = 0; i < 64; ++i) {
    src.push_back(&ones[static_cast<std::size_t>(i)]);
    dst.push_back(seg.base<long>(0) + i % 16);  // each slot 4 times
  }
  const IoSet sets[] = {{src, dst, sizeof(long)}};
  const long scale = 1;
  acc_vector(AccType::Long, &scale, sets, 0);
  const long triple = 3;  // a scale other than one goes through staging on some transports
  acc_vector(AccType::Long, &triple, sets, 0);
  // Partly overlapping segments of two elements, slots (i, i+1) for i = 0..14, nonblocking.
  std::vector<void*> psrc, pdst;
  for (int i = 0; i < 15; ++i) {
    psrc.push_back(ones.data());
    pdst.push_back(seg.base<long>(0) + i);
  }
  const IoSet pairs[] = {{psrc, pdst, 2 * sizeof(long)}};
  acc_vector_nb(AccType::Long, &scale, pairs, 0).wait();
  barrier();
  if (rank() == 0) {
    for (int i = 0; i < 16; ++i)
      EXPECT_EQ(seg.local<long>()[i], (16L + (i == 0 || i == 15 ? 1 : 2)) * size()) << "slot " << i;
  }
  barrier();
}

TEST(Vector, GetsMayReadOneRemotePlaceManyTimes) {
  // Repeated sources are legal for a get (only destinations must be distinct); transports that
  // describe the remote side as one datatype must notice and split the operation.
  Segment seg(8 * sizeof(int));
  for (int i = 0; i < 8; ++i) seg.local<int>()[i] = 1000 * rank() + i;
  barrier();
  const int t = (rank() + 1) % size();
  std::vector<int> out(40, -1);
  std::vector<void*> src, dst;
  for (int i = 0; i < 40; ++i) {
    src.push_back(seg.base<int>(t) + (i * 3) % 8);  // each source read 5 times, out of order
    dst.push_back(&out[static_cast<std::size_t>(i)]);
  }
  const IoSet sets[] = {{src, dst, sizeof(int)}};
  get_vector(sets, t);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out[static_cast<std::size_t>(i)], 1000 * t + (i * 3) % 8) << i;
  std::fill(out.begin(), out.end(), -1);
  Handle h = get_vector_nb(sets, t);
  h.wait();
  for (int i = 0; i < 40; ++i) EXPECT_EQ(out[static_cast<std::size_t>(i)], 1000 * t + (i * 3) % 8) << i;
  barrier();
}

TEST(Vector, OverlappingPutDestinationsLeaveOneOfTheWrittenValues) {
  // Global Arrays scatters with repeated subscripts in one vector put: accepted; where segments
  // overlap, the data of one of them lands (which one is unspecified).
  Segment seg(256);
  const int t = (rank() + 1) % size();
  // 8-byte segments at 96, 80, 64, 60 (descending, the last two overlap in 64..67), and one set
  // ascending whose second segment repeats the first's place exactly.
  const std::size_t at[] = {96, 80, 64, 60};
  unsigned char src[5][8];
  for (int k = 0; k < 5; ++k) std::fill_n(src[k], 8, static_cast<unsigned char>(0x10 + k));
  std::vector<void*> s{src[0], src[1], src[2], src[3]}, d;
  for (std::size_t a : at) d.push_back(seg.base(t) + a);
  std::vector<void*> s2{src[4], src[4]}, d2{seg.base(t) + 128, seg.base(t) + 128};
  const IoSet sets[] = {{s, d, 8}, {s2, d2, 8}};
  for (int blocking = 1; blocking >= 0; --blocking) {
    std::fill_n(seg.local<unsigned char>(), 256, 0x5A);
    barrier();
    if (blocking) put_vector(sets, t);
    else put_vector_nb(sets, t).wait();
    barrier();
    const unsigned char* b = seg.local<unsigned char>();
    for (int i = 0; i < 256; ++i) {
      std::vector<unsigned char> allowed;
      for (int k = 0; k < 4; ++k)
        if (i >= static_cast<int>(at[k]) && i < static_cast<int>(at[k]) + 8) allowed.push_back(static_cast<unsigned char>(0x10 + k));
      if (i >= 128 && i < 136) allowed.push_back(0x14);
      if (allowed.empty()) allowed.push_back(0x5A);
      ASSERT_NE(std::find(allowed.begin(), allowed.end(), b[i]), allowed.end())
          << "byte " << i << " = " << int(b[i]) << (blocking ? " (blocking)" : " (nonblocking)");
    }
    // One segment's data lands whole where two segments cover the same 4 bytes (64..67).
    ASSERT_TRUE(std::all_of(b + 64, b + 68, [&](unsigned char c) { return c == b[64]; }));
    barrier();
  }
}

TEST(Vector, OverlappingGetDestinationsAreRejectedBeforeAnyByteMoves) {
  // A get's destinations are local buffers: two segments read into the same bytes would lose
  // one of them (and MPI forbids it), so that stays an error.
  Segment seg(256);
  std::fill_n(seg.local<unsigned char>(), 256, 0x5A);
  barrier();
  const int t = (rank() + 1) % size();
  unsigned char local[64];
  std::fill_n(local, 64, 0x01);
  std::vector<void*> gs{seg.base(t), seg.base(t) + 32}, gd{local, local + 4};
  const IoSet g[] = {{gs, gd, 8}};
  expect_error<InvalidArgument>([&] { get_vector(g, t); }, {"rma::get_vector", "overlap"});
  // Descending (slow path) with the overlap at the end.
  std::vector<void*> ds{seg.base(t), seg.base(t) + 8, seg.base(t) + 16}, dd{local + 40, local + 20, local + 16};
  const IoSet g2[] = {{ds, dd, 8}};
  expect_error<InvalidArgument>([&] { get_vector(g2, t); }, {"rma::get_vector", "overlap"});
  for (int i = 0; i < 64; ++i) ASSERT_EQ(local[i], 0x01) << "byte " << i << " moved";
  barrier();
  for (int i = 0; i < 256; ++i) EXPECT_EQ(seg.local<unsigned char>()[i], 0x5A) << "byte " << i << " moved";
  barrier();
}

TEST(Vector, UnalignedSegmentsSharingCellsButNotBytesAreAccepted) {
  // 12-byte segments back to back in descending order: the overlap check's bitmap (8-byte
  // cells) sees shared cells, the exact check must still accept them.
  const std::size_t n = 40;
  Segment seg(12 * n);
  std::fill_n(seg.local<unsigned char>(), 12 * n, 0);
  barrier();
  const int t = (rank() + 1) % size();
  std::vector<unsigned char> src(12 * n);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<unsigned char>(i * 7 + 1);
  std::vector<void*> s, d;
  for (std::size_t k = n; k-- > 0;) {
    s.push_back(&src[12 * k]);
    d.push_back(seg.base(t) + 12 * k);
  }
  const IoSet sets[] = {{s, d, 12}};
  put_vector(sets, t);
  barrier();
  for (std::size_t i = 0; i < src.size(); ++i) EXPECT_EQ(seg.local<unsigned char>()[i], src[i]) << i;
  barrier();
}

TEST(Vector, DestinationsInTwoSegmentsOfTheTarget) {
  // Alternate between two segments so resolution switches slices mid-operation.
  Segment a(64 * sizeof(int)), b(64 * sizeof(int));
  std::fill_n(a.local<int>(), 64, 0);
  std::fill_n(b.local<int>(), 64, 0);
  barrier();
  const int t = (rank() + 1) % size();
  std::vector<int> v(64);
  std::iota(v.begin(), v.end(), 1 + 100 * rank());
  std::vector<void*> s, d;
  for (int i = 63; i >= 0; --i) {  // descending, alternating segments
    s.push_back(&v[static_cast<std::size_t>(i)]);
    d.push_back((i % 2 ? a.base<int>(t) : b.base<int>(t)) + i);
  }
  const IoSet sets[] = {{s, d, sizeof(int)}};
  put_vector(sets, t);
  Aggregate agg(t);
  for (int i = 0; i < 64; i += 3) agg.put(&v[static_cast<std::size_t>(i)], (i % 2 ? b.base<int>(t) : a.base<int>(t)) + i, sizeof(int));
  agg.wait();
  barrier();
  const int from = (rank() + size() - 1) % size();
  for (int i = 0; i < 64; ++i) {
    const int want = 1 + 100 * from + i;
    EXPECT_EQ((i % 2 ? a : b).local<int>()[i], want) << i;
    EXPECT_EQ((i % 2 ? b : a).local<int>()[i], i % 3 == 0 ? want : 0) << i;
  }
  barrier();
}

TEST(Vector, CrossedLargeVectorGetsBetweenNeighbours) {
  // Every rank gathers 1000 segments from its neighbour while being gathered from: the
  // descriptors (too big to travel inside a request) and the data cross between each pair.
  const std::size_t n = 1000;
  Segment seg(n * sizeof(long));
  for (std::size_t i = 0; i < n; ++i) seg.local<long>()[i] = 1000000L * rank() + static_cast<long>(i);
  barrier();
  const int t = (rank() + 1) % size();
  for (int round = 0; round < 10; ++round) {
    std::vector<long> got(n, -1);
    std::vector<void*> s, d;
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t j = (i * 7919 + static_cast<std::size_t>(round)) % n;  // a permutation
      s.push_back(seg.base<long>(t) + j);
      d.push_back(&got[j]);
    }
    const IoSet sets[] = {{s, d, sizeof(long)}};
    get_vector(sets, t);
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(got[i], 1000000L * t + static_cast<long>(i)) << "round " << round;
  }
  barrier();
}

TEST(Vector, MalformedSetsAreRejected) {
  Segment seg(64);
  const int t = (rank() + 1) % size();
  char buf[16];
  std::vector<void*> one{buf}, two{seg.base(t), seg.base(t) + 8}, null{nullptr};
  const IoSet uneven[] = {{one, two, 8}};
  expect_error<InvalidArgument>([&] { put_vector(uneven, t); }, {"sets[0].dst", "as many pointers"});
  std::vector<void*> d1{seg.base(t)};
  const IoSet zero[] = {{one, d1, 0}};
  expect_error<InvalidArgument>([&] { put_vector(zero, t); }, {"sets[0].bytes", "at least 1 byte"});
  const IoSet nul[] = {{null, d1, 8}};
  expect_error<InvalidArgument>([&] { put_vector(nul, t); }, {"sets[0].src[0]", "null"});
  std::vector<void*> outside{seg.base(t) + 60};
  const IoSet past[] = {{one, outside, 8}};
  expect_error<InvalidArgument>([&] { put_vector(past, t); }, {"past the end"});
  barrier();
}

}  // namespace
}  // namespace armada::rma
