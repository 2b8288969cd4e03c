// The serial pieces of armada-ccsd: spaces and tiles, symmetry-blocked storage, task lists,
// permutations, the serial reference against Eigen's Tensor module, options and memory checks.
#include <gtest/gtest.h>

#include <unsupported/Eigen/CXX11/Tensor>

#include <algorithm>
#include <map>
#include <random>

#include "kernels.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "reference.hpp"
#include "report.hpp"
#include "tasks.hpp"

namespace armada::apps::ccsd {
namespace {

const Settings kSettings[] = {{5, 9, 2, 2}, {6, 10, 3, 4}, {4, 8, 4, 1}, {3, 5, 1, 8}, {7, 13, 5, 4}};

std::string label(const Settings& s) {
  return "o=" + std::to_string(s.occ) + " v=" + std::to_string(s.virt) + " tile=" + std::to_string(s.tile) +
         " irreps=" + std::to_string(s.irreps);
}

TEST(Spaces, TilesCoverTheOrbitalsByIrrepWithinTheTileSize) {
  for (const Settings& s : kSettings)
    for (std::int64_t n : {s.occ, s.virt}) {
      const OrbitalSpace sp = make_space(n, s.irreps, s.tile);
      std::int64_t next = 0;
      int last_irrep = 0;
      std::vector<std::int64_t> per(static_cast<std::size_t>(s.irreps), 0);
      for (const Tile& t : sp.tiles) {
        EXPECT_EQ(t.start, next) << label(s);
        EXPECT_GE(t.size, 1);
        EXPECT_LE(t.size, s.tile);
        EXPECT_GE(t.irrep, last_irrep) << "orbitals are sorted by irrep";
        last_irrep = t.irrep;
        per[static_cast<std::size_t>(t.irrep)] += t.size;
        next += t.size;
      }
      EXPECT_EQ(next, n);
      EXPECT_EQ(per, sp.per_irrep);
    }
  // Uneven shares: the first irrep gets the most.
  EXPECT_EQ(split_among_irreps(96, 4), (std::vector<std::int64_t>{30, 26, 22, 18}));
}

TEST(Storage, StoresExactlyTheSymmetricBlocksContiguously) {
  for (const Settings& s : kSettings) {
    const Problem p(s);
    const Tensors tensors(p);
    double stored_bytes = 0;
    for (const TiledTensor& t : tensors.all) {
      std::int64_t next = 0;
      std::size_t block = 0;
      TileTuple x{};
      for (x[0] = 0; x[0] < t.tiles(0); ++x[0])
        for (x[1] = 0; x[1] < t.tiles(1); ++x[1])
          for (x[2] = 0; x[2] < t.tiles(2); ++x[2])
            for (x[3] = 0; x[3] < t.tiles(3); ++x[3]) {
              int product = 0;
              for (int d = 0; d < 4; ++d) product ^= t.space(d).tiles[static_cast<std::size_t>(x[static_cast<std::size_t>(d)])].irrep;
              if (product != 0) {
                EXPECT_EQ(t.offset(x), -1) << label(s) << " " << t.spec().name << ": a symmetry-zero block is stored";
                continue;
              }
              ASSERT_LT(block, t.blocks().size());
              EXPECT_EQ(t.offset(x), next);
              EXPECT_EQ(t.blocks()[block].tiles, x);
              const Extents e = t.extents(x);
              next += e[0] * e[1] * e[2] * e[3];
              ++block;
            }
      EXPECT_EQ(block, t.blocks().size());
      EXPECT_EQ(next, t.elements());
      stored_bytes += 8.0 * static_cast<double>(t.elements());
      for (int parts : {1, 2, 3, 4, 7}) {
        const auto cut = t.splits(parts);
        ASSERT_EQ(cut.size(), static_cast<std::size_t>(parts) + 1);
        EXPECT_EQ(cut.front(), 0);
        EXPECT_EQ(cut.back(), t.elements());
        for (std::size_t k = 1; k < cut.size(); ++k) {
          EXPECT_LE(cut[k - 1], cut[k]);
          bool aligned = cut[k] == t.elements();
          for (const Block& b : t.blocks()) aligned |= b.offset == cut[k];
          EXPECT_TRUE(aligned) << "split " << cut[k] << " cuts a block";
        }
      }
    }
    // The analytic count of the memory estimate agrees with the blocks actually stored.
    EXPECT_DOUBLE_EQ(estimate_memory(s, 1, false).tensors, stored_bytes) << label(s);
  }
}

TEST(Storage, FillWritesTheFormulaAtEveryStoredElement) {
  const Problem p(Settings{4, 7, 2, 2});
  const TiledTensor X(p, TensorId::X);
  std::vector<double> all(static_cast<std::size_t>(X.elements()), -1.0), part(all.size(), -1.0);
  X.fill(0, X.elements(), all.data());
  const std::int64_t lo = X.elements() / 3, hi = 2 * X.elements() / 3;
  X.fill(lo, hi, part.data());
  for (std::int64_t i = lo; i < hi; ++i) EXPECT_EQ(part[static_cast<std::size_t>(i - lo)], all[static_cast<std::size_t>(i)]);
  for (const Block& b : X.blocks()) {
    const Extents e = X.extents(b.tiles);
    const std::int64_t k = X.space(0).tiles[static_cast<std::size_t>(b.tiles[0])].start + e[0] - 1;
    const std::int64_t bb = X.space(1).tiles[static_cast<std::size_t>(b.tiles[1])].start;
    const std::int64_t c = X.space(2).tiles[static_cast<std::size_t>(b.tiles[2])].start + e[2] - 1;
    const std::int64_t j = X.space(3).tiles[static_cast<std::size_t>(b.tiles[3])].start;
    // The element (last, first, last, first) of the block, row-major.
    const std::int64_t pos = b.offset + (e[0] - 1) * e[1] * e[2] * e[3] + (e[2] - 1) * e[3];
    EXPECT_EQ(all[static_cast<std::size_t>(pos)], element_value(TensorId::X, k, bb, c, j));
  }
}

TEST(Tasks, LayoutsFollowFromTheIndexLetters) {
  const TermLayout ladder = layout_of(spec_of(Term::pp_ladder)), ring = layout_of(spec_of(Term::ring));
  EXPECT_TRUE(ladder.a_identity && ladder.b_identity && ladder.out_identity);
  EXPECT_TRUE(layout_of(spec_of(Term::hh_ladder)).a_identity);
  EXPECT_EQ(ring.a_perm, (Perm{0, 2, 1, 3}));    // T[a,c,i,k] -> (a,i | c,k)
  EXPECT_EQ(ring.b_perm, (Perm{2, 0, 1, 3}));    // X[k,b,c,j] -> (c,k | b,j)
  EXPECT_EQ(ring.out_perm, (Perm{0, 2, 1, 3}));  // (a,i,b,j) -> R[a,b,i,j]
}

/// Tile sizes and irreps of the spaces, by letter.
struct Spaces {
  const Problem& p;
  const std::vector<Tile>& of(char letter) const { return letter >= 'i' ? p.occ.tiles : p.virt.tiles; }
};

// The tasks of each term cover every nonzero (output block, contraction tile pair) of the term,
// found by brute force over all tile tuples, exactly once, with the same useful flops.
TEST(Tasks, CoverEveryNonzeroBlockProductExactlyOnce) {
  for (const Settings& s : kSettings) {
    const Problem p(s);
    const Tensors tensors(p);
    const Spaces sp{p};
    for (const TermSpec& spec : term_specs) {
      const TermPlan plan = plan_term(tensors, spec.term);
      const TermLayout& l = plan.layout;
      // Key: the tile numbers of R's a,b,i,j and the two contracted letters.
      auto key = [&](const LetterTiles& lt) {
        std::int64_t k = 0;
        for (char c : std::string("abij") + spec.contracted) k = k * 64 + lt.tile[static_cast<std::size_t>(c - 'a')];
        return k;
      };
      std::map<std::int64_t, int> covered;
      double flops = 0;
      for (const Task& t : plan.tasks) {
        const auto g = static_cast<std::size_t>(t.sector);
        const auto& others = plan.a_streamed() ? plan.Q[g].pairs : plan.P[g].pairs;
        const PairSpace::Pair own = plan.task_pairs(t.sector).pairs[static_cast<std::size_t>(t.pair)];
        std::int64_t next_k = 0;
        for (const Chunk& c : t.chunks) {
          EXPECT_EQ(c.k0, next_k) << label(s) << " " << spec.name << ": chunks follow each other";
          std::int64_t k = 0;
          for (int x = c.first; x < c.last; ++x) {
            const PairSpace::Pair& kp = plan.K[g].pairs[static_cast<std::size_t>(x)];
            k += kp.size;
            for (const PairSpace::Pair& o : others) {
              LetterTiles lt;
              lt.set(plan.a_streamed() ? l.a_free : l.b_free, own);
              lt.set(plan.a_streamed() ? l.b_free : l.a_free, o);
              lt.set(spec.contracted, kp);
              ++covered[key(lt)];
            }
          }
          EXPECT_EQ(c.k, k);
          if (plan.a_streamed()) {
            EXPECT_EQ(c.last - c.first, 1) << "an A-streamed chunk is one block";
          }
          if (c.last - c.first > 1) {
            EXPECT_LE(c.k * own.size, chunk_elements) << "a chunk holds at most chunk_elements";
          }
          next_k += c.k;
        }
        EXPECT_EQ(next_k, t.k) << "the chunks cover K_g";
        flops += t.flops();
      }
      for (std::size_t i = 1; i < plan.tasks.size(); ++i) EXPECT_GE(plan.tasks[i - 1].flops(), plan.tasks[i].flops()) << "largest first";
      // The batches cut the list, in order, into runs of one sector: as long as allowed while
      // the sector stays the same (up to a_streamed_batch when A is streamed, else 1).
      const int longest = plan.a_streamed() ? a_streamed_batch : 1;
      int next_task = 0;
      for (const Batch& b : plan.batches) {
        EXPECT_EQ(b.first, next_task) << label(s) << " " << spec.name << ": batches follow each other";
        ASSERT_GT(b.last, b.first);
        ASSERT_LE(static_cast<std::size_t>(b.last), plan.tasks.size());
        EXPECT_LE(b.last - b.first, longest) << label(s) << " " << spec.name;
        for (int i = b.first; i < b.last; ++i)
          EXPECT_EQ(plan.tasks[static_cast<std::size_t>(i)].sector, plan.tasks[static_cast<std::size_t>(b.first)].sector);
        const bool cut_short = b.last - b.first < longest && static_cast<std::size_t>(b.last) < plan.tasks.size();
        if (cut_short) {
          EXPECT_NE(plan.tasks[static_cast<std::size_t>(b.last)].sector, plan.tasks[static_cast<std::size_t>(b.first)].sector)
              << label(s) << " " << spec.name << ": a batch ends early only where the sector changes";
        }
        next_task = b.last;
      }
      EXPECT_EQ(static_cast<std::size_t>(next_task), plan.tasks.size()) << "the batches cover the list";
      if (plan.a_streamed() && plan.tasks.size() >= 8) {
        EXPECT_LT(plan.batches.size(), plan.tasks.size()) << label(s) << " " << spec.name << ": some batch holds several tasks";
      }

      // Brute force: every R block, every contraction tile pair, kept when A's and B's blocks are nonzero.
      std::map<std::int64_t, int> want;
      double want_flops = 0;
      const auto& ta = sp.of('a');
      const auto& ti = sp.of('i');
      const auto& c0 = sp.of(spec.contracted[0]);
      const auto& c1 = sp.of(spec.contracted[1]);
      for (const Block& out : tensors[TensorId::R].blocks())
        for (int x = 0; x < static_cast<int>(c0.size()); ++x)
          for (int y = 0; y < static_cast<int>(c1.size()); ++y) {
            LetterTiles lt;
            for (std::size_t d = 0; d < 4; ++d) lt.tile[static_cast<std::size_t>("abij"[d] - 'a')] = out.tiles[d];
            lt.tile[static_cast<std::size_t>(spec.contracted[0] - 'a')] = x;
            lt.tile[static_cast<std::size_t>(spec.contracted[1] - 'a')] = y;
            if (tensors[spec.a].offset(lt.tuple(spec.a_indices)) < 0 || tensors[spec.b].offset(lt.tuple(spec.b_indices)) < 0) continue;
            ++want[key(lt)];
            const auto size = [&](const std::vector<Tile>& t, int n) { return static_cast<double>(t[static_cast<std::size_t>(n)].size); };
            want_flops += 2 * size(ta, out.tiles[0]) * size(ta, out.tiles[1]) * size(ti, out.tiles[2]) * size(ti, out.tiles[3]) *
                          size(c0, x) * size(c1, y);
          }
      EXPECT_EQ(covered, want) << label(s) << " " << spec.name;
      EXPECT_DOUBLE_EQ(flops, want_flops) << label(s) << " " << spec.name;
      EXPECT_GT(flops, 0);
    }
  }
}

// What the task list must move (the combined floor's bytes): each streamed block is fetched once
// per term over all tasks (V, W, X once each) and each R block gets one product per term, so
// the totals are the stored sizes (where every irrep has orbitals); the ranks' round-robin
// shares add up to them.
TEST(Floor, TaskListBytesAreTheStreamedTensorsAndRThreeTimes) {
  for (const Settings& s : kSettings) {
    const Problem p(s);
    const Tensors tensors(p);
    const TermPlans plans = plan_all_terms(tensors);
    const TaskListBytes all = task_list_bytes(plans, 0, 1);
    const auto bytes = [&](TensorId id) { return 8.0 * static_cast<double>(tensors[id].elements()); };
    const double streamed = bytes(TensorId::V) + bytes(TensorId::W) + bytes(TensorId::X);
    if (s.irreps <= s.occ) {  // every irrep has orbitals: every stored block meets a nonzero product
      EXPECT_DOUBLE_EQ(all.gets, streamed) << label(s);
      EXPECT_DOUBLE_EQ(all.accumulates, 3 * bytes(TensorId::R)) << label(s);
    } else {  // some sectors have no product: their blocks are never moved
      EXPECT_LE(all.gets, streamed) << label(s);
      EXPECT_LE(all.accumulates, 3 * bytes(TensorId::R)) << label(s);
    }
    EXPECT_GT(all.gets, 0.0) << label(s);
    for (int ranks : {2, 3, 4}) {
      TaskListBytes sum;
      for (int r = 0; r < ranks; ++r) {
        const TaskListBytes mine = task_list_bytes(plans, r, ranks);
        sum.gets += mine.gets;
        sum.accumulates += mine.accumulates;
      }
      EXPECT_DOUBLE_EQ(sum.gets, all.gets) << label(s) << ", " << ranks << " ranks";
      EXPECT_DOUBLE_EQ(sum.accumulates, all.accumulates) << label(s) << ", " << ranks << " ranks";
    }
  }
}

// Both limits run the same dgemms (the same flops per term); streamed, every chunk's streamed
// operand has its own place, so the limit reads as many bytes as the task list streams.
TEST(Floor, StreamedLimitRunsTheSameDgemms) {
  const Problem p(Settings{6, 11, 3, 4});
  const Tensors tensors(p);
  const TermPlans plans = plan_all_terms(tensors);
  const DgemmRun cached = run_dgemm_limit(plans, false), streamed = run_dgemm_limit(plans, true);
  EXPECT_GT(cached.flops, 0.0);
  EXPECT_DOUBLE_EQ(streamed.flops, cached.flops);
  for (std::size_t t = 0; t < term_count; ++t) EXPECT_DOUBLE_EQ(streamed.term_flops[t], cached.term_flops[t]) << t;
  EXPECT_GT(streamed.seconds, 0.0);
  EXPECT_TRUE(is_limit(Impl::dgemm) && is_limit(Impl::dgemm_streamed) && !is_limit(Impl::armada));
  const char* argv[] = {"armada-ccsd", "--impl", "dgemm-streamed,armada"};
  const Options o = parse_options(3, argv, false);
  ASSERT_EQ(o.impls.size(), 2u);
  EXPECT_EQ(o.impls[0], Impl::dgemm_streamed);
  EXPECT_STREQ(to_string(Impl::dgemm_streamed), "dgemm-streamed");
}

// The combined floor: the limit's time for its flops plus the moves' time at the measured
// bandwidths (gets: 2 bytes per byte at copy, accumulates: 3 at triad).
TEST(Floor, CombinedFloorAddsTheMovesToTheLimitsTime) {
  Summary limit;
  limit.flops = 4e9;
  limit.gflops = 40;  // 0.1 s
  MovesFloor f;
  f.bytes = {1e9, 2e9};
  f.copy_bw = 40e9;   // 2e9 / 40e9 = 0.05 s
  f.triad_bw = 60e9;  // 6e9 / 60e9 = 0.1 s
  EXPECT_DOUBLE_EQ(f.seconds(), 0.15);
  EXPECT_DOUBLE_EQ(f.gflops(limit), 4e9 / 0.25 / 1e9);
  EXPECT_DOUBLE_EQ(MovesFloor{}.seconds(), 0.0);  // not measured: no floor
}

TEST(Kernels, Permute4MovesEveryElementWhereTheLettersSay) {
  const Extents ext{2, 3, 4, 5};
  std::vector<double> src(120), dst(120);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<double>(i);
  for (const Perm& perm : {Perm{0, 2, 1, 3}, Perm{2, 0, 1, 3}, Perm{3, 1, 0, 2}}) {
    permute4(src.data(), ext, perm, dst.data());
    Extents e{};
    for (std::size_t d = 0; d < 4; ++d) e[d] = ext[static_cast<std::size_t>(perm[d])];
    std::int64_t pos = 0;
    std::array<std::int64_t, 4> x{}, s{};
    for (x[0] = 0; x[0] < e[0]; ++x[0])
      for (x[1] = 0; x[1] < e[1]; ++x[1])
        for (x[2] = 0; x[2] < e[2]; ++x[2])
          for (x[3] = 0; x[3] < e[3]; ++x[3], ++pos) {
            for (std::size_t d = 0; d < 4; ++d) s[static_cast<std::size_t>(perm[d])] = x[d];
            EXPECT_EQ(dst[static_cast<std::size_t>(pos)], src[static_cast<std::size_t>(((s[0] * 3 + s[1]) * 4 + s[2]) * 5 + s[3])]);
          }
  }
}

// A block written into a wider matrix and read back through the inverse permutation is the block.
TEST(Kernels, BlockToMatrixAndBackRoundTripsThroughALeadingDimension) {
  const Extents ext{2, 3, 4, 5};
  std::vector<double> src(120), back(120, -1.0);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<double>(i);
  const Perm perm{0, 2, 1, 3}, inverse{0, 2, 1, 3};
  const std::int64_t ld = 4 * 5 + 7, col0 = 3;  // the block's columns start at 3 of 27
  std::vector<double> matrix(static_cast<std::size_t>(2 * 4 * ld), -2.0);
  block_to_matrix(src.data(), ext, perm, matrix.data() + col0, ld);
  // Row (x0, x2), column (x1, x3) of the matrix is src[x0][x1][x2][x3].
  for (std::int64_t x0 = 0; x0 < 2; ++x0)
    for (std::int64_t x1 = 0; x1 < 3; ++x1)
      for (std::int64_t x2 = 0; x2 < 4; ++x2)
        for (std::int64_t x3 = 0; x3 < 5; ++x3)
          EXPECT_EQ(matrix[static_cast<std::size_t>((x0 * 4 + x2) * ld + col0 + x1 * 5 + x3)],
                    src[static_cast<std::size_t>(((x0 * 3 + x1) * 4 + x2) * 5 + x3)]);
  EXPECT_EQ(matrix[0], -2.0) << "columns left of the block untouched";
  matrix_to_block(matrix.data() + col0, ld, Extents{2, 4, 3, 5}, inverse, back.data());
  EXPECT_EQ(back, src);
}

// copy4 merges axes that run on into each other on both sides (and drops unit axes): every
// element still lands where its strides say, whatever merges, and nothing else is written.
TEST(Kernels, Copy4WritesEveryElementWhereItsStridesSayWhateverAxesMerge) {
  for (const Extents& ext : {Extents{2, 3, 4, 5}, Extents{2, 1, 3, 4}, Extents{1, 1, 1, 6}, Extents{3, 2, 1, 1}}) {
    const std::int64_t rows = ext[0] * ext[1], cols = ext[2] * ext[3];
    std::vector<double> src(static_cast<std::size_t>(rows * cols));
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<double>(i);
    for (const std::int64_t ld : {cols, cols + 3}) {  // a matrix exactly as wide (one run), or wider
      std::vector<double> dst(static_cast<std::size_t>(rows * ld + 1), -1.0);
      copy4(src.data(), Strides{ext[1] * cols, cols, ext[3], 1}, dst.data(), Strides{ext[1] * ld, ld, ext[3], 1}, ext);
      for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < ld; ++c)
          EXPECT_EQ(dst[static_cast<std::size_t>(r * ld + c)], c < cols ? src[static_cast<std::size_t>(r * cols + c)] : -1.0)
              << "extents " << ext[0] << "x" << ext[1] << "x" << ext[2] << "x" << ext[3] << " ld " << ld << " at " << r << "," << c;
      EXPECT_EQ(dst.back(), -1.0) << "nothing written past the box";
    }
  }
  std::vector<double> untouched{-1.0};
  copy4(nullptr, Strides{}, untouched.data(), Strides{}, Extents{2, 0, 3, 4});  // an empty box reads and writes nothing
  EXPECT_EQ(untouched[0], -1.0);
}

// copy4 moves short runs (an occupied tile: 6-10 elements) in inlined pieces of 4, 2 and 1 and
// long ones with memcpy: every length up to past that switch, each run of a box with a gap.
TEST(Kernels, Copy4CopiesRunsOfEveryLength) {
  for (std::int64_t n = 1; n <= 40; ++n) {
    const Extents ext{1, 2, 3, n};
    const std::int64_t ld = n + 1;  // rows of the destination wider than a run: runs stay runs
    std::vector<double> src(static_cast<std::size_t>(6 * n));
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<double>(i) + 0.5;
    std::vector<double> dst(static_cast<std::size_t>(6 * ld), -1.0);
    copy4(src.data(), Strides{6 * n, 3 * n, n, 1}, dst.data(), Strides{6 * ld, 3 * ld, ld, 1}, ext);
    for (std::int64_t r = 0; r < 6; ++r)
      for (std::int64_t c = 0; c < ld; ++c)
        ASSERT_EQ(dst[static_cast<std::size_t>(r * ld + c)], c < n ? src[static_cast<std::size_t>(r * n + c)] : -1.0)
            << "run length " << n << " at run " << r << ", element " << c;
  }
}

// add4 (a product added into R's block in place): every element of the box gets the source's
// value added, nothing outside it changes; runs of every length, and a box whose innermost
// axis is strided on the source side (a permuted product).
TEST(Kernels, Add4AddsIntoEveryElementOfTheBoxAndNothingElse) {
  for (std::int64_t n = 1; n <= 40; ++n) {
    const std::int64_t ld = n + 1;
    std::vector<double> src(static_cast<std::size_t>(6 * n)), dst(static_cast<std::size_t>(6 * ld));
    for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<double>(i) + 0.5;
    for (std::size_t i = 0; i < dst.size(); ++i) dst[i] = 1000.0 * static_cast<double>(i);
    const std::vector<double> before = dst;
    add4(src.data(), Strides{6 * n, 3 * n, n, 1}, dst.data(), Strides{6 * ld, 3 * ld, ld, 1}, Extents{1, 2, 3, n});
    for (std::int64_t r = 0; r < 6; ++r)
      for (std::int64_t c = 0; c < ld; ++c) {
        const auto at = static_cast<std::size_t>(r * ld + c);
        ASSERT_EQ(dst[at], before[at] + (c < n ? src[static_cast<std::size_t>(r * n + c)] : 0.0))
            << "run length " << n << " at run " << r << ", element " << c;
      }
  }
  // dst[i][j] += src[j][i]: the source walks a column.
  std::vector<double> src(12), dst(12, 2.0);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<double>(i);
  add4(src.data(), Strides{0, 0, 1, 4}, dst.data(), Strides{0, 0, 3, 1}, Extents{1, 1, 4, 3});
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 3; ++j) EXPECT_EQ(dst[i * 3 + j], 2.0 + src[j * 4 + i]) << i << "," << j;
}

