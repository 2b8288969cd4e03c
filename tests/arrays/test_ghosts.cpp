// Ghost updates by direction, with and without corners, nonblocking, and one region at a time:
// every cell of every rank's frame against the value its owner holds (wrapped at the edges when
// periodic, untouched otherwise), on 1-, 2- and 3-D arrays with uneven blocks, ghost widths above
// 1 (some wider than a neighbour's block) and ranks that own nothing; bad arguments fail on every
// rank of the collective. The push form (GhostUpdate::push): the same frames, and repeated updates
// with owners rewriting their blocks and no sync in between never mix one update with the next.
#include <gtest/gtest.h>

#include <chrono>
#include <sstream>
#include <thread>

#include "test_util.hpp"

namespace armada::arrays::detail {
long push_arrivals(const Array& a);  // arrays/src/ghosts.cpp: messages waited for, summed
}  // namespace armada::arrays::detail

namespace armada::arrays::test {
namespace {

constexpr double sentinel = -777;

/// Which side of the block a cell lies on, per dimension (-1 below, 0 inside, +1 above).
std::vector<int> sides(const Coord& g, const Patch& own) {
  std::vector<int> s(static_cast<std::size_t>(g.size()));
  for (int d = 0; d < g.size(); ++d) s[static_cast<std::size_t>(d)] = g[d] < own.lo[d] ? -1 : g[d] >= own.hi[d] ? 1 : 0;
  return s;
}
int outside(const std::vector<int>& s) {
  int n = 0;
  for (int x : s) n += x != 0;
  return n;
}

/// The value every owner writes at global index g (distinct for every index of these arrays).
double owner_value(const Coord& g) {
  double v = 1;
  for (int d = 0; d < g.size(); ++d) v = v * 100 + static_cast<double>(g[d]);
  return v;
}

struct Case {
  std::string label;
  Coord dims;
  ArrayOptions options;
};

/// 1-, 2- and 3-D arrays: uneven irregular blocks (one block of extent 1 under ghosts 3 wide),
/// fewer blocks than ranks, balanced blocks with different widths per dimension.
std::vector<Case> cases() {
  const int p = rma::size();
  std::vector<Case> out;
  {
    Case c{"1-D irregular", {23}, {}};
    const std::vector<Index> starts{0, 1, 4, 10};
    c.options.block_starts = {std::vector<Index>(starts.begin(), starts.begin() + std::min(p, 4))};
    c.options.ghosts = {3};
    out.push_back(c);
  }
  {
    Case c{"1-D two blocks", {9}, {}};
    c.options.grid = {std::min(p, 2)};
    c.options.ghosts = {2};
    out.push_back(c);
  }
  {
    Case c{"2-D irregular", {9, 12}, {}};
    c.options.block_starts = {p >= 2 ? std::vector<Index>{0, 2} : std::vector<Index>{0},
                              p >= 4 ? std::vector<Index>{0, 7} : std::vector<Index>{0}};
    c.options.ghosts = {2, 3};
    out.push_back(c);
  }
  {
    Case c{"3-D balanced", {5, 6, 7}, {}};
    c.options.ghosts = {1, 2, 1};
    out.push_back(c);
  }
  return out;
}

/// An array of `c` whose owners hold owner_value and whose ghost frames hold the sentinel.
GlobalArray<double> make(const Case& c) {
  auto a = GlobalArray<double>::create(c.dims, c.options);
  const LocalView<double> v = a.access_ghosts();
  const Patch own = a.owned();
  Reference<double>::each(v.lo, v.hi, [&](const Coord& g, Index) {
    v[g] = outside(sides(g, own)) ? sentinel : owner_value(g);
  });
  a.release_update();
  a.sync_group();
  return a;
}

/// Sets this rank's frame back to the sentinel (local stores only).
void reset_frame(GlobalArray<double>& a) {
  const LocalView<double> v = a.access_ghosts();
  const Patch own = a.owned();
  Reference<double>::each(v.lo, v.hi, [&](const Coord& g, Index) {
    if (outside(sides(g, own))) v[g] = sentinel;
  });
  a.release_update();
}

/// Checks every cell of this rank's block and frame: the block and the cells `filled(sides)`
/// accepts hold their owner's value (wrapped past an edge when `periodic`, the sentinel past an
/// edge otherwise), every other frame cell the sentinel.
template <class Filled>
void expect_frame(GlobalArray<double>& a, bool periodic, Filled&& filled, const std::string& what, double shift = 0) {
  const Coord dims = a.dims();
  const Patch own = a.owned();
  const LocalView<double> v = a.access_ghosts();
  long bad = 0, checked = 0;
  std::string first;
  Reference<double>::each(v.lo, v.hi, [&](const Coord& g, Index) {
    const std::vector<int> s = sides(g, own);
    double want = sentinel;
    if (outside(s) == 0 || filled(s)) {
      bool past_edge = false;
      Coord w = g;
      for (int d = 0; d < g.size(); ++d) {
        past_edge |= g[d] < 0 || g[d] >= dims[d];
        w[d] = ((g[d] % dims[d]) + dims[d]) % dims[d];
      }
      want = !past_edge ? owner_value(g) + shift : periodic ? owner_value(w) + shift : sentinel;
    }
    ++checked;
    if (v[g] != want && bad++ == 0)
      first = "at " + g.str() + ": " + std::to_string(v[g]) + ", want " + std::to_string(want);
  });
  a.release();
  EXPECT_EQ(bad, 0) << "rank " << rma::rank() << ", " << what << ": " << bad << " of " << checked
                    << " cells wrong, first " << first;
}

/// Runs body(case, array) on an array of every case (see make()), then destroys it.
template <class F>
void on_each_case(F&& body) {
  for (const Case& c : cases()) {
    auto a = make(c);
    body(c, a);
    a.destroy();
  }
}

std::string how_text(const GhostUpdate& how) {
  return std::string(how.periodic ? "periodic" : "not periodic") + (how.corners ? ", corners" : ", no corners") +
         (how.push ? ", push" : "");
}

/// Sets this rank's block to owner_value + shift (local stores only).
void set_block(GlobalArray<double>& a, double shift) {
  const LocalView<double> v = a.access();
  Reference<double>::each(v.lo, v.hi, [&](const Coord& g, Index) { v[g] = owner_value(g) + shift; });
  a.release_update();
}

// access_block of an array with ghost cells: the view starts at the owner's first owned cell
// (past its ghost frame) and steps by its strides, so every cell reads the owner's value.
TEST(AccessBlock, SkipsTheOwnersGhostFrame) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    for (int r = 0; r < rma::size(); ++r) {
      const LocalView<double> v = a.access_block(r);
      if (r == rma::rank()) {
        EXPECT_EQ(v.data != nullptr, !a.owned().empty()) << c.label;
      }
      if (v.data) {
        EXPECT_EQ(v.lo, a.owned(r).lo) << c.label;
        EXPECT_EQ(v.hi, a.owned(r).hi) << c.label;
        Reference<double>::each(v.lo, v.hi, [&](const Coord& g, Index) {
          EXPECT_EQ(v[g], owner_value(g)) << c.label << ", block of rank " << r << " at " << g.str();
        });
      }
      a.release();
    }
    a.sync_group();
  });
}

