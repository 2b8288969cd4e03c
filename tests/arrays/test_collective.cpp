// Collective operations against the serial reference: fill, zero, copy between distributions,
// copy_patch (with transpose), scale, add, dot, norms, element-wise operations, select, print,
// summary, duplicate; arrays on a process group; read_inc hands out every value once.
#include <gtest/gtest.h>

#include <cmath>
#include <iomanip>
#include <sstream>

#include "test_seed.hpp"
#include "armada/arrays/eigen.hpp"
#include "test_util.hpp"

namespace armada::arrays::test {
namespace {

int my_rank() { return rma::rank(); }
int nranks() { return rma::size(); }

template <class T>
bool near(const T& x, const T& y) {
  if constexpr (std::is_integral_v<T>) return x == y;
  else return std::abs(x - y) <= 1e-4 * (1 + std::abs(y));
}

/// Rank 0 writes random values (non-zero if asked) into the whole array; every rank's
/// reference gets the same values from the shared generator.
template <class T>
Reference<T> randomize(GlobalArray<T>& a, std::mt19937_64& shared, bool nonzero = false) {
  Reference<T> ref(a.dims());
  std::uniform_int_distribution<long> x(1, 9), sign(0, 1);
  for (auto& e : ref.v) e = value<T>(nonzero ? (sign(shared) ? x(shared) : -x(shared)) : x(shared) - 5);
  if (my_rank() == 0) a.put(Coord::filled(a.ndim(), 0), a.dims(), ref.v.data());
  a.sync();
  return ref;
}

template <class T>
void expect_matches(const GlobalArray<T>& a, const Reference<T>& ref, const std::string& what) {
  const std::vector<T> all = a.get(Coord::filled(a.ndim(), 0), a.dims());
  ASSERT_EQ(all.size(), ref.v.size());
  int bad = 0;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (!near(all[i], ref.v[i]) && ++bad < 5) ADD_FAILURE() << what << ": element " << i << " is " << all[i] << ", expected " << ref.v[i];
  EXPECT_EQ(bad, 0) << what;
  a.sync();  // reads done before the next collective writes
}

template <class T>
class Collective : public ::testing::Test {};
TYPED_TEST_SUITE(Collective, Types);

TYPED_TEST(Collective, OperationsAcrossDistributions) {
  using T = TypeParam;
  // Round 0: one block per process (balanced, irregular, grid); rounds 1-3: a, b and c each
  // block-cyclic, the three layouts turn about (so each acts as source and destination).
  for (int round = 0; round < 4; ++round)
  for (int ndim = 1; ndim <= 4; ++ndim) {
    const std::uint64_t seed = armada::test::test_seed(500);
    SEED_TRACE(seed);
    std::mt19937_64 shared(seed + static_cast<std::uint64_t>(ndim) * 13 + static_cast<std::uint64_t>(type_of<T>()) +
                           static_cast<std::uint64_t>(round) * 1009);
    Layout la = random_layout(shared, nranks(), ndim, 0);
    // b and c share a's dims but not its distribution.
    Layout lb = random_layout(shared, nranks(), ndim, 3);
    Layout lc = random_layout(shared, nranks(), ndim, 1);
    lb.options.block_starts.clear();
    for (int d = 0; d < ndim; ++d) {
      // An irregular map for b over a's dims: one or two blocks per dimension.
      std::vector<Index> s{0};
      if (d == 0 && nranks() > 1) s.push_back(std::uniform_int_distribution<Index>(0, la.dims[d])(shared));
      lb.options.block_starts.push_back(s);
    }
    if (round > 0) {
      la.options.distribution = random_cyclic(shared, nranks(), la.dims, 4 + (round + 0) % 3);
      lb.options.distribution = random_cyclic(shared, nranks(), la.dims, 4 + (round + 1) % 3);
      lc.options.distribution = random_cyclic(shared, nranks(), la.dims, 4 + (round + 2) % 3);
      la.label = la.options.distribution->str() + " / " + lb.options.distribution->str() + " / " +
                 lc.options.distribution->str();
    }
    SCOPED_TRACE(la.label);
    auto a = GlobalArray<T>::create(la.dims, la.options);
    auto b = GlobalArray<T>::create(la.dims, lb.options);
    auto c = GlobalArray<T>::create(la.dims, lc.options);
    const Coord dims = la.dims;

    fill(a, value<T>(7));
    Reference<T> ra(dims);
    for (auto& e : ra.v) e = value<T>(7);
    expect_matches(a, ra, "fill");
    zero(a);
    for (auto& e : ra.v) e = T{};
    expect_matches(a, ra, "zero");

    ra = randomize(a, shared);
    Reference<T> rb = randomize(b, shared, true);
    copy(a, c);
    expect_matches(c, ra, "copy to another distribution");

    // Patch copy between different places of differently distributed arrays.
    {
      const Patch p = random_patch(shared, dims);
      Coord blo = p.lo;
      const Coord ext = p.extents();
      for (int d = 0; d < ndim; ++d) blo[d] = std::uniform_int_distribution<Index>(0, dims[d] - ext[d])(shared);
      Coord bhi = blo;
      for (int d = 0; d < ndim; ++d) bhi[d] += ext[d];
      copy_patch(a, p.lo, p.hi, b, blo, bhi);
      Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index) {
        Coord t = g;
        for (int d = 0; d < ndim; ++d) t[d] = g[d] - p.lo[d] + blo[d];
        rb.at(t) = ra.at(g);
      });
      expect_matches(b, rb, "copy_patch");
    }
    rb = randomize(b, shared, true);  // divisors below: no zeros