// Walking the source instead of the destination changes only the order of the loops: for every
// permutation of a block's axes (the box given in the destination's axis order, as
// block_to_matrix gives it; the innermost contiguous on both sides, or not), copy4 and add4 put
// every element where its strides say, whichever side they walk.
TEST(Kernels, Copy4AndAdd4PutEveryElementInPlaceWhicheverSideTheyWalk) {
  const Extents block{2, 3, 4, 5};
  const Strides block_strides{60, 20, 5, 1};
  std::vector<double> src(120);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<double>(i) + 0.25;
  std::array<std::size_t, 4> perm{0, 1, 2, 3};  // destination axis d is block axis perm[d]
  do {
    Extents ext{};
    Strides src_strides{}, dst_strides{};
    for (std::size_t d = 0; d < 4; ++d) ext[d] = block[perm[d]], src_strides[d] = block_strides[perm[d]];
    dst_strides = Strides{ext[1] * ext[2] * ext[3], ext[2] * ext[3], ext[3], 1};
    for (const Walk walk : {Walk::destination, Walk::source}) {
      std::vector<double> copied(120, -1.0), added(120, 10.0);
      copy4(src.data(), src_strides, copied.data(), dst_strides, ext, walk);
      add4(src.data(), src_strides, added.data(), dst_strides, ext, walk);
      std::array<std::int64_t, 4> x{};
      for (x[0] = 0; x[0] < ext[0]; ++x[0])
        for (x[1] = 0; x[1] < ext[1]; ++x[1])
          for (x[2] = 0; x[2] < ext[2]; ++x[2])
            for (x[3] = 0; x[3] < ext[3]; ++x[3]) {
              std::int64_t from = 0, to = 0;
              for (std::size_t d = 0; d < 4; ++d) from += x[d] * src_strides[d], to += x[d] * dst_strides[d];
              const double v = src[static_cast<std::size_t>(from)];
              ASSERT_EQ(copied[static_cast<std::size_t>(to)], v)
                  << "walk " << static_cast<int>(walk) << " perm " << perm[0] << perm[1] << perm[2] << perm[3];
              ASSERT_EQ(added[static_cast<std::size_t>(to)], 10.0 + v) << "walk " << static_cast<int>(walk);
            }
    }
  } while (std::next_permutation(perm.begin(), perm.end()));
}

