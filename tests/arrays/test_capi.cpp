// The C API: handles, every group of functions, error codes and messages.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

#include "armada/arrays/c_api.h"
#include "armada/rma/rma.hpp"

extern "C" int arrays_capi_c_smoke(int rank);

namespace {

int rank() { return armada::rma::rank(); }
int nranks() { return armada::rma::size(); }
std::string message() { return armada_ga_error_message(); }

TEST(CApi, FromC) { EXPECT_EQ(arrays_capi_c_smoke(rank()), 0) << message(); }

TEST(CApi, PatchOperationsAndInquiry) {
  const int64_t dims[3] = {4, 5, 6};
  int g = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_LONG, 3, dims, "L", nullptr, &g), ARMADA_GA_OK) << message();
  int type = -1, ndim = 0;
  int64_t d[7];
  EXPECT_EQ(armada_ga_inquire(g, &type, &ndim, d), ARMADA_GA_OK);
  EXPECT_EQ(type, ARMADA_GA_LONG);
  EXPECT_EQ(ndim, 3);
  EXPECT_EQ(d[2], 6);
  const char* name = nullptr;
  EXPECT_EQ(armada_ga_name(g, &name), ARMADA_GA_OK);
  EXPECT_STREQ(name, "L");
  // Whole array from rank 0, then a nonblocking get and an accumulate by everyone.
  std::vector<long> all(120);
  std::iota(all.begin(), all.end(), 0L);
  const int64_t lo0[3] = {0, 0, 0};
  if (rank() == 0) { EXPECT_EQ(armada_ga_put(g, lo0, dims, all.data(), nullptr), ARMADA_GA_OK); }
  EXPECT_EQ(armada_ga_sync(g), ARMADA_GA_OK);
  const int64_t lo[3] = {1, 1, 2}, hi[3] = {3, 4, 6}, ld[2] = {4, 5};  // buffer 2 x 4 x 5 for a 2x3x4 patch
  std::vector<long> buf(40, -1);
  int req = 0;
  EXPECT_EQ(armada_ga_nbget(g, lo, hi, buf.data(), ld, &req), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_nbwait(req), ARMADA_GA_OK);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) EXPECT_EQ(buf[static_cast<std::size_t>(i * 20 + j * 5 + k)], (1 + i) * 30 + (1 + j) * 6 + 2 + k);
  EXPECT_EQ(armada_ga_nbwait(req), ARMADA_GA_ERR_HANDLE) << "a request is waited once";
  EXPECT_NE(message().find("'request'"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_sync(g), ARMADA_GA_OK);
  const long one = 1, two = 2;
  std::vector<long> ones(120, 1);
  EXPECT_EQ(armada_ga_acc(g, lo0, dims, ones.data(), nullptr, &two), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_sync(g), ARMADA_GA_OK);
  std::vector<long> got(120);
  EXPECT_EQ(armada_ga_get(g, lo0, dims, got.data(), nullptr), ARMADA_GA_OK);
  for (int i = 0; i < 120; ++i) EXPECT_EQ(got[static_cast<std::size_t>(i)], i + 2L * nranks());
  // Strided, periodic, element lists, read_inc.
  const int64_t skip[3] = {2, 2, 3};
  std::vector<long> s(2 * 3 * 2);
  EXPECT_EQ(armada_ga_strided_get(g, lo0, dims, skip, s.data(), nullptr), ARMADA_GA_OK);
  EXPECT_EQ(s[1], got[3]);
  const int64_t plo[3] = {-1, 0, 5}, phi[3] = {1, 1, 7};
  std::vector<long> p(4);
  EXPECT_EQ(armada_ga_periodic_get(g, plo, phi, p.data(), nullptr), ARMADA_GA_OK);
  EXPECT_EQ(p[0], got[3 * 30 + 5]);
  EXPECT_EQ(p[1], got[3 * 30 + 0]);
  const int64_t subs[6] = {0, 0, 1, 3, 4, 5};
  long vals[2];
  EXPECT_EQ(armada_ga_gather(g, 2, subs, vals), ARMADA_GA_OK);
  EXPECT_EQ(vals[1], got[119]);
  EXPECT_EQ(armada_ga_sync(g), ARMADA_GA_OK);
  long old = -1;
  EXPECT_EQ(armada_ga_read_inc(g, subs, one, &old), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_sync(g), ARMADA_GA_OK);
  long final_value = 0;
  EXPECT_EQ(armada_ga_gather(g, 1, subs, &final_value), ARMADA_GA_OK);
  EXPECT_EQ(final_value, got[1] + nranks());
  // Distribution inquiry and local access agree.
  int64_t blo[3], bhi[3], alo[3], ahi[3], st[3];
  void* ptr = nullptr;
  EXPECT_EQ(armada_ga_distribution(g, rank(), blo, bhi), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_access(g, &ptr, alo, ahi, st), ARMADA_GA_OK);
  EXPECT_EQ(std::memcmp(blo, alo, sizeof blo), 0);
  EXPECT_EQ(std::memcmp(bhi, ahi, sizeof bhi), 0);
  EXPECT_EQ(armada_ga_release(g), ARMADA_GA_OK);
  int owner = -1, count = 0;
  EXPECT_EQ(armada_ga_locate(g, subs + 3, &owner), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_locate_region(g, lo0, dims, 0, nullptr, nullptr, nullptr, &count), ARMADA_GA_OK);
  EXPECT_GE(count, 1);
  EXPECT_LE(count, nranks());
  EXPECT_EQ(armada_ga_destroy(g), ARMADA_GA_OK);
}

