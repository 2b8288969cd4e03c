// 2-D block-cyclic matrices on a BLACS grid, and the redistribution between them and
// GlobalArrays (what every ScaLAPACK operation of solve.cpp goes through).
#pragma once

#include <mpi.h>

#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/group.hpp"
#include "internal.hpp"

namespace armada::linalg::detail {

/// A BLACS process grid over a group's communicator: nprow x npcol == group size, as square as
/// possible (nprow <= npcol), processes in row-major order. Freed on destruction. Given
/// `layout`, a 2-D array of arrays' Layout::proc_grid on a grid g over the whole group, the grid
/// is the one its transpose lives on (nprow = g[1], npcol = g[0], processes in column-major
/// order), so that the array loads as Holds::transpose in place (in_place()).
class BlacsGrid {
 public:
  explicit BlacsGrid(const rma::Group& group, const Array* layout = nullptr);
  ~BlacsGrid();
  BlacsGrid(const BlacsGrid&) = delete;
  BlacsGrid& operator=(const BlacsGrid&) = delete;

  int context = -1;
  int nprow = 1, npcol = 1, myrow = 0, mycol = 0;

 private:
  int system_handle_ = -1;
};

/// What a CyclicMatrix holds of the array it is loaded from and stored to.
enum class Holds {
  /// The array itself: blocks arrive row-major in a staging buffer and are transposed into
  /// column-major storage (one more pass over the data).
  array,
  /// The array's transpose: the array's row-major bytes ARE its transpose's column-major
  /// storage, so blocks land in place (no staging, no transpose pass), and with one process
  /// row every block is a run of whole array rows (one contiguous copy). The solvers make up
  /// for the transpose (see solve.cpp).
  transpose,
};

/// This rank's part of a rows x cols matrix in nb x nb blocks dealt cyclically over the grid,
/// column-major (ScaLAPACK's local storage), with its array descriptor. Holding the transpose
/// of a rows x cols array makes it a cols x rows matrix.
template <class T>
struct CyclicMatrix {
  CyclicMatrix(const BlacsGrid& grid, Index rows, Index cols, int nb, Holds holds = Holds::array);
  Holds holds;
  Index rows, cols;
  int nb;
  int myrow, mycol, nprow, npcol;
  int locr, locc;  ///< local rows and columns
  int desc[9];
  std::vector<T> local;  ///< locr x locc, column-major, leading dimension max(1, locr)
  int lld() const { return locr > 1 ? locr : 1; }
};

/// Which elements of an array an operation reads: all, or the lower triangle with the diagonal
/// (Cholesky and the symmetric eigensolver: the upper one may hold anything).
enum class Reads { all, lower_triangle };

/// Throws InvalidArgument on every rank of `m`'s grid (collective over `comm`, the array's group)
/// when the elements `reads` of the matrix loaded from `array` (argument `arg` of `op`) hold a NaN
/// or an infinity, naming the first in the array's row-major order, one-based: ScaLAPACK would
/// factor it "successfully" into NaNs.
template <class T>
void require_finite(const char* op, const char* arg, const Array& array, const CyclicMatrix<T>& m, MPI_Comm comm,
                    Reads reads = Reads::all);

/// The one-based index of the first exactly zero diagonal entry of the factored `m` (0: none),
/// the same on every rank of its grid (collective over `comm`).
template <class T>
int first_zero_diagonal(const CyclicMatrix<T>& m, MPI_Comm comm);

/// Keeps the upper (`upper`) or lower triangle of the square `m`, zeroes the other one and halves
/// the diagonal: for X so made from a Hermitian matrix stored in that triangle, X + Xᴴ is the
/// whole matrix (p?potri leaves the inverse in one triangle only). With `halve_diagonal` false,
/// the diagonal is kept (a triangular factor alone).
template <class T>
void keep_half_triangle(CyclicMatrix<T>& m, bool upper, bool halve_diagonal = true);

/// Whether `a`'s local buffer is already `m`'s local storage: a holds arrays' Layout::proc_grid
/// whose blocks, grid and this rank's place on it are m's (m holding a's transpose), so that
/// ScaLAPACK's column-major local matrix of m is a's row-major local matrix, byte for byte.
template <class T>
bool in_place(const Array& a, const CyclicMatrix<T>& m);

/// Redistributions this thread made since reset_redistributions(): whole matrices moved between
/// an array and CyclicMatrix storage by patch operations (what in_place() saves).
int redistributions();
void reset_redistributions();

/// Moves whole 2-D arrays into and out of CyclicMatrix storage: one patch get (put) per
/// nb x nb block, or per run of blocks along a dimension the grid does not cut, every one of
/// them in flight before the first is waited for. The array's dims must be the matrix's
/// (Holds::array) or their transpose (Holds::transpose). An array in_place() is copied from
/// (to) its local buffer instead, with no communication and not counted as a redistribution.
template <class T>
class Redistribution {
 public:
  /// Starts the gets of every block of `a` that `m` holds locally.
  void fetch(const Array& a, CyclicMatrix<T>& m);
  /// Waits for every fetch and converts the blocks into ScaLAPACK's column-major storage.
  void complete_fetches();
  /// Writes `m` into the array `a` (same shape), waiting for every put.
  static void store(const CyclicMatrix<T>& m, Array& a);

 private:
  struct Pending {
    CyclicMatrix<T>* matrix;
    std::vector<T> staging;  // row-major, locr x locc
  };
  std::vector<Pending> pending_;
  std::vector<arrays::NbHandle> handles_;
};

}  // namespace armada::linalg::detail