// An independent second reference: Eigen's tensor contractions of the same dense inputs.
TEST(Reference, AgreesWithEigenTensorContractions) {
  for (const Settings& s : {Settings{3, 5, 2, 2}, Settings{4, 6, 3, 4}, Settings{2, 4, 1, 1}}) {
    const Problem p(s);
    using T4 = Eigen::Tensor<double, 4, Eigen::RowMajor>;
    auto eigen = [&](TensorId id) {
      const DenseTensor d = dense_input(p, id);
      T4 t(d.ext[0], d.ext[1], d.ext[2], d.ext[3]);
      std::copy(d.v.begin(), d.v.end(), t.data());
      return t;
    };
    const T4 V = eigen(TensorId::V), T = eigen(TensorId::T), W = eigen(TensorId::W), X = eigen(TensorId::X);
    using Pair = Eigen::IndexPair<int>;
    const Eigen::array<Pair, 2> cd{Pair(2, 0), Pair(3, 1)};
    T4 R = V.contract(T, cd) + T.contract(W, cd);
    // ring: sum over c, k of T[a,c,i,k] X[k,b,c,j] -> (a,i,b,j) -> shuffle to (a,b,i,j)
    const Eigen::array<Pair, 2> ck{Pair(1, 2), Pair(3, 0)};
    const Eigen::array<int, 4> to_abij{0, 2, 1, 3};
    T4 ring = T.contract(X, ck).shuffle(to_abij);
    R += ring;
    const DenseTensor want = reference_residual(p);
    ASSERT_EQ(static_cast<std::size_t>(R.size()), want.v.size());
    std::size_t zeros = 0;
    for (std::size_t i = 0; i < want.v.size(); ++i) {
      EXPECT_NEAR(R.data()[i], want.v[i], 1e-12 * std::fabs(want.v[i])) << label(s) << " element " << i;
      zeros += want.v[i] == 0;
    }
    if (s.irreps > 1) {
      EXPECT_GT(zeros, 0u) << "symmetry must zero some elements of R";
    }
  }
}