    scale(a, value<T>(3));
    for (auto& e : ra.v) e *= value<T>(3);
    expect_matches(a, ra, "scale");
    {
      const Patch p = random_patch(shared, dims);
      scale_patch(a, p.lo, p.hi, value<T>(-1));
      Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index) { ra.at(g) *= value<T>(-1); });
      expect_matches(a, ra, "scale_patch");
    }

    add(value<T>(2), a, value<T>(-3), b, c);
    Reference<T> rc(dims);
    for (std::size_t i = 0; i < rc.v.size(); ++i) rc.v[i] = value<T>(2) * ra.v[i] + value<T>(-3) * rb.v[i];
    expect_matches(c, rc, "add");

    {
      T want{};
      for (std::size_t i = 0; i < ra.v.size(); ++i) want += ra.v[i] * rb.v[i];
      EXPECT_TRUE(near(dot(a, b), want)) << "dot " << dot(a, b) << " expected " << want;
      const Patch p = random_patch(shared, dims);
      T wp{};
      Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index) { wp += ra.at(g) * rb.at(g); });
      EXPECT_TRUE(near(dot_patch(a, p.lo, p.hi, b, p.lo, p.hi), wp)) << "dot_patch";
    }

    elem_multiply(a, b, c);
    for (std::size_t i = 0; i < rc.v.size(); ++i) rc.v[i] = ra.v[i] * rb.v[i];
    expect_matches(c, rc, "elem_multiply");
    elem_divide(a, b, c);  // b has no zeros
    for (std::size_t i = 0; i < rc.v.size(); ++i) rc.v[i] = ra.v[i] / rb.v[i];
    expect_matches(c, rc, "elem_divide");
    auto mag = [](const T& x) { return std::abs(x); };
    elem_max(a, b, c);
    for (std::size_t i = 0; i < rc.v.size(); ++i) {
      if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) rc.v[i] = std::max(ra.v[i], rb.v[i]);
      else rc.v[i] = mag(ra.v[i]) >= mag(rb.v[i]) ? ra.v[i] : rb.v[i];
    }
    expect_matches(c, rc, "elem_max");
    elem_min(a, b, c);
    for (std::size_t i = 0; i < rc.v.size(); ++i) {
      if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) rc.v[i] = std::min(ra.v[i], rb.v[i]);
      else rc.v[i] = mag(ra.v[i]) <= mag(rb.v[i]) ? ra.v[i] : rb.v[i];
    }
    expect_matches(c, rc, "elem_min");

    // In place on c (c may be an operand): c = c .* a
    elem_multiply(c, a, c);
    for (std::size_t i = 0; i < rc.v.size(); ++i) rc.v[i] = rc.v[i] * ra.v[i];
    expect_matches(c, rc, "elem_multiply in place");

    abs(a);
    for (auto& e : ra.v) {
      if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) e = e < T{} ? static_cast<T>(-e) : e;
      else e = T(std::abs(e), 0);
    }
    expect_matches(a, ra, "abs");
    add_constant(a, value<T>(4));
    for (auto& e : ra.v) e += value<T>(4);
    expect_matches(a, ra, "add_constant");
    // reciprocal of b (no zeros); integers truncate.
    reciprocal(b);
    for (auto& e : rb.v) e = static_cast<T>(T(1) / e);
    expect_matches(b, rb, "reciprocal");

    // Select: on a fresh random a.
    ra = randomize(a, shared);
    {
      const Patch p = random_patch(shared, dims, false);
      for (bool want_max : {true, false}) {
        Coord best_i = p.lo;
        T best = ra.at(p.lo);
        Reference<T>::each(p.lo, p.hi, [&](const Coord& g, Index) {
          const T x = ra.at(g);
          bool better;
          if constexpr (std::is_integral_v<T> || std::is_floating_point_v<T>) better = want_max ? x > best : x < best;
          else better = want_max ? std::norm(x) > std::norm(best) : std::norm(x) < std::norm(best);
          if (better) { best = x; best_i = g; }
        });
        const Selected<T> s = want_max ? select_max(a, p.lo, p.hi) : select_min(a, p.lo, p.hi);
        EXPECT_EQ(s.value, best) << (want_max ? "select_max" : "select_min");
        EXPECT_EQ(s.index, best_i) << (want_max ? "select_max" : "select_min");
      }
    }
    a.destroy();
    b.destroy();
    c.destroy();
  }
}

