// The three terms of the residual and their task lists.
//
// Every term is a contraction R[a,b,i,j] += sum A[...] * B[...] written with index letters
// (a-h virtual, i-p occupied), one table row per term. A task is one nonzero pair (output block
// of R, contraction tile tuple): the A block and the B block it reads and the R block it
// updates are all nonzero by symmetry. It runs as one dgemm: A's block permuted to
// (free indices, contracted indices) is the m x k matrix, B's block permuted to (contracted,
// free) the k x n matrix, and the m x n product, permuted back to R's index order, is
// accumulated into R. The permutations follow from the letters; for the ladders they are the
// identity, the ring term needs all three.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "tensor.hpp"

namespace armada::apps::ccsd {

enum class Term { pp_ladder, hh_ladder, ring };
inline constexpr int term_count = 3;

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
};
inline constexpr std::array<TermSpec, term_count> term_specs{{
    {Term::pp_ladder, "pp-ladder", "R[a,b,i,j] += V[a,b,c,d] T[c,d,i,j]", TensorId::V, TensorId::T, "abcd", "cdij", "cd"},
    {Term::hh_ladder, "hh-ladder", "R[a,b,i,j] += T[a,b,k,l] W[k,l,i,j]", TensorId::T, TensorId::W, "abkl", "klij", "kl"},
    {Term::ring, "ring", "R[a,b,i,j] += T[a,c,i,k] X[k,b,c,j]", TensorId::T, TensorId::X, "acik", "kbcj", "ck"},
}};
inline const TermSpec& spec_of(Term t) { return term_specs[static_cast<std::size_t>(t)]; }

/// The permutations of a term, derived from its letters.
struct TermLayout {
  Perm a_perm;    ///< A block -> (free, contracted)
  Perm b_perm;    ///< B block -> (contracted, free)
  Perm out_perm;  ///< product (A's free, B's free) -> R order a,b,i,j
  bool a_identity, b_identity, out_identity;
};
TermLayout layout_of(const TermSpec& spec);

struct Task {
  std::int64_t a_offset = 0, b_offset = 0, r_offset = 0;  ///< block offsets in A, B and R
  Extents a_ext{}, b_ext{};                               ///< the blocks as stored
  std::int64_t m = 0, n = 0, k = 0;
  std::int64_t a_size() const noexcept { return m * k; }
  std::int64_t b_size() const noexcept { return k * n; }
  std::int64_t r_size() const noexcept { return m * n; }
  /// Useful floating-point operations (2 m n k).
  double flops() const noexcept { return 2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k); }
};

/// Every nonzero task of `term`, largest first (ties in construction order: the same list on
/// every rank).
std::vector<Task> build_tasks(const Tensors& tensors, Term term);

}  // namespace armada::apps::ccsd
