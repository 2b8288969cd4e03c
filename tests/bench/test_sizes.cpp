// Size sweeps: parsing "8", "4K", "1MiB", ranges "8:1M" and lists; powers-of-two generation.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "armada/programs/options.hpp"
#include "common/pattern.hpp"
#include "common/sizes.hpp"

namespace bench = armada::bench;
using Sizes = std::vector<std::size_t>;

/// The message of the invalid_argument `f` throws ("" if it throws nothing).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

TEST(Sizes, ParsesPlainNumbersAndBinarySuffixes) {
  EXPECT_EQ(bench::parse_size("--sizes", "8"), 8u);
  EXPECT_EQ(bench::parse_size("--sizes", "8B"), 8u);
  EXPECT_EQ(bench::parse_size("--sizes", "4K"), 4096u);
  EXPECT_EQ(bench::parse_size("--sizes", "4k"), 4096u);
  EXPECT_EQ(bench::parse_size("--sizes", "64KiB"), 65536u);
  EXPECT_EQ(bench::parse_size("--sizes", "1M"), 1048576u);
  EXPECT_EQ(bench::parse_size("--sizes", "3MB"), 3u * 1048576u);
  EXPECT_EQ(bench::parse_size("--sizes", "2G"), 2ull << 30);
}

TEST(Sizes, RejectsBadSizesNamingTheOptionAndTheText) {
  for (const char* bad : {"", "K", "-8", "8Q", "1.5M", "0", "99999999999999999999", "17179869184G"}) {
    const std::string e = error_of([&] { bench::parse_size("--sizes", bad); });
    EXPECT_NE(e.find("--sizes"), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find(std::string("'") + bad + "'"), std::string::npos) << bad << ": " << e;
  }
}

TEST(Sizes, PowersOfTwoIncludeBothEnds) {
  EXPECT_EQ(bench::pow2_range(8, 64), (Sizes{8, 16, 32, 64}));
  EXPECT_EQ(bench::pow2_range(1, 1), (Sizes{1}));
  const Sizes big = bench::pow2_range(8, 1 << 20);
  ASSERT_EQ(big.size(), 18u);
  EXPECT_EQ(big.front(), 8u);
  EXPECT_EQ(big.back(), 1u << 20);
  for (std::size_t i = 1; i < big.size(); ++i) EXPECT_EQ(big[i], 2 * big[i - 1]);
}

TEST(Sizes, PowersOfTwoRoundTheBoundsInward) {
  EXPECT_EQ(bench::pow2_range(5, 100), (Sizes{8, 16, 32, 64}));
  EXPECT_TRUE(bench::pow2_range(5, 7).empty());
  EXPECT_THROW(bench::pow2_range(0, 8), std::invalid_argument);
  EXPECT_THROW(bench::pow2_range(16, 8), std::invalid_argument);
}

TEST(Sizes, ParsesRangesAndLists) {
  EXPECT_EQ(bench::parse_sizes("--sizes", "8:1K"), (Sizes{8, 16, 32, 64, 128, 256, 512, 1024}));
  EXPECT_EQ(bench::parse_sizes("--sizes", "8:1M").size(), 18u);
  EXPECT_EQ(bench::parse_sizes("--sizes", "1M:1M"), (Sizes{1 << 20}));
  EXPECT_EQ(bench::parse_sizes("--sizes", "4K"), (Sizes{4096}));
  EXPECT_EQ(bench::parse_sizes("--sizes", "1M,8,4K"), (Sizes{1 << 20, 8, 4096}));  // order kept
}

TEST(Sizes, RejectsBadRangesAndLists) {
  for (const char* bad : {"1M:8", "8:", ":8", "8:x", "8,,16", ",8", "8,", "5:7"}) {
    const std::string e = error_of([&] { bench::parse_sizes("--segments", bad); });
    EXPECT_NE(e.find("--segments"), std::string::npos) << bad << ": '" << e << "'";
  }
}

TEST(Sizes, SplitsLists) {
  EXPECT_EQ(armada::programs::split_list("--transports", "shm,server"), (std::vector<std::string>{"shm", "server"}));
  EXPECT_EQ(armada::programs::split_list("--transports", "shm"), (std::vector<std::string>{"shm"}));
  EXPECT_NE(error_of([] { armada::programs::split_list("--transports", "shm,,server"); }).find("--transports"), std::string::npos);
}

TEST(Rotation, SmallBuffersAre256BytesApartAndLargeOnesPageAligned) {
  const bench::Rotation small(8, 1 << 20, true);
  EXPECT_EQ(small.step, 256u);
  EXPECT_EQ(small.count, 4096u);  // capped
  EXPECT_EQ(small.offset(0), 0u);
  EXPECT_EQ(small.offset(1), 256u);
  EXPECT_EQ(small.offset(4096), 0u);  // cycles
  EXPECT_EQ(small.offset(4097), 256u);
  const bench::Rotation odd(300, 1 << 20, true);
  EXPECT_EQ(odd.step, 512u);
  const bench::Rotation large(1 << 20, 16 << 20, true);
  EXPECT_EQ(large.step, 1u << 20);
  EXPECT_EQ(large.count, 16u);
  EXPECT_EQ(large.extent(), 16u << 20);
  const bench::Rotation page(5000, 1 << 20, true);
  EXPECT_EQ(page.step, 8192u);
  EXPECT_EQ(page.offset(3) % 4096, 0u);
}

TEST(Rotation, OffBigOrCappedMeansFewerBuffers) {
  const bench::Rotation off(64, 1 << 20, false);
  EXPECT_EQ(off.count, 1u);
  EXPECT_EQ(off.offset(12345), 0u);
  EXPECT_EQ(bench::Rotation(4 << 20, 1 << 20, true).count, 1u);  // larger than the region: one buffer
  EXPECT_EQ(bench::Rotation(1024, 1 << 20, true, 64).count, 64u);
  // Every buffer lies inside the region.
  const bench::Rotation r(3000, 100000, true);
  for (std::size_t i = 0; i < 2 * r.count; ++i) EXPECT_LE(r.offset(i) + 3000, 100000u);
}

TEST(ScatterOffsets, DistinctAlignedInsideTheRegionAndTheSameEveryTime) {
  const auto a = bench::scatter_offsets(1000, 1 << 20);
  ASSERT_EQ(a.size(), 1000u);
  const std::set<std::size_t> distinct(a.begin(), a.end());
  EXPECT_EQ(distinct.size(), 1000u);
  for (std::size_t o : a) {
    EXPECT_EQ(o % 8, 0u);
    EXPECT_LT(o, 1u << 20);
  }
  EXPECT_EQ(bench::scatter_offsets(1000, 1 << 20), a);           // every rank computes the same slots
  EXPECT_FALSE(std::is_sorted(a.begin(), a.end()));               // random order, not ascending
  EXPECT_EQ(bench::scatter_offsets(1000, 64).size(), 8u);          // only 8 slots in 64 bytes
}
