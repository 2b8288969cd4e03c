// Strided put/get/acc: randomized shapes (0 to 8 stride levels, random run lengths, gaps and
// offsets, separate source and destination strides) against a reference built element by
// element on the origin.
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "test_seed.hpp"
#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

struct RandomShape {
  std::vector<std::size_t> count, src_stride, dst_stride;
  std::size_t src_extent = 0, dst_extent = 0;
};

// A random shape whose two extents each fit in `limit` bytes. count[0] is a multiple of `unit`
// and strides are multiples of `unit`, so the shape is valid for accumulate of that size.
RandomShape random_shape(std::mt19937_64& rng, int levels, std::size_t unit, std::size_t limit) {
  for (;;) {
    RandomShape s;
    s.count.push_back(unit * std::uniform_int_distribution<std::size_t>(1, levels > 4 ? 3 : 24)(rng));
    std::size_t se = s.count[0], de = s.count[0];
    for (int l = 0; l < levels; ++l) {
      const std::size_t c = std::uniform_int_distribution<std::size_t>(1, levels > 4 ? 2 : 5)(rng);
      const std::size_t sgap = unit * std::uniform_int_distribution<std::size_t>(0, 3)(rng);
      const std::size_t dgap = unit * std::uniform_int_distribution<std::size_t>(0, 3)(rng);
      s.src_stride.push_back(se + sgap);
      s.dst_stride.push_back(de + dgap);
      s.count.push_back(c);
      se += (se + sgap) * (c - 1);
      de += (de + dgap) * (c - 1);
    }
    s.src_extent = se;
    s.dst_extent = de;
    if (se <= limit && de <= limit) return s;
  }
}

// Offsets (from the base) of each run, in iteration order, for one side.
std::vector<std::size_t> run_offsets(const RandomShape& s, bool dst) {
  std::vector<std::size_t> offs{0};
  const auto& stride = dst ? s.dst_stride : s.src_stride;
  for (std::size_t l = 0; l < stride.size(); ++l) {
    std::vector<std::size_t> next;
    for (std::size_t k = 0; k < s.count[l + 1]; ++k)
      for (std::size_t o : offs) next.push_back(o + k * stride[l]);
    offs.swap(next);
  }
  return offs;
}

class Strided : public ::testing::TestWithParam<int> {};

TEST_P(Strided, RandomShapesPutGetAccMatchTheReference) {
  const int levels = GetParam();
  const std::size_t region = 1 << 16;
  Segment seg(region);
  const std::uint64_t seed = armada::test::test_seed(1234) + 77 * static_cast<unsigned>(levels);
  SEED_TRACE(seed);
  std::mt19937_64 rng(seed + static_cast<unsigned>(rank()));
  const int t = (rank() + 1) % size();
  std::vector<unsigned char> src(region), got(region), reference(region);

  // Odd trials draw 8-byte units and 8-byte aligned offsets and also accumulate: every
  // operation kind gets 8 trials at every level.
  for (int trial = 0; trial < 16; ++trial) {
    const bool acc_trial = trial % 2 == 1;
    const RandomShape s = random_shape(rng, levels, acc_trial ? 8 : 1, region / 2);
    std::size_t src_off = std::uniform_int_distribution<std::size_t>(0, region - s.src_extent)(rng);
    if (acc_trial) src_off = src_off / 8 * 8;
    const std::size_t dst_off = std::uniform_int_distribution<std::size_t>(0, region - s.dst_extent)(rng) / 8 * 8;
    for (auto& b : src) b = static_cast<unsigned char>(rng());
    // Only the origin writes to t between these barriers: each rank has its own target.
    barrier();
    std::memset(seg.local(), 0xEE, region);
    barrier();

    put_strided(src.data() + src_off, s.src_stride, seg.base(t) + dst_off, s.dst_stride, s.count, t);
    // Reference: start from what t holds (0xEE), copy run by run.
    std::fill(reference.begin(), reference.end(), 0xEE);
    const auto so = run_offsets(s, false), d = run_offsets(s, true);
    for (std::size_t k = 0; k < so.size(); ++k)
      std::memcpy(&reference[dst_off + d[k]], &src[src_off + so[k]], s.count[0]);
    get(seg.base(t), got.data(), region, t);
    EXPECT_EQ(got, reference) << "put_strided, levels " << levels << ", trial " << trial;

    // Get the same shape back, into a fresh buffer laid out like the source.
    std::vector<unsigned char> back(region, 0x11), want(region, 0x11);
    get_strided(seg.base(t) + dst_off, s.dst_stride, back.data() + src_off, s.src_stride, s.count, t);
    for (std::size_t k = 0; k < so.size(); ++k)
      std::memcpy(&want[src_off + so[k]], &src[src_off + so[k]], s.count[0]);
    EXPECT_EQ(back, want) << "get_strided, levels " << levels << ", trial " << trial;

    // Accumulate of longs (shapes with 8-byte units only), scale 3.
    if (acc_trial) {
      const long scale = 3;
      acc_strided(AccType::Long, &scale, src.data() + src_off, s.src_stride, seg.base(t) + dst_off,
                  s.dst_stride, s.count, t);
      for (std::size_t k = 0; k < so.size(); ++k)
        for (std::size_t e = 0; e < s.count[0]; e += 8) {
          long a, b;
          std::memcpy(&a, &reference[dst_off + d[k] + e], 8);
          std::memcpy(&b, &src[src_off + so[k] + e], 8);
          a = static_cast<long>(static_cast<unsigned long>(a) + 3ul * static_cast<unsigned long>(b));
          std::memcpy(&reference[dst_off + d[k] + e], &a, 8);
        }
      get(seg.base(t), got.data(), region, t);
      EXPECT_EQ(got, reference) << "acc_strided, levels " << levels << ", trial " << trial;
    }
  }
  barrier();
}

INSTANTIATE_TEST_SUITE_P(Levels, Strided, ::testing::Range(0, 9));

TEST(StridedShape, TwoDimensionalPatchOfARowMajorMatrix) {
  // A 5 x 7 patch at (3, 4) of a 16 x 20 matrix of doubles on the target, from a dense local
  // 5 x 7 buffer: the classic Global Arrays patch put.
  const std::size_t rows = 16, cols = 20;
  Segment seg(rows * cols * sizeof(double));
  for (std::size_t i = 0; i < rows * cols; ++i) seg.local<double>()[i] = -1;
  barrier();
  const int t = (rank() + 1) % size();
  double patch[5][7];
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 7; ++j) patch[i][j] = rank() * 100 + i * 10 + j;
  const std::size_t count[] = {7 * sizeof(double), 5};
  const std::size_t src_stride[] = {7 * sizeof(double)};
  const std::size_t dst_stride[] = {cols * sizeof(double)};
  put_strided(patch, src_stride, seg.base<double>(t) + 3 * cols + 4, dst_stride, count, t);
  barrier();
  const int from = (rank() + size() - 1) % size();
  for (std::size_t i = 0; i < rows; ++i)
    for (std::size_t j = 0; j < cols; ++j) {
      const bool in = i >= 3 && i < 8 && j >= 4 && j < 11;
      const double want = in ? from * 100 + static_cast<double>((i - 3) * 10 + (j - 4)) : -1;
      EXPECT_EQ(seg.local<double>()[i * cols + j], want) << i << "," << j;
    }
  barrier();
}

}  // namespace
}  // namespace armada::rma