TEST(GhostDir, EveryDirectionWithAndWithoutCorners) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    for (bool periodic : {false, true})
      for (bool corners : {false, true})
        for (int dim = 0; dim < a.ndim(); ++dim)
          for (int dir : {-1, 1}) {
            const GhostUpdate how{periodic, corners};
            reset_frame(a);
            a.update_ghost_dir(dim, dir, how);
            expect_frame(a, periodic,
                         [&](const std::vector<int>& s) {
                           return s[static_cast<std::size_t>(dim)] == dir && (corners || outside(s) == 1);
                         },
                         c.label + ", dimension " + std::to_string(dim) + ", direction " + std::to_string(dir) +
                             ", " + how_text(how));
          }
  });
}

// GA's documented equivalence: every side of every dimension, with corners in all dimensions
// but the last, fills what update_ghosts fills.
TEST(GhostDir, SidesOfEveryDimensionMakeAWholeUpdate) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    for (bool periodic : {false, true}) {
      reset_frame(a);
      for (int dim = 0; dim < a.ndim(); ++dim)
        for (int dir : {-1, 1}) a.update_ghost_dir(dim, dir, {periodic, dim + 1 < a.ndim()});
      expect_frame(a, periodic, [](const std::vector<int>&) { return true; }, c.label + " by directions");
      reset_frame(a);
      a.update_ghosts(periodic);
      expect_frame(a, periodic, [](const std::vector<int>&) { return true; }, c.label + " update_ghosts");
    }
  });
}

