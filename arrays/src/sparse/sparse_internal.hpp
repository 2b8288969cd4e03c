// What the sparse-matrix sources share (arrays/src/sparse/): the CSR and plan types, the
// arithmetic helpers, the matrix's state, and the entry points of each part:
//   assembly.cpp  triplets -> this rank's rows in CSR with global columns
//   plan.cpp      the plan for one column distribution (local entries, ghosts, their runs)
//   kernels.cpp   the CSR loops of the products
//   matrix.cpp    SparseMatrix's members
//   products.cpp  spmv and spmv_transposed
#pragma once

#include <algorithm>
#include <climits>
#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "armada/arrays/sparse.hpp"
#include "armada/rma/transfer.hpp"
#include "internal.hpp"

namespace armada::arrays {
namespace sparse_detail {

inline constexpr const char* kCreate = "arrays::SparseMatrix::create";
inline constexpr const char* kSpmv = "arrays::spmv";
inline constexpr const char* kSpmvT = "arrays::spmv_transposed";
inline constexpr const char* kPlan = "arrays::SparseMatrix::plan_for";

// Column and row indices inside one rank's CSR are 32-bit: half the index traffic of the
// product loop, which is memory bound.
using Local = std::int32_t;
constexpr Index kLocalMax = INT32_MAX;

// Rows of one rank in CSR: row r holds entries [ptr[r], ptr[r+1]). `Columns` holds the column
// indices: std::vector<Index> (global columns) or PlanColumns (a plan's local indices).
template <class Columns, class T>
struct Csr {
  std::vector<std::int64_t> ptr{0};
  Columns col;
  std::vector<T> val;
  std::size_t rows() const { return ptr.size() - 1; }
};

// The column indices of one part of a plan (local block or ghost slots), built 32-bit and
// narrowed to 16 bits when the part addresses at most 2^16 columns, as a rank's x block or
// ghost slots usually do: the product streams indices and values once per product and is
// memory bound, so a double entry then moves 10 bytes instead of 12.
class PlanColumns {
 public:
  void push_back(Local c) { wide_.push_back(c); }
  std::size_t size() const { return narrow_ ? short_.size() : wide_.size(); }
  Local operator[](std::size_t k) const { return narrow_ ? Local{short_[k]} : wide_[k]; }
  /// Stores the indices in 16 bits if every one is below `span` <= 2^16.
  void narrow_if_within(Index span) {
    if (narrow_ || span > Index{1} << 16) return;
    short_.assign(wide_.begin(), wide_.end());
    std::vector<Local>().swap(wide_);
    narrow_ = true;
  }
  /// f(const C* indices) with C the stored index type: the kernels are compiled for both.
  template <class F>
  void with_indices(F&& f) const {
    if (narrow_) f(short_.data());
    else f(wide_.data());
  }

