// How MG's levels are laid out over the processes.
//
// The ranks form a 3-D process grid p = (pz, py, px) (z slowest, x fastest and contiguous, as
// the arrays are stored row-major [z][y][x]); rank r has grid coordinates row-major in p, which
// is also how armada::arrays numbers the blocks of a distribution, so block b is rank b's.
//
// Level k (1..lt, n_k = 2^k points per dimension, lt the finest) is either
//  - distributed over the whole grid, when every rank gets at least 2 points per dimension
//    (n_k / 2 >= p_d): block bounds are even, so that coarse point J, centred on fine point
//    2J+1, and its fine neighbours stay with one owner; the bounds of level k are exactly twice
//    those of level k-1 (restriction and prolongation need no data from other blocks besides
//    the ghost frame), or
//  - gathered on rank 0 (grid 1 x 1 x 1), below that: such coarse grids have fewer than
//    2 p_d points per dimension, too few to be worth splitting.
// With one rank every level is "distributed" on the 1 x 1 x 1 grid.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace armada::mg {

using Index = std::int64_t;
/// Per dimension, in storage order: z, y, x.
template <class T>
using Dim3 = std::array<T, 3>;

/// The problem cannot be laid out (a rank count the grid cannot use, a size that is not a power
/// of two): the message says why. Programs report it as bad input (exit code 2).
struct LayoutError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

/// A 3-D grid of ranks.
struct ProcessGrid {
  Dim3<int> p{1, 1, 1};
  int size() const noexcept { return p[0] * p[1] * p[2]; }
  /// Grid coordinates of `rank` (row-major, z slowest).
  Dim3<int> coords(int rank) const noexcept;
  /// The rank at grid coordinates `c`, each wrapped around its dimension (periodic).
  int rank_at(Dim3<int> c) const noexcept;
};

/// The grid for `ranks` processes on an n^3 grid: the prime factors of `ranks`, largest first,
/// each go to the dimension whose blocks are longest (ties: z, then y, then x; so 2 ranks split
/// z, 4 split z and y, as NPB does). Throws LayoutError when a dimension would get more than
/// n/2 ranks (fewer than 2 points each) or `ranks` < 1.
ProcessGrid choose_process_grid(int ranks, int n);

/// The layout of one level.
struct LevelLayout {
  int level = 0;                        ///< k: n = 2^k
  Index n = 0;                          ///< points per dimension
  bool distributed = false;             ///< over the process grid (else gathered on rank 0)
  ProcessGrid grid;                     ///< the process grid (1 x 1 x 1 when gathered)
  Dim3<std::vector<Index>> starts;      ///< block starts per dimension (grid.p[d] entries)

  /// Block [lo, hi) of grid rank `rank` (empty for ranks past the grid).
  void block(int rank, Dim3<Index>& lo, Dim3<Index>& hi) const;
  /// Number of blocks (ranks owning part of the level).
  int blocks() const noexcept { return grid.size(); }
};

/// log2(n) for a power of two n >= 2; throws LayoutError otherwise.
int level_count(Index n);

/// The layouts of levels 1..lt (index k-1) for an n^3 problem on `grid`.
std::vector<LevelLayout> plan_levels(Index n, const ProcessGrid& grid);

/// A layout with every start of `fine` halved, on the same grid: where restriction writes its
/// result and prolongation reads its input (blocks of 1 point allowed).
LevelLayout halved(const LevelLayout& fine);

}  // namespace armada::mg
