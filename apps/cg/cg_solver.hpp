// The CG benchmark's numerical method, written once for both communication variants: the
// conjugate gradient routine (25 iterations, then the explicit residual ||x - A z||) and the
// inverse power step that turns its result into zeta. It works on this rank's blocks of the
// five vectors (all distributed like the matrix rows) and reaches other ranks only through
// `multiply` (q = A p, r = A z) and an MPI sum for the dot products.
#pragma once

#include <mpi.h>

#include <array>
#include <cstddef>
#include <functional>

namespace armada::apps::cg {

/// The vectors of NPB's conj_grad.
enum class Vec { x, z, p, q, r };

/// This rank's blocks of the five vectors (n entries each).
struct CgVectors {
  std::array<double*, 5> block{};
  std::size_t n = 0;
  double* operator[](Vec v) const { return block[static_cast<std::size_t>(v)]; }
};

/// out = A in, over the whole distributed vectors (collective).
using Multiply = std::function<void(Vec in, Vec out)>;

/// NPB's conj_grad (cg_inner_iterations CG steps): approximately solves A z = x; returns ||x - A z||. Collective.
double conj_grad(const CgVectors& v, const Multiply& multiply, MPI_Comm comm);

/// This rank's seconds in each phase of conj_grad (armada-cg --breakdown), added up over calls.
struct CgBreakdown {
  double spmv = 0;    ///< the products q = A p and r = A z, their exchange included
  double dot = 0;     ///< the local parts of the dot products (the first r.r, p.q, ||x - r||; the loop's r.r is fused into `update`)
  double reduce = 0;  ///< the MPI_Allreduce of every dot product (waiting for the slowest rank included)
  double update = 0;  ///< the vector loops: the start (q, z, r, p), z += a p with r -= a q and r.r, p = r + b p
  long iterations = 0, products = 0;  ///< CG iterations and products timed
};
/// The same computation, timing each phase into `breakdown` (one clock read per phase boundary,
/// none inside a loop). Collective.
double conj_grad(const CgVectors& v, const Multiply& multiply, MPI_Comm comm, CgBreakdown& breakdown);

/// One inverse power step after conj_grad: zeta = shift + 1 / (x . z), then x = z / ||z||.
/// Returns zeta. Collective.
double power_step(const CgVectors& v, double shift, MPI_Comm comm);

/// Sets every entry of x to 1 (the start vector).
void reset_start_vector(const CgVectors& v);

}  // namespace armada::apps::cg