// ---- bad input -------------------------------------------------------------------------------

std::string parse_error(std::vector<const char*> args, bool ga = true) {
  args.insert(args.begin(), "armada-ccsd");
  try {
    parse_options(static_cast<int>(args.size()), args.data(), ga);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(Options, BadInputIsRefusedWithTheOptionAndValue) {
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "5", "--irreps", "2"}).find("--tile 5: larger than the occupied space"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "8", "--virt", "4", "--tile", "5", "--irreps", "2"}).find("--tile 5: larger than the virtual space"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "2", "--irreps", "0"}).find("--irreps 0: there must be at least one irrep"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "2", "--irreps", "3"}).find("--irreps 3"), std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "0", "--irreps", "1"}).find("--tile 0"), std::string::npos);
  EXPECT_NE(parse_error({"--occ", "x4", "--virt", "8", "--tile", "2", "--irreps", "1"}).find("--occ: 'x4' is not an integer"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "2", "--irreps", "1", "--schedule", "guided"})
                .find("--schedule: unknown value 'guided' (choose from dynamic, static, locality, tce)"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "2", "--irreps", "1", "--bogus"}).find("unknown option '--bogus'"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "2", "--irreps", "1", "--impl", "armada,mpi"})
                .find("--impl: unknown value 'mpi'"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "2", "--irreps", "1", "--impl", "ga"}, false)
                .find("built without Global Arrays"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--virt", "8", "--tile", "2", "--irreps", "1", "--impl", "armada,ga-tce"}, false)
                .find("names ga-tce, but this armada-ccsd was built without Global Arrays"),
            std::string::npos);
  EXPECT_NE(parse_error({"--occ", "4", "--occ", "5"}).find("--occ given twice"), std::string::npos);
  EXPECT_NE(parse_error({"--occ"}).find("--occ needs a value"), std::string::npos);
  EXPECT_NE(parse_error({"--repeats", "0"}).find("--repeats: '0' is not an integer in [1, 1000]"), std::string::npos);
  EXPECT_EQ(parse_error({"--occ", "4", "--virt", "8", "--tile", "2", "--irreps", "4", "--impl", "armada,ga,dgemm", "--check"}), "");
}

