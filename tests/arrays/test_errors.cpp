// Every error path: the exception type, a message naming operation, array, argument and value,
// and nothing moved.
#include <gtest/gtest.h>

#include <limits>
#include <sstream>

#include "test_util.hpp"

namespace armada::arrays::test {
namespace {

using rma::InvalidArgument;
using rma::StateError;

class Errors : public ::testing::Test {
 protected:
  void SetUp() override {
    ArrayOptions o;
    o.name = "A";
    a = GlobalArray<double>::create({6, 8}, o);
    fill(a, 1.0);
  }
  void TearDown() override {
    if (a.valid()) a.destroy();
  }
  /// The array still holds only ones (a failed call moved nothing).
  void expect_untouched() {
    for (double x : a.get({0, 0}, {6, 8})) EXPECT_EQ(x, 1.0) << "a failed call changed the array";
  }
  GlobalArray<double> a;
};

TEST_F(Errors, PatchOutsideTheArray) {
  std::vector<double> buf(100, 5.0);
  expect_error<InvalidArgument>([&] { a.put({0, 0}, {6, 9}, buf.data()); },
                                {"arrays::put", "array 'A'", "'hi' = [6, 9]", "hi[1] = 9 is past dims[1] = 8"});
  expect_error<InvalidArgument>([&] { a.get({-1, 0}, {2, 2}, buf.data()); }, {"arrays::get", "'lo' = [-1, 0]", "negative"});
  expect_error<InvalidArgument>([&] { a.acc({0, 0}, {7, 1}, buf.data(), 2.0); }, {"arrays::acc", "hi[0] = 7"});
  expect_error<InvalidArgument>([&] { static_cast<Array&>(a).acc({0, 0}, {1, 1}, buf.data(), nullptr); }, {"arrays::acc", "'scale' = null"});
  expect_error<InvalidArgument>([&] { (void)a.put_nb({0, 0}, {6, 9}, buf.data()); }, {"arrays::put_nb", "hi[1] = 9"});
  expect_error<InvalidArgument>([&] { a.put_strided({0, 0}, {6, 9}, {1, 2}, buf.data()); }, {"arrays::put_strided", "hi[1]"});
  expect_error<InvalidArgument>([&] { a.locate_region({0, 0}, {9, 1}); }, {"arrays::locate_region", "hi[0] = 9"});
  expect_error<InvalidArgument>([&] { a.locate({6, 0}); }, {"arrays::locate", "'index' = [6, 0]", "outside [0, 6)"});
  a.sync();
  expect_untouched();
}

TEST_F(Errors, LoAboveHi) {
  std::vector<double> buf(100, 5.0);
  expect_error<InvalidArgument>([&] { a.put({3, 2}, {2, 4}, buf.data()); },
                                {"arrays::put", "array 'A'", "lo[0] = 3 > hi[0] = 2"});
  expect_error<InvalidArgument>([&] { a.periodic_put({3, 2}, {2, 4}, buf.data()); }, {"arrays::periodic_put", "lo[0] = 3 > hi[0] = 2"});
  a.sync();
  expect_untouched();
}

TEST_F(Errors, WrongIndexCounts) {
  std::vector<double> buf(100, 5.0);
  expect_error<InvalidArgument>([&] { a.put({0}, {2}, buf.data()); }, {"arrays::put", "'lo' = [0]", "needs 2 entries"});
  expect_error<InvalidArgument>([&] { a.put({0, 0}, {2, 2}, buf.data(), {1}); }, {"arrays::put", "'ld' = [1]", "less than the patch extent 2"});
  expect_error<InvalidArgument>([&] { a.put({0, 0}, {2, 2}, buf.data(), {4, 4}); }, {"'ld'", "needs ndim - 1 = 1 entries"});
  expect_error<InvalidArgument>([&] { a.get_strided({0, 0}, {2, 2}, {0, 1}, buf.data()); }, {"arrays::get_strided", "'skip' = [0, 1]"});
  expect_error<InvalidArgument>([&] { a.put({0, 0}, {2, 2}, static_cast<const double*>(nullptr)); }, {"'buf' = null"});
  expect_error<InvalidArgument>([&] { a.periodic_get({0, 0}, {13, 2}, buf.data()); }, {"arrays::periodic_get", "at most twice the array's extent 6"});
  a.sync();
  expect_untouched();
}

TEST_F(Errors, ElementListsAndReadInc) {
  std::vector<double> vals(3, 5.0);
  const std::vector<Coord> bad{{0, 0}, {6, 1}, {1, 1}};
  expect_error<InvalidArgument>([&] { a.scatter(bad, vals.data()); }, {"arrays::scatter", "'subscripts[1]' = [6, 1]", "outside [0, 6)"});
  const std::vector<Coord> twice{{0, 0}, {2, 3}, {2, 3}};
  expect_error<InvalidArgument>([&] { a.scatter(twice, vals.data()); },
                                {"arrays::scatter", "'subscripts[2]' = [2, 3]", "same element as subscripts[1]"});
  expect_error<InvalidArgument>([&] { a.gather(bad, vals.data()); }, {"arrays::gather", "subscripts[1]"});
  expect_error<InvalidArgument>([&] { a.read_inc({0, 0}); }, {"arrays::read_inc", "'array type' = double", "int or long"});
  auto counter = GlobalArray<int>::create({4});
  expect_error<InvalidArgument>([&] { counter.read_inc({4}); }, {"arrays::read_inc", "'index' = [4]"});
  expect_error<InvalidArgument>([&] { counter.read_inc({0}, 1L << 40); }, {"'increment'", "does not fit"});
  counter.destroy();
  a.sync();
  expect_untouched();
}

TEST_F(Errors, WrongType) {
  Array raw = a;
  expect_error<InvalidArgument>([&] { GlobalArray<int> wrong(raw); },
                                {"arrays::GlobalArray", "array 'A' (double", "'element type' = int", "holds double"});
  auto f = GlobalArray<float>::create({6, 8});
  expect_error<InvalidArgument>([&] { copy(a, reinterpret_cast<GlobalArray<double>&>(f)); },
                                {"arrays::copy_patch", "'type' = float", "differs from array 'A'"});
  f.destroy();
  expect_error<InvalidArgument>([&] { Array::create(static_cast<ElemType>(9), {3}); }, {"arrays::create", "'type' = 9"});
}

TEST_F(Errors, MismatchedShapes) {
  auto b = GlobalArray<double>::create({8, 6});
  expect_error<InvalidArgument>([&] { copy(a, b); }, {"arrays::copy_patch", "extents [8, 6] differ from the extents [6, 8]"});
  expect_error<InvalidArgument>([&] { add(1.0, a, 1.0, b, a); }, {"arrays::add", "differ"});
  expect_error<InvalidArgument>([&] { dot(a, b); }, {"arrays::dot", "differ"});
  expect_error<InvalidArgument>([&] { copy_patch(a, {0, 0}, {2, 3}, b, {0, 0}, {2, 3}, true); },
                                {"arrays::copy_patch(transpose)", "are not the reverse of"});
  auto cube = GlobalArray<double>::create({2, 2, 2});
  expect_error<InvalidArgument>([&] { norm1(cube); }, {"arrays::norm1", "3-D"});
  cube.destroy();
  b.destroy();
  expect_untouched();
}

TEST_F(Errors, IntegerDivisionByZeroChangesNothing) {
  auto x = GlobalArray<int>::create({10});
  auto y = GlobalArray<int>::create({10});
  fill(x, 6);
  fill(y, 2);
  if (rma::rank() == 0) { const int z = 0; y.put({7}, {8}, &z); }
  y.sync();
  expect_error<InvalidArgument>([&] { elem_divide(x, y, x); }, {"arrays::elem_divide", "zero divisor"});
  expect_error<InvalidArgument>([&] { reciprocal(y); }, {"arrays::reciprocal", "zero element"});
  for (int v : x.get({0}, {10})) EXPECT_EQ(v, 6);
  x.sync();
  x.destroy();
  y.destroy();
}

TEST_F(Errors, BadCreation) {
  expect_error<InvalidArgument>([] { Array::create(ElemType::Double, {}); }, {"arrays::create", "1 to 7 dimensions, not 0"});
  expect_error<InvalidArgument>([] { Array::create(ElemType::Double, {1, 1, 1, 1, 1, 1, 1, 1}); }, {"not 8"});
  expect_error<InvalidArgument>([] { Array::create(ElemType::Double, {4, 0}); }, {"'dims' = [4, 0]", "dims[1] must be >= 1"});
  ArrayOptions grid;
  grid.grid = {rma::size() + 1, 1};
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {8, 8}, grid); }, {"'grid'", "more blocks than the group has processes"});
  ArrayOptions irr;
  irr.block_starts = {{1, 3}, {0}};
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Int, {8, 8}, irr); }, {"'block_starts[0]' = [1, 3]", "must start with 0"});
  irr.block_starts = {{0}, {0, 5, 2}};
  if (rma::size() >= 3) expect_error<InvalidArgument>([&] { Array::create(ElemType::Int, {8, 8}, irr); }, {"must not decrease"});
  ArrayOptions gh;
  gh.ghosts = {1};
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Int, {8, 8}, gh); }, {"'ghosts' = [1]", "one entry per dimension"});
}

