// Eigen views of local 2-D blocks: the block in place as an Eigen::Map (no copy).
//
// Only this header needs Eigen; the array library itself does not.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <Eigen/Core>

#include <string>

#include "armada/arrays/global_array.hpp"
#include "armada/rma/error.hpp"

namespace armada::arrays {

template <class T>
using LocalMatrix = Eigen::Map<Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>, 0,
                               Eigen::OuterStride<>>;

/// The view `v` (2-D) as a row-major Eigen matrix: row r is global row v.lo[0] + r.
template <class T>
LocalMatrix<T> as_matrix(const LocalView<T>& v) {
  if (v.ndim() != 2)
    throw rma::InvalidArgument("arrays::as_matrix", "view", std::to_string(v.ndim()) + "-D",
                               "an Eigen matrix needs a 2-D view");
  return LocalMatrix<T>(v.data, std::max<Index>(0, v.hi[0] - v.lo[0]), std::max<Index>(0, v.hi[1] - v.lo[1]),
                        Eigen::OuterStride<>(v.stride[0]));
}

/// The local block of a 2-D array as an Eigen matrix (like access(); pair with release()).
template <class T>
LocalMatrix<T> local_matrix(GlobalArray<T>& a) { return as_matrix(a.access()); }
/// The same including ghost cells.
template <class T>
LocalMatrix<T> local_matrix_ghosts(GlobalArray<T>& a) { return as_matrix(a.access_ghosts()); }

}  // namespace armada::arrays