// ga-tce runs the TCE schedule whatever --schedule says; the others run the one chosen.
TEST(Options, GaTceAlwaysRunsTheTceSchedule) {
  const char* argv[] = {"armada-ccsd", "--schedule", "locality", "--impl", "armada,ga-tce"};
  const Options o = parse_options(5, argv, true);
  ASSERT_EQ(o.impls.size(), 2u);
  EXPECT_EQ(o.impls[1], Impl::ga_tce);
  EXPECT_EQ(schedule_of(o.impls[0], o.schedule), Schedule::locality);
  EXPECT_EQ(schedule_of(o.impls[1], o.schedule), Schedule::tce);
  EXPECT_STREQ(to_string(Impl::ga_tce), "ga-tce");
  EXPECT_STREQ(to_string(Schedule::tce), "tce");
}

// Options not given take the documented case o = 24, v = 96, tile 16, 4 irreps; without --tile a
// smaller space shrinks the tile to fit it.
TEST(Options, MissingOptionsTakeTheDocumentedCase) {
  const char* none[] = {"armada-ccsd", "--check"};
  const Options d = parse_options(2, none, false);
  EXPECT_EQ(d.settings.occ, 24);
  EXPECT_EQ(d.settings.virt, 96);
  EXPECT_EQ(d.settings.tile, 16);
  EXPECT_EQ(d.settings.irreps, 4);
  EXPECT_TRUE(d.check);
  const char* small[] = {"armada-ccsd", "--occ", "6", "--irreps", "2"};
  const Options s = parse_options(5, small, false);
  EXPECT_EQ(s.settings.occ, 6);
  EXPECT_EQ(s.settings.virt, 96);
  EXPECT_EQ(s.settings.tile, 6);
  EXPECT_EQ(s.settings.irreps, 2);
  EXPECT_NE(parse_error({"--occ", "6", "--tile", "8"}).find("--tile 8: larger than the occupied space"), std::string::npos);
}

