// GA's sparse-data operations (GA_Patch_enum, GA_Scan_copy, GA_Scan_add, GA_Pack, GA_Unpack and
// their 64-bit forms) and the TAO helpers (GA_Median, GA_Step_max, GA_Step_bound_info and their
// patch forms): GA's documented examples, then other types, masks and patches against serial
// loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "ga.h"
#include "ga_test_util.hpp"

namespace {

using ga_test::name;
using ga_test::put_vector;
using ga_test::whole_vector;

/// A 1-D array of `type` and n elements, unevenly blocked (block sizes 1, 5, 2, ... when there
/// are processes for them).
int uneven_vector(int type, int n, const char* label) {
  std::vector<int> map{0};
  const int sizes[] = {1, 5, 2, 6};
  for (int p = 1; p < GA_Nnodes() && map.back() + sizes[p % 4] < n; ++p) map.push_back(map.back() + sizes[p % 4]);
  int dims[1] = {n}, block[1] = {static_cast<int>(map.size())};
  return NGA_Create_irreg(type, 1, dims, name(label), block, map.data());
}

TEST(GaScan, DocumentedExamples) {
  const int n = 17;
  const int src = uneven_vector(C_INT, n, "src"), dst = NGA_Create(C_INT, 1, const_cast<int*>(&n), name("dst"), nullptr);
  const int mask = uneven_vector(C_INT, n, "mask");
  // GA's scan_copy example
  put_vector(mask, std::vector<int>{1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0});
  put_vector(src, std::vector<int>{5, 8, 7, 3, 2, 6, 9, 7, 3, 4, 8, 2, 3, 6, 9, 10, 7});
  GA_Scan_copy(src, dst, mask, 0, n - 1);
  EXPECT_EQ(whole_vector<int>(dst, n), (std::vector<int>{5, 5, 5, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8, 8, 9, 10, 10}));
  // GA's scan_add examples, inclusive and exclusive
  put_vector(mask, std::vector<int>{1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 1, 1, 0});
  const int one = 1;
  GA_Patch_enum(src, 0, n - 1, const_cast<int*>(&one), const_cast<int*>(&one));  // 1 .. 17
  GA_Scan_add(src, dst, mask, 0, n - 1, 0);
  EXPECT_EQ(whole_vector<int>(dst, n), (std::vector<int>{1, 3, 6, 10, 15, 21, 7, 15, 9, 19, 30, 12, 25, 39, 15, 16, 33}));
  GA_Scan_add(src, dst, mask, 0, n - 1, 1);
  EXPECT_EQ(whole_vector<int>(dst, n), (std::vector<int>{0, 1, 3, 6, 10, 15, 0, 7, 0, 9, 19, 0, 12, 25, 0, 0, 16}));
  // GA's unpack example, and pack back
  put_vector(mask, std::vector<int>{1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0});
  put_vector(src, std::vector<int>{1, 6, 8, 11, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  GA_Zero(dst);
  int count = -1;
  GA_Unpack(src, dst, mask, 0, n - 1, &count);
  EXPECT_EQ(count, 5);
  EXPECT_EQ(whole_vector<int>(dst, n), (std::vector<int>{1, 0, 0, 0, 0, 6, 0, 8, 0, 0, 11, 0, 0, 0, 15, 0, 0}));
  GA_Zero(src);
  count = -1;
  GA_Pack(dst, src, mask, 0, n - 1, &count);
  EXPECT_EQ(count, 5);
  EXPECT_EQ(whole_vector<int>(src, n), (std::vector<int>{1, 6, 8, 11, 15, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
  // GA's patch_enum examples: (g_a, 1, n, 1, 1) and, after a zero, (g_a, 5, n, 7, 2) in Fortran's indices
  GA_Zero(dst);
  const int seven = 7, two = 2;
  GA_Patch_enum(dst, 4, n - 1, const_cast<int*>(&seven), const_cast<int*>(&two));
  std::vector<int> want(static_cast<size_t>(n), 0);
  for (int i = 4; i < n; ++i) want[static_cast<size_t>(i)] = 7 + 2 * (i - 4);
  EXPECT_EQ(whole_vector<int>(dst, n), want);
  GA_Destroy(src);
  GA_Destroy(dst);
  GA_Destroy(mask);
}

// GA takes masks of any type (nonzero: set); its own test programs pass float and complex masks.
TEST(GaScan, FloatingAndComplexMasks) {
  const int n = 9;
  const int src = uneven_vector(C_DBL, n, "src"), dst = uneven_vector(C_DBL, n, "dst");
  const int fmask = uneven_vector(C_FLOAT, n, "fmask"), zmask = uneven_vector(C_DCPL, n, "zmask");
  put_vector(src, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9});
  put_vector(fmask, std::vector<float>{1.5f, 0, 0, -0.25f, 0, 0, 0, 2, 0});
  GA_Scan_add(src, dst, fmask, 0, n - 1, 0);
  EXPECT_EQ(whole_vector<double>(dst, n), (std::vector<double>{1, 3, 6, 4, 9, 15, 22, 8, 17}));
  // complex: a nonzero imaginary part alone sets the element
  std::vector<DoubleComplex> z(static_cast<size_t>(n), DoubleComplex{0, 0});
  z[0] = DoubleComplex{1, 0};
  z[4] = DoubleComplex{0, 3};
  put_vector(zmask, z);
  GA_Scan_copy(src, dst, zmask, 0, n - 1);
  EXPECT_EQ(whole_vector<double>(dst, n), (std::vector<double>{1, 1, 1, 1, 5, 5, 5, 5, 5}));
  GA_Zero(dst);
  int count = -1;
  GA_Pack(src, dst, fmask, 0, n - 1, &count);
  EXPECT_EQ(count, 3);
  EXPECT_EQ(whole_vector<double>(dst, n), (std::vector<double>{1, 4, 8, 0, 0, 0, 0, 0, 0}));
  for (const int g : {src, dst, fmask, zmask}) GA_Destroy(g);
}

TEST(GaScan, Doubles64WithLongMaskAndInnerRange) {
  const int64_t n = 29, lo = 3, hi = 24;
  const int src = uneven_vector(C_DBL, static_cast<int>(n), "src"), dst = uneven_vector(C_DBL, static_cast<int>(n), "dst");
  int dims[1] = {static_cast<int>(n)}, chunk[1] = {-1};
  const int mask = NGA_Create(C_LONG, 1, dims, name("mask"), chunk);
  std::vector<double> s(static_cast<size_t>(n));
  std::vector<long> m(static_cast<size_t>(n), 0);
  for (int64_t i = 0; i < n; ++i) s[static_cast<size_t>(i)] = 0.5 * static_cast<double>(i) - 3.0;
  for (int64_t i : {0, 8, 9, 15, 26}) m[static_cast<size_t>(i)] = 3;  // no segment starts at lo:
  // as GA's, lo .. 7 belong to no segment and keep their values
  put_vector(src, s);
  put_vector(mask, m);
  for (int excl = 0; excl < 2; ++excl) {
    const double start = -1.0;
    GA_Fill(dst, const_cast<double*>(&start));
    GA_Scan_add64(src, dst, mask, lo, hi, excl);
    std::vector<double> want(static_cast<size_t>(n), -1.0);
    double run = 0;
    bool started = false;
    for (int64_t i = lo; i <= hi; ++i) {
      const size_t k = static_cast<size_t>(i);
      if (m[k]) run = 0;
      started = started || m[k] != 0;
      if (!started) continue;
      want[k] = excl ? run : run + s[k];
      run += s[k];
    }
    EXPECT_EQ(whole_vector<double>(dst, static_cast<int>(n)), want) << "excl " << excl;
  }
  const double before = -7.0;
  GA_Fill(dst, const_cast<double*>(&before));
  GA_Scan_copy64(src, dst, mask, lo, hi);
  std::vector<double> want = whole_vector<double>(dst, static_cast<int>(n));
  for (int64_t i = lo, seg = -1; i <= hi; ++i) {
    if (m[static_cast<size_t>(i)]) seg = i;
    EXPECT_EQ(want[static_cast<size_t>(i)], seg < 0 ? before : s[static_cast<size_t>(seg)]) << i;
  }
  int64_t count = -1;
  const double zero = 0;
  GA_Fill(dst, const_cast<double*>(&zero));
  GA_Pack64(src, dst, mask, lo, hi, &count);
  EXPECT_EQ(count, 3);  // 8, 9, 15
  const std::vector<double> packed = whole_vector<double>(dst, static_cast<int>(n));
  EXPECT_EQ(packed[0], s[8]);
  EXPECT_EQ(packed[1], s[9]);
  EXPECT_EQ(packed[2], s[15]);
  EXPECT_EQ(packed[3], 0.0);
  GA_Fill(src, const_cast<double*>(&zero));
  count = -1;
  GA_Unpack64(dst, src, mask, lo, hi, &count);
  EXPECT_EQ(count, 3);
  const std::vector<double> back = whole_vector<double>(src, static_cast<int>(n));
  for (int64_t i = 0; i < n; ++i) {
    const bool selected = i >= lo && i <= hi && m[static_cast<size_t>(i)];
    EXPECT_EQ(back[static_cast<size_t>(i)], selected ? s[static_cast<size_t>(i)] : 0.0) << i;
  }
  const double first = 2.5, step = -0.25;
  GA_Patch_enum64(dst, 1, n - 2, const_cast<double*>(&first), const_cast<double*>(&step));
  const std::vector<double> en = whole_vector<double>(dst, static_cast<int>(n));
  EXPECT_EQ(en[0], packed[0]);
  for (int64_t i = 1; i <= n - 2; ++i) EXPECT_EQ(en[static_cast<size_t>(i)], 2.5 - 0.25 * static_cast<double>(i - 1));
  GA_Destroy(src);
  GA_Destroy(dst);
  GA_Destroy(mask);
}

double med(double x, double y, double z) { return std::max(std::min(x, y), std::min(std::max(x, y), z)); }

TEST(GaMedian, WholeAndPatches) {
  int dims[2] = {7, 5};
  const int a = NGA_Create(C_DBL, 2, dims, name("a"), nullptr), b = NGA_Create(C_DBL, 2, dims, name("b"), nullptr);
  const int c = NGA_Create(C_DBL, 2, dims, name("c"), nullptr), m = NGA_Create(C_DBL, 2, dims, name("m"), nullptr);
  auto fa = [](int i, int j) { return 1.0 * ((i * 3 + j * 5) % 7); };
  auto fb = [](int i, int j) { return 1.0 * ((i * 2 + j) % 5); };
  auto fc = [](int i, int j) { return 1.0 * ((i + j * 4) % 6) - 1; };
  ga_test::put_whole(a, 7, 5, +fa);
  ga_test::put_whole(b, 7, 5, +fb);
  ga_test::put_whole(c, 7, 5, +fc);
  GA_Median(a, b, c, m);
  std::vector<double> got = ga_test::whole(m, 7, 5);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 5; ++j) EXPECT_EQ(got[static_cast<size_t>(i * 5 + j)], med(fa(i, j), fb(i, j), fc(i, j)));
  GA_Zero(m);
  // m[1:3, 2:4] = median(a[0:2, 0:2], b[4:6, 1:3], c[2:4, 2:4]) (inclusive)
  int alo[2] = {0, 0}, ahi[2] = {2, 2}, blo[2] = {4, 1}, bhi[2] = {6, 3}, clo[2] = {2, 2}, chi[2] = {4, 4};
  int mlo[2] = {1, 2}, mhi[2] = {3, 4};
  GA_Median_patch(a, alo, ahi, b, blo, bhi, c, clo, chi, m, mlo, mhi);
  got = ga_test::whole(m, 7, 5);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 5; ++j) {
      const bool in = i >= 1 && i <= 3 && j >= 2;
      const int r = i - 1, s = j - 2;
      EXPECT_EQ(got[static_cast<size_t>(i * 5 + j)], in ? med(fa(r, s), fb(r + 4, s + 1), fc(r + 2, s + 2)) : 0.0);
    }
  int64_t alo64[2] = {0, 0}, ahi64[2] = {6, 4};
  GA_Median_patch64(a, alo64, ahi64, a, alo64, ahi64, b, alo64, ahi64, m, alo64, ahi64);  // median(a, a, b) = a
  EXPECT_EQ(ga_test::whole(m, 7, 5), ga_test::whole(a, 7, 5));
  for (int g : {a, b, c, m}) GA_Destroy(g);
}

TEST(GaStep, StepMaxAndBoundInfo) {
  const int n = 11;
  const int x = uneven_vector(C_DBL, n, "x"), v = NGA_Create(C_DBL, 1, const_cast<int*>(&n), name("v"), nullptr);
  const int xl = uneven_vector(C_DBL, n, "xl"), xu = uneven_vector(C_DBL, n, "xu");
  std::vector<double> vx, vv, vl, vu;
  for (int i = 0; i < n; ++i) {
    vx.push_back(4.0 + i % 3);
    vv.push_back(i % 4 == 0 ? 0.0 : (i % 2 ? -0.5 * i : 0.25 * i));
    vl.push_back(vx.back() - 1.0 - 0.1 * i);
    vu.push_back(vx.back() + 2.0 + 0.2 * i);
  }
  put_vector(x, vx);
  put_vector(v, vv);
  put_vector(xl, vl);
  put_vector(xu, vu);
  double step = 0, want = 1e307;
  for (int i = 0; i < n; ++i)
    if (vv[static_cast<size_t>(i)] < 0) want = std::min(want, vx[static_cast<size_t>(i)] / -vv[static_cast<size_t>(i)]);
  GA_Step_max(x, v, &step);
  EXPECT_EQ(step, want);
  int lo[1] = {2}, hi[1] = {4}, vlo[1] = {6}, vhi[1] = {8};
  GA_Step_max_patch(x, lo, hi, v, vlo, vhi, &step);  // v[6:8] = 1.5, -3.5, 0: x[3] / 3.5
  EXPECT_EQ(step, vx[3] / 3.5);
  int64_t lo64[1] = {0}, hi64[1] = {0};
  GA_Step_max_patch64(x, lo64, hi64, v, lo64, hi64, &step);  // v[0] = 0: unbounded
  EXPECT_EQ(step, 1e307);
  double bmin = 0, wmin = 0, bmax = 0;
  GA_Step_bound_info(x, v, xl, xu, &bmin, &wmin, &bmax);
  double tmin = 1e307, tmax = -1e307;
  for (int i = 0; i < n; ++i) {
    const size_t k = static_cast<size_t>(i);
    const double t = vv[k] > 0 ? (vu[k] - vx[k]) / vv[k] : vv[k] < 0 ? (vx[k] - vl[k]) / -vv[k] : 1e307;
    tmin = std::min(tmin, t);
    tmax = std::max(tmax, t);
  }
  EXPECT_EQ(bmin, tmin);  // x strictly inside: no zero steps
  EXPECT_EQ(wmin, tmin);
  EXPECT_EQ(bmax, tmax);
  EXPECT_EQ(tmax, 1e307);  // v = 0 inside the box
  // on the patch [1, 3] of every vector: v = -0.5, 0.5, -1.5
  int plo[1] = {1}, phi[1] = {3};
  GA_Step_bound_info_patch(x, plo, phi, v, plo, phi, xl, plo, phi, xu, plo, phi, &bmin, &wmin, &bmax);
  const double t1 = (vx[1] - vl[1]) / 0.5, t2 = (vu[2] - vx[2]) / 0.5, t3 = (vx[3] - vl[3]) / 1.5;
  EXPECT_EQ(bmin, std::min({t1, t2, t3}));
  EXPECT_EQ(wmin, std::min({t1, t2, t3}));
  EXPECT_EQ(bmax, std::max({t1, t2, t3}));
  int64_t p64lo[1] = {0}, p64hi[1] = {1};
  GA_Step_bound_info_patch64(x, p64lo, p64hi, v, p64lo, p64hi, x, p64lo, p64hi, static_cast<int64_t>(xu), p64lo, p64hi,
                             &bmin, &wmin, &bmax);  // xl = x: element 0 (v = 0) on its bound
  EXPECT_EQ(bmin, 0.0);
  EXPECT_EQ(wmin, 0.0);  // element 1: v < 0 on its lower bound
  EXPECT_EQ(bmax, 0.0);
  // integer arrays: integer division
  const int ix = NGA_Create(C_INT, 1, const_cast<int*>(&n), name("ix"), nullptr);
  const int iv = uneven_vector(C_INT, n, "iv");
  const int seven = 7, minus_two = -2, zero = 0;
  GA_Fill(ix, const_cast<int*>(&seven));
  GA_Fill(iv, const_cast<int*>(&zero));
  int ilo[1] = {5}, ihi[1] = {5};
  NGA_Put(iv, ilo, ihi, const_cast<int*>(&minus_two), nullptr);
  int istep = 0;
  GA_Step_max(ix, iv, &istep);
  EXPECT_EQ(istep, 3);
  for (int g : {x, v, xl, xu, ix, iv}) GA_Destroy(g);
}

}  // namespace