TEST_F(Errors, BadBlockCyclicDistributions) {
  const int P = rma::size();
  expect_error<InvalidArgument>([&] { (void)Distribution::block_cyclic({8, 8}, {0, 2}, P); },
                                {"arrays::create", "'block' = [0, 2]", "must be >= 1"});
  expect_error<InvalidArgument>([&] { (void)Distribution::block_cyclic({8, 8}, {2}, P); },
                                {"'block' = [2]", "one entry per dimension"});
  expect_error<InvalidArgument>([&] { (void)Distribution::block_cyclic({8, 8}, {2, 2}, {P + 1, 1}, P); },
                                {"'proc_grid' = [" + std::to_string(P + 1) + ", 1]", "more processes than the group has"});
  expect_error<InvalidArgument>([&] { (void)Distribution::block_cyclic({8, 8}, {2, 2}, {1, 0}, P); },
                                {"'proc_grid' = [1, 0]", "must be >= 1"});
  expect_error<InvalidArgument>([&] { (void)Distribution::block_cyclic({Index{1} << 20, Index{1} << 20}, {1, 1}, P); },
                                {"'block' = [1, 1]", "more than 2^31 - 1 blocks"});
  ArrayOptions o;
  o.distribution = Distribution::block_cyclic({8, 9}, {2, 2}, P);
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {8, 8}, o); },
                                {"arrays::create", "'distribution'", "was made for dims [8, 9], not [8, 8]"});
  o.distribution = Distribution::block_cyclic({8, 8}, {2, 2}, P + 1);
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {8, 8}, o); },
                                {"'distribution'", "was made for " + std::to_string(P + 1) + " processes"});
  o.distribution = Distribution::block_cyclic({8, 8}, {2, 2}, {1, P}, P, true);
  o.ghosts = {1, 0};
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {8, 8}, o); },
                                {"'ghosts' = [1, 0]", "a block-cyclic array has no ghost cells"});
  // Members passing different layouts: every member fails, naming the argument.
  ArrayOptions differ;
  differ.distribution = last_rank() ? Distribution::block_cyclic({8, 8}, {2, 2}, P)
                                    : Distribution::block_cyclic({8, 8}, {2, 2}, {1, P}, P);
  if (P > 1)
    expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {8, 8}, differ); },
                                  {"arrays::create", "'distribution'", "must be the same on every member"});
  expect_untouched();
}