/// Options for an array of `dims`: the default distribution (kind -1) or a random layout
/// kind 4-6 (block-cyclic).
ArrayOptions options_of(std::mt19937_64& rng, const Coord& dims, int kind) {
  ArrayOptions o;
  if (kind >= 4) o.distribution = random_cyclic(rng, nranks(), dims, kind);
  return o;
}

class CollectiveOn : public ::testing::TestWithParam<int> {};
INSTANTIATE_TEST_SUITE_P(Kinds, CollectiveOn, ::testing::Values(-1, 4, 5, 6));

TEST_P(CollectiveOn, TransposeCopy) {
  std::mt19937_64 shared(42 + static_cast<unsigned>(GetParam()));
  auto a = GlobalArray<double>::create({13, 7}, options_of(shared, {13, 7}, GetParam()));
  ArrayOptions o = options_of(shared, {9, 20}, GetParam() < 0 ? -1 : 4 + (GetParam() - 3) % 3);
  if (GetParam() < 0) o.block_starts = {{0, 3}, {0}};
  if (GetParam() < 0 && nranks() == 1) o.block_starts = {{0}, {0}};
  auto b = GlobalArray<double>::create({9, 20}, o);
  const Reference<double> ra = randomize(a, shared);
  zero(b);
  // b[2:7, 4:15] = transpose(a[1:12, 2:7])
  copy_patch(a, {1, 2}, {12, 7}, b, {2, 4}, {7, 15}, true);
  Reference<double> rb(b.dims());
  for (Index i = 0; i < 5; ++i)
    for (Index j = 0; j < 11; ++j) rb.at({2 + i, 4 + j}) = ra.at({1 + j, 2 + i});
  expect_matches(b, rb, "copy_patch transpose");
  a.destroy();
  b.destroy();
}

