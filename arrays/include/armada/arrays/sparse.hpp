// SparseMatrix<T>: a distributed sparse matrix in CSR by row blocks, and its products with
// 1-D GlobalArrays (y = alpha * A x + beta * y, and with A's transpose).
//
// Rows are cut into consecutive blocks, one per rank of the matrix's group (balanced, or given by
// SparseOptions::row_starts); each rank holds its rows in CSR. The matrix is built collectively
// from triplets that any rank may pass for any row: they travel to their row's owner,
// duplicates are summed (in the order of the passing ranks, then of each rank's list).
//
// How a product moves data: a rank's rows need the entries of x in the columns they touch. The
// entries the rank owns are read in place; the others ("ghosts") are worked out once per column
// distribution (when the matrix is built for the balanced distribution of `cols`, otherwise at
// the first product with another one) and fetched at every product with ONE rma I/O-vector get
// per owning rank, whose segments are the contiguous runs of needed columns. All these gets are
// in flight at once while the rank multiplies the part of its rows whose columns are local; the
// part touching ghosts follows once they arrive. The transposed product sends each rank's
// contributions to other ranks' entries of y the same way, as one I/O-vector accumulate per
// owner.
//
// Who takes part: create and both products are collective over the matrix's group, which must
// also be the group of x and y. Inquiry, plan_for and the split kernels are local.
// Completion: a product syncs x and y (rma fence_all + group barrier) before it reads x, and
// y before it returns, so y is complete everywhere on return.
// Errors: every argument is checked before any data moves; a bad one throws rma::InvalidArgument
// naming the operation, the argument and its value. A bad triplet on one rank makes create
// throw on every rank (the others' message names the rank that passed it and repeats its
// message).
// Thread safety: products and plan_for on one matrix must not overlap one another.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "armada/arrays/distribution.hpp"
#include "armada/arrays/global_array.hpp"
#include "armada/arrays/types.hpp"
#include "armada/rma/group.hpp"

namespace armada::arrays {

/// The element types of a sparse matrix.
template <class T>
concept SparseElement = std::is_same_v<T, double> || std::is_same_v<T, std::complex<double>>;

/// One nonzero: A(row, col) += value.
template <class T>
struct Triplet {
  Index row;
  Index col;
  T value;
};

/// How to build a sparse matrix. Everything is optional.
struct SparseOptions {
  std::string name;                ///< for messages
  /// First row of each group rank's block: starts with 0, does not decrease (equal starts give
  /// a rank no rows), at most one entry per group rank (ranks past the list own no rows).
  /// Empty: the balanced distribution of a 1-D GlobalArray of `rows` elements on the group.
  std::vector<Index> row_starts;
  std::optional<rma::Group> group; ///< the processes (default: the world)
};

/// The ranks that own ghost entries: world rank `rank` supplies ghost slots [first, first + count).
struct GhostSource {
  int rank;
  Index first;
  Index count;
};

/// What one product moves, for this rank (the plan of the current column distribution).
struct SpmvTraffic {
  Index ghost_entries = 0;  ///< x entries fetched from other ranks per product
  Index runs = 0;           ///< contiguous runs they form (segments of the vector gets)
  int sources = 0;          ///< owners fetched from (one vector get each)
  std::size_t bytes = 0;    ///< ghost_entries * sizeof(T)
};

template <SparseElement T>
class SparseMatrix {
 public:
  struct Impl;
  SparseMatrix() = default;

  /// Builds a rows x cols matrix (both >= 1) from this rank's `triplets` (any rows; rows and
  /// columns must lie in [0, rows) and [0, cols)). Collective over the group.
  static SparseMatrix create(Index rows, Index cols, std::span<const Triplet<T>> triplets,
                             const SparseOptions& options = {});

  bool valid() const noexcept { return impl_ != nullptr; }
  Index rows() const;
  Index cols() const;
  const std::string& name() const;
  const rma::Group& group() const;
  /// The row blocks (1-D over rows(), block b belongs to group rank b).
  const Distribution& row_distribution() const;
  /// This rank's rows [first, second).
  std::pair<Index, Index> local_rows() const;
  /// Stored entries on this rank (duplicates merged).
  Index local_nonzeros() const;
  /// Stored entries on all ranks. Collective.
  Index nonzeros() const;

  // ---- the split product, for programs that move the ghosts themselves ----------------------
  /// Makes the plan serve x vectors distributed by `columns` (1-D over cols(), on the matrix's
  /// group); does nothing if it already does. Local.
  void plan_for(const Distribution& columns);
  /// The column distribution the plan serves.
  const Distribution& column_distribution() const;
  /// Sorted global columns of x this rank's rows need from other ranks (the ghost slots).
  std::span<const Index> ghost_columns() const;
  /// The owners of the ghost slots, in column order (each owns one consecutive range of slots).
  std::span<const GhostSource> ghost_sources() const;
  SpmvTraffic traffic() const;
  /// y_local = alpha * A_local x_local + beta * y_local over this rank's rows, using only the
  /// columns this rank owns in the column distribution (x_local: that block; y_local: one
  /// entry per local row). beta == 0 overwrites y_local (its old values are not read).
  void multiply_local(const T* x_local, T* y_local, T alpha, T beta) const;
  /// y_local += alpha * A_ghost x_ghost: the entries in ghost columns (x_ghost: one value per
  /// ghost slot).
  void multiply_ghost(const T* x_ghost, T* y_local, T alpha) const;

  const std::shared_ptr<Impl>& impl() const noexcept { return impl_; }

 private:
  explicit SparseMatrix(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  const Impl& checked(const char* op) const;
  std::shared_ptr<Impl> impl_;
};

/// y = alpha * A x + beta * y. x: 1-D of cols() elements, y: 1-D of rows() elements, both on
/// the matrix's group, distinct arrays, any distributions (y distributed like the rows and x
/// like the plan's columns are the fast paths). beta == 0 ignores y's old values. Collective.
template <SparseElement T>
void spmv(SparseMatrix<T>& A, const GlobalArray<T>& x, GlobalArray<T>& y, T alpha = T(1), T beta = T(0));

/// y = alpha * A^T x + beta * y (no conjugation). x: 1-D of rows() elements, y: 1-D of cols()
/// elements; as spmv otherwise. Collective.
template <SparseElement T>
void spmv_transposed(SparseMatrix<T>& A, const GlobalArray<T>& x, GlobalArray<T>& y, T alpha = T(1),
                     T beta = T(0));

}  // namespace armada::arrays
