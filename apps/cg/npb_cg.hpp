// NAS Parallel Benchmarks CG: the problem classes and the matrix, as the NPB specification
// defines them (NAS technical reports 95-020 and 02-007; NPB 3.x's makea, sprnvc, vecset).
//
// The matrix is a sum of n scaled outer products of random sparse vectors: vector i (i = 1..n)
// has `nonzer` random entries at random positions plus the entry 0.5 at position i (vecset),
// and contributes size_i * v v^T, with size_1 = 1 and size_{i+1} = size_i * rcond^(1/n); the
// diagonal entry (i, i) of outer product i also gets rcond - shift. Random numbers come from
// NPB's generator (seed 314159265, multiplier 5^13; one number is drawn before makea); a
// position is int(nn1 * r) + 1 with nn1 the smallest power of two >= n, redrawn when past n or
// already in the vector; each draw takes a value first, then a position.
#pragma once

#include <string>
#include <vector>

#include "armada/arrays/sparse.hpp"

namespace armada::apps::cg {

/// One NPB CG class: n (na), nonzeros per random vector, outer iterations, the eigenvalue shift,
/// and the official zeta.
struct CgClass {
  char name;
  long na;
  int nonzer;
  int niter;
  double shift;
  double zeta;
};

/// The classes, in NPB's table. The one place these numbers live.
inline constexpr CgClass cg_classes[] = {
    {'S', 1400, 7, 15, 10.0, 8.5971775078648},
    {'W', 7000, 8, 15, 12.0, 10.362595087124},
    {'A', 14000, 11, 15, 20.0, 17.130235054029},
    {'B', 75000, 13, 75, 60.0, 22.712745482631},
    {'C', 150000, 15, 75, 110.0, 28.973605592845},
};
inline constexpr double cg_rcond = 0.1;          ///< bounds the smallest eigenvalue from below
inline constexpr int cg_inner_iterations = 25;   ///< CG iterations per inverse power step
inline constexpr double cg_tolerance = 1e-10;    ///< relative error allowed on zeta
inline constexpr double cg_seed = 314159265.0;

/// The class called `letter`, or null.
const CgClass* find_cg_class(char letter);
/// "SWABC"
std::string cg_class_letters();

/// The triplets of rows [row_begin, row_end) (zero-based) of the class's matrix, in the order
/// NPB sums them. Every rank draws the whole random sequence and keeps its own rows.
std::vector<arrays::Triplet<double>> make_cg_matrix(const CgClass& c, long row_begin, long row_end);

/// NPB's operation count for CG over the timed section, as Mop/s for `seconds`.
double cg_mops(const CgClass& c, double seconds);

}  // namespace armada::apps::cg