TEST_P(CollectiveOn, Norms) {
  std::mt19937_64 shared(9 + static_cast<unsigned>(GetParam()));
  auto v = GlobalArray<double>::create({101}, options_of(shared, {101}, GetParam()));
  const Reference<double> rv = randomize(v, shared);
  double s = 0, m = 0;
  for (double x : rv.v) { s += std::abs(x); m = std::max(m, std::abs(x)); }
  EXPECT_DOUBLE_EQ(norm1(v), s);
  EXPECT_DOUBLE_EQ(norm_infinity(v), m);
  auto mat = GlobalArray<std::complex<double>>::create({17, 23}, options_of(shared, {17, 23}, GetParam()));
  const Reference<std::complex<double>> rm = randomize(mat, shared);
  double col = 0, row = 0;
  for (Index j = 0; j < 23; ++j) { double t = 0; for (Index i = 0; i < 17; ++i) t += std::abs(rm.at({i, j})); col = std::max(col, t); }
  for (Index i = 0; i < 17; ++i) { double t = 0; for (Index j = 0; j < 23; ++j) t += std::abs(rm.at({i, j})); row = std::max(row, t); }
  EXPECT_NEAR(norm1(mat), col, 1e-9);
  EXPECT_NEAR(norm_infinity(mat), row, 1e-9);
  v.destroy();
  mat.destroy();
}

// Every value of the counter is handed out exactly once, for int and long counters.
template <class T>
void counter_test(int kind) {
  std::mt19937_64 rng(3);
  auto c = GlobalArray<T>::create({5}, options_of(rng, {5}, kind));
  const Coord where{4};  // owned by the last owner: remote for most ranks
  const int per_rank = 200;
  std::vector<long> got;
  for (int i = 0; i < per_rank; ++i) got.push_back(c.read_inc(where, 1));
  std::vector<long> all(static_cast<std::size_t>(per_rank * nranks()));
  MPI_Allgather(got.data(), per_rank, MPI_LONG, all.data(), per_rank, MPI_LONG, rma::world_comm());
  std::sort(all.begin(), all.end());
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], static_cast<long>(i)) << "value handed out twice or never";
  c.sync();
  EXPECT_EQ(c.at(where), static_cast<T>(per_rank * nranks()));
  if (my_rank() == 0) {
    EXPECT_EQ(c.read_inc({0}, 10), 0);
    EXPECT_EQ(c.read_inc({0}, -3), 10);
    EXPECT_EQ(c.at({0}), static_cast<T>(7));
  }
  c.destroy();
}
TEST_P(CollectiveOn, ReadIncIntHandsOutEachValueOnce) { counter_test<int>(GetParam()); }
TEST_P(CollectiveOn, ReadIncLongHandsOutEachValueOnce) { counter_test<long>(GetParam()); }

// duplicate keeps a block-cyclic layout; print reads through the blocks.
TEST_P(CollectiveOn, DuplicateAndPrint) {
  std::mt19937_64 shared(11 + static_cast<unsigned>(GetParam()));
  auto a = GlobalArray<int>::create({6, 5}, options_of(shared, {6, 5}, GetParam()));
  const Reference<int> ra = randomize(a, shared);
  auto d = a.duplicate("dup");
  EXPECT_TRUE(d.distribution() == a.distribution()) << d.distribution().str() << " vs " << a.distribution().str();
  copy(a, d);
  expect_matches(d, ra, "copy to the duplicate");
  std::ostringstream out;
  print(d, out);
  if (my_rank() == 0) {
    std::ostringstream want;
    for (Index i = 0; i < 6; ++i) {
      want << "  (" << i << ", 0:5)";
      for (Index j = 0; j < 5; ++j) want << ' ' << std::setw(8) << ra.at({i, j});
      want << '\n';
    }
    EXPECT_NE(out.str().find(want.str()), std::string::npos) << out.str() << "\nwanted\n" << want.str();
  }
  d.destroy();
  a.destroy();
}