TEST_F(Errors, SizesThatOverflowAreRejected) {
  // Regression: [2^61+1, 8] doubles once wrapped to a 64-byte segment, and a put then wrote
  // into another array's memory. Every size that overflows 64 bits is an error naming dims.
  constexpr Index big = Index{1} << 61;
  const Index max = std::numeric_limits<Index>::max();
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {big + 1, 8}); },
                                {"arrays::create", "'dims' = [2305843009213693953, 8]", "overflows"});
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {big, 8}); }, {"'dims'", "overflows"});
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Float, {Index{1} << 62, 4}); }, {"'dims'", "overflows"});
  // The element count fits, its size in bytes does not.
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {Index{1} << 60, 4}); },
                                {"'dims' = [1152921504606846976, 4]", "8-byte elements", "overflows a 64-bit byte offset"});
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {max, max}); }, {"'dims'", "overflows"});
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Int, {Index{1} << 31, Index{1} << 31, 4}); }, {"'dims'", "overflows"});
  // Ghosts push a size that fits over the edge.
  ArrayOptions gh;
  gh.ghosts = {0, Index{1} << 60};
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {4, Index{1} << 60}, gh); }, {"'dims'", "ghosts", "overflows"});
  // A grid whose product overflows before it is compared with the group size.
  ArrayOptions grid;
  grid.grid = {Index{1} << 62, 4};
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {8, 8}, grid); }, {"'grid'", "more blocks than the group has processes"});
  // Nothing was created, and the existing array is intact.
  expect_untouched();
}

TEST_F(Errors, CreationFailingOnOneRankFailsEveryRank) {
  // Members passing different arguments: the one whose check fails does not leave the others in
  // the collective allocation; every member throws (regression: a hang).
  ArrayOptions o;
  if (rma::rank() == rma::size() - 1) o.ghosts = {1};
  expect_error<InvalidArgument>([&] { Array::create(ElemType::Double, {8, 8}, o); }, {"arrays::create", "'ghosts'"});
  expect_untouched();
}

