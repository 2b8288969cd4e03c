// The serial reference: the three terms with plain loops over dense tensors (every element,
// symmetry-zero ones set to zero), independent of tiles, blocks, tasks and permutations.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tensor.hpp"

namespace armada::apps::ccsd {

/// A dense 4-index tensor, row-major.
struct DenseTensor {
  Extents ext{};
  std::vector<double> v;
  double& at(std::int64_t p, std::int64_t q, std::int64_t r, std::int64_t s) {
    return v[static_cast<std::size_t>(((p * ext[1] + q) * ext[2] + r) * ext[3] + s)];
  }
  double at(std::int64_t p, std::int64_t q, std::int64_t r, std::int64_t s) const {
    return v[static_cast<std::size_t>(((p * ext[1] + q) * ext[2] + r) * ext[3] + s)];
  }
};

/// Tensor `id` of the problem, dense: element_value where the orbitals' irreps multiply to 0.
DenseTensor dense_input(const Problem& p, TensorId id);

/// R[a,b,i,j] of all three terms, dense (v x v x o x o).
DenseTensor reference_residual(const Problem& p);

struct Comparison {
  std::int64_t compared = 0;   ///< elements of R compared (all v*v*o*o)
  std::int64_t mismatches = 0; ///< elements off by more than the tolerance
  double max_relative = 0;     ///< largest |got - want| / |want| (0/0 counts as 0)
  std::string first_mismatch;  ///< "R[a,b,i,j] = got, reference want"
};

/// Compares the stored R (its nonzero blocks, in storage order) with the dense reference, every
/// element: stored ones within `tolerance` relative, the others (symmetry zeros) must be 0 in
/// the reference.
Comparison compare_residual(const TiledTensor& R, const std::vector<double>& stored, const DenseTensor& want,
                            double tolerance);

}  // namespace armada::apps::ccsd
