// The C API: handles, every group of functions, error codes and messages.
#include <gtest/gtest.h>

#include <complex>
#include <cstring>
#include <functional>
#include <new>
#include <stdexcept>
#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/arrays/c_api.h"
#include "armada/rma/rma.hpp"
#include "capi_internal.hpp"  // arrays/capi: the API's table of codes and its guard

extern "C" int arrays_capi_c_smoke(int rank);

namespace {

int rank() { return armada::rma::rank(); }
int nranks() { return armada::rma::size(); }
std::string message() { return armada_ga_error_message(); }

// Every error kind has its ARMADA_GA_ERR_* code, from the API's one table, whichever exception
// carries it; the message ends naming the C function.
TEST(CApi, EachErrorKindHasItsCode) {
  namespace rma = armada::rma;
  namespace capi = armada::arrays::capi;
  using K = rma::ErrorKind;
  const std::pair<K, int> expected[] = {
      {K::argument, ARMADA_GA_ERR_ARG},
      {K::handle, ARMADA_GA_ERR_HANDLE},
      {K::type, ARMADA_GA_ERR_TYPE},
      {K::state, ARMADA_GA_ERR_STATE},
      {K::unsupported, ARMADA_GA_ERR_UNSUPPORTED},
      {K::system, ARMADA_GA_ERR_SYSTEM},
      {K::internal, ARMADA_GA_ERR_INTERNAL},
      {K::singular, ARMADA_GA_ERR_INTERNAL},
      {K::not_positive_definite, ARMADA_GA_ERR_INTERNAL},
      {K::no_convergence, ARMADA_GA_ERR_INTERNAL},
  };
  static_assert(std::size(expected) == rma::error_kind_count);
  for (const auto& [kind, code] : expected) {
    EXPECT_EQ(capi::error_codes[kind], code) << rma::to_string(kind);
    EXPECT_EQ(capi::guard("armada_ga_kind_test", [k = kind] { throw rma::Error(k, "op", "failed"); }), code)
        << rma::to_string(kind);
    EXPECT_EQ(message(), "failed (in armada_ga_kind_test)");
  }
  // The classes carry their kinds: no argument names or messages decide the code.
  EXPECT_EQ(capi::guard("f", [] { throw rma::InvalidArgument("op", "array", "7", "why"); }), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(capi::guard("f", [] { throw capi::BadHandle("op", "whatever", "7", "why"); }), ARMADA_GA_ERR_HANDLE);
  EXPECT_EQ(capi::guard("f", [] { throw rma::StateError("op", "m"); }), ARMADA_GA_ERR_STATE);
  EXPECT_EQ(capi::guard("f", [] { throw std::bad_alloc(); }), ARMADA_GA_ERR_SYSTEM);
  EXPECT_EQ(capi::guard("f", [] { throw std::logic_error("x"); }), ARMADA_GA_ERR_INTERNAL);
  EXPECT_EQ(message(), "f: x");
}

TEST(CApi, MessagePrefixIsArmadas) {
  char prefix[32] = "x";
  armada_ga_message_prefix(prefix, sizeof prefix);
  EXPECT_EQ(std::string(prefix), "[rank " + std::to_string(rank()) + "] ");
  EXPECT_EQ(std::string(prefix), armada::rma::message_prefix());
  char small[4];
  armada_ga_message_prefix(small, sizeof small);
  EXPECT_EQ(std::string(small), "[ra");
  armada_ga_message_prefix(nullptr, 8);  // nothing to write to: nothing happens
}

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
  EXPECT_EQ(armada_ga_sync_group(g), ARMADA_GA_OK);
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
  EXPECT_EQ(armada_ga_sync_group(g), ARMADA_GA_OK);
  const long one = 1, two = 2;
  std::vector<long> ones(120, 1);
  EXPECT_EQ(armada_ga_acc(g, lo0, dims, ones.data(), nullptr, &two), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_sync_group(g), ARMADA_GA_OK);
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
  EXPECT_EQ(armada_ga_sync_group(g), ARMADA_GA_OK);
  long old = -1;
  EXPECT_EQ(armada_ga_read_inc(g, subs, one, &old), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_sync_group(g), ARMADA_GA_OK);
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
  EXPECT_EQ(armada_ga_sync_group(424242), ARMADA_GA_ERR_HANDLE);
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


// ---- the Fortran view: one-based, inclusive, column-major --------------------------------------

// A Fortran array A(3, 4) is the C array of dims {4, 3}: A(i, j) is C element [j-1][i-1].
TEST(CApiFortranView, PatchOperationsSeeTheTransposedIndexSpace) {
  const int64_t fdims[2] = {3, 4};
  int g = 0;
  ASSERT_EQ(armada_gaf_create(ARMADA_GA_DOUBLE, 2, fdims, "F", nullptr, &g), ARMADA_GA_OK) << message();
  int64_t cdims[7] = {}, back[7] = {};
  int ndim = 0;
  EXPECT_EQ(armada_ga_inquire(g, nullptr, &ndim, cdims), ARMADA_GA_OK);
  EXPECT_EQ(ndim, 2);
  EXPECT_EQ(cdims[0], 4);
  EXPECT_EQ(cdims[1], 3);
  EXPECT_EQ(armada_gaf_inquire(g, nullptr, nullptr, back), ARMADA_GA_OK);
  EXPECT_EQ(back[0], 3);
  EXPECT_EQ(back[1], 4);
  // Rank 0 puts A(i, j) = 10 i + j through the Fortran view, column-major, over [1:3, 1:4].
  const int64_t flo[2] = {1, 1};
  double colmajor[12];
  for (int j = 1; j <= 4; ++j)
    for (int i = 1; i <= 3; ++i) colmajor[(j - 1) * 3 + (i - 1)] = 10 * i + j;
  if (rank() == 0) { EXPECT_EQ(armada_gaf_put(g, flo, fdims, colmajor, nullptr), ARMADA_GA_OK) << message(); }
  EXPECT_EQ(armada_ga_sync(), ARMADA_GA_OK);
  // The C view reads element [j-1][i-1].
  const int64_t clo[2] = {0, 0}, chi[2] = {4, 3};
  double rowmajor[12];
  EXPECT_EQ(armada_ga_get(g, clo, chi, rowmajor, nullptr), ARMADA_GA_OK);
  for (int j = 1; j <= 4; ++j)
    for (int i = 1; i <= 3; ++i) EXPECT_EQ(rowmajor[(j - 1) * 3 + (i - 1)], 10 * i + j) << i << "," << j;
  // A sub-patch A(2:3, 2:4) into a Fortran buffer with leading dimension 5.
  const int64_t slo[2] = {2, 2}, shi[2] = {3, 4}, ld[1] = {5};
  std::vector<double> sub(15, -1);
  EXPECT_EQ(armada_gaf_get(g, slo, shi, sub.data(), ld), ARMADA_GA_OK) << message();
  for (int j = 2; j <= 4; ++j)
    for (int i = 2; i <= 3; ++i) EXPECT_EQ(sub[static_cast<std::size_t>((j - 2) * 5 + (i - 2))], 10 * i + j);
  // Element lists and inquiry answer in one-based Fortran indices.
  const int64_t subs[4] = {3, 1, 1, 4};  // A(3,1), A(1,4)
  double v[2] = {};
  EXPECT_EQ(armada_gaf_gather(g, 2, subs, v), ARMADA_GA_OK);
  EXPECT_EQ(v[0], 31);
  EXPECT_EQ(v[1], 14);
  int owner_f = -1, owner_c = -2;
  const int64_t cidx[2] = {3, 0};  // the C index of A(1, 4)
  EXPECT_EQ(armada_gaf_locate(g, subs + 2, &owner_f), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_locate(g, cidx, &owner_c), ARMADA_GA_OK);
  EXPECT_EQ(owner_f, owner_c);
  int64_t best[2] = {};
  double top = 0;
  EXPECT_EQ(armada_gaf_select_elem(g, 1, &top, best), ARMADA_GA_OK);
  EXPECT_EQ(top, 34);
  EXPECT_EQ(best[0], 3);
  EXPECT_EQ(best[1], 4);
  // The block of every rank: Fortran bounds are the C bounds reversed, lo + 1, hi inclusive.
  int64_t lo_c[2], hi_c[2], lo_f[2], hi_f[2];
  for (int r = 0; r < nranks(); ++r) {
    ASSERT_EQ(armada_ga_distribution(g, r, lo_c, hi_c), ARMADA_GA_OK);
    ASSERT_EQ(armada_gaf_distribution(g, r, lo_f, hi_f), ARMADA_GA_OK);
    EXPECT_EQ(lo_f[0], lo_c[1] + 1);
    EXPECT_EQ(lo_f[1], lo_c[0] + 1);
    EXPECT_EQ(hi_f[0], hi_c[1]);
    EXPECT_EQ(hi_f[1], hi_c[0]);
  }
  // Local access: strides[0] == 1 in the Fortran view, and the pointer reaches A(lo).
  void* p = nullptr;
  int64_t alo[2], ahi[2], st[2];
  EXPECT_EQ(armada_gaf_access(g, &p, alo, ahi, st), ARMADA_GA_OK);
  if (p) {
    EXPECT_EQ(st[0], 1);
    EXPECT_EQ(*static_cast<double*>(p), 10 * alo[0] + alo[1]);
    const int64_t i = ahi[0], j = ahi[1];  // the last element of the block
    EXPECT_EQ(static_cast<double*>(p)[(i - alo[0]) * st[0] + (j - alo[1]) * st[1]], 10 * i + j);
  }
  EXPECT_EQ(armada_ga_release(g), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_sync(), ARMADA_GA_OK);
  // read_inc on a Fortran-created long array; irregular map given one-based.
  const int64_t ldims[1] = {6}, nblock[1] = {nranks() > 1 ? 2 : 1}, map[2] = {1, 4};
  int counter = 0;
  ASSERT_EQ(armada_gaf_create_irreg(ARMADA_GA_LONG, 1, ldims, "cnt", nblock, map, &counter), ARMADA_GA_OK) << message();
  int64_t dlo[1], dhi[1];
  EXPECT_EQ(armada_gaf_distribution(counter, 0, dlo, dhi), ARMADA_GA_OK);
  EXPECT_EQ(dlo[0], 1);
  EXPECT_EQ(dhi[0], nranks() > 1 ? 3 : 6);
  EXPECT_EQ(armada_ga_zero(counter), ARMADA_GA_OK);
  const int64_t six[1] = {6};
  long old = -1;
  EXPECT_EQ(armada_gaf_read_inc(counter, six, 2, &old), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_sync(), ARMADA_GA_OK);
  const int64_t last[1] = {5};
  long total = 0;
  EXPECT_EQ(armada_ga_gather(counter, 1, last, &total), ARMADA_GA_OK);
  EXPECT_EQ(total, 2L * nranks());
  // Patch errors speak the Fortran view's own terms: the caller's one-based values in Fortran
  // order, the array as Fortran declares it; armada_gaf_check_patch says the same without moving data.
  const int64_t bad_hi[2] = {4, 4};
  EXPECT_EQ(armada_gaf_get(g, flo, bad_hi, sub.data(), nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("armada_gaf_get: argument 'hi' = [4, 4]: array 'F' (real(8), dims [3, 4]): hi(1) = 4 is "
                           "past dims(1) = 3"),
            std::string::npos)
      << message();
  EXPECT_EQ(message().find("C view"), std::string::npos) << message();
  EXPECT_EQ(armada_gaf_check_patch(g, flo, bad_hi, nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("hi(1) = 4 is past dims(1) = 3"), std::string::npos) << message();
  const int64_t fhi[2] = {3, 4}, short_ld[1] = {2};
  EXPECT_EQ(armada_gaf_check_patch(g, flo, fhi, short_ld), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("ld(1) = 2 is less than the patch's extent 3 in dimension 1"), std::string::npos) << message();
  EXPECT_EQ(armada_gaf_check_patch(g, flo, fhi, nullptr), ARMADA_GA_OK) << message();
  const int64_t zero_index[2] = {0, 1};
  EXPECT_EQ(armada_gaf_locate(g, zero_index, &owner_f), ARMADA_GA_ERR_ARG) << "index 0 is below a Fortran lower bound";
  EXPECT_EQ(armada_ga_destroy(counter), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_destroy(g), ARMADA_GA_OK);
}

TEST(CApiFortranView, PatchCollectivesAndCopy) {
  const int64_t fdims[2] = {5, 3};
  int a = 0, b = 0;
  ASSERT_EQ(armada_gaf_create(ARMADA_GA_INT, 2, fdims, "a", nullptr, &a), ARMADA_GA_OK);
  ASSERT_EQ(armada_ga_duplicate(a, "b", &b), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_zero(a), ARMADA_GA_OK);
  const int seven = 7, two = 2, one = 1;
  const int64_t lo[2] = {2, 1}, hi[2] = {4, 2};  // A(2:4, 1:2): 6 elements
  EXPECT_EQ(armada_gaf_fill_patch(a, lo, hi, &seven), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_gaf_scale_patch(a, lo, hi, &two), ARMADA_GA_OK);
  int dot = 0;
  EXPECT_EQ(armada_ga_dot(a, a, &dot), ARMADA_GA_OK);
  EXPECT_EQ(dot, 6 * 14 * 14);
  EXPECT_EQ(armada_ga_fill(b, &one), ARMADA_GA_OK);
  EXPECT_EQ(armada_gaf_dot_patch(a, lo, hi, b, lo, hi, &dot), ARMADA_GA_OK);
  EXPECT_EQ(dot, 6 * 14);
  EXPECT_EQ(armada_gaf_add_patch(&one, a, lo, hi, &two, b, lo, hi, b, lo, hi), ARMADA_GA_OK);  // b = 16 there
  const int64_t el[2] = {4, 2};
  int got = 0;
  EXPECT_EQ(armada_gaf_gather(b, 1, el, &got), ARMADA_GA_OK);
  EXPECT_EQ(got, 16);
  EXPECT_EQ(armada_gaf_zero_patch(b, lo, hi), ARMADA_GA_OK);
  int64_t where[2] = {};
  int low = 1;
  EXPECT_EQ(armada_gaf_select_elem_patch(b, lo, hi, 0, &low, where), ARMADA_GA_OK);
  EXPECT_EQ(low, 0);
  EXPECT_GE(where[0], 2);
  EXPECT_LE(where[0], 4);
  // copy A(2:4, 1:2) to B(1:3, 2:3): same extents.
  const int64_t blo[2] = {1, 2}, bhi[2] = {3, 3};
  EXPECT_EQ(armada_gaf_copy_patch(a, lo, hi, b, blo, bhi, 0), ARMADA_GA_OK) << message();
  const int64_t b33[2] = {3, 3};
  EXPECT_EQ(armada_gaf_gather(b, 1, b33, &got), ARMADA_GA_OK);
  EXPECT_EQ(got, 14);
  EXPECT_EQ(armada_gaf_copy_patch(a, lo, hi, b, blo, lo, 0), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("armada_gaf_copy_patch"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_destroy(b), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_destroy(a), ARMADA_GA_OK);
}

// ---- patch forms of the collective operations (C view) ------------------------------------------

TEST(CApi, PatchFormsOfCollectiveOperations) {
  const int64_t dims[2] = {6, 5};
  int a = 0, b = 0, c = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "a", nullptr, &a), ARMADA_GA_OK);
  ASSERT_EQ(armada_ga_duplicate(a, "b", &b), ARMADA_GA_OK);
  ASSERT_EQ(armada_ga_duplicate(a, "c", &c), ARMADA_GA_OK);
  const double one = 1, two = 2, four = 4, minus = -8;
  for (int h : {a, b, c}) EXPECT_EQ(armada_ga_fill(h, &one), ARMADA_GA_OK);
  const int64_t lo[2] = {1, 1}, hi[2] = {4, 3};  // 3 x 2
  EXPECT_EQ(armada_ga_fill_patch(a, lo, hi, &four), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_add_constant_patch(a, lo, hi, &minus), ARMADA_GA_OK);  // -4
  EXPECT_EQ(armada_ga_abs_patch(a, lo, hi), ARMADA_GA_OK);                   // 4
  EXPECT_EQ(armada_ga_reciprocal_patch(a, lo, hi), ARMADA_GA_OK);            // 0.25
  EXPECT_EQ(armada_ga_scale_patch(a, lo, hi, &two), ARMADA_GA_OK);           // 0.5
  double d = 0;
  EXPECT_EQ(armada_ga_dot_patch(a, lo, hi, b, lo, hi, &d), ARMADA_GA_OK);
  EXPECT_DOUBLE_EQ(d, 6 * 0.5);
  EXPECT_EQ(armada_ga_dot(a, b, &d), ARMADA_GA_OK);
  EXPECT_DOUBLE_EQ(d, 24 * 1 + 6 * 0.5);
  EXPECT_EQ(armada_ga_elem_multiply_patch(a, lo, hi, a, lo, hi, c, lo, hi), ARMADA_GA_OK);  // c = 0.25 there
  EXPECT_EQ(armada_ga_elem_divide_patch(b, lo, hi, c, lo, hi, c, lo, hi), ARMADA_GA_OK);    // 4
  EXPECT_EQ(armada_ga_elem_max_patch(a, lo, hi, c, lo, hi, b, lo, hi), ARMADA_GA_OK);       // b = 4
  EXPECT_EQ(armada_ga_elem_min_patch(a, lo, hi, c, lo, hi, c, lo, hi), ARMADA_GA_OK);       // c = 0.5
  EXPECT_EQ(armada_ga_add_patch(&two, b, lo, hi, &four, c, lo, hi, a, lo, hi), ARMADA_GA_OK);  // a = 10
  double best = 0;
  int64_t where[2] = {};
  EXPECT_EQ(armada_ga_select_elem_patch(a, lo, hi, 1, &best, where), ARMADA_GA_OK);
  EXPECT_EQ(best, 10);
  EXPECT_EQ(where[0], 1);
  EXPECT_EQ(where[1], 1);
  const int64_t outside_lo[2] = {0, 0}, outside_hi[2] = {1, 5};
  EXPECT_EQ(armada_ga_select_elem_patch(a, outside_lo, outside_hi, 1, &best, where), ARMADA_GA_OK);
  EXPECT_EQ(best, 1) << "the patch excludes the 10s";
  EXPECT_EQ(armada_ga_zero_patch(a, lo, hi), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_dot_patch(a, lo, hi, a, lo, hi, &d), ARMADA_GA_OK);
  EXPECT_EQ(d, 0);
  EXPECT_EQ(armada_ga_print(c), ARMADA_GA_OK);
  // Errors: unequal extents, missing scalars, a patch past the array.
  const int64_t wide_hi[2] = {4, 4};
  EXPECT_EQ(armada_ga_dot_patch(a, lo, hi, b, lo, wide_hi, &d), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("(in armada_ga_dot_patch)"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_fill_patch(a, lo, hi, nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'value' = null"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_add_patch(nullptr, a, lo, hi, &two, b, lo, hi, c, lo, hi), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'alpha'"), std::string::npos) << message();
  const int64_t past[2] = {7, 3};
  EXPECT_EQ(armada_ga_scale_patch(a, lo, past, &two), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("hi[0] = 7"), std::string::npos) << message();
  for (int h : {a, b, c}) EXPECT_EQ(armada_ga_destroy(h), ARMADA_GA_OK);
}

TEST(CApi, NonblockingTest) {
  const int64_t dims[1] = {64}, lo[1] = {0};
  int g = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_INT, 1, dims, "nb", nullptr, &g), ARMADA_GA_OK);
  std::vector<int> v(64);
  std::iota(v.begin(), v.end(), 0);
  if (rank() == 0) {
    int req = 0, done = 0;
    EXPECT_EQ(armada_ga_nbput(g, lo, dims, v.data(), nullptr, &req), ARMADA_GA_OK);
    for (int spins = 0; !done && spins < 1000000; ++spins) ASSERT_EQ(armada_ga_nbtest(req, &done), ARMADA_GA_OK);
    EXPECT_EQ(done, 1);
    EXPECT_EQ(armada_ga_nbtest(req, &done), ARMADA_GA_OK) << "a tested request stays valid";
    EXPECT_EQ(armada_ga_nbwait(req), ARMADA_GA_OK);
    EXPECT_EQ(armada_ga_nbtest(req, &done), ARMADA_GA_ERR_HANDLE) << "waited: retired";
    EXPECT_NE(message().find("(in armada_ga_nbtest)"), std::string::npos) << message();
    EXPECT_EQ(armada_ga_nbtest(req, nullptr), ARMADA_GA_ERR_ARG);
  }
  EXPECT_EQ(armada_ga_sync(), ARMADA_GA_OK);
  std::vector<int> got(64);
  EXPECT_EQ(armada_ga_get(g, lo, dims, got.data(), nullptr), ARMADA_GA_OK);
  EXPECT_EQ(got, v);
  EXPECT_EQ(armada_ga_destroy(g), ARMADA_GA_OK);
}

// ---- groups, mutexes, runtime queries --------------------------------------------------------

TEST(CApi, GroupsAndArraysOnThem) {
  // The upper half of the world (everyone when alone).
  std::vector<int> upper;
  for (int r = nranks() / 2; r < nranks(); ++r) upper.push_back(r);
  int g = -1;
  ASSERT_EQ(armada_ga_group_create(ARMADA_GA_GROUP_WORLD, static_cast<int>(upper.size()), upper.data(), &g),
            ARMADA_GA_OK) << message();
  int size = 0, grank = -2, w = -1;
  EXPECT_EQ(armada_ga_group_size(g, &size), ARMADA_GA_OK);
  EXPECT_EQ(size, static_cast<int>(upper.size()));
  EXPECT_EQ(armada_ga_group_rank(g, &grank), ARMADA_GA_OK);
  EXPECT_EQ(grank, rank() >= nranks() / 2 ? rank() - nranks() / 2 : -1);
  EXPECT_EQ(armada_ga_group_world_rank(g, 0, &w), ARMADA_GA_OK);
  EXPECT_EQ(w, nranks() / 2);
  if (grank >= 0) {
    const int64_t dims[2] = {4, 4};
    int a = 0, same = -1;
    ASSERT_EQ(armada_ga_create_full(ARMADA_GA_FLOAT, 2, dims, "upper", nullptr, nullptr, nullptr, nullptr, nullptr, g, &a),
              ARMADA_GA_OK) << message();
    EXPECT_EQ(armada_ga_group(a, &same), ARMADA_GA_OK);
    EXPECT_EQ(same, g) << "the array's group is the group it was created on";
    const float x = 1;
    EXPECT_EQ(armada_ga_fill(a, &x), ARMADA_GA_OK);  // collective over the upper half only
    EXPECT_EQ(armada_ga_group_sync(g), ARMADA_GA_OK);
    int64_t lo[2], hi[2];
    EXPECT_EQ(armada_ga_distribution(a, 0, lo, hi), nranks() / 2 == 0 ? ARMADA_GA_OK : ARMADA_GA_ERR_ARG)
        << "world rank 0 is outside the group unless alone";
    EXPECT_EQ(armada_ga_destroy(a), ARMADA_GA_OK);
  } else {
    EXPECT_EQ(armada_ga_group_sync(g), ARMADA_GA_ERR_ARG) << "not a member";
  }
  int world = -1;
  const int64_t one[1] = {8};
  int whole = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_INT, 1, one, "w", nullptr, &whole), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_group(whole, &world), ARMADA_GA_OK);
  EXPECT_EQ(world, ARMADA_GA_GROUP_WORLD);
  EXPECT_EQ(armada_ga_destroy(whole), ARMADA_GA_OK);
  // Errors.
  const int dup[2] = {0, 0};
  EXPECT_EQ(armada_ga_group_create(ARMADA_GA_GROUP_WORLD, 2, dup, &w), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("(in armada_ga_group_create)"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_group_create(ARMADA_GA_GROUP_WORLD, 0, dup, &w), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'n' = 0"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_group_create(777, 1, dup, &w), ARMADA_GA_ERR_HANDLE);
  EXPECT_NE(message().find("'group' = 777"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_group_world_rank(g, size, &w), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_ga_group_destroy(ARMADA_GA_GROUP_WORLD), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_ga_group_destroy(g), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_group_size(g, &size), ARMADA_GA_ERR_HANDLE);
}


TEST(CApi, MutexesAndRuntimeQueries) {
  int r = -1, n = 0, nodes = 0, node = -1, on_node = 0, first = -1, flag = 0;
  EXPECT_EQ(armada_ga_initialized(&flag), ARMADA_GA_OK);
  EXPECT_EQ(flag, 1);
  EXPECT_EQ(armada_ga_rank(&r), ARMADA_GA_OK);
  EXPECT_EQ(r, rank());
  EXPECT_EQ(armada_ga_size(&n), ARMADA_GA_OK);
  EXPECT_EQ(n, nranks());
  EXPECT_EQ(armada_ga_node_count(&nodes), ARMADA_GA_OK);
  EXPECT_EQ(nodes, armada::rma::node_count());
  EXPECT_EQ(armada_ga_node_of(r, &node), ARMADA_GA_OK);
  EXPECT_EQ(node, armada::rma::node_of(r));
  EXPECT_EQ(armada_ga_node_size(node, &on_node), ARMADA_GA_OK);
  EXPECT_EQ(on_node, static_cast<int>(armada::rma::node_ranks(node).size()));
  EXPECT_EQ(armada_ga_node_rank(node, 0, &first), ARMADA_GA_OK);
  EXPECT_EQ(first, armada::rma::node_ranks(node)[0]);
  // Two mutexes on every rank; everyone increments a counter on rank 0 under mutex 1 of the
  // last rank with a non-atomic get + put.
  int set = 0, count = 0;
  ASSERT_EQ(armada_ga_mutexes_create(2, ARMADA_GA_GROUP_WORLD, &set), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_mutex_count(set, n - 1, &count), ARMADA_GA_OK);
  EXPECT_EQ(count, 2);
  const int64_t dims[1] = {1}, lo[1] = {0};
  int c = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_LONG, 1, dims, "counter", nullptr, &c), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_zero(c), ARMADA_GA_OK);
  for (int i = 0; i < 20; ++i) {
    int got = 0;
    while (!got) ASSERT_EQ(armada_ga_mutex_trylock(set, 1, n - 1, &got), ARMADA_GA_OK);
    long v = 0;
    EXPECT_EQ(armada_ga_get(c, lo, dims, &v, nullptr), ARMADA_GA_OK);
    ++v;
    EXPECT_EQ(armada_ga_put(c, lo, dims, &v, nullptr), ARMADA_GA_OK);
    EXPECT_EQ(armada_ga_mutex_unlock(set, 1, n - 1), ARMADA_GA_OK);
    EXPECT_EQ(armada_ga_mutex_lock(set, 0, 0), ARMADA_GA_OK);
    EXPECT_EQ(armada_ga_mutex_unlock(set, 0, 0), ARMADA_GA_OK);
  }
  EXPECT_EQ(armada_ga_sync(), ARMADA_GA_OK);
  long total = 0;
  EXPECT_EQ(armada_ga_get(c, lo, dims, &total, nullptr), ARMADA_GA_OK);
  EXPECT_EQ(total, 20L * n);
  // Errors.
  EXPECT_EQ(armada_ga_mutex_lock(set, 2, 0), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'mutex' = 2"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_mutex_lock(set, 0, n), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("(in armada_ga_mutex_lock)"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_mutex_unlock(set + 1000, 0, 0), ARMADA_GA_ERR_HANDLE);
  EXPECT_NE(message().find("'mutex set' = "), std::string::npos) << message();
  EXPECT_EQ(armada_ga_mutex_trylock(set, 0, 0, nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_ga_mutexes_create(-1, ARMADA_GA_GROUP_WORLD, &set), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_ga_node_of(n, &node), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'rank' = " + std::to_string(n)), std::string::npos) << message();
  EXPECT_EQ(armada_ga_node_rank(node, on_node, &first), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'i' = "), std::string::npos) << message();
  EXPECT_EQ(armada_ga_node_size(-1, &on_node), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'node' = -1"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_initialize(nullptr, nullptr), ARMADA_GA_OK) << "the runtime runs already: recorded only";
  EXPECT_EQ(armada_ga_initialize(nullptr, nullptr), ARMADA_GA_ERR_STATE);
  EXPECT_NE(message().find("called twice"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_mutexes_destroy(set), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_mutexes_destroy(set), ARMADA_GA_ERR_HANDLE);
  EXPECT_EQ(armada_ga_destroy(c), ARMADA_GA_OK);
}

// Every entry point that takes an array handle refuses an unknown one, naming itself.
TEST(CApi, EveryEntryPointNamesItselfOnABadHandle) {
  const int bad = 987654;
  const int64_t t[7] = {0, 0, 0, 0, 0, 0, 0}, t1[7] = {1, 1, 1, 1, 1, 1, 1};
  int64_t o[7];
  int i = 0;
  long l = 0;
  double d = 0;
  void* p = nullptr;
  const char* s = nullptr;
  const double one = 1;
  const std::vector<std::pair<const char*, std::function<int()>>> calls = {
      {"armada_ga_duplicate", [&] { return armada_ga_duplicate(bad, "x", &i); }},
      {"armada_ga_destroy", [&] { return armada_ga_destroy(bad); }},
      {"armada_ga_inquire", [&] { return armada_ga_inquire(bad, &i, &i, o); }},
      {"armada_gaf_inquire", [&] { return armada_gaf_inquire(bad, &i, &i, o); }},
      {"armada_ga_element_size", [&] { return armada_ga_element_size(bad, o); }},
      {"armada_ga_name", [&] { return armada_ga_name(bad, &s); }},
      {"armada_ga_set_name", [&] { return armada_ga_set_name(bad, "x"); }},
      {"armada_ga_group", [&] { return armada_ga_group(bad, &i); }},
      {"armada_ga_ghosts", [&] { return armada_ga_ghosts(bad, o); }},
      {"armada_gaf_grid", [&] { return armada_gaf_grid(bad, o); }},
      {"armada_ga_distribution", [&] { return armada_ga_distribution(bad, 0, o, o); }},
      {"armada_gaf_locate", [&] { return armada_gaf_locate(bad, t1, &i); }},
      {"armada_ga_locate_region", [&] { return armada_ga_locate_region(bad, t, t1, 0, nullptr, nullptr, nullptr, &i); }},
      {"armada_gaf_get", [&] { return armada_gaf_get(bad, t1, t1, &d, nullptr); }},
      {"armada_ga_put", [&] { return armada_ga_put(bad, t, t1, &d, nullptr); }},
      {"armada_ga_acc", [&] { return armada_ga_acc(bad, t, t1, &d, nullptr, &one); }},
      {"armada_ga_nbget", [&] { return armada_ga_nbget(bad, t, t1, &d, nullptr, &i); }},
      {"armada_gaf_nbacc", [&] { return armada_gaf_nbacc(bad, t1, t1, &d, nullptr, &one, &i); }},
      {"armada_ga_strided_put", [&] { return armada_ga_strided_put(bad, t, t1, t1, &d, nullptr); }},
      {"armada_ga_periodic_acc", [&] { return armada_ga_periodic_acc(bad, t, t1, &d, nullptr, &one); }},
      {"armada_gaf_scatter", [&] { return armada_gaf_scatter(bad, 1, t1, &d); }},
      {"armada_ga_scatter_acc", [&] { return armada_ga_scatter_acc(bad, 1, t, &d, &one); }},
      {"armada_ga_read_inc", [&] { return armada_ga_read_inc(bad, t, 1, &l); }},
      {"armada_gaf_access", [&] { return armada_gaf_access(bad, &p, o, o, o); }},
      {"armada_ga_access_ghosts", [&] { return armada_ga_access_ghosts(bad, &p, o, o, o); }},
      {"armada_ga_release_update", [&] { return armada_ga_release_update(bad); }},
      {"armada_ga_fill", [&] { return armada_ga_fill(bad, &one); }},
      {"armada_ga_zero_patch", [&] { return armada_ga_zero_patch(bad, t, t1); }},
      {"armada_gaf_abs_patch", [&] { return armada_gaf_abs_patch(bad, t1, t1); }},
      {"armada_ga_copy", [&] { return armada_ga_copy(bad, bad); }},
      {"armada_ga_elem_max", [&] { return armada_ga_elem_max(bad, bad, bad); }},
      {"armada_gaf_elem_min_patch", [&] { return armada_gaf_elem_min_patch(bad, t1, t1, bad, t1, t1, bad, t1, t1); }},
      {"armada_ga_dot", [&] { return armada_ga_dot(bad, bad, &d); }},
      {"armada_ga_norm1", [&] { return armada_ga_norm1(bad, &d); }},
      {"armada_ga_select_elem", [&] { return armada_ga_select_elem(bad, 1, &d, o); }},
      {"armada_ga_update_ghosts", [&] { return armada_ga_update_ghosts(bad, 0); }},
      {"armada_ga_sync_group", [&] { return armada_ga_sync_group(bad); }},
      {"armada_ga_print", [&] { return armada_ga_print(bad); }},
      {"armada_gaf_print_patch", [&] { return armada_gaf_print_patch(bad, t1, t1); }},
  };
  for (const auto& [fn, call] : calls) {
    EXPECT_EQ(call(), ARMADA_GA_ERR_HANDLE) << fn;
    EXPECT_NE(message().find("'array' = 987654"), std::string::npos) << fn << ": " << message();
    EXPECT_NE(message().find(std::string("(in ") + fn), std::string::npos) << fn << ": " << message();
  }
  int flag = 1;
  EXPECT_EQ(armada_ga_valid(bad, &flag), ARMADA_GA_OK);
  EXPECT_EQ(flag, 0);
}

// A collective that one rank calls with a bad handle or index fails on every rank with an error
// code (regression: the bad rank returned, the others waited in the collective for ever).
TEST(CApi, CollectiveWithOneBadMemberFailsOnEveryMember) {
  const int64_t dims[2] = {4, 6};
  int g = 0, h = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "g", nullptr, &g), ARMADA_GA_OK) << message();
  ASSERT_EQ(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "h", nullptr, &h), ARMADA_GA_OK) << message();
  const bool last = rank() == nranks() - 1;
  const double two = 2;
  auto expect_failed_everywhere = [&](int rc, const char* fn) {
    EXPECT_NE(rc, ARMADA_GA_OK) << fn << " succeeded on rank " << rank();
    EXPECT_NE(message().find(std::string("(in ") + fn), std::string::npos) << message();
    if (!last) EXPECT_NE(message().find("rank " + std::to_string(nranks() - 1) + " failed"), std::string::npos) << message();
  };
  expect_failed_everywhere(armada_ga_fill(last ? 987654 : g, &two), "armada_ga_fill");
  expect_failed_everywhere(armada_ga_copy(g, last ? 987654 : h), "armada_ga_copy");
  // The Fortran view, one-based: lo = 0 is below the array on the last rank only.
  const int64_t flo_ok[2] = {1, 1}, flo_bad[2] = {0, 1}, fhi[2] = {6, 4};
  expect_failed_everywhere(armada_gaf_fill_patch(g, last ? flo_bad : flo_ok, fhi, &two), "armada_gaf_fill_patch");
  expect_failed_everywhere(armada_ga_destroy(last ? 987654 : h), "armada_ga_destroy");
  const int64_t nblock[2] = {1, 1}, map[2] = {0, 0};
  int irr = 0;
  expect_failed_everywhere(armada_ga_create_irreg(ARMADA_GA_DOUBLE, 2, dims, "i", nblock, last ? nullptr : map, &irr),
                           "armada_ga_create_irreg");
  // Nothing changed, and both arrays still work.
  std::vector<double> v(24, -1);
  const int64_t lo[2] = {0, 0};
  EXPECT_EQ(armada_ga_get(g, lo, dims, v.data(), nullptr), ARMADA_GA_OK) << message();
  for (double x : v) EXPECT_EQ(x, 0.0);
  EXPECT_EQ(armada_ga_destroy(h), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_destroy(g), ARMADA_GA_OK) << message();
}

// One member's bad op (gop) or root (brdcst) fails the call on every member in the same
// agreement, the others naming that rank and its argument (regression: the others waited, then
// met the bad member's next gop, reported "rank 0 passed 2 and rank 1 passed 1" and the next
// call ended in MPI_ERR_TRUNCATE); the next gop and brdcst work.
TEST(CApi, GopAndBrdcstWithOneBadMemberFailOnEveryMemberAndTheNextWork) {
  const bool last = rank() == nranks() - 1;
  const std::string bad = std::to_string(nranks() - 1);
  auto expect_failed_everywhere = [&](int rc, const char* fn, const char* argument) {
    EXPECT_NE(rc, ARMADA_GA_OK) << fn << " succeeded on rank " << rank();
    EXPECT_NE(message().find(std::string("(in ") + fn), std::string::npos) << message();
    EXPECT_NE(message().find(std::string("'") + argument + "'"), std::string::npos) << message();
    if (!last) EXPECT_NE(message().find("rank " + bad + " failed"), std::string::npos) << message();
  };
  double x[2] = {1, 2};
  expect_failed_everywhere(armada_ga_gop(ARMADA_GA_GROUP_WORLD, ARMADA_GA_DOUBLE, x, 2, last ? "avg" : "+"),
                           "armada_ga_gop", "op");
  EXPECT_EQ(x[0], 1.0) << "a failed gop changed its buffer";
  int word = rank() == 0 ? 42 : 0;
  expect_failed_everywhere(armada_ga_brdcst(ARMADA_GA_GROUP_WORLD, &word, sizeof word, last ? nranks() : 0),
                           "armada_ga_brdcst", "root");
  EXPECT_EQ(armada_ga_gop(ARMADA_GA_GROUP_WORLD, ARMADA_GA_DOUBLE, x, 2, "+"), ARMADA_GA_OK) << message();
  EXPECT_EQ(x[0], nranks());
  EXPECT_EQ(x[1], 2.0 * nranks());
  EXPECT_EQ(armada_ga_brdcst(ARMADA_GA_GROUP_WORLD, &word, sizeof word, 0), ARMADA_GA_OK) << message();
  EXPECT_EQ(word, 42);
}

// Members in different collective calls (one zeroes an array, the others sync) fail together,
// naming both C functions and the ranks in each (regression: MPI_ERR_TRUNCATE at 2 ranks, a
// hang at 3 and 4).
TEST(CApi, MembersInDifferentCollectivesFailNamingBothCalls) {
  if (nranks() == 1) GTEST_SKIP() << "needs two ranks to make different calls";
  const int64_t dims[1] = {10};
  int g = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_DOUBLE, 1, dims, "g", nullptr, &g), ARMADA_GA_OK) << message();
  const bool last = rank() == nranks() - 1;
  EXPECT_NE(last ? armada_ga_zero(g) : armada_ga_sync(), ARMADA_GA_OK);
  for (const char* fragment : {"different collective calls", "armada_ga_zero", "armada_ga_sync"})
    EXPECT_NE(message().find(fragment), std::string::npos) << message();
  EXPECT_NE(message().find("rank " + std::to_string(nranks() - 1) + " in armada_ga_zero"), std::string::npos)
      << message();
  EXPECT_EQ(armada_ga_sync(), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_destroy(g), ARMADA_GA_OK) << message();
}

// Destroying a mutex set while one of its mutexes is held is an error naming the mutex, on every
// member (regression: ARMADA_GA_OK); once it is unlocked the set destroys cleanly.
TEST(CApi, MutexSetCannotBeDestroyedWhileAMutexIsHeld) {
  int set = -1;
  ASSERT_EQ(armada_ga_mutexes_create(2, ARMADA_GA_GROUP_WORLD, &set), ARMADA_GA_OK) << message();
  const int holder = nranks() - 1;
  if (rank() == holder) EXPECT_EQ(armada_ga_mutex_lock(set, 1, 0), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_mutexes_destroy(set), ARMADA_GA_ERR_STATE);
  EXPECT_NE(message().find("mutex 1 of rank 0 is held by rank " + std::to_string(holder)), std::string::npos) << message();
  EXPECT_NE(message().find("armada_ga_mutexes_destroy"), std::string::npos) << message();
  if (rank() == holder) EXPECT_EQ(armada_ga_mutex_unlock(set, 1, 0), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_mutexes_destroy(set), ARMADA_GA_OK) << message();
}

// Null output pointers and inconsistent creation arguments are refused before anything happens.
TEST(CApi, NullAndInconsistentArguments) {
  const int64_t dims[2] = {4, 4}, lo[2] = {0, 0};
  int g = 0, flag = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "n", nullptr, &g), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_valid(g, &flag), ARMADA_GA_OK);
  EXPECT_EQ(flag, 1);
  const struct {
    const char* fn;
    const char* arg;
    int code;
  } expected[] = {
      {"armada_ga_create", "handle", armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "x", nullptr, nullptr)},
      {"armada_gaf_create", "dims", armada_gaf_create(ARMADA_GA_DOUBLE, 2, nullptr, "x", nullptr, &flag)},
      {"armada_ga_create_irreg", "nblock", armada_ga_create_irreg(ARMADA_GA_DOUBLE, 2, dims, "x", nullptr, dims, &flag)},
      {"armada_ga_create_ghosts", "width", armada_ga_create_ghosts(ARMADA_GA_DOUBLE, 2, dims, nullptr, "x", nullptr, &flag)},
      {"armada_ga_create_full", "map", armada_ga_create_full(ARMADA_GA_DOUBLE, 2, dims, "x", nullptr, nullptr, dims, nullptr, nullptr, 0, &flag)},
      {"armada_ga_valid", "flag", armada_ga_valid(g, nullptr)},
      {"armada_ga_element_size", "bytes", armada_ga_element_size(g, nullptr)},
      {"armada_ga_set_name", "name", armada_ga_set_name(g, nullptr)},
      {"armada_ga_ghosts", "width", armada_ga_ghosts(g, nullptr)},
      {"armada_gaf_grid", "grid", armada_gaf_grid(g, nullptr)},
      {"armada_gaf_distribution", "lo", armada_gaf_distribution(g, 0, nullptr, nullptr)},
      {"armada_ga_locate_region", "count", armada_ga_locate_region(g, lo, dims, 0, nullptr, nullptr, nullptr, nullptr)},
      {"armada_gaf_get", "lo", armada_gaf_get(g, nullptr, dims, nullptr, nullptr)},
      {"armada_ga_acc", "alpha", armada_ga_acc(g, lo, dims, lo, nullptr, nullptr)},
      {"armada_ga_nbput", "request", armada_ga_nbput(g, lo, dims, lo, nullptr, nullptr)},
      {"armada_gaf_strided_get", "skip", armada_gaf_strided_get(g, dims, dims, nullptr, &flag, nullptr)},
      {"armada_ga_gather", "subscripts", armada_ga_gather(g, 2, nullptr, &flag)},
      {"armada_ga_access", "ptr", armada_ga_access(g, nullptr, nullptr, nullptr, nullptr)},
      {"armada_ga_scale", "alpha", armada_ga_scale(g, nullptr)},
      {"armada_ga_dot_patch", "result", armada_ga_dot_patch(g, lo, dims, g, lo, dims, nullptr)},
      {"armada_gaf_select_elem", "value", armada_gaf_select_elem(g, 1, nullptr, nullptr)},
      {"armada_ga_norm_infinity", "result", armada_ga_norm_infinity(g, nullptr)},
      {"armada_ga_group_rank", "rank", armada_ga_group_rank(ARMADA_GA_GROUP_WORLD, nullptr)},
      {"armada_ga_rank", "rank", armada_ga_rank(nullptr)},
  };
  // Each call above ran in order; check the codes now and one message per kind below.
  for (const auto& e : expected) EXPECT_EQ(e.code, ARMADA_GA_ERR_ARG) << e.fn << " with a null '" << e.arg << "'";
  EXPECT_EQ(armada_ga_rank(nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'rank' = null"), std::string::npos) << message();
  EXPECT_NE(message().find("(in armada_ga_rank)"), std::string::npos) << message();
  EXPECT_EQ(armada_gaf_distribution(g, 0, nullptr, nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'lo' = null"), std::string::npos) << message();
  EXPECT_NE(message().find("(in armada_gaf_distribution"), std::string::npos) << message();
  const int64_t nblock[2] = {1, 0}, map[2] = {0, 0};
  EXPECT_EQ(armada_ga_create_irreg(ARMADA_GA_DOUBLE, 2, dims, "x", nblock, map, &flag), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'nblock' = 0"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_locate_region(g, lo, dims, -1, nullptr, nullptr, nullptr, &flag), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'max' = -1"), std::string::npos) << message();
  // Messages name the function, never the lambda inside it (regression: "operator():").
  EXPECT_EQ(armada_ga_valid(g, nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(message().find("operator()"), std::string::npos) << message();
  EXPECT_NE(message().find("armada_ga_valid"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_duplicate(g, "d", nullptr), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(message().find("operator()"), std::string::npos) << message();
  // A subscript count no memory holds is the argument's error, not an allocator's (regression:
  // "cannot create std::vector larger than max_size()" without operation or argument).
  const double values[1] = {0};
  EXPECT_EQ(armada_ga_scatter(g, INT64_MAX / 4, lo, values), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("armada_ga_scatter"), std::string::npos) << message();
  EXPECT_NE(message().find("'n' = "), std::string::npos) << message();
  EXPECT_NE(message().find("more subscripts than this machine's memory holds"), std::string::npos) << message();
  const int64_t grid[2] = {3, 3};
  EXPECT_EQ(armada_ga_create_full(ARMADA_GA_DOUBLE, 2, dims, "x", grid, nullptr, nullptr, nullptr, nullptr,
                                  ARMADA_GA_GROUP_WORLD, &flag),
            nranks() >= 9 ? ARMADA_GA_OK : ARMADA_GA_ERR_ARG) << "a 3 x 3 grid needs 9 ranks";
  EXPECT_EQ(armada_ga_create_full(ARMADA_GA_DOUBLE, 2, dims, "x", nullptr, nullptr, nullptr, nullptr, nullptr, 4242, &flag),
            ARMADA_GA_ERR_HANDLE);
  EXPECT_NE(message().find("'group' = 4242"), std::string::npos) << message();
  EXPECT_EQ(armada_ga_destroy(g), ARMADA_GA_OK);
}

// ---- synchronization: arrays::sync() is the world's, sync_group() the array's group's ---------

TEST(Sync, GroupSyncWaitsForTheGroupAndGlobalSyncForTheWorld) {
  namespace aa = armada::arrays;
  namespace rma = armada::rma;
  const int n = nranks(), half = std::max(1, n / 2);
  std::vector<int> lower, upper;
  for (int r = 0; r < n; ++r) (r < half ? lower : upper).push_back(r);
  const rma::Group lower_group = rma::Group::create(rma::Group::world(), lower);
  std::optional<rma::Group> upper_group;
  if (!upper.empty()) upper_group = rma::Group::create(rma::Group::world(), upper);
  aa::ArrayOptions o;
  o.group = lower_group.is_member() ? lower_group : *upper_group;
  auto part = aa::GlobalArray<long>::create({8}, o);
  aa::fill(part, 1L);  // collective over this half only
  // Only the lower half synchronizes its group, several times: were sync_group() a barrier of
  // the world, the lower half would wait here for the upper half forever (the test times out).
  if (lower_group.is_member())
    for (int i = 0; i < 3; ++i) part.sync_group();
  // Every rank adds one to a world counter; after the global sync every rank sees all of them.
  auto counter = aa::GlobalArray<long>::create({1});
  aa::zero(counter);
  counter.acc({0}, {1}, std::vector<long>{part.at({7})}.data());
  aa::sync();
  EXPECT_EQ(counter.at({0}), n);
  EXPECT_EQ(armada_ga_sync(), ARMADA_GA_OK);
  counter.destroy();
  part.destroy();
}

}  // namespace

// The functions the Fortran module needs beyond the C++ API's mirror: fences, reductions and
// broadcasts of plain buffers, the Fortran view's matrix norms and patch conversion.
namespace {
TEST(CApi, FencesCollectivesAndFortranHelpers) {
  EXPECT_EQ(armada_ga_fence((rank() + 1) % nranks()), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_fence_all(), ARMADA_GA_OK) << message();
  EXPECT_EQ(armada_ga_fence(nranks()), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("'rank'"), std::string::npos) << message();

  std::vector<int> counts{rank(), 1};
  ASSERT_EQ(armada_ga_gop(ARMADA_GA_GROUP_WORLD, ARMADA_GA_INT, counts.data(), 2, "+"), ARMADA_GA_OK) << message();
  EXPECT_EQ(counts[0], nranks() * (nranks() - 1) / 2);
  EXPECT_EQ(counts[1], nranks());
  double worst = -rank();
  ASSERT_EQ(armada_ga_gop(ARMADA_GA_GROUP_WORLD, ARMADA_GA_DOUBLE, &worst, 1, "absmax"), ARMADA_GA_OK) << message();
  EXPECT_EQ(worst, nranks() - 1);
  std::complex<double> z{1.0, static_cast<double>(rank())};
  ASSERT_EQ(armada_ga_gop(ARMADA_GA_GROUP_WORLD, ARMADA_GA_DCOMPLEX, &z, 1, "+"), ARMADA_GA_OK) << message();
  EXPECT_EQ(z, std::complex<double>(nranks(), nranks() * (nranks() - 1) / 2.0));
  EXPECT_EQ(armada_ga_gop(ARMADA_GA_GROUP_WORLD, ARMADA_GA_DCOMPLEX, &z, 1, "max"), ARMADA_GA_ERR_ARG);
  EXPECT_EQ(armada_ga_gop(ARMADA_GA_GROUP_WORLD, ARMADA_GA_INT, counts.data(), 2, "sum of squares"), ARMADA_GA_ERR_ARG);
  EXPECT_NE(message().find("sum of squares"), std::string::npos) << message();
  float v[3] = {1.0f * rank(), 2.0f * rank(), 3.0f * rank()};
  ASSERT_EQ(armada_ga_brdcst(ARMADA_GA_GROUP_WORLD, v, sizeof v, nranks() - 1), ARMADA_GA_OK) << message();
  EXPECT_EQ(v[2], 3.0f * (nranks() - 1));
  EXPECT_EQ(armada_ga_brdcst(ARMADA_GA_GROUP_WORLD, v, sizeof v, nranks()), ARMADA_GA_ERR_ARG);

  // A 2 x 3 C-view matrix [[1, -2, 3], [4, 5, -6]]: C view 1-norm (largest column sum) 9,
  // infinity norm (largest row sum) 15; the Fortran view sees the transpose.
  const int64_t dims[2] = {2, 3}, lo[2] = {0, 0};
  const double m[6] = {1, -2, 3, 4, 5, -6};
  int g = 0;
  ASSERT_EQ(armada_ga_create(ARMADA_GA_DOUBLE, 2, dims, "norms", nullptr, &g), ARMADA_GA_OK) << message();
  if (rank() == 0) ASSERT_EQ(armada_ga_put(g, lo, dims, m, nullptr), ARMADA_GA_OK) << message();
  ASSERT_EQ(armada_ga_sync(), ARMADA_GA_OK);
  double n1 = 0, ninf = 0, f1 = 0, finf = 0;
  EXPECT_EQ(armada_ga_norm1(g, &n1), ARMADA_GA_OK);
  EXPECT_EQ(armada_ga_norm_infinity(g, &ninf), ARMADA_GA_OK);
  EXPECT_EQ(armada_gaf_norm1(g, &f1), ARMADA_GA_OK);
  EXPECT_EQ(armada_gaf_norm_infinity(g, &finf), ARMADA_GA_OK);
  EXPECT_EQ(n1, 9);
  EXPECT_EQ(ninf, 15);
  EXPECT_EQ(f1, 15);
  EXPECT_EQ(finf, 9);
  EXPECT_EQ(armada_ga_destroy(g), ARMADA_GA_OK);

  // The Fortran patch (2:4, 1:3) is the C view's rows [0, 3) and columns [1, 4).
  const int64_t flo[2] = {2, 1}, fhi[2] = {4, 3};
  int64_t clo[2] = {-1, -1}, chi[2] = {-1, -1};
  ASSERT_EQ(armada_gaf_to_c_patch(2, flo, fhi, clo, chi), ARMADA_GA_OK) << message();
  EXPECT_EQ(clo[0], 0);
  EXPECT_EQ(clo[1], 1);
  EXPECT_EQ(chi[0], 3);
  EXPECT_EQ(chi[1], 4);
  EXPECT_EQ(armada_gaf_to_c_patch(8, flo, fhi, clo, chi), ARMADA_GA_ERR_ARG);
}
}  // namespace