TEST_F(Errors, DestroyedAndUnknownHandles) {
  auto b = a.duplicate("B");
  const int id = b.id();
  Array copy_of_b = b;
  b.destroy();
  EXPECT_FALSE(copy_of_b.valid());
  double x;
  expect_error<StateError>([&] { copy_of_b.get({0, 0}, {1, 1}, &x); }, {"arrays::get", "array 'B'", "was destroyed"});
  expect_error<InvalidArgument>([&] { find_array(id, "arrays::test"); }, {"arrays::test", "'array' = " + std::to_string(id), "no live array"});
  expect_error<InvalidArgument>([&] { find_array(987654, "arrays::test"); }, {"'array' = 987654"});
  Array never;
  expect_error<InvalidArgument>([&] { never.ndim(); }, {"arrays::ndim", "'array' = null"});
  expect_error<InvalidArgument>([&] { a.release(); }, {"arrays::release", "no access() is outstanding"});
  expect_error<InvalidArgument>([&] { (void)a.access_block(rma::size()); },
                                {"arrays::access_block", "'rank' = " + std::to_string(rma::size()), "not a member of the array's group"});
  expect_error<InvalidArgument>([&] { a.release(); }, {"arrays::release", "no access() is outstanding"});  // nothing counted
}

// ---- collectives with a bad argument on one member ---------------------------------------------
// Each call below is collective; the last rank passes a bad argument (or one that differs from the
// others'). Every member must throw, naming the operation (regression: the bad rank threw and the
// others waited for ever), and the arrays must be unchanged.

TEST_F(Errors, CollectivesWithOneBadMemberFailOnEveryMember) {
  const Coord bad_hi = last_rank() ? Coord{7, 8} : Coord{6, 8};
  expect_every_rank_fails([&] { fill_patch(a, {0, 0}, bad_hi, 2.0); }, "arrays::fill", "past dims");
  expect_every_rank_fails([&] { scale_patch(a, {0, 0}, bad_hi, 2.0); }, "arrays::scale", "past dims");
  auto b = a.duplicate("B");
  expect_every_rank_fails([&] { copy_patch(a, {0, 0}, bad_hi, b, {0, 0}, {6, 8}); }, "arrays::copy_patch", "past dims");
  expect_every_rank_fails([&] { add_patch(1.0, a, {0, 0}, bad_hi, 1.0, a, {0, 0}, {6, 8}, b, {0, 0}, {6, 8}); },
                          "arrays::add", "past dims");
  expect_every_rank_fails([&] { dot_patch(a, {0, 0}, bad_hi, b, {0, 0}, {6, 8}); }, "arrays::dot", "past dims");
  expect_every_rank_fails([&] { select_max(a, {0, 0}, bad_hi); }, "arrays::select_max", "past dims");
  std::ostringstream out;
  expect_every_rank_fails([&] { print_patch(a, {0, 0}, {1, 1}, out, last_rank() ? 99 : 0); }, "arrays::print_patch",
                          "'root'");
  // An array never created on one member (a null array): every call over the array's group.
  Array none;
  Array& mine = last_rank() ? none : static_cast<Array&>(a);
  expect_every_rank_fails([&] { norm1(mine); }, "arrays::norm1", "'array' = null");
  expect_every_rank_fails([&] { mine.sync_group(); }, "arrays::sync_group", "'array' = null");
  expect_every_rank_fails([&] { mine.update_ghosts(); }, "arrays::update_ghosts", "'array' = null");
  expect_every_rank_fails([&] { mine.duplicate("D"); }, "arrays::duplicate", "'array' = null");
  expect_every_rank_fails([&] { detail::copy_patch(mine, {0, 0}, {6, 8}, b, {0, 0}, {6, 8}, false); },
                          "arrays::copy_patch", "'array' = null");
  expect_every_rank_fails([&] { mine.destroy(); }, "arrays::destroy", "'array' = null");
  ASSERT_TRUE(a.valid());  // the failed destroy destroyed nothing
  b.destroy();
  expect_untouched();
}

