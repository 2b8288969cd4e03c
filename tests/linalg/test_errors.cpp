// Every error path: InvalidArgument naming the operation, the argument and the value, raised on
// every rank before any data moves (each test then checks that the arrays are unchanged), and
// the numerical errors naming the failing pivot or minor with every array unchanged.
#include <cstdlib>

#include "linalg_test_util.hpp"

namespace armada::linalg::test {
namespace {

using arrays::Array;
using rma::InvalidArgument;

struct Fixture {
  std::mt19937_64 rng{8};
  std::vector<double> va = random_matrix<double>(rng, 6 * 4), vb = random_matrix<double>(rng, 4 * 5),
                      vc = random_matrix<double>(rng, 6 * 5);
  GlobalArray<double> a = make_matrix(Dist::regular, 6, 4, va);
  GlobalArray<double> b = make_matrix(Dist::irregular, 4, 5, vb);
  GlobalArray<double> c = make_matrix(Dist::empty_owner, 6, 5, vc);
  void expect_unchanged() {
    EXPECT_EQ(read_all(a), va);
    EXPECT_EQ(read_all(b), vb);
    EXPECT_EQ(read_all(c), vc);
  }
  ~Fixture() {
    a.destroy();
    b.destroy();
    c.destroy();
  }
};

// The argument InvalidArgument names, checked beside the message fragments.
template <class F>
void expect_invalid(F&& f, const std::string& argument, std::initializer_list<std::string> fragments) {
  try {
    f();
    ADD_FAILURE() << "expected InvalidArgument for '" << argument << "'";
  } catch (const InvalidArgument& e) {
    EXPECT_EQ(e.argument(), argument) << e.what();
    const std::string what = e.what();
    for (const auto& frag : fragments) EXPECT_NE(what.find(frag), std::string::npos) << what << " lacks " << frag;
  }
}

TEST(LinalgErrors, GemmShapesAliasingBoundsOps) {
  Fixture f;
  const double one = 1, zero = 0;
  expect_invalid([&] { gemm(Op::transpose, Op::none, 1.0, f.a, f.b, 0.0, f.c); }, "a",
                 {"linalg::gemm", "op(A) of shape 4 x 6", "row count 4 must match the 6 rows of C of shape 6 x 5"});
  expect_invalid([&] { gemm(Op::none, Op::transpose, 1.0, f.a, f.b, 0.0, f.c); }, "b",
                 {"linalg::gemm", "op(B) of shape 5 x 4"});
  {  // inner dimensions: gemm names itself and the arrays it was given, never a patch
    auto x = make_matrix(Dist::regular, 6, 5, f.vc);
    expect_invalid([&] { gemm(Op::none, Op::none, 1.0, f.a, x, 0.0, f.c); }, "b",
                   {"linalg::gemm", "inner dimensions do not match: op(A) has 4 columns, op(B) has 6 rows",
                    "op(A) of shape 6 x 4"});
    try {
      gemm(Op::none, Op::none, 1.0, f.a, x, 0.0, f.c);
    } catch (const InvalidArgument& e) {
      EXPECT_EQ(std::string(e.what()).find("patch"), std::string::npos) << e.what();
    }
    x.destroy();
  }
  expect_invalid([&] { matmul_patch(Op::none, Op::none, 1.0, f.a, {0, 0}, {6, 3}, f.b, {0, 0}, {4, 5}, 0.0, f.c,
                                    {0, 0}, {6, 5}); },
                 "b", {"linalg::matmul_patch", "op(B patch) of shape 4 x 5", "op(A patch) of shape 6 x 3"});
  expect_invalid([&] { gemm(Op::none, Op::none, 1.0, f.a, f.b, 0.0, f.a); }, "c", {"same array as 'a'"});
  expect_invalid([&] { gemm(Op::none, Op::none, 1.0, f.b, f.b, 0.0, f.b); }, "c", {"same array as 'a'"});
  expect_invalid([&] { gemm(Op::none, Op::none, 1.0, f.a, f.c, 0.0, f.c); }, "c", {"same array as 'b'"});
  expect_invalid([&] { matmul_patch(Op::none, Op::none, 1.0, f.a, {0, 0}, {6, 4}, f.b, {0, 0}, {4, 5}, 0.0, f.c,
                                    {0, 0}, {7, 5}); },
                 "chi", {"[7, 5]", "outside array"});
  expect_invalid([&] { matmul_patch(Op::none, Op::none, 1.0, f.a, {0, -1}, {6, 4}, f.b, {0, 0}, {4, 5}, 0.0, f.c,
                                    {0, 0}, {6, 5}); },
                 "alo", {"[0, -1]"});
  expect_invalid([&] { matmul_patch(Op::none, Op::none, 1.0, f.a, {0, 0}, {6, 4}, f.b, {0, 0, 0}, {4, 5, 1}, 0.0,
                                    f.c, {0, 0}, {6, 5}); },
                 "blo", {"2 entries"});
  expect_invalid([&] { detail::matmul_patch(static_cast<Op>(5), Op::none, &one, f.a, {0, 0}, {6, 4}, f.b, {0, 0},
                                            {4, 5}, &zero, f.c, {0, 0}, {6, 5}); },
                 "op_a", {"5"});
  expect_invalid([&] { detail::matmul_patch(Op::none, Op::none, nullptr, f.a, {0, 0}, {6, 4}, f.b, {0, 0}, {4, 5},
                                            &zero, f.c, {0, 0}, {6, 5}); },
                 "alpha", {"null"});
  f.expect_unchanged();
}

TEST(LinalgErrors, GemmTypesDimensionsGroups) {
  Fixture f;
  const double one = 1, zero = 0;
  auto fa = GlobalArray<float>::create({6, 4});
  expect_invalid([&] { detail::matmul_patch(Op::none, Op::none, &one, fa, {0, 0}, {6, 4}, f.b, {0, 0}, {4, 5},
                                            &zero, f.c, {0, 0}, {6, 5}); },
                 "a", {"of type float", "element type of 'c'"});
  auto ia = GlobalArray<int>::create({6, 4});
  auto ib = GlobalArray<int>::create({4, 5});
  auto ic = GlobalArray<int>::create({6, 5});
  const int ione = 1, izero = 0;
  expect_invalid([&] { detail::matmul_patch(Op::none, Op::none, &ione, ia, {0, 0}, {6, 4}, ib, {0, 0}, {4, 5}, &izero,
                                            ic, {0, 0}, {6, 5}); },
                 "a", {"of type int", "float, double"});
  auto cube = GlobalArray<double>::create({6, 4, 2});
  expect_invalid([&] { detail::matmul_patch(Op::none, Op::none, &one, cube, {0, 0}, {6, 4}, f.b, {0, 0}, {4, 5},
                                            &zero, f.c, {0, 0}, {6, 5}); },
                 "a", {"2-D"});
  // The same ranks, but another group: arrays of one call must share their group.
  std::vector<int> everyone(static_cast<std::size_t>(rma::size()));
  for (int r = 0; r < rma::size(); ++r) everyone[static_cast<std::size_t>(r)] = r;
  const rma::Group other = rma::Group::create(rma::Group::world(), everyone);
  ArrayOptions on_other;
  on_other.group = other;
  auto ga = GlobalArray<double>::create({6, 4}, on_other);
  expect_invalid([&] { gemm(Op::none, Op::none, 1.0, ga, f.b, 0.0, f.c); }, "a", {"group of 'c'"});
  f.expect_unchanged();
  // A destroyed array is a state error.
  ga.destroy();
  EXPECT_THROW(gemm(Op::none, Op::none, 1.0, ga, f.b, 0.0, f.c), rma::StateError);
  for (Array* x : std::initializer_list<Array*>{&fa, &ia, &ib, &ic, &cube}) x->destroy();
  f.expect_unchanged();
}

TEST(LinalgErrors, TransposeSymmetrizeSettings) {
  Fixture f;
  expect_invalid([&] { transpose(f.a, f.c); }, "b", {"linalg::transpose", "reversed dims"});
  expect_invalid([&] { transpose(f.a, f.a); }, "b", {"same array as 'a'"});
  expect_invalid([&] { symmetrize(f.a); }, "a", {"linalg::symmetrize", "[6, 4]", "square"});
  auto ints = GlobalArray<int>::create({3, 3});
  expect_invalid([&] { detail::conjugate(ints); }, "a", {"linalg::conjugate", "of type int"});
  ints.destroy();
  f.expect_unchanged();
  expect_invalid([&] { set_blas_threads(0); }, "n", {"0"});
  EXPECT_EQ(blas_threads(), 1);  // the default policy: one BLAS thread per rank
}

TEST(LinalgErrors, SolveArguments) {
  Fixture f;
  LINALG_RNG(rng, 9);
  const auto vs = random_matrix<double>(rng, 4 * 4);
  auto sq = make_matrix(Dist::regular, 4, 4, vs);
  expect_invalid([&] { lu_solve(f.a, f.c); }, "a", {"linalg::lu_solve", "square"});
  expect_invalid([&] { lu_solve(sq, f.c); }, "b", {"as many rows as a has (4)"});
  expect_invalid([&] { lu_solve(sq, sq); }, "b", {"same array as 'a'"});
  expect_invalid([&] { cholesky_solve(sq, f.a); }, "b", {"linalg::cholesky_solve", "rows"});
  expect_invalid([&] { (void)eigen_symmetric(sq, f.b); }, "v", {"linalg::eigen_symmetric", "a's dims"});
  expect_invalid([&] { inverse(sq, f.b); }, "inv", {"linalg::inverse"});
  EXPECT_EQ(read_all(sq), vs);
  f.expect_unchanged();
  sq.destroy();
}

// A zero column makes U(3, 3) exactly zero: the error names pivot 3; A and B stay as they were.
TEST(LinalgErrors, SingularMatrixNamesThePivot) {
  LINALG_RNG(rng, 10);
  const Index n = 9;
  auto va = random_matrix<double>(rng, n * n);
  for (Index i = 0; i < n; ++i) va[static_cast<std::size_t>(i * n + 2)] = 0;
  const auto vb = random_matrix<double>(rng, n * 2);
  auto a = make_matrix(Dist::irregular, n, n, va);
  auto b = make_matrix(Dist::regular, n, 2, vb);
  try {
    lu_solve(a, b);
    ADD_FAILURE() << "no SingularMatrix";
  } catch (const SingularMatrix& e) {
    EXPECT_EQ(e.index(), 3);
    EXPECT_EQ(e.kind(), rma::ErrorKind::singular);
    EXPECT_NE(std::string(e.what()).find("pivot 3"), std::string::npos) << e.what();
  }
  EXPECT_EQ(read_all(a), va);
  EXPECT_EQ(read_all(b), vb);
  auto inv = make_matrix(Dist::grid, n, n, va);
  EXPECT_THROW(inverse(a, inv), SingularMatrix);
  EXPECT_EQ(read_all(inv), va);
  a.destroy();
  b.destroy();
  inv.destroy();
}

// A negative diagonal entry at row 5 (one-based) makes the minor of order 5 fail.
TEST(LinalgErrors, NotPositiveDefiniteNamesTheMinor) {
  const Index n = 8;
  const auto va = indefinite_diagonal<double>(n, 4);
  const std::vector<double> vb(static_cast<std::size_t>(n), 1.0);
  auto a = make_matrix(Dist::empty_owner, n, n, va);
  auto b = make_matrix(Dist::regular, n, 1, vb);
  expect_not_positive_definite([&] { cholesky_solve(a, b); }, 5);
  EXPECT_EQ(read_all(a), va);
  EXPECT_EQ(read_all(b), vb);
  a.destroy();
  b.destroy();
}

// ---- collectives with a bad argument on one member (regression: the others hung) -------------
TEST(LinalgErrors, CollectivesWithOneBadMemberFailOnEveryMember) {
  Fixture f;
  LINALG_RNG(rng, 12);
  const auto vs = random_matrix<double>(rng, 6 * 6);
  auto sq = make_matrix(Dist::regular, 6, 6, vs);
  auto rhs = make_matrix(Dist::regular, 6, 5, f.vc);
  // gemm with C aliasing A on one member, and with a patch outside C on one member.
  expect_every_rank_fails([&] { gemm(Op::none, Op::none, 1.0, f.a, f.b, 0.0, last_rank() ? f.a : f.c); },
                          "linalg::gemm", "same array as 'a'");
  const Coord chi = last_rank() ? Coord{7, 5} : Coord{6, 5};
  expect_every_rank_fails([&] { matmul_patch(Op::none, Op::none, 1.0, f.a, {0, 0}, {6, 4}, f.b, {0, 0}, {4, 5}, 0.0,
                                             f.c, {0, 0}, chi); },
                          "linalg::matmul_patch", "outside array");
  // LU and Cholesky with a right-hand side of the wrong height on one member.
  expect_every_rank_fails([&] { lu_solve(sq, last_rank() ? f.b : rhs); }, "linalg::lu_solve", "as many rows");
  expect_every_rank_fails([&] { cholesky_solve(sq, last_rank() ? f.b : rhs); }, "linalg::cholesky_solve",
                          "as many rows");
  auto at = GlobalArray<double>::create({4, 6});
  expect_every_rank_fails([&] { transpose(f.a, last_rank() ? f.c : at); }, "linalg::transpose", "reversed dims");
  at.destroy();
  expect_every_rank_fails([&] { symmetrize(last_rank() ? f.a : sq); }, "linalg::symmetrize", "square");
  EXPECT_EQ(read_all(sq), vs);
  EXPECT_EQ(read_all(rhs), f.vc);
  f.expect_unchanged();
  sq.destroy();
  rhs.destroy();
}

// gemm given another C (of the same shape) or another alpha or beta on one member is rejected
// on every member before anything moves (regression: each member wrote its own C, or its part
// with its own alpha).
TEST(LinalgErrors, GemmWithDifferentArraysOrScalarsOnOneMemberIsRejected) {
  if (rma::size() == 1) GTEST_SKIP() << "needs two ranks to pass different arguments";
  Fixture f;
  auto c2 = arrays::GlobalArray<double>::create({6, 5});
  const bool odd = last_rank();
  auto expect_mismatch = [&](auto&& call, const char* argument) {
    expect_invalid(call, argument, {"linalg::gemm", "must be the same on every member"});
  };
  expect_mismatch([&] { gemm(Op::none, Op::none, 1.0, f.a, f.b, 0.0, odd ? c2 : f.c); }, "c");
  expect_mismatch([&] { gemm(Op::none, Op::none, odd ? 2.0 : 1.0, f.a, f.b, 0.0, f.c); }, "alpha");
  expect_mismatch([&] { gemm(Op::none, Op::none, 1.0, f.a, f.b, odd ? 1.0 : 0.0, f.c); }, "beta");
  f.expect_unchanged();
  for (double x : read_all(c2)) EXPECT_EQ(x, 0.0) << "a rejected gemm wrote the other C";
  c2.destroy();
}

// A 1 x 1 zero matrix is singular like any other (regression: success and inf).
template <class T>
void expect_one_by_one_zero_is_singular() {
  auto a = GlobalArray<T>::create({1, 1});
  auto b = GlobalArray<T>::create({1, 1});
  arrays::fill(b, T(1));
  try {
    lu_solve(a, b);
    ADD_FAILURE() << "no SingularMatrix for a 1 x 1 zero matrix";
  } catch (const SingularMatrix& e) {
    EXPECT_EQ(e.index(), 1);
  }
  EXPECT_EQ(b.get({0, 0}, {1, 1})[0], T(1)) << "b was written";
  auto inv = GlobalArray<T>::create({1, 1});
  EXPECT_THROW(inverse(a, inv), SingularMatrix);
  a.destroy();
  b.destroy();
  inv.destroy();
}

TEST(LinalgErrors, OneByOneZeroMatrixIsSingular) {
  expect_one_by_one_zero_is_singular<double>();
  expect_one_by_one_zero_is_singular<float>();
  expect_one_by_one_zero_is_singular<std::complex<double>>();
}

// NaN or Inf in A or B is reported, naming the element, on every rank (regression: success).
TEST(LinalgErrors, NonFiniteInputIsReported) {
  const Index n = 7;
  LINALG_RNG(rng, 13);
  std::vector<double> va = random_matrix<double>(rng, n * n);
  for (Index i = 0; i < n; ++i) va[static_cast<std::size_t>(i * n + i)] += 2.0 * n;  // well conditioned, SPD after symmetrizing
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < i; ++j) va[static_cast<std::size_t>(i * n + j)] = va[static_cast<std::size_t>(j * n + i)];
  const std::vector<double> vb(static_cast<std::size_t>(n), 1.0);
  for (const double bad : {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
    std::vector<double> vbad = va;
    vbad[static_cast<std::size_t>(4 * n + 2)] = bad;  // element (5, 3), one-based
    auto a = make_matrix(Dist::irregular, n, n, vbad);
    auto b = make_matrix(Dist::regular, n, 1, vb);
    auto v = make_matrix(Dist::regular, n, n, va);
    expect_invalid([&] { lu_solve(a, b); }, "a", {"linalg::lu_solve", "(5, 3)", "not finite"});
    expect_invalid([&] { cholesky_solve(a, b); }, "a", {"linalg::cholesky_solve", "(5, 3)"});
    expect_invalid([&] { (void)eigen_symmetric(a, v); }, "a", {"linalg::eigen_symmetric", "(5, 3)"});
    EXPECT_EQ(read_all(b), vb);
    auto good = make_matrix(Dist::grid, n, n, va);
    auto bb = make_matrix(Dist::regular, n, 1, std::vector<double>(static_cast<std::size_t>(n), bad));
    expect_invalid([&] { lu_solve(good, bb); }, "b", {"linalg::lu_solve", "(1, 1)"});
    for (Array* x : std::initializer_list<Array*>{&a, &b, &v, &good, &bb}) x->destroy();
  }
}

// linalg's settings are rows of rma's form, read and checked by rma's rules: a value outside the
// row's range names the reader, the variable, the value and the range; unset, the defaults.
TEST(LinalgSettings, RowsAreCheckedByRmasRules) {
  const char* name = "ARMADA_LINALG_BLOCK";
  const char* before = std::getenv(name);
  const std::string saved = before ? before : "";
  ::setenv(name, "0", 1);
  expect_invalid([] { (void)rma::read_settings(linalg::settings(), "linalg settings"); }, name,
                 {"linalg settings", "'0'", "[1, 1048576]"});
  ::unsetenv(name);
  const rma::Config defaults = rma::read_settings(linalg::settings(), "linalg settings");
  EXPECT_EQ(defaults.integer(name), 64);
  EXPECT_EQ(defaults.integer("ARMADA_LINALG_BLAS_THREADS"), 1);
  if (before) ::setenv(name, saved.c_str(), 1);
  ASSERT_EQ(linalg::settings().size(), 3u);
}

}  // namespace
}  // namespace armada::linalg::test