TEST(Collective, EigenViewPrintSummaryDuplicate) {
  ArrayOptions o;
  o.name = "matrix";
  auto a = GlobalArray<double>::create({6, 5}, o);
  {
    auto m = local_matrix(a);
    const Patch own = a.owned();
    EXPECT_EQ(m.rows(), own.empty() ? 0 : own.hi[0] - own.lo[0]);
    for (Index i = 0; i < m.rows(); ++i)
      for (Index j = 0; j < m.cols(); ++j) m(i, j) = static_cast<double>(10 * (own.lo[0] + i) + own.lo[1] + j);
    a.release_update();
  }
  a.sync();
  for (Index i = 0; i < 6; ++i)
    for (Index j = 0; j < 5; ++j) EXPECT_EQ(a.at({i, j}), static_cast<double>(10 * i + j));
  a.sync();
  std::ostringstream out;
  print_patch(a, {1, 0}, {3, 5}, out);
  if (my_rank() == 0) {
    EXPECT_NE(out.str().find("array 'matrix'"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("(2, 0:5)"), std::string::npos) << out.str();
    EXPECT_NE(out.str().find("24"), std::string::npos) << out.str();
  } else {
    EXPECT_TRUE(out.str().empty());
  }
  auto d = a.duplicate("copy");
  EXPECT_EQ(d.name(), "copy");
  EXPECT_EQ(d.distribution(), a.distribution());
  EXPECT_EQ(d.at({5, 4}), 0.0) << "a duplicate does not copy the contents";
  const std::string s = summary();
  EXPECT_NE(s.find("'matrix'"), std::string::npos) << s;
  EXPECT_NE(s.find("'copy'"), std::string::npos) << s;
  d.destroy();
  EXPECT_FALSE(d.valid());
  EXPECT_EQ(summary().find("'copy'"), std::string::npos);
  a.destroy();
}

// An array on a group of the world's ranks in reverse order, without rank 0 when there are 3+.
// select_max and select_min reduce every rank's best over the group (an MPI reduction, not a
// gather): equal values on every rank still name the lowest row-major index, whichever rank's
// candidate the reduction meets first; a complex array compares magnitudes.
TEST(Collective, SelectTiesGoToTheLowestIndexOnEveryRank) {
  auto a = GlobalArray<double>::create({7, 5});
  fill(a, 2.5);
  for (bool want_max : {true, false}) {
    const Selected<double> s = want_max ? select_max(a, {2, 1}, {7, 5}) : select_min(a, {2, 1}, {7, 5});
    EXPECT_EQ(s.value, 2.5);
    EXPECT_EQ(s.index, (Coord{2, 1})) << (want_max ? "select_max" : "select_min");
  }
  // The last row holds the largest magnitude twice, on whichever ranks own them.
  auto c = GlobalArray<std::complex<double>>::create({6, 4});
  fill(c, std::complex<double>(1, 1));
  if (my_rank() == nranks() - 1) {
    const std::complex<double> big[2] = {{0, -3}, {3, 0}};
    c.put({5, 2}, {6, 4}, big);
  }
  c.sync();
  const Selected<std::complex<double>> m = select_max(c, {0, 0}, {6, 4});
  EXPECT_EQ(m.value, std::complex<double>(0, -3));
  EXPECT_EQ(m.index, (Coord{5, 2}));
  a.destroy();
  c.destroy();
}

TEST(Collective, ArrayOnAGroup) {
  std::vector<int> ranks;
  for (int r = nranks() - 1; r >= (nranks() > 2 ? 1 : 0); --r) ranks.push_back(r);
  const rma::Group g = rma::Group::create(rma::Group::world(), ranks);
  if (g.is_member()) {
    ArrayOptions o;
    o.group = g;
    auto a = GlobalArray<long>::create({10, 3}, o);
    EXPECT_EQ(a.owned(ranks[0]).lo, (Coord{0, 0})) << "group rank 0 holds the first block";
    if (g.rank() == 0) {
      std::vector<long> v(30);
      std::iota(v.begin(), v.end(), 100L);
      a.put({0, 0}, {10, 3}, v.data());
    }
    a.sync();
    const auto all = a.get({0, 0}, {10, 3});
    for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], 100L + static_cast<long>(i));
    EXPECT_EQ(dot(a, a), [] { long s = 0; for (long x = 100; x < 130; ++x) s += x * x; return s; }());
    a.destroy();
  }
  rma::barrier();
}