// A collective given another array (of the same shape) or another scalar on one member is
// rejected on every member before anything moves (regression: each member wrote its own array,
// half of each, and dot returned a mix), and the next call works.
TEST_F(Errors, CollectivesOnDifferentArraysOrScalarsAreRejected) {
  if (rma::size() == 1) GTEST_SKIP() << "needs two ranks to pass different arguments";
  const bool odd = last_rank();
  auto b = a.duplicate("B");
  fill(b, 1.0);
  auto c = a.duplicate("C");
  fill(c, 1.0);
  GlobalArray<double>& other = odd ? b : a;
  auto expect_mismatch = [&](auto&& call, const char* op, const char* argument) {
    expect_error<InvalidArgument>(call, {op, std::string("'") + argument + "'", "must be the same on every member"});
  };
  expect_mismatch([&] { fill(other, 2.0); }, "arrays::fill", "array");
  expect_mismatch([&] { fill(a, odd ? 3.0 : 2.0); }, "arrays::fill", "value");
  expect_mismatch([&] { scale(a, odd ? 3.0 : 2.0); }, "arrays::scale", "value");
  expect_mismatch([&] { copy(c, other); }, "arrays::copy_patch", "b");
  expect_mismatch([&] { add(1.0, c, 1.0, c, other); }, "arrays::add", "c");
  expect_mismatch([&] { add(odd ? 2.0 : 1.0, c, 1.0, c, b); }, "arrays::add", "alpha");
  expect_mismatch([&] { add(1.0, c, odd ? 2.0 : 1.0, c, b); }, "arrays::add", "beta");
  expect_mismatch([&] { (void)dot(c, other); }, "arrays::dot", "b");
  // Nothing moved, and the arrays still work together.
  for (double x : b.get({0, 0}, {6, 8})) EXPECT_EQ(x, 1.0) << "a rejected call changed B";
  EXPECT_DOUBLE_EQ(dot(a, b), 48.0);
  b.destroy();
  c.destroy();
  expect_untouched();
}

// Members in different collective calls fail together, each naming both calls and the ranks in
// each (regression: MPI_ERR_TRUNCATE at 2 ranks, a silent hang at 3 and 4), and the runtime
// stays usable.
TEST_F(Errors, MembersInDifferentCollectivesFailNamingBothCalls) {
  if (rma::size() == 1) GTEST_SKIP() << "needs two ranks to make different calls";
  const bool odd = last_rank();
  const std::string last = std::to_string(rma::size() - 1);
  auto expect_different_calls = [&](auto&& call, const char* mine, const char* theirs) {
    expect_error<InvalidArgument>(call, {"different collective calls", odd ? mine : theirs, odd ? theirs : mine,
                                         "rank " + last + " in "});
  };
  expect_different_calls([&] { odd ? fill(a, 0.0) : sync(); }, "arrays::fill", "rma::barrier");
  expect_different_calls([&] { odd ? a.sync_group() : (void)norm1(a); }, "arrays::sync_group", "arrays::norm1");
  auto b = a.duplicate("B");
  expect_different_calls([&] { odd ? b.destroy() : sync(); }, "arrays::destroy", "rma::barrier");
  ASSERT_TRUE(b.valid()) << "a rejected destroy destroyed the array";
  b.destroy();
  sync();
  expect_untouched();
}

TEST_F(Errors, CreationArgumentsThatDifferBetweenMembersAreRejected) {
  if (rma::size() == 1) GTEST_SKIP() << "needs two ranks to pass different arguments";
  // Each member would otherwise describe a different array (regression: accepted).
  const bool odd = last_rank();
  auto expect_mismatch = [&](auto&& create, const char* argument) {
    expect_error<InvalidArgument>(create, {"arrays::create", std::string("'") + argument + "'",
                                           "must be the same on every member"});
  };
  expect_mismatch([&] { Array::create(ElemType::Double, odd ? Coord{8, 9} : Coord{8, 8}); }, "dims");
  expect_mismatch([&] { Array::create(odd ? ElemType::Float : ElemType::Double, {8, 8}); }, "type");
  expect_mismatch([&] { Array::create(ElemType::Double, odd ? Coord{8, 8, 1} : Coord{8, 8}); }, "dims");
  ArrayOptions chunked;
  if (odd) chunked.chunk = {4, 4};
  expect_mismatch([&] { Array::create(ElemType::Double, {8, 8}, chunked); }, "chunk");
  // A name may differ (it is only a label).
  ArrayOptions named;
  named.name = "N" + std::to_string(rma::rank());
  Array::create(ElemType::Double, {8, 8}, named).destroy();
  // Patches that differ between members of a collective operation are rejected too.
  expect_error<InvalidArgument>([&] { fill_patch(a, {0, 0}, odd ? Coord{2, 2} : Coord{3, 3}, 5.0); },
                                {"arrays::fill", "'patch'", "must be the same on every member"});
  expect_untouched();
}

}  // namespace
}  // namespace armada::arrays::test