TEST(GhostDir, WholeUpdateWithoutCornersFillsTheFacesOnly) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    for (bool periodic : {false, true}) {
      reset_frame(a);
      a.update_ghosts(GhostUpdate{periodic, false});
      expect_frame(a, periodic, [](const std::vector<int>& s) { return outside(s) == 1; },
                   c.label + " faces only, " + (periodic ? "periodic" : "not periodic"));
    }
  });
}

TEST(GhostNb, UpdateWithLocalWorkInBetween) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    auto b = GlobalArray<double>::create(c.dims, c.options);
    for (bool corners : {true, false}) {
      reset_frame(a);
      NbHandle h = a.update_ghosts_nb({true, corners});
      // Allowed in between: read the own block, write another array's block.
      const LocalView<double> va = a.access();
      const LocalView<double> vb = b.access();
      double sum = 0, want = 0;
      Reference<double>::each(va.lo, va.hi, [&](const Coord& g, Index) {
        vb[g] = 2 * va[g];
        sum += va[g];
        want += owner_value(g);
      });
      b.release_update();
      a.release();
      EXPECT_EQ(sum, want);
      h.wait();
      EXPECT_TRUE(h.test());
      expect_frame(a, true, [&](const std::vector<int>& s) { return corners || outside(s) == 1; },
                   c.label + " nonblocking" + (corners ? "" : ", no corners"));
      a.sync_group();  // every member's copies are taken: blocks may change again
    }
    b.destroy();
  });
}

/// Every mask of {-1, 0, 1}^n (all zeros: the block itself, nothing to fill).
std::vector<Coord> masks(int n) {
  std::vector<Coord> out;
  int total = 1;
  for (int d = 0; d < n; ++d) total *= 3;
  for (int r = 0; r < total; ++r) {
    Coord m = Coord::filled(n, 0);
    for (int d = n - 1, code = r; d >= 0; --d, code /= 3) m[d] = code % 3 - 1;
    out.push_back(m);
  }
  return out;
}

TEST(GhostNb, OneRegionAtATime) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    for (bool periodic : {false, true})
      for (const Coord& m : masks(a.ndim())) {
        reset_frame(a);  // local: the region get below is not collective
        NbHandle h = a.get_ghost_dir_nb(m, periodic);
        h.wait();
        expect_frame(a, periodic,
                     [&](const std::vector<int>& s) {
                       for (int d = 0; d < m.size(); ++d)
                         if (s[static_cast<std::size_t>(d)] != m[d]) return false;
                       return true;
                     },
                     c.label + " region " + m.str() + (periodic ? " periodic" : ""));
      }
  });
}

// The push form fills what the pull form fills, for every case, periodic or not, with and
// without corners; the frame is reset with local stores between updates and no sync at all:
// a neighbour's next push must wait for this rank's "ready".
TEST(GhostPush, WholeUpdateEveryCase) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    for (bool periodic : {false, true})
      for (bool corners : {true, false}) {
        const GhostUpdate how{periodic, corners, true};
        reset_frame(a);
        a.update_ghosts(how);
        expect_frame(a, periodic, [&](const std::vector<int>& s) { return corners || outside(s) == 1; },
                     c.label + ", " + how_text(how));
      }
    a.sync_group();
  });
}

TEST(GhostPush, EveryDirection) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    for (bool periodic : {false, true})
      for (int dim = 0; dim < a.ndim(); ++dim)
        for (int dir : {-1, 1}) {
          const GhostUpdate how{periodic, dim % 2 == 0, true};
          reset_frame(a);
          a.update_ghost_dir(dim, dir, how);
          expect_frame(a, periodic,
                       [&](const std::vector<int>& s) {
                         return s[static_cast<std::size_t>(dim)] == dir && (how.corners || outside(s) == 1);
                       },
                       c.label + ", dimension " + std::to_string(dim) + ", direction " + std::to_string(dir) + ", " +
                           how_text(how));
        }
    a.sync_group();
  });
}