// Arrays made on a subgroup advance only their members' ids; the next array of a larger group
// still has one id and one default name on every member (a save names its dataset by it).
TEST(Collective, DefaultNamesAgreeAfterArraysOnASubgroup) {
  const std::vector<int> only_rank_0{0};
  const rma::Group first = rma::Group::create(rma::Group::world(), only_rank_0);
  std::vector<Array> made;
  if (first.is_member()) {
    ArrayOptions o;
    o.group = first;
    for (int i = 0; i < 3; ++i) made.push_back(GlobalArray<int>::create({4}, o));
  }
  auto a = GlobalArray<double>::create({6, 2});
  auto b = GlobalArray<int>::create({3});
  for (const Array* x : {static_cast<const Array*>(&a), static_cast<const Array*>(&b)}) {
    int id = x->id(), root_id = id;
    rma::broadcast(&root_id, sizeof root_id, 0);
    EXPECT_EQ(id, root_id) << "array ids differ between ranks";
    std::string name = x->name();
    name.resize(64);
    rma::broadcast(name.data(), name.size(), 0);
    EXPECT_EQ(x->name(), std::string(name.c_str())) << "default names differ between ranks";
  }
  EXPECT_NE(a.id(), b.id());
  for (Array& m : made) m.destroy();
  a.destroy();
  b.destroy();
}

// Ghost cells: filled from the neighbours, periodic or not; outside cells untouched when not.
template <class T>
class Ghosts : public ::testing::Test {};
using GhostTypes = ::testing::Types<int, double, std::complex<float>>;
TYPED_TEST_SUITE(Ghosts, GhostTypes);

TYPED_TEST(Ghosts, UpdateGhosts) {
  using T = TypeParam;
  for (const Coord& dims : {Coord{40}, Coord{9, 12}, Coord{5, 6, 7}}) {
    for (bool periodic : {false, true}) {
      SCOPED_TRACE(dims.str() + (periodic ? " periodic" : " not periodic"));
      const int n = dims.size();
      ArrayOptions o;
      o.ghosts = Coord::filled(n, 1);
      o.ghosts[0] = 2;
      auto a = GlobalArray<T>::create(dims, o);
      std::mt19937_64 shared(11);
      const Reference<T> ref = randomize(a, shared);
      const T sentinel = value<T>(-777);
      {
        // Mark the frame so untouched cells can be told apart.
        const LocalView<T> v = a.access_ghosts();
        const Patch own = a.owned();
        Reference<T>::each(v.lo, v.hi, [&](const Coord& g, Index) {
          bool inside = true;
          for (int d = 0; d < n; ++d) inside &= own.lo[d] <= g[d] && g[d] < own.hi[d];
          if (!inside) v[g] = sentinel;
        });
        a.release_update();
      }
      a.update_ghosts(periodic);
      const LocalView<T> v = a.access_ghosts();
      Reference<T>::each(v.lo, v.hi, [&](const Coord& g, Index) {
        bool outside = false;
        for (int d = 0; d < n; ++d) outside |= g[d] < 0 || g[d] >= dims[d];
        const T want = !outside ? ref.at(g) : periodic ? ref.at(ref.wrap(g)) : sentinel;
        EXPECT_EQ(v[g], want) << "ghost view at " << g.str();
      });
      a.release();
      a.destroy();
    }
  }
}

}  // namespace
}  // namespace armada::arrays::test
