// Sparse matrices, the two products: y = alpha A x + beta y and y = alpha A^T x + beta y; the
// ghost entries of x are fetched (or the contributions to other ranks' y accumulated) by
// aggregated rma vector operations while the local part computes.
#include <mpi.h>

#include <tuple>

#include "armada/arrays/collective.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/sync.hpp"
#include "sparse/sparse_internal.hpp"

namespace armada::arrays {

using namespace sparse_detail;

namespace {

template <class T>
void check_vector(const char* op, const std::string& what, const rma::Group& group, const GlobalArray<T>& v,
                  const char* arg, Index length, const char* length_name) {
  if (!v.valid()) fail(op, what, arg, "null", "the array was never created or was destroyed");
  if (v.ndim() != 1 || v.dims()[0] != length)
    fail(op, what, arg, "'" + v.name() + "' dims " + v.dims().str(),
         std::string("needs a 1-D array of ") + length_name + " = " + std::to_string(length) + " elements");
  if (!(v.group() == group))
    fail(op, what, arg, "'" + v.name() + "'", "is not on the matrix's group");
  // The plan exchanges whole runs of each member's one block.
  if (v.distribution().cyclic())
    fail(op, what, arg, "'" + v.name() + "' " + v.distribution().str(), "needs one block per process, not block-cyclic");
}

// The checks of both products (x over the columns and y over the rows, or the other way round
// when `transposed`); returns the matrix's state.
template <class T>
typename SparseMatrix<T>::Impl& checked_product(const char* op, SparseMatrix<T>& A, const GlobalArray<T>& x,
                                                const GlobalArray<T>& y, bool transposed) {
  if (!A.valid()) throw rma::InvalidArgument(op, "A", "null", "the sparse matrix was never created");
  auto& m = *A.impl();
  check_vector(op, m.what(), m.group, x, "x", transposed ? m.rows : m.cols, transposed ? "rows" : "cols");
  check_vector(op, m.what(), m.group, y, "y", transposed ? m.cols : m.rows, transposed ? "cols" : "rows");
  if (x.id() == y.id()) fail(op, m.what(), "y", "'" + y.name() + "'", "is x itself; the product needs a separate output");
  return m;
}

// The products' opening agreement: every member checked its arguments (checked_product), and
// they passed the same matrix shape and vectors. Each member completes its outstanding
// operations first, so the agreement is also the synchronization that makes x (and y) final
// everywhere, as x.sync() would (arrays' sync is this fence and an agreement): one collective
// per product less than agreeing and then synchronizing.
template <class T>
typename SparseMatrix<T>::Impl& begin_product(const char* op, SparseMatrix<T>& A, const GlobalArray<T>& x,
                                              const GlobalArray<T>& y, bool transposed) {
  typename SparseMatrix<T>::Impl* m = nullptr;
  const rma::Group group = A.valid() ? A.impl()->group : rma::Group::world();
  rma::fence_all();
  rma::agree(op, [&] { m = &checked_product(op, A, x, y, transposed); }, group,
             {{"A", A.valid() ? A.impl()->what() : "(no matrix)"}, same_shape("x", x), same_shape("y", y)});
  return *m;
}

// This rank's block of a 1-D array in place (null when it owns nothing).
template <class T>
T* local_block(const Array::Impl& a) {
  const Block& b = a.mine();
  return b.patch.empty() ? nullptr : reinterpret_cast<T*>(b.address(b.patch.lo, a.ghosts, a.esize));
}

// One IoSet per (source, run length); pointers to the runs' remote and local (ghost slot)
// addresses. `get`: data flows remote -> local; otherwise local -> remote.
template <class T>
void prepare(Transfer& t, const Plan<T>& p, std::uint64_t version, const Array::Impl& a, T* slots, bool get) {
  if (t.array_id == a.id && t.plan_version == version) return;
  std::size_t total = 0;
  for (const auto& r : p.runs) total += r.size();
  t = Transfer{};
  t.local.reserve(total);
  t.remote.reserve(total);
  std::vector<std::tuple<std::size_t, std::size_t, std::size_t>> groups;  // (begin, end, bytes) into the pointers
  for (std::size_t s = 0; s < p.runs.size(); ++s) {
    std::vector<Run> runs = p.runs[s];
    std::stable_sort(runs.begin(), runs.end(), [](const Run& x, const Run& y) { return x.length < y.length; });
    const Block b = a.block(p.source_group_rank[s]);
    const std::size_t first_group = groups.size();
    for (std::size_t i = 0; i < runs.size(); ++i) {
      if (i == 0 || runs[i].length != runs[i - 1].length)
        groups.emplace_back(t.local.size(), t.local.size(), static_cast<std::size_t>(runs[i].length) * sizeof(T));
      t.local.push_back(slots + runs[i].slot);
      t.remote.push_back(b.address({runs[i].col}, a.ghosts, a.esize));
      std::get<1>(groups.back()) = t.local.size();
    }
    t.per_source.emplace_back(first_group, groups.size());
  }
  for (const auto& [b, e, bytes] : groups) {
    const std::span<void* const> l(t.local.data() + b, e - b), r(t.remote.data() + b, e - b);
    t.sets.push_back(get ? rma::IoSet{r, l, bytes} : rma::IoSet{l, r, bytes});
  }
  t.array_id = a.id;
  t.plan_version = version;
}

template <class T>
std::vector<rma::Handle> issue(const Transfer& t, const Plan<T>& p, bool get) {
  std::vector<rma::Handle> hs;
  hs.reserve(t.per_source.size());
  const T one(1);
  for (std::size_t s = 0; s < t.per_source.size(); ++s) {
    const std::span<const rma::IoSet> sets(t.sets.data() + t.per_source[s].first, t.per_source[s].second - t.per_source[s].first);
    const int target = p.sources[s].rank;
    hs.push_back(get ? rma::get_vector_nb(sets, target) : rma::acc_vector_nb(rma::acc_type_of<T>(), &one, sets, target));
  }
  return hs;
}

}  // namespace

template <SparseElement T>
void spmv(SparseMatrix<T>& A, const GlobalArray<T>& x, GlobalArray<T>& y, T alpha, T beta) {
  auto& m = begin_product(kSpmv, A, x, y, false);
  if (!(x.distribution() == m.plan.columns))  // the same decision on every rank: one x
    rma::agree(kSpmv, [&] { A.plan_for(x.distribution()); }, m.group);
  const Plan<T>& p = m.plan;
  const Array::Impl& xa = *x.impl();
  const Array::Impl& ya = *y.impl();
  // x (and y) are final everywhere: begin_product's agreement synchronized.

  prepare(m.fetch, p, m.plan_version, xa, m.ghost_values.data(), true);
  std::vector<rma::Handle> inflight = issue(m.fetch, p, true);

  // Meanwhile the part of the rows whose columns are local.
  const std::size_t nrows = static_cast<std::size_t>(m.r1 - m.r0);
  const bool direct = y.distribution() == m.row_dist;
  std::vector<T> ybuf;
  T* yl = direct ? local_block<T>(ya) : nullptr;
  if (!direct) {
    ybuf.assign(nrows, T(0));
    if (nrows > 0 && !is_zero(beta)) y.get({m.r0}, {m.r1}, ybuf.data());
    yl = ybuf.data();
  }
  if (nrows > 0) csr_rows(p.local, local_block<T>(xa), yl, alpha, beta);
  for (auto& h : inflight) h.wait();
  csr_rows_add(p.ghost, p.ghost_rows.data(), m.ghost_values.data(), yl, alpha);
  if (!direct && nrows > 0) y.put({m.r0}, {m.r1}, ybuf.data());
  y.sync();
}

template <SparseElement T>
void spmv_transposed(SparseMatrix<T>& A, const GlobalArray<T>& x, GlobalArray<T>& y, T alpha, T beta) {
  auto& m = begin_product(kSpmvT, A, x, y, true);
  if (!(y.distribution() == m.plan.columns))  // the columns are y's entries here
    rma::agree(kSpmvT, [&] { A.plan_for(y.distribution()); }, m.group);
  const Plan<T>& p = m.plan;
  const Array::Impl& xa = *x.impl();
  const Array::Impl& ya = *y.impl();
  // x (and y) are final everywhere: begin_product's agreement synchronized.

  // x over this rank's rows.
  const std::size_t nrows = static_cast<std::size_t>(m.r1 - m.r0);
  std::vector<T> xbuf;
  const T* xr = nullptr;
  if (x.distribution() == m.row_dist) {
    xr = local_block<T>(xa);
  } else if (nrows > 0) {
    xbuf.resize(nrows);
    x.get({m.r0}, {m.r1}, xbuf.data());
    xr = xbuf.data();
  }
  // Contributions to other ranks' entries of y, then to this rank's (scaled by beta first).
  std::fill(m.ghost_values.begin(), m.ghost_values.end(), T(0));
  if (nrows > 0) csr_transposed_add(p.ghost, p.ghost_rows.data(), xr, m.ghost_values.data(), alpha);
  if (T* yl = local_block<T>(ya)) {
    const auto n = static_cast<std::size_t>(p.xhi - p.xlo);
    if (is_zero(beta)) std::fill(yl, yl + n, T(0));
    else for (std::size_t i = 0; i < n; ++i) yl[i] = mul(beta, yl[i]);
    if (nrows > 0) csr_transposed_add(p.local, nullptr, xr, yl, alpha);
  }
  // Every rank's own update of its block is done before anyone accumulates into it.
  rma::collective_serving("arrays: a transposed sparse product's barrier",
                          [&](MPI_Request* r) { return MPI_Ibarrier(m.group.comm(), r); });
  prepare(m.send, p, m.plan_version, ya, m.ghost_values.data(), false);
  for (auto& h : issue(m.send, p, false)) h.wait();
  y.sync();
}

template void spmv(SparseMatrix<double>&, const GlobalArray<double>&, GlobalArray<double>&, double, double);
template void spmv(SparseMatrix<std::complex<double>>&, const GlobalArray<std::complex<double>>&,
                   GlobalArray<std::complex<double>>&, std::complex<double>, std::complex<double>);
template void spmv_transposed(SparseMatrix<double>&, const GlobalArray<double>&, GlobalArray<double>&, double, double);
template void spmv_transposed(SparseMatrix<std::complex<double>>&, const GlobalArray<std::complex<double>>&,
                              GlobalArray<std::complex<double>>&, std::complex<double>, std::complex<double>);

}  // namespace armada::arrays
