// scan.hpp against serial references computed on every rank: patch_enum, scan_copy, scan_add
// (inclusive and exclusive), pack and unpack over uneven distributions (segments crossing block
// boundaries, ranges not starting at 0, empty masks, masks of all ones), median, step_max and
// step_bound_info of patches; bad arguments fail on every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "test_util.hpp"

namespace armada::arrays::test {
namespace {

int nranks() { return rma::size(); }

/// 1-D options: an uneven irregular map (block sizes 1, 4, 2, 7, ... repeated), or balanced.
ArrayOptions vector_options(Index n, bool uneven, const std::string& name) {
  ArrayOptions o;
  o.name = name;
  if (!uneven) return o;
  std::vector<Index> starts{0};
  const Index sizes[] = {1, 4, 2, 7, 3};
  for (int r = 1; r < nranks(); ++r) starts.push_back(std::min<Index>(n - 1, starts.back() + sizes[r % 5]));
  starts.erase(std::unique(starts.begin(), starts.end()), starts.end());
  o.block_starts = {starts};
  return o;
}

/// A vector with the given values (every rank passes the same; rank 0 puts them).
template <class T>
GlobalArray<T> make_vector(const std::vector<T>& v, bool uneven, const std::string& name) {
  auto a = GlobalArray<T>::create(Coord{static_cast<Index>(v.size())}, vector_options(static_cast<Index>(v.size()), uneven, name));
  if (rma::rank() == 0) a.put(Coord{0}, Coord{static_cast<Index>(v.size())}, v.data());
  a.sync();
  return a;
}

template <class T>
std::vector<T> all_of(const GlobalArray<T>& a) {
  return a.get(Coord{0}, a.dims());
}

/// The masks of the tests over n elements: sparse (segments crossing blocks), empty, all ones.
std::vector<std::vector<int>> masks(Index n) {
  std::vector<int> sparse(static_cast<std::size_t>(n), 0), none(static_cast<std::size_t>(n), 0),
      ones(static_cast<std::size_t>(n), 1);
  for (Index i : {2, 3, 9, 17, 18}) if (i < n) sparse[static_cast<std::size_t>(i)] = 7;
  return {sparse, none, ones};
}

template <class T>
class Scan : public ::testing::Test {};
TYPED_TEST_SUITE(Scan, Types);

TYPED_TEST(Scan, EnumScanPackUnpackAgainstSerial) {
  using T = TypeParam;
  const Index n = 23;
  std::vector<T> src(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) src[static_cast<std::size_t>(i)] = value<T>(3 * i - 20);
  for (const bool uneven : {true, false}) {
    auto s = make_vector<T>(src, uneven, "src");
    auto d = make_vector<T>(std::vector<T>(static_cast<std::size_t>(n), value<T>(99)), !uneven, "dst");
    for (const auto& mv : masks(n)) {
      auto m = make_vector<int>(mv, !uneven, "mask");
      for (const auto& [lo, hi] : {std::pair<Index, Index>{0, n}, {5, 20}, {4, 5}, {7, 7}}) {
        for (int op = 0; op < 3; ++op) {
          fill(d, value<T>(99));
          std::vector<T> want(static_cast<std::size_t>(n), value<T>(99));
          T run{};
          bool started = false;  // before the first set bit nothing is written, as GA's
          for (Index i = lo; i < hi; ++i) {
            const auto k = static_cast<std::size_t>(i);
            const bool start = mv[k] != 0;
            started = started || start;
            if (!started) continue;
            if (op == 0) run = start ? src[k] : run;
            if (op == 1) run = start ? src[k] : static_cast<T>(run + src[k]);
            if (op == 2 && start) run = T{};
            want[k] = run;
            if (op == 2) run = static_cast<T>(run + src[k]);
          }
          if (op == 0) scan_copy(s, d, m, lo, hi);
          else scan_add(s, d, m, lo, hi, op == 2);
          EXPECT_EQ(all_of(d), want) << "op " << op << " lo " << lo << " hi " << hi << " uneven " << uneven;
        }
        // pack: the selected elements from dst[0]; unpack puts them back where the mask is set.
        std::vector<T> packed(static_cast<std::size_t>(n), value<T>(99));
        Index count = 0;
        for (Index i = lo; i < hi; ++i)
          if (mv[static_cast<std::size_t>(i)]) packed[static_cast<std::size_t>(count++)] = src[static_cast<std::size_t>(i)];
        fill(d, value<T>(99));
        EXPECT_EQ(pack(s, d, m, lo, hi), count);
        EXPECT_EQ(all_of(d), packed);
        auto u = make_vector<T>(std::vector<T>(static_cast<std::size_t>(n), value<T>(99)), uneven, "unpacked");
        EXPECT_EQ(unpack(d, u, m, lo, hi), count);
        std::vector<T> back(static_cast<std::size_t>(n), value<T>(99));
        for (Index i = lo; i < hi; ++i)
          if (mv[static_cast<std::size_t>(i)]) back[static_cast<std::size_t>(i)] = src[static_cast<std::size_t>(i)];
        EXPECT_EQ(all_of(u), back);
        u.destroy();
      }
      m.destroy();
    }
    // patch_enum on [4, 19): start + (i - 4) * step, the rest unchanged.
    fill(d, value<T>(1));
    patch_enum(d, 4, 19, value<T>(7), value<T>(2));
    std::vector<T> want(static_cast<std::size_t>(n), value<T>(1));
    for (Index i = 4; i < 19; ++i) want[static_cast<std::size_t>(i)] = static_cast<T>(value<T>(7) + static_cast<T>(i - 4) * value<T>(2));
    EXPECT_EQ(all_of(d), want);
    s.destroy();
    d.destroy();
  }
}

TYPED_TEST(Scan, ScanInPlaceAndLongMask) {
  using T = TypeParam;
  const Index n = 17;
  std::vector<T> src(static_cast<std::size_t>(n));
  std::vector<long> mv(static_cast<std::size_t>(n), 0);
  for (Index i = 0; i < n; ++i) src[static_cast<std::size_t>(i)] = value<T>(i + 1);
  for (Index i : {0, 6, 8, 11, 14, 15}) mv[static_cast<std::size_t>(i)] = -1;
  auto a = make_vector<T>(src, true, "a");
  auto m = make_vector<long>(mv, false, "mask");
  scan_add(a, a, m, 0, n);  // GA's documented example, in place
  std::vector<T> want(static_cast<std::size_t>(n));
  T run{};
  for (Index i = 0; i < n; ++i) {
    const auto k = static_cast<std::size_t>(i);
    run = mv[k] ? src[k] : static_cast<T>(run + src[k]);
    want[k] = run;
  }
  EXPECT_EQ(all_of(a), want);
  if constexpr (std::is_same_v<T, int>) {
    EXPECT_EQ(all_of(a), (std::vector<int>{1, 3, 6, 10, 15, 21, 7, 15, 9, 19, 30, 12, 25, 39, 15, 16, 33}));
  }
  a.destroy();
  m.destroy();
}

template <class T>
T median_ref(T x, T y, T z) {
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    const double kx = std::abs(x), ky = std::abs(y), kz = std::abs(z);
    // GA's rule: equal moduli of x and y give x; z at the modulus of either gives z
    if (kx == ky) return x;
    const T& lo = kx < ky ? x : y;
    const T& hi = kx < ky ? y : x;
    if (kz < std::min(kx, ky)) return lo;
    if (kz > std::max(kx, ky)) return hi;
    return z;
  } else {
    T v[3] = {x, y, z};
    std::sort(v, v + 3);
    return v[1];
  }
}

TYPED_TEST(Scan, MedianOfPatches) {
  using T = TypeParam;
  const Coord dims{6, 9};
  std::vector<T> va, vb, vc;
  for (Index i = 0; i < 54; ++i) {
    va.push_back(value<T>((i * 7) % 11 - 5));
    vb.push_back(value<T>((i * 5) % 13 - 6));
    vc.push_back(value<T>((i * 3) % 7 - 3));
  }
  ArrayOptions irregular;
  irregular.block_starts = {{0, 4}, {0}};
  if (nranks() == 1) irregular.block_starts = {{0}, {0}};
  // c and m block-cyclic: the median reads and writes their blocks in place.
  ArrayOptions tiled, grid;
  tiled.distribution = Distribution::block_cyclic(dims, {2, 4}, {1, nranks()}, nranks(), true);
  grid.distribution = Distribution::block_cyclic(Coord{5, 8}, {2, 3}, {nranks() > 1 ? 2 : 1, 1}, nranks());
  auto a = GlobalArray<T>::create(dims), b = GlobalArray<T>::create(dims, irregular), c = GlobalArray<T>::create(dims, tiled);
  auto m = GlobalArray<T>::create(Coord{5, 8}, grid);
  if (rma::rank() == 0) {
    a.put(Coord{0, 0}, dims, va.data());
    b.put(Coord{0, 0}, dims, vb.data());
    c.put(Coord{0, 0}, dims, vc.data());
  }
  a.sync();
  fill(m, value<T>(42));
  // m[1:5, 2:8) = median(a[0:4, 0:6), b[2:6, 3:9), c[1:5, 1:7))
  median_patch(a, Coord{0, 0}, Coord{4, 6}, b, Coord{2, 3}, Coord{6, 9}, c, Coord{1, 1}, Coord{5, 7}, m, Coord{1, 2},
               Coord{5, 8});
  const std::vector<T> got = m.get(Coord{0, 0}, Coord{5, 8});
  for (Index i = 0; i < 5; ++i)
    for (Index j = 0; j < 8; ++j) {
      T want = value<T>(42);
      if (i >= 1 && j >= 2) {
        const Index r = i - 1, s = j - 2;
        want = median_ref(va[static_cast<std::size_t>(r * 9 + s)], vb[static_cast<std::size_t>((r + 2) * 9 + s + 3)],
                          vc[static_cast<std::size_t>((r + 1) * 9 + s + 1)]);
      }
      EXPECT_EQ(got[static_cast<std::size_t>(i * 8 + j)], want) << i << ", " << j;
    }
  // whole arrays, the output one of the inputs
  median(a, b, c, a);
  const std::vector<T> whole = a.get(Coord{0, 0}, dims);
  for (std::size_t k = 0; k < whole.size(); ++k) EXPECT_EQ(whole[k], median_ref(va[k], vb[k], vc[k])) << k;
  a.destroy();
  b.destroy();
  c.destroy();
  m.destroy();
}

template <class T>
class Step : public ::testing::Test {};
using RealTypes = ::testing::Types<int, long, float, double>;
TYPED_TEST_SUITE(Step, RealTypes);

TYPED_TEST(Step, StepMaxAndBoundInfoAgainstSerial) {
  using T = TypeParam;
  const Index n = 19;
  std::vector<T> x, v, l, u;
  for (Index i = 0; i < n; ++i) {
    x.push_back(static_cast<T>(10 + (i * 7) % 9));
    v.push_back(static_cast<T>((i * 5) % 7 - 3));  // negative, zero and positive directions
    // strictly inside the box except element 2 (v = 0 there) on its lower bound
    l.push_back(static_cast<T>(i == 2 ? x.back() : x.back() - 10 - i % 3));
    u.push_back(static_cast<T>(x.back() + 20 + i));
  }
  auto gx = make_vector<T>(x, true, "x"), gv = make_vector<T>(v, false, "v");
  // x also block-cyclic: the steps read its blocks in place.
  ArrayOptions cyclic;
  cyclic.distribution = Distribution::block_cyclic(Coord{n}, Coord{3}, nranks());
  auto cx = GlobalArray<T>::create(Coord{n}, cyclic);
  copy(gx, cx);
  auto gl = make_vector<T>(l, true, "xl"), gu = make_vector<T>(u, false, "xu");
  // step_max over the patch [3, 16) of x and [2, 15) of v
  T want = step_infinity<T>();
  for (Index i = 0; i < 13; ++i) {
    const T d = v[static_cast<std::size_t>(i + 2)];
    if (d < T{}) want = std::min(want, static_cast<T>(x[static_cast<std::size_t>(i + 3)] / -d));
  }
  EXPECT_EQ(step_max_patch(gx, Coord{3}, Coord{16}, gv, Coord{2}, Coord{15}), want);
  EXPECT_EQ(step_max_patch(cx, Coord{3}, Coord{16}, gv, Coord{2}, Coord{15}), want);
  EXPECT_EQ(step_max(gx, gx), step_infinity<T>());  // no negative direction
  // step_bound_info over the whole vectors
  T bmin = step_infinity<T>(), wmin = step_infinity<T>(), bmax = std::numeric_limits<T>::lowest();
  for (std::size_t k = 0; k < x.size(); ++k) {
    T t = step_infinity<T>();
    if (v[k] > T{}) t = static_cast<T>((u[k] - x[k]) / v[k]);
    if (v[k] < T{}) t = static_cast<T>((x[k] - l[k]) / -v[k]);
    wmin = std::min(wmin, t);
    if (v[k] == T{} && (x[k] == l[k] || x[k] == u[k])) t = T{};
    bmin = std::min(bmin, t);
    bmax = std::max(bmax, t);
  }
  const StepBounds<T> s = step_bound_info(gx, gv, gl, gu);
  const StepBounds<T> sc = step_bound_info(cx, gv, gl, gu);
  EXPECT_EQ(sc.boundmin, s.boundmin);
  EXPECT_EQ(sc.wolfemin, s.wolfemin);
  EXPECT_EQ(sc.boundmax, s.boundmax);
  EXPECT_EQ(s.boundmin, bmin);
  EXPECT_EQ(s.wolfemin, wmin);
  EXPECT_EQ(s.boundmax, bmax);
  EXPECT_EQ(bmin, T{});  // element 2: v = 0 on its lower bound
  EXPECT_GT(wmin, T{});
  EXPECT_EQ(bmax, step_infinity<T>());  // v = 0 inside the box (elements 9 and 16)
  // x below its lower bound: every rank fails
  expect_error<rma::Error>([&] { (void)step_bound_info(gl, gv, gx, gu); }, {"arrays::step_bound_info", "below its lower bound"});
  // a negative element of a: every rank fails
  expect_error<rma::Error>([&] { (void)step_max(gv, gx); }, {"arrays::step_max", "negative element"});
  // Scans run through one range per member: a block-cyclic vector is refused by name.
  expect_error<rma::InvalidArgument>([&] { scan_copy(cx, gv, gl, 0, n); }, {"arrays::scan_copy", "'src'", "block-cyclic"});
  for (auto* a : {&gx, &gv, &gl, &gu, &cx}) a->destroy();
}

TEST(ScanErrors, BadArgumentsFailOnEveryRank) {
  auto vec = GlobalArray<double>::create(Coord{10});
  auto other = GlobalArray<double>::create(Coord{10});
  auto mat = GlobalArray<double>::create(Coord{4, 5});
  auto imask = GlobalArray<int>::create(Coord{10});
  auto dmask = GlobalArray<double>::create(Coord{10});
  auto small = GlobalArray<double>::create(Coord{2});
  auto cplx = GlobalArray<std::complex<double>>::create(Coord{10});
  zero(imask);
  expect_error<rma::Error>([&] { scan_copy(mat, other, imask, 0, 4); }, {"arrays::scan_copy", "'src'", "2-D", "1-D"});
  expect_error<rma::Error>([&] { scan_add(vec, other, small, 0, 10); }, {"arrays::scan_add", "0 .. 10", "of 'mask'"});
  expect_error<rma::Error>([&] { (void)pack(vec, other, imask, 3, 11); }, {"arrays::pack", "lo .. hi", "3 .. 11"});
  expect_error<rma::Error>([&] { (void)unpack(vec, other, imask, -1, 4); }, {"arrays::unpack", "-1 .. 4"});
  expect_error<rma::Error>([&] { scan_copy(vec, cplx, imask, 0, 10); }, {"arrays::scan_copy", "type"});
  patch_enum(imask, 0, 10, 1, 0);  // every element selected: 10 do not fit in 2
  expect_error<rma::Error>([&] { (void)pack(vec, small, imask, 0, 10); }, {"arrays::pack", "too short", "selects 10"});
  expect_error<rma::Error>([&] { (void)unpack(small, vec, imask, 0, 10); }, {"arrays::unpack", "too short"});
  expect_error<rma::Error>([&] { (void)step_max_patch(vec, Coord{0}, Coord{5}, other, Coord{0}, Coord{6}); },
                           {"arrays::step_max"});
  expect_error<rma::Error>([&] { median_patch(vec, Coord{0}, Coord{11}, vec, Coord{0}, Coord{10}, vec, Coord{0}, Coord{10}, other, Coord{0}, Coord{10}); },
                           {"arrays::median"});
  // Arguments that differ on the last rank only: every rank fails before anything moves.
  if (nranks() > 1) {
    const Index hi = last_rank() ? 9 : 10;
    expect_error<rma::Error>([&] { scan_add(vec, other, imask, 0, hi); }, {"arrays::scan_add", "lo .. hi", "must be the same on every member"});
  }
  expect_every_rank_fails([&] { scan_copy(vec, other, last_rank() ? static_cast<Array&>(small) : static_cast<Array&>(imask), 0, 10); }, "arrays::scan_copy",
                          "'mask'");
  // Any element type is a mask (nonzero: set), as GA's: a double mask selects as an int one.
  fill(dmask, 0.0);
  const double half = 0.5;
  if (rma::rank() == 0) dmask.put(Coord{4}, Coord{5}, &half);
  dmask.sync();
  patch_enum(vec, 0, 10, 1.0, 1.0);
  fill(other, -1.0);
  scan_copy(vec, other, dmask, 0, 10);  // 0 .. 3 are before the first set bit: unchanged
  EXPECT_EQ(all_of(other), (std::vector<double>{-1, -1, -1, -1, 5, 5, 5, 5, 5, 5}));
  expect_every_rank_fails([&] { patch_enum(vec, last_rank() ? 11 : 0, 10, 1.0, 1.0); }, "arrays::patch_enum", "lo .. hi");
  for (Array* a : std::initializer_list<Array*>{&vec, &other, &mat, &imask, &dmask, &small, &cplx}) a->destroy();
}

}  // namespace
}  // namespace armada::arrays::test