// --repeats: the figure is the median repetition's (by time), with the range of the times, and a
// check that failed in any repetition is the one reported (so it fails the launch).
TEST(Repeats, MedianRepetitionWithRangeAndWorstCheck) {
  const auto run = [](double seconds, std::int64_t mismatches) {
    Summary s;
    s.time_s = seconds;
    s.gflops = 1 / seconds;
    s.comparison = Comparison{10, mismatches, 0, mismatches ? "R[0,0,0,0]" : ""};
    return s;
  };
  const Summary m = median_of({run(0.30, 0), run(0.10, 0), run(0.50, 0), run(0.20, 0), run(0.40, 0)});
  EXPECT_EQ(m.repeats, 5);
  EXPECT_DOUBLE_EQ(m.time_s, 0.30);
  EXPECT_DOUBLE_EQ(m.gflops, 1 / 0.30);  // the median repetition's own figures, not a mix
  EXPECT_DOUBLE_EQ(m.time_min_s, 0.10);
  EXPECT_DOUBLE_EQ(m.time_max_s, 0.50);
  EXPECT_TRUE(m.checked());
  const Summary bad = median_of({run(0.2, 0), run(0.9, 3), run(0.1, 0)});
  EXPECT_DOUBLE_EQ(bad.time_s, 0.2);
  EXPECT_FALSE(bad.checked());
  EXPECT_EQ(bad.comparison->mismatches, 3);
  const Summary one = median_of({run(0.25, 0)});
  EXPECT_EQ(one.repeats, 1);
  EXPECT_DOUBLE_EQ(one.time_min_s, 0.25);
  EXPECT_DOUBLE_EQ(one.time_max_s, 0.25);
}

TEST(Memory, EstimateScalesWithTheTensorsAndSymmetry) {
  const MemoryNeed small = estimate_memory(Settings{24, 96, 16, 4}, 2, false);
  const MemoryNeed huge = estimate_memory(Settings{2000, 20000, 50, 1}, 2, false);
  // V alone: v^4 doubles without symmetry.
  EXPECT_GT(huge.tensors, 8.0 * 2e4 * 2e4 * 2e4 * 2e4);
  EXPECT_GT(huge.per_rank, huge.tensors / 2);
  EXPECT_LT(small.tensors, 8.0 * (96.0 * 96 * 96 * 96 + 4 * 96.0 * 96 * 24 * 24 + 24.0 * 24 * 24 * 24) / 2);
  EXPECT_NE(huge.breakdown.find("V "), std::string::npos);
  EXPECT_EQ(estimate_memory(Settings{24, 96, 16, 4}, 2, true).reference > 8.0 * 96 * 96 * 96 * 96, true);
  EXPECT_EQ(human_bytes(1.5e9), "1.5 GB");
}

}  // namespace
}  // namespace armada::apps::ccsd
