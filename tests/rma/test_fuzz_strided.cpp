// A seeded random driver for the strided descriptor checks (put, get, accumulate): random
// shapes, valid and invalid (too many levels, stride lists of the wrong length, zero counts,
// strides smaller than the level below spans, ranges past the segment's end), each against a
// reference model written here independently of rma/src/desc. A shape the model calls invalid
// must be rejected with InvalidArgument naming the operation and change nothing; a valid one
// must succeed and leave the target exactly as the model says. ARMADA_TEST_SEED repeats a run,
// ARMADA_TEST_FUZZ_ITERATIONS sets its length (default 1500 operations per rank).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_seed.hpp"
#include "test_util.hpp"

namespace armada::rma {
namespace {

using test::Segment;

constexpr std::size_t kRegion = 1 << 15;  // bytes of each rank's segment

struct Draw {
  std::vector<std::size_t> count, src_stride, dst_stride;
  std::size_t dst_offset = 0;
};

// The model of validity: ARMCI's rules, checked with 128-bit arithmetic. Returns the extents
// (src, dst) a valid shape spans, or nothing for an invalid one.
std::optional<std::pair<std::size_t, std::size_t>> model_extents(const Draw& d) {
  const std::size_t levels = d.count.empty() ? 0 : d.count.size() - 1;
  if (d.count.empty() || levels > 8 || d.src_stride.size() != levels || d.dst_stride.size() != levels)
    return std::nullopt;
  for (std::size_t c : d.count)
    if (c == 0) return std::nullopt;
  unsigned __int128 src_span = d.count[0], dst_span = d.count[0];
  for (std::size_t l = 0; l < levels; ++l) {
    if (d.count[l + 1] > 1 && (d.src_stride[l] < src_span || d.dst_stride[l] < dst_span)) return std::nullopt;
    src_span += static_cast<unsigned __int128>(d.src_stride[l]) * (d.count[l + 1] - 1);
    dst_span += static_cast<unsigned __int128>(d.dst_stride[l]) * (d.count[l + 1] - 1);
    if (src_span > kRegion * 4 || dst_span > kRegion * 4) return std::nullopt;  // past any buffer here
  }
  return std::make_pair(static_cast<std::size_t>(src_span), static_cast<std::size_t>(dst_span));
}

// Offsets of every run on one side, by plain nested counting (not the library's iterator).
std::vector<std::size_t> model_runs(const Draw& d, bool dst) {
  const auto& stride = dst ? d.dst_stride : d.src_stride;
  const std::size_t levels = stride.size();
  std::vector<std::size_t> index(levels, 0), runs;
  for (;;) {
    std::size_t off = 0;
    for (std::size_t l = 0; l < levels; ++l) off += index[l] * stride[l];
    runs.push_back(off);
    std::size_t l = 0;
    while (l < levels && ++index[l] == d.count[l + 1]) index[l++] = 0;
    if (l == levels) return runs;
  }
}

// Mostly valid shapes, with one deliberate defect in about a third of them.
Draw draw(std::mt19937_64& rng, std::size_t unit) {
  auto pick = [&](std::size_t lo, std::size_t hi) { return std::uniform_int_distribution<std::size_t>(lo, hi)(rng); };
  Draw d;
  const std::size_t levels = pick(0, 4) + (pick(0, 9) == 0 ? pick(4, 6) : 0);  // up to 10
  d.count.push_back(unit * pick(1, 12));
  std::size_t src_span = d.count[0], dst_span = d.count[0];
  for (std::size_t l = 0; l < levels; ++l) {
    d.count.push_back(pick(1, levels > 3 ? 2 : 4));
    d.src_stride.push_back(src_span + unit * pick(0, 3));
    d.dst_stride.push_back(dst_span + unit * pick(0, 3));
    src_span = d.src_stride[l] * (d.count[l + 1] - 1) + src_span;
    dst_span = d.dst_stride[l] * (d.count[l + 1] - 1) + dst_span;
  }
  switch (pick(0, 14)) {
    case 0: d.count[pick(0, levels)] = 0; break;
    case 1: if (levels) d.src_stride[pick(0, levels - 1)] = unit * pick(0, 1); break;
    case 2: if (levels) d.dst_stride[pick(0, levels - 1)] = unit * pick(0, 1); break;
    case 3: d.src_stride.push_back(unit); break;
    case 4: if (levels) d.dst_stride.pop_back(); break;
    default: break;
  }
  // Usually inside the segment; sometimes reaching past its end.
  const std::size_t room = kRegion > dst_span ? kRegion - dst_span : 0;
  d.dst_offset = (pick(0, 9) == 0 ? kRegion - pick(0, 64) : pick(0, room)) / unit * unit;
  return d;
}

enum class Kind { Put, Get, Acc };

TEST(FuzzStrided, RandomDescriptorsAgainstTheModel) {
  const char* iterations_env = std::getenv("ARMADA_TEST_FUZZ_ITERATIONS");
  const int iterations = iterations_env ? std::atoi(iterations_env) : 1500;
  const std::uint64_t seed = armada::test::test_seed(20201);
  SEED_TRACE(seed);
  std::mt19937_64 rng(seed * 1000003 + static_cast<std::uint64_t>(rank()));
  Segment seg(kRegion);
  std::memset(seg.local(), 0, kRegion);
  barrier();
  // Only this rank writes to its right neighbour's segment: it can model that memory exactly.
  const int t = (rank() + 1) % size();
  std::vector<unsigned char> model(kRegion, 0), src(kRegion * 4), got(kRegion * 4), check(kRegion);
  int valid = 0, invalid = 0;
  for (int i = 0; i < iterations && !HasFailure(); ++i) {
    const auto kind = static_cast<Kind>(std::uniform_int_distribution<int>(0, 2)(rng));
    const Draw d = draw(rng, kind == Kind::Acc ? sizeof(double) : 1);
    const auto extents = model_extents(d);
    // Fresh source bytes where this shape reads (small values: sums stay exact).
    const std::size_t fresh = extents ? std::min(extents->first, src.size()) : 0;
    for (std::size_t k = 0; k < fresh; ++k) src[k] = static_cast<unsigned char>(rng() & 0x3F);
    const bool fits = extents && d.dst_offset <= kRegion && extents->second <= kRegion - d.dst_offset;
    std::byte* remote = seg.base(t) + d.dst_offset;
    const double scale = 2;
    auto issue = [&] {
      switch (kind) {
        case Kind::Put: put_strided(src.data(), d.src_stride, remote, d.dst_stride, d.count, t); break;
        case Kind::Get: get_strided(remote, d.dst_stride, got.data(), d.src_stride, d.count, t); break;
        case Kind::Acc:
          acc_strided(AccType::Double, &scale, src.data(), d.src_stride, remote, d.dst_stride, d.count, t);
          break;
      }
    };
    const std::string what = "operation " + std::to_string(i) + " (kind " + std::to_string(static_cast<int>(kind)) + ")";
    if (!fits) {
      ++invalid;
      try {
        issue();
        ADD_FAILURE() << what << ": an invalid descriptor was accepted (destination offset " << d.dst_offset
                      << " of a " << kRegion << "-byte segment)";
      } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("_strided"), std::string::npos) << what << ": " << e.what();
      }
      continue;
    }
    ++valid;
    std::fill(got.begin(), got.end(), 0xAB);
    EXPECT_NO_THROW(issue()) << what;
    const auto src_runs = model_runs(d, false), dst_runs = model_runs(d, true);
    for (std::size_t k = 0; k < src_runs.size(); ++k) {
      unsigned char* m = &model[d.dst_offset + dst_runs[k]];
      const unsigned char* s = &src[src_runs[k]];
      if (kind == Kind::Put) std::memcpy(m, s, d.count[0]);
      if (kind == Kind::Get) {
        EXPECT_EQ(std::memcmp(&got[src_runs[k]], m, d.count[0]), 0) << what << ": run " << k << " read wrong bytes";
      }
      if (kind == Kind::Acc)
        for (std::size_t e = 0; e < d.count[0]; e += sizeof(double)) {
          double a, b;
          std::memcpy(&a, m + e, sizeof a);
          std::memcpy(&b, s + e, sizeof b);
          a += scale * b;
          std::memcpy(m + e, &a, sizeof a);
        }
    }
    if (i % 64 == 0 || i == iterations - 1) {
      get(seg.base(t), check.data(), kRegion, t);
      EXPECT_EQ(std::memcmp(check.data(), model.data(), kRegion), 0) << what << ": the target differs from the model";
    }
  }
  get(seg.base(t), check.data(), kRegion, t);
  EXPECT_EQ(std::memcmp(check.data(), model.data(), kRegion), 0) << "the target differs from the model at the end";
  // Both halves of the space were exercised.
  EXPECT_GT(valid, iterations / 3);
  EXPECT_GT(invalid, iterations / 10);
  barrier();
}

}  // namespace
}  // namespace armada::rma