 private:
  std::vector<Local> wide_;
  std::vector<std::uint16_t> short_;
  bool narrow_ = false;
};

template <class T>
using GlobalCsr = Csr<std::vector<Index>, T>;
template <class T>
using PlanCsr = Csr<PlanColumns, T>;

// Consecutive ghost columns [col, col + length) from one owner, landing in ghost slots
// [slot, slot + length).
struct Run {
  Index col, length, slot;
};

// The product's plan for one column distribution.
template <class T>
struct Plan {
  Distribution columns;
  Index xlo = 0, xhi = 0;               // this rank's block of x
  PlanCsr<T> local;                     // every local row; column c in [xlo, xhi) stored as c - xlo
  PlanCsr<T> ghost;                     // rows with ghost entries only; columns stored as ghost slots
  std::vector<Local> ghost_rows;        // the local row of each row of `ghost`
  std::vector<Index> ghosts;            // the global column of each slot, ascending
  std::vector<GhostSource> sources;     // per owner, in column order
  std::vector<int> source_group_rank;
  std::vector<std::vector<Run>> runs;   // per source
};

// The rma vector operations of one product with one array: built at the first product with
// that array (and plan) and reused, so a product only issues them.
struct Transfer {
  int array_id = -1;
  std::uint64_t plan_version = 0;
  std::vector<void*> local, remote;                    // one pointer per run, per side
  std::vector<rma::IoSet> sets;                        // runs of one source and one length
  std::vector<std::pair<std::size_t, std::size_t>> per_source;  // [begin, end) into sets
};

// a * b + c; complex without the NaN/Inf recovery of std::complex's operator* (that call
// would dominate the loop; the inputs are finite matrix entries).
template <class T>
inline T mul_add(T a, T b, T c) {
  if constexpr (std::is_same_v<T, std::complex<double>>) {
    return {c.real() + a.real() * b.real() - a.imag() * b.imag(), c.imag() + a.real() * b.imag() + a.imag() * b.real()};
  } else {
    return c + a * b;
  }
}
template <class T>
inline T mul(T a, T b) { return mul_add(a, b, T(0)); }

template <class T>
bool is_zero(T x) { return x == T(0); }

// Owner (block number = group rank) of 1-D index i under `d`.
inline int owner_1d(const Distribution& d, Index i) {
  const auto& b = d.bounds(0);
  return static_cast<int>(std::upper_bound(b.begin(), b.end(), i) - b.begin()) - 1;
}

inline std::pair<Index, Index> block_1d(const Distribution& d, int group_rank) {
  const Patch p = d.block(group_rank);
  if (p.empty()) return {0, 0};
  return {p.lo[0], p.hi[0]};
}

// An InvalidArgument of `op` whose reason names the matrix (`what`) first.
[[noreturn]] void fail(const char* op, const std::string& what, const std::string& arg, const std::string& value,
                       const std::string& reason);

// ---- assembly (assembly.cpp) ------------------------------------------------------------------

// The row distribution create asks for: regular, or irregular from `starts` (checked).
Distribution make_row_distribution(const std::string& what, Index rows, const std::vector<Index>& starts, int nprocs);

// Every rank learns whether a triplet was out of bounds anywhere, before any data moves.
template <class T>
void check_triplets(const std::string& what, Index rows, Index cols, std::span<const Triplet<T>> t,
                    const rma::Group& group);

// Sends every triplet to its row's owner (skipped when every rank holds only its own rows).
template <class T>
std::vector<Triplet<T>> exchange_triplets(const std::string& what, std::span<const Triplet<T>> t,
                                          const Distribution& rows, const rma::Group& group, bool& all_local);

// The local rows [r0, r1) in CSR with global columns: entries ordered by column, duplicates
// summed in the order they were passed.
template <class T>
GlobalCsr<T> assemble(std::span<const Triplet<T>> t, Index r0, Index r1);

// ---- the plan (plan.cpp) ----------------------------------------------------------------------

template <class T>
Plan<T> build_plan(const std::string& what, const Distribution& columns, const GlobalCsr<T>& g, const rma::Group& group);

// The plan's entries back in global columns (to plan for another distribution).
template <class T>
GlobalCsr<T> global_rows(const Plan<T>& p);

// ---- kernels (kernels.cpp) --------------------------------------------------------------------

// y[r] = alpha * (row r of c) . x + beta * y[r] for every row of c.
template <class T>
void csr_rows(const PlanCsr<T>& c, const T* x, T* y, T alpha, T beta);

// Which build of the row loop csr_rows and csr_rows_add run for double entries: the portable one,
// or AVX2 with fused multiply-adds (chosen at load where the CPU has both). The sums' order, and
// so their last bits, differ between the two.
enum class RowKernel { baseline, avx2 };
std::vector<RowKernel> supported_row_kernels();
RowKernel row_kernel();
/// Every product from now on uses `kernel` (tests; throws where the CPU lacks it). Not
/// thread-safe: call it while no product runs.
void use_row_kernel(RowKernel kernel);
const char* row_kernel_name(RowKernel kernel);

// y[rows[i]] += alpha * (row i of c) . x
template <class T>
void csr_rows_add(const PlanCsr<T>& c, const Local* rows, const T* x, T* y, T alpha);

// y[col[k]] += alpha * val[k] * x[row]: the transposed product of c's rows (rows[i] names the
// local row of c's row i; null: the identity).
template <class T>
void csr_transposed_add(const PlanCsr<T>& c, const Local* rows, const T* x, T* y, T alpha);

}  // namespace sparse_detail

// ---- the matrix's state -----------------------------------------------------------------------

template <SparseElement T>
struct SparseMatrix<T>::Impl {
  std::string name;
  Index rows = 0, cols = 0;
  rma::Group group{nullptr};
  Distribution row_dist;
  Index r0 = 0, r1 = 0;
  sparse_detail::Plan<T> plan;
  std::uint64_t plan_version = 1;
  std::vector<T> ghost_values;  // one per ghost slot: fetched x (spmv) or contributions (transposed)
  sparse_detail::Transfer fetch, send;
  std::string what() const { return "sparse matrix '" + name + "' (" + std::to_string(rows) + " x " + std::to_string(cols) + ")"; }
};

}  // namespace armada::arrays