TEST(CApi, CollectiveOperations) {
  const int64_t dims[2] = {7, 9};
  int a = 0, b = 0, c = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "a", nullptr, &a), ARMADA_GA_OK);
  const int64_t nblock[2] = {1, 1}, map[2] = {0, 0};
  ASSERT_EQ(armada_ga_create_irreg(ARMADA_GA_DOUBLE, 2, dims, "b", nblock, map, &b), ARMADA_GA_OK) << message();
  ASSERT_EQ(armada_ga_duplicate(a, "c", &c), ARMADA_GA_OK);
  const double three = 3, two = 2, half = 0.5;
  EXPECT_EQ(armada_ga_fill(a, &three), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_copy(a, b), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_scale(b, &two), ARMADA_GA_OK);  // b = 6
  EXPECT_EQ(armada_ga_add(&half, a, &two, b, c), ARMADA_GA_OK);  // c = 13.5
  double dot = 0;
  EXPECT_EQ(armada_ga_dot(a, c, &dot), ARMADA_GA_OK);
  EXPECT_DOUBLE_EQ(dot, 63 * 3 * 13.5);
  EXPECT_EQ(armada_ga_elem_divide(c, b, c), ARMADA_GA_OK);  // 2.25
  EXPECT_EQ(armada_ga_add_constant(c, &three), ARMADA_GA_OK);  // 5.25
  EXPECT_EQ(armada_ga_reciprocal(b), ARMADA_GA_OK);  // 1/6
  EXPECT_EQ(armada_ga_elem_multiply(c, b, c), ARMADA_GA_OK);  // 0.875
  double n1 = 0, ninf = 0;
  EXPECT_EQ(armada_ga_norm1(c, &n1), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_norm_infinity(c, &ninf), ARMADA_GA_OK);
  EXPECT_DOUBLE_EQ(n1, 7 * 0.875);
  EXPECT_DOUBLE_EQ(ninf, 9 * 0.875);
  const int64_t at[2] = {4, 6}, at_hi[2] = {5, 7};
  const double big = -40;
  if (rank() == nranks() - 1) { EXPECT_EQ(armada_ga_put(c, at, at_hi, &big, nullptr), ARMADA_GA_OK); }
  EXPECT_EQ(armada_ga_abs(c), ARMADA_GA_OK);
  double best = 0;
  int64_t where[2] = {-1, -1};
  EXPECT_EQ(armada_ga_select_elem(c, 1, &best, where), ARMADA_GA_OK);
  EXPECT_EQ(best, 40);
  EXPECT_EQ(where[0], 4);
  EXPECT_EQ(where[1], 6);
  EXPECT_EQ(armada_ga_elem_max(a, b, c), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_elem_min(a, b, c), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_zero(a), ARMADA_GA_OK);
  const int64_t lo[2] = {0, 0}, tlo[2] = {0, 0}, thi[2] = {9, 7};
  int t = 0;
  const int64_t tdims[2] = {9, 7};
  ASSERT_EQ(armada_ga_create(ARMADA_GA_DOUBLE, 2, tdims, "t", nullptr, &t), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_copy_patch(c, lo, dims, t, tlo, thi, 1), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_print_patch(t, tlo, thi), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_summary(), ARMADA_GA_OK);
  // Errors: codes and messages naming the C function.
  EXPECT_EQ(armada_ga_copy(a, t), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("(in armada_ga_copy)"), std::string::npos) << message();
  int i = 0;
  const int64_t one[1] = {3};
  ASSERT_EQ(armada_ga_create(ARMADA_GA_INT, 1, one, "i", nullptr, &i), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_copy(a, i), ARMADA_GA_ERR_TYPE);
  long old = 0;
  const int64_t zero_index[2] = {0, 0};
  EXPECT_EQ(armada_ga_read_inc(a, zero_index, 1, &old), ARMADA_GA_ERR_TYPE);
  EXPECT_NE(message().find("read_inc needs an int or long array"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_create(42, 1, one, "x", nullptr, &i), ARMADA_GA_ERR_TYPE);
  EXPECT_EQ(armada_ga_create(ARMADA_GA_INT, 0, one, "x", nullptr, &i), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_ga_sync(424242), ARMADA_GA_ERR_HANDLE);
  EXPECT_NE(message().find("'array' = 424242"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_get(a, lo, dims, nullptr, nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_ga_release(a), ARMADA_GA_ERR_ARG);
  for (int h : {a, b, c, t, i}) EXPECT_EQ(armada_ga_destroy(h), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_destroy(a), ARMADA_GA_ERR_HANDLE);
}

TEST(CApi, GhostsAndComplex) {
  const int64_t dims[1] = {12}, width[1] = {2};
  int g = 0;
  ASSERT_EQ(armada_ga_create_ghosts(ARMADA_GA_DCOMPLEX, 1, dims, width, "z", nullptr, &g), ARMADA_GA_OK) << message();
  std::vector<std::complex<double>> v(12);
  for (int i = 0; i < 12; ++i) v[static_cast<std::size_t>(i)] = {double(i), -double(i)};
  const int64_t lo[1] = {0};
  if (rank() == 0) { EXPECT_EQ(armada_ga_put(g, lo, dims, v.data(), nullptr), ARMADA_GA_OK); }
  EXPECT_EQ(armada_ga_update_ghosts(g, 1), ARMADA_GA_OK);
  void* p = nullptr;
  int64_t alo[1], ahi[1], st[1];
  EXPECT_EQ(armada_ga_access_ghosts(g, &p, alo, ahi, st), ARMADA_GA_OK);
  auto* z = static_cast<std::complex<double>*>(p);
  if (z) {
    for (int64_t i = alo[0]; i < ahi[0]; ++i) {
      const int64_t w = (i + 12) % 12;
      EXPECT_EQ(z[i - alo[0]], (std::complex<double>{double(w), -double(w)})) << "ghost at " << i;
    }
  }
  EXPECT_EQ(armada_ga_release_update(g), ARMADA_GA_OK);
  std::complex<double> d;
  EXPECT_EQ(armada_ga_dot(g, g, &d), ARMADA_GA_OK);
  std::complex<double> want = 0;
  for (const auto& x : v) want += x * x;
  EXPECT_EQ(d, want);
  EXPECT_EQ(armada_ga_destroy(g), ARMADA_GA_OK);
}

}  // namespace