// Update k must bring the blocks' k-th values, never k+1's nor k-1's: every owner rewrites its
// block right after each update (no sync), ranks lag each other by varying sleeps, and the
// updates alternate whole frames and single directions (different neighbours each time, so an
// owner often has nothing for a neighbour that it did write last time).
TEST(GhostPush, RepeatedUpdatesNeverMixUp) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    const int me = rma::rank();
    for (int k = 1; k <= 36; ++k) {
      const double shift = 1e8 * k;
      // A lagging rank resets its frame after the sleep: a neighbour's put that came too early
      // (before this rank's ready) is wiped out, and the update then finds the sentinel.
      if ((k + me) % 3 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1 + (k * 7 + me) % 4));
      set_block(a, shift);
      reset_frame(a);
      const bool periodic = k % 4 < 2;
      const std::string what = c.label + ", update " + std::to_string(k);
      if (k % 3 != 0) {  // single directions: neighbours with nothing to send this time
        const int dim = (k / 2) % a.ndim(), dir = k % 2 == 0 ? -1 : 1;
        a.update_ghost_dir(dim, dir, {periodic, true, true});
        expect_frame(a, periodic, [&](const std::vector<int>& s) { return s[static_cast<std::size_t>(dim)] == dir; },
                     what + " (dimension " + std::to_string(dim) + ", direction " + std::to_string(dir) + ")", shift);
      } else {
        a.update_ghosts({periodic, k % 4 != 1, true});
        expect_frame(a, periodic, [&](const std::vector<int>& s) { return k % 4 != 1 || outside(s) == 1; }, what, shift);
      }
    }
    a.sync_group();
  });
}

// Push and pull updates mix on one array: each fills the frame completely.
TEST(GhostPush, MixesWithThePullForm) {
  on_each_case([](const Case& c, GlobalArray<double>& a) {
    for (int k = 1; k <= 4; ++k) {
      const GhostUpdate how{true, true, k % 2 == 1};
      set_block(a, k);
      if (!how.push) a.sync_group();  // the pull form reads other blocks: they must be final
      reset_frame(a);
      a.update_ghosts(how);
      expect_frame(a, true, [](const std::vector<int>&) { return true; }, c.label + ", " + how_text(how), k);
    }
    a.sync_group();
  });
}

// Across nodes a neighbour's face, edges and corners travel as one message (a message costs a
// trip over the link); on a node each of the 9 pieces is its own put. Blocks split along
// dimension 0 only: each rank's frame takes 8 pieces of its own block (the wraps of dimensions 1
// and 2) and 9 on each side of dimension 0 from the neighbour there.
TEST(GhostPush, OneMessagePerFaceAcrossNodes) {
  const int p = rma::size(), me = rma::rank();
  ArrayOptions o;
  o.name = "slabs";
  o.ghosts = {1, 1, 1};
  o.block_starts = {{}, {0}, {0}};
  for (int r = 0; r < p; ++r) o.block_starts[0].push_back(2 * r);
  auto a = GlobalArray<double>::create({2 * p, 5, 6}, o);
  set_block(a, 0);
  a.sync_group();
  const long before = detail::push_arrivals(a);
  a.update_ghosts({true, true, true});
  long want = 8;
  for (int side : {-1, 1}) {
    const int neighbour = (me + side + p) % p;
    want += neighbour == me || rma::same_node(me, neighbour) ? 9 : 1;
  }
  EXPECT_EQ(detail::push_arrivals(a) - before, want) << "rank " << me << " of " << p;
  expect_frame(a, true, [](const std::vector<int>&) { return true; }, "slabs", 0);
  a.sync_group();
  a.destroy();
}

