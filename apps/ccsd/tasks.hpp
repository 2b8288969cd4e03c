// The three terms of the residual as block-sparse matrix products, and their task lists.
//
// Every term is a contraction R[a,b,i,j] += sum A[...] * B[...] written with index letters
// (a-h virtual, i-p occupied), one table row per term. Its letters form three pairs: A's two
// free letters (P, in R's order), the two contracted letters (K) and B's two free letters (Q).
// A block is nonzero only when its two pairs carry the same irrep, so a term is one matrix
// product per irrep g (a "sector"):
//     C_g[P_g, Q_g] += A_g[P_g, K_g] * B_g[K_g, Q_g]
// where P_g lists the tile pairs of P whose irreps multiply to g, each pair a run of rows
// (likewise K_g, Q_g). A tensor block permuted to (first pair, second pair) is the sub-matrix
// of one row pair and one column pair.
//
// Of a term's two operands one is STREAMED: its blocks are fetched with one-sided gets while
// tasks need them, each exactly once per term over all ranks (V in the pp-ladder, W in the
// hh-ladder, X in the ring term; a block the rank owns is read in place). The other is
// REPLICATED: T, the amplitudes, arranged once per run into the sector matrices every rank
// multiplies with (replica.hpp: one copy per node where the store maps its node's memory), as
// production CCSD codes replicate the amplitudes when they fit.
//
// A task is one tile pair of the streamed operand's free letters in one sector: for the
// pp-ladder the pair (a,b), computing R[a,b, every (i,j) of the sector] = sum over the (c,d)
// pairs of V[a,b,c,d] T_g[(c,d), all (i,j)] (the NWChem TCE pattern: one output row block per
// task, looping over its contraction tiles, accumulated into R once). A task walks its
// contraction pairs in chunks (one chunk = the blocks fetched together, see Chunk); every
// chunk is one dgemm into the task's product.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tensor.hpp"

