// A seeded random driver for the patch checks of put, get and acc: random arrays (1 to 4
// dimensions, regular and irregular distributions) and random patches and buffer leading
// dimensions, valid and invalid (lo below 0, hi past dims, lo above hi, wrong entry counts,
// ld smaller than the patch), against a serial model of the array written here. An invalid call
// must throw InvalidArgument naming the operation and change nothing; a valid one must leave
// the array exactly as the model says. Rank 0 issues the operations (so it can model the array
// exactly); every rank owns part of it. ARMADA_TEST_SEED repeats a run.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_seed.hpp"
#include "test_util.hpp"

namespace armada::arrays::test {
namespace {

struct Call {
  Coord lo, hi, ld;
};

// The model of validity, written from the contract in global_array.hpp.
bool model_valid(const Coord& dims, const Call& c) {
  const int n = dims.size();
  if (c.lo.size() != n || c.hi.size() != n) return false;
  for (int d = 0; d < n; ++d)
    if (c.lo[d] < 0 || c.hi[d] > dims[d] || c.lo[d] > c.hi[d]) return false;
  if (c.ld.empty()) return true;
  if (c.ld.size() != n - 1) return false;
  for (int d = 0; d + 1 < n; ++d)
    if (c.ld[d] < c.hi[d + 1] - c.lo[d + 1]) return false;
  return true;
}

Call draw_call(std::mt19937_64& rng, const Coord& dims) {
  auto pick = [&](Index lo, Index hi) { return std::uniform_int_distribution<Index>(lo, hi)(rng); };
  const int n = dims.size();
  Call c{Coord::filled(n, 0), Coord::filled(n, 0), {}};
  for (int d = 0; d < n; ++d) {
    c.lo[d] = pick(0, dims[d]);
    c.hi[d] = pick(c.lo[d], dims[d]);
  }
  if (pick(0, 2) == 0) {  // a buffer wider than the patch
    c.ld = Coord::filled(n - 1, 0);
    for (int d = 0; d + 1 < n; ++d) c.ld[d] = c.hi[d + 1] - c.lo[d + 1] + pick(0, 3);
  }
  const int d = static_cast<int>(pick(0, n - 1));
  switch (pick(0, 11)) {  // one defect in about half of the calls
    case 0: c.lo[d] = -pick(1, 3); break;
    case 1: c.hi[d] = dims[d] + pick(1, 3); break;
    case 2: if (c.hi[d] > 0) c.lo[d] = c.hi[d] + 1; break;
    case 3: c.lo = Coord::filled(n + 1, 0); break;
    case 4: c.hi = Coord::filled(n == 1 ? 2 : n - 1, 1); break;
    case 5: if (n > 1 && c.hi[1] - c.lo[1] > 0) c.ld = Coord::filled(n - 1, 0); break;
    default: break;
  }
  return c;
}

// Row-major offset of global index g in the model, and the buffer offset of patch element p.
Index offset(const Coord& dims, const Coord& g) {
  Index o = 0;
  for (int d = 0; d < dims.size(); ++d) o = o * dims[d] + g[d];
  return o;
}

template <class F>
void for_each_element(const Call& c, F&& f) {  // f(global index, buffer offset)
  const int n = c.lo.size();
  Coord g = c.lo;
  for (int d = 0; d < n; ++d)
    if (c.hi[d] <= c.lo[d]) return;
  for (;;) {
    Index b = 0;
    for (int d = 0; d < n; ++d) b = b * (d == 0 ? 1 : (c.ld.empty() ? c.hi[d] - c.lo[d] : c.ld[d - 1])) + (g[d] - c.lo[d]);
    f(g, b);
    int d = n - 1;
    while (d >= 0 && ++g[d] == c.hi[d]) g[d] = c.lo[d], --d;
    if (d < 0) return;
  }
}

Index buffer_size(const Call& c) {
  Index size = 1;
  for (int d = 0; d < c.lo.size() && d < c.hi.size(); ++d) {
    const Index e = std::max<Index>(0, c.hi[d] - c.lo[d]);
    size *= d == 0 || c.ld.empty() || d - 1 >= c.ld.size() ? e : std::max(e, c.ld[d - 1]);
  }
  return std::max<Index>(size, 1) + 64;
}

TEST(FuzzPatch, RandomPatchesAgainstTheModel) {
  const std::uint64_t seed = armada::test::test_seed(777);
  SEED_TRACE(seed);
  std::mt19937_64 shared(seed);  // the same draws on every rank: same arrays
  std::mt19937_64 mine(seed * 31 + 7);
  int valid = 0, invalid = 0;
  for (int round = 0; round < 12 && !HasFailure(); ++round) {
    const int n = std::uniform_int_distribution<int>(1, 4)(shared);
    Coord dims = Coord::filled(n, 1);
    for (int d = 0; d < n; ++d) dims[d] = std::uniform_int_distribution<Index>(1, n > 2 ? 6 : 12)(shared);
    auto a = GlobalArray<double>::create(dims);
    std::vector<double> model(static_cast<std::size_t>(Patch{Coord::filled(n, 0), dims}.elements()), 0.0);
    if (rma::rank() == 0) {
      for (int i = 0; i < 150; ++i) {
        const Call c = draw_call(mine, dims);
        const int kind = std::uniform_int_distribution<int>(0, 2)(mine);
        std::vector<double> buf(static_cast<std::size_t>(buffer_size(c)));
        for (auto& x : buf) x = static_cast<double>(std::uniform_int_distribution<int>(-50, 50)(mine));
        const double scale = 3;
        auto issue = [&] {
          if (kind == 0) a.put(c.lo, c.hi, buf.data(), c.ld);
          if (kind == 1) a.get(c.lo, c.hi, buf.data(), c.ld);
          if (kind == 2) a.acc(c.lo, c.hi, buf.data(), scale, c.ld);
        };
        const std::string what = "call " + std::to_string(i) + " kind " + std::to_string(kind) + " lo " + c.lo.str() +
                                 " hi " + c.hi.str() + " ld " + c.ld.str() + " dims " + dims.str();
        if (!model_valid(dims, c)) {
          ++invalid;
          try {
            issue();
            ADD_FAILURE() << what << ": accepted";
          } catch (const rma::InvalidArgument& e) {
            EXPECT_NE(std::string(e.what()).find("arrays::"), std::string::npos) << what << ": " << e.what();
          }
          continue;
        }
        ++valid;
        const std::vector<double> sent = buf;
        EXPECT_NO_THROW(issue()) << what;
        for_each_element(c, [&](const Coord& g, Index b) {
          double& m = model[static_cast<std::size_t>(offset(dims, g))];
          if (kind == 0) m = sent[static_cast<std::size_t>(b)];
          if (kind == 1) EXPECT_EQ(buf[static_cast<std::size_t>(b)], m) << what << " at " << g.str();
          if (kind == 2) m += scale * sent[static_cast<std::size_t>(b)];
        });
      }
      const std::vector<double> all = a.get(Coord::filled(n, 0), dims);
      EXPECT_EQ(all, model) << "round " << round << ": the array differs from the model";
    }
    a.sync();
    a.destroy();
  }
  if (rma::rank() == 0) {
    EXPECT_GT(valid, 300);
    EXPECT_GT(invalid, 300);
  }
}

}  // namespace
}  // namespace armada::arrays::test