TEST(GhostErrors, BadArgumentsFailOnEveryRank) {
  ArrayOptions o;
  o.name = "G";
  o.ghosts = {1, 2};
  auto a = GlobalArray<double>::create({6, 8}, o);
  const bool bad = last_rank();
  expect_every_rank_fails([&] { a.update_ghost_dir(bad ? 2 : 0, 1); }, "arrays::update_ghost_dir", "'dimension' = 2");
  expect_every_rank_fails([&] { a.update_ghost_dir(bad ? -1 : 0, 1); }, "arrays::update_ghost_dir", "'dimension' = -1");
  expect_every_rank_fails([&] { a.update_ghost_dir(0, bad ? 0 : 1); }, "arrays::update_ghost_dir", "'direction' = 0");
  expect_every_rank_fails([&] { a.update_ghost_dir(1, bad ? 2 : -1); }, "arrays::update_ghost_dir", "'direction' = 2");
  // A null array on one member: every member fails (nobody waits for it).
  GlobalArray<double> none;
  GlobalArray<double>& mine = bad ? none : a;
  expect_every_rank_fails([&] { mine.update_ghost_dir(0, 1); }, "arrays::update_ghost_dir", "'array' = null");
  expect_every_rank_fails([&] { (void)mine.update_ghosts_nb(); }, "arrays::update_ghosts_nb", "'array' = null");
  // The push form has no nonblocking variant; its own checks fail on every member that calls.
  expect_every_rank_fails([&] { (void)a.update_ghosts_nb({true, true, bad}); }, "arrays::update_ghosts_nb",
                          "'how.push' = true");
  expect_error<rma::InvalidArgument>([&] { a.update_ghost_dir(2, 1, {true, true, true}); },
                                     {"arrays::update_ghost_dir", "'dimension' = 2"});
  expect_error<rma::InvalidArgument>([&] { a.update_ghost_dir(0, 0, {false, true, true}); },
                                     {"arrays::update_ghost_dir", "'direction' = 0"});
  if (rma::size() > 1) {
    // Valid arguments that differ between members.
    expect_error<rma::InvalidArgument>([&] { a.update_ghost_dir(bad ? 1 : 0, 1); },
                                       {"arrays::update_ghost_dir", "'dimension'", "must be the same on every member"});
    expect_error<rma::InvalidArgument>([&] { a.update_ghost_dir(0, bad ? -1 : 1); },
                                       {"arrays::update_ghost_dir", "'direction'", "must be the same on every member"});
    expect_error<rma::InvalidArgument>([&] { a.update_ghosts(GhostUpdate{true, !bad}); },
                                       {"arrays::update_ghosts", "'how'", "must be the same on every member"});
    expect_error<rma::InvalidArgument>([&] { (void)a.update_ghosts_nb({bad, true}); },
                                       {"arrays::update_ghosts_nb", "'how'", "must be the same on every member"});
  }
  // Not collective: this rank alone fails, naming the mask.
  expect_error<rma::InvalidArgument>([&] { (void)a.get_ghost_dir_nb({2, 0}); },
                                     {"arrays::get_ghost_dir_nb", "'mask' = [2, 0]", "-1"});
  expect_error<rma::InvalidArgument>([&] { (void)a.get_ghost_dir_nb({1}); },
                                     {"arrays::get_ghost_dir_nb", "'mask' = [1]", "one entry per dimension"});
  // An array without ghost cells (on every member: each names the array).
  ArrayOptions plain;
  plain.name = "P";
  auto p = GlobalArray<double>::create({6, 8}, plain);
  expect_error<rma::InvalidArgument>([&] { p.update_ghost_dir(0, 1); },
                                     {"arrays::update_ghost_dir", "'array' = P", "has no ghost cells"});
  expect_error<rma::InvalidArgument>([&] { (void)p.get_ghost_dir_nb({1, 0}); },
                                     {"arrays::get_ghost_dir_nb", "'array' = P", "has no ghost cells"});
  expect_error<rma::InvalidArgument>([&] { p.update_ghost_dir(0, 1, {false, true, true}); },
                                     {"arrays::update_ghost_dir", "'array' = P", "has no ghost cells"});
  // Nothing moved: the array is still usable collectively afterwards.
  fill(a, 3.0);
  a.update_ghosts(true);
  for (double x : a.get({0, 0}, {6, 8})) EXPECT_EQ(x, 3.0);
  p.destroy();
  a.destroy();
}

}  // namespace
}  // namespace armada::arrays::test