namespace armada::apps::ccsd {

enum class Term { pp_ladder, hh_ladder, ring };
inline constexpr int term_count = 3;

enum class Operand { a, b };

/// perm[d] = the source axis that becomes axis d.
using Perm = std::array<int, 4>;

struct TermSpec {
  Term term;
  const char* name;
  const char* formula;
  TensorId a, b;
  const char* a_indices;   ///< letters of A's four indices, in storage order
  const char* b_indices;
  const char* contracted;  ///< the two summed letters, in the order the k dimension runs
  Operand streamed;        ///< fetched block by block; the other operand is replicated
};
inline constexpr std::array<TermSpec, term_count> term_specs{{
    {Term::pp_ladder, "pp-ladder", "R[a,b,i,j] += V[a,b,c,d] T[c,d,i,j]", TensorId::V, TensorId::T, "abcd", "cdij", "cd", Operand::a},
    {Term::hh_ladder, "hh-ladder", "R[a,b,i,j] += T[a,b,k,l] W[k,l,i,j]", TensorId::T, TensorId::W, "abkl", "klij", "kl", Operand::b},
    {Term::ring, "ring", "R[a,b,i,j] += T[a,c,i,k] X[k,b,c,j]", TensorId::T, TensorId::X, "acik", "kbcj", "ck", Operand::b},
}};
inline const TermSpec& spec_of(Term t) { return term_specs[static_cast<std::size_t>(t)]; }

/// The permutations of a term, derived from its letters.
struct TermLayout {
  Perm a_perm;    ///< A block -> (free, contracted)
  Perm b_perm;    ///< B block -> (contracted, free)
  Perm out_perm;  ///< product (A's free, B's free) -> R order a,b,i,j
  bool a_identity, b_identity, out_identity;
  char a_free[2], b_free[2];  ///< the letters of P and Q
};
TermLayout layout_of(const TermSpec& spec);

/// The tile pairs (x, y) of two index letters whose irreps multiply to one irrep, in
/// lexicographic order; pair p covers rows (or columns) [offset, offset + size) of a sector
/// matrix, its elements ordered x-major.
struct PairSpace {
  struct Pair {
    int first = 0, second = 0;   ///< tile numbers in the two letters' spaces
    std::int64_t offset = 0, size = 0;
  };
  std::vector<Pair> pairs;
  std::int64_t extent = 0;  ///< rows (or columns) of all pairs
};
PairSpace make_pair_space(const OrbitalSpace& x, const OrbitalSpace& y, int irrep);

/// Contraction pairs [first, last) of a task's sector, fetched together and multiplied by one
/// dgemm over k rows [k0, k0 + k) of K_g. A chunk of a B-streamed term stacks its blocks as
/// consecutive rows of one k x n panel and holds up to chunk_elements (at least one block);
/// a chunk of an A-streamed term is one block (side by side, blocks would need a strided copy;
/// they are large: V blocks are m x k with m and k both virtual pairs).
struct Chunk {
  int first = 0, last = 0;
  std::int64_t k0 = 0, k = 0;
};
inline constexpr std::int64_t chunk_elements = std::int64_t{1} << 16;  // 512 kB of doubles

/// Tasks of an A-streamed term a rank takes together and runs side by side, chunk by chunk
/// (scheduler.hpp): tasks of one sector, so the replicated rows of one contraction pair serve
/// this many dgemms in a row while they are in cache, instead of being read again from memory
/// by every task.
inline constexpr int a_streamed_batch = 4;

/// Tasks [first, last) of a term's list, all of one sector: what a schedule hands out at once.
struct Batch {
  int first = 0, last = 0;
};

struct Task {
  int sector = 0;            ///< the irrep g
  int pair = 0;              ///< the streamed operand's free pair: index into P_g (A streamed) or Q_g
  std::int64_t m = 0, n = 0; ///< the task's product C (m x n)
  std::int64_t k = 0;        ///< all of K_g
  std::vector<Chunk> chunks;
  /// Useful floating-point operations (2 m n k).
  double flops() const noexcept { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
};

/// The shape of one chunk's dgemm: C (m x n, ldc) += A (m x k, lda) * B (k x n, ldb).
struct GemmShape {
  std::int64_t m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
};

/// One term's sectors and tasks (the same on every rank).
struct TermPlan {
  Term term = Term::pp_ladder;
  TermLayout layout{};
  std::vector<PairSpace> P, K, Q;  ///< per sector (irrep)
  std::vector<Task> tasks;         ///< largest first (ties in construction order)
  /// The task list cut into batches, in order: runs of consecutive tasks of one sector, up to
  /// a_streamed_batch long when A is streamed, single tasks when B is.
  std::vector<Batch> batches;

  const TermSpec& spec() const { return spec_of(term); }
  bool a_streamed() const { return spec().streamed == Operand::a; }
  /// The streamed operand's free pair space of `sector` (where a task's pair lives).
  const PairSpace& task_pairs(int sector) const { return a_streamed() ? P[static_cast<std::size_t>(sector)] : Q[static_cast<std::size_t>(sector)]; }
  GemmShape gemm_of(const Task& t, const Chunk& c) const;
};

/// The plans of the three terms, indexed by Term.
using TermPlans = std::array<TermPlan, term_count>;

/// Every task of `term`: one per free tile pair of the streamed operand whose sector has a
/// nonzero product. Together the tasks cover every nonzero (output block, contraction tile
/// tuple) pair exactly once.
TermPlan plan_term(const Tensors& tensors, Term term);

/// Maps index letters to tile numbers, to build the tile tuple of a block from pairs.
struct LetterTiles {
  std::array<int, 26> tile{};
  void set(const char* letters, const PairSpace::Pair& p) {
    tile[static_cast<std::size_t>(letters[0] - 'a')] = p.first;
    tile[static_cast<std::size_t>(letters[1] - 'a')] = p.second;
  }
  TileTuple tuple(const char* indices) const {
    TileTuple t{};
    for (std::size_t d = 0; d < 4; ++d) t[d] = tile[static_cast<std::size_t>(indices[d] - 'a')];
    return t;
  }
};

}  // namespace armada::apps::ccsd
