// Sparse matrices, SparseMatrix's members: create (assembly, then the plan for a regular column
// distribution), the queries, plan_for, and the local halves of the product.
#include "armada/rma/collectives.hpp"
#include "armada/rma/runtime.hpp"
#include "sparse/sparse_internal.hpp"

namespace armada::arrays {

using namespace sparse_detail;

template <SparseElement T>
SparseMatrix<T> SparseMatrix<T>::create(Index rows, Index cols, std::span<const Triplet<T>> triplets,
                                        const SparseOptions& o) {
  if (!rma::initialized()) throw rma::StateError(kCreate, std::string(kCreate) + ": the rma runtime is not initialized");
  auto m = std::make_shared<Impl>();
  m->name = o.name.empty() ? "sparse" : o.name;
  m->rows = rows;
  m->cols = cols;
  m->group = o.group ? *o.group : rma::Group::world();
  if (!m->group.is_member())
    fail(kCreate, m->what(), "group", "size " + std::to_string(m->group.size()), "this rank is not a member of the group");
  std::string starts;
  for (Index s : o.row_starts) starts += std::to_string(s) + " ";
  rma::agree(kCreate, [&] {
    if (rows < 1) fail(kCreate, m->what(), "rows", std::to_string(rows), "must be at least 1");
    if (cols < 1) fail(kCreate, m->what(), "cols", std::to_string(cols), "must be at least 1");
    if (!triplets.empty() && !triplets.data()) fail(kCreate, m->what(), "triplets", "null", "a non-empty list needs data");
    m->row_dist = make_row_distribution(m->what(), rows, o.row_starts, m->group.size());
  }, m->group, {{"rows", std::to_string(rows)}, {"cols", std::to_string(cols)}, {"row_starts", "[" + starts + "]"}});
  std::tie(m->r0, m->r1) = block_1d(m->row_dist, m->group.rank());
  check_triplets<T>(m->what(), rows, cols, triplets, m->group);

  bool all_local = false;
  const std::vector<Triplet<T>> received = exchange_triplets<T>(m->what(), triplets, m->row_dist, m->group, all_local);
  const GlobalCsr<T> g = assemble<T>(all_local ? triplets : std::span<const Triplet<T>>(received), m->r0, m->r1);
  rma::agree(kCreate, [&] { m->plan = build_plan<T>(m->what(), Distribution::regular({cols}, m->group.size()), g, m->group); },
             m->group);
  m->ghost_values.assign(m->plan.ghosts.size(), T(0));
  return SparseMatrix(std::move(m));
}

template <SparseElement T>
const typename SparseMatrix<T>::Impl& SparseMatrix<T>::checked(const char* op) const {
  if (!impl_) throw rma::InvalidArgument(op, "matrix", "null", "the sparse matrix was never created");
  return *impl_;
}

template <SparseElement T> Index SparseMatrix<T>::rows() const { return checked("arrays::SparseMatrix::rows").rows; }
template <SparseElement T> Index SparseMatrix<T>::cols() const { return checked("arrays::SparseMatrix::cols").cols; }
template <SparseElement T> const std::string& SparseMatrix<T>::name() const { return checked("arrays::SparseMatrix::name").name; }
template <SparseElement T> const rma::Group& SparseMatrix<T>::group() const { return checked("arrays::SparseMatrix::group").group; }
template <SparseElement T>
const Distribution& SparseMatrix<T>::row_distribution() const { return checked("arrays::SparseMatrix::row_distribution").row_dist; }
template <SparseElement T>
std::pair<Index, Index> SparseMatrix<T>::local_rows() const {
  const Impl& m = checked("arrays::SparseMatrix::local_rows");
  return {m.r0, m.r1};
}
template <SparseElement T>
Index SparseMatrix<T>::local_nonzeros() const {
  const Impl& m = checked("arrays::SparseMatrix::local_nonzeros");
  return static_cast<Index>(m.plan.local.col.size() + m.plan.ghost.col.size());
}
template <SparseElement T>
Index SparseMatrix<T>::nonzeros() const {
  long n = static_cast<long>(local_nonzeros());
  rma::allreduce(std::span<long>(&n, 1), rma::ReduceOp::Sum, impl_->group);
  return n;
}

template <SparseElement T>
void SparseMatrix<T>::plan_for(const Distribution& columns) {
  Impl& m = const_cast<Impl&>(checked(kPlan));
  if (columns == m.plan.columns) return;
  if (columns.ndim() != 1 || columns.dims()[0] != m.cols)
    fail(kPlan, m.what(), "columns", "dims " + columns.dims().str(), "needs a 1-D distribution of cols = " + std::to_string(m.cols));
  if (columns.cyclic())
    fail(kPlan, m.what(), "columns", columns.str(), "needs one block per process, not block-cyclic");
  if (columns.block_count() > m.group.size())
    fail(kPlan, m.what(), "columns", std::to_string(columns.block_count()) + " blocks",
         "more blocks than the group's " + std::to_string(m.group.size()) + " ranks");
  m.plan = build_plan<T>(m.what(), columns, global_rows(m.plan), m.group);
  m.ghost_values.assign(m.plan.ghosts.size(), T(0));
  ++m.plan_version;
}

template <SparseElement T>
const Distribution& SparseMatrix<T>::column_distribution() const { return checked("arrays::SparseMatrix::column_distribution").plan.columns; }
template <SparseElement T>
std::span<const Index> SparseMatrix<T>::ghost_columns() const { return checked("arrays::SparseMatrix::ghost_columns").plan.ghosts; }
template <SparseElement T>
std::span<const GhostSource> SparseMatrix<T>::ghost_sources() const { return checked("arrays::SparseMatrix::ghost_sources").plan.sources; }

template <SparseElement T>
SpmvTraffic SparseMatrix<T>::traffic() const {
  const Plan<T>& p = checked("arrays::SparseMatrix::traffic").plan;
  SpmvTraffic t;
  t.ghost_entries = static_cast<Index>(p.ghosts.size());
  for (const auto& r : p.runs) t.runs += static_cast<Index>(r.size());
  t.sources = static_cast<int>(p.sources.size());
  t.bytes = p.ghosts.size() * sizeof(T);
  return t;
}

template <SparseElement T>
void SparseMatrix<T>::multiply_local(const T* x_local, T* y_local, T alpha, T beta) const {
  csr_rows(checked("arrays::SparseMatrix::multiply_local").plan.local, x_local, y_local, alpha, beta);
}
template <SparseElement T>
void SparseMatrix<T>::multiply_ghost(const T* x_ghost, T* y_local, T alpha) const {
  const Plan<T>& p = checked("arrays::SparseMatrix::multiply_ghost").plan;
  csr_rows_add(p.ghost, p.ghost_rows.data(), x_ghost, y_local, alpha);
}


template class SparseMatrix<double>;
template class SparseMatrix<std::complex<double>>;

}  // namespace armada::arrays
