// Distributed sparse matrices: assembly from triplets, the per-column-distribution plan (which
// x entries are local, which are ghosts, in which runs they are fetched), the CSR kernels, and
// the two products.
#include "armada/arrays/sparse.hpp"

#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstring>
#include <numeric>

#include "armada/rma/collectives.hpp"
#include "armada/rma/runtime.hpp"
#include "armada/arrays/collective.hpp"
#include "armada/rma/sync.hpp"
#include "armada/rma/transfer.hpp"
#include "internal.hpp"

namespace armada::arrays {

namespace {

constexpr const char* kCreate = "arrays::SparseMatrix::create";
constexpr const char* kSpmv = "arrays::spmv";
constexpr const char* kSpmvT = "arrays::spmv_transposed";
constexpr const char* kPlan = "arrays::SparseMatrix::plan_for";

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
int owner_1d(const Distribution& d, Index i) {
  const auto& b = d.bounds(0);
  return static_cast<int>(std::upper_bound(b.begin(), b.end(), i) - b.begin()) - 1;
}

std::pair<Index, Index> block_1d(const Distribution& d, int group_rank) {
  const Patch p = d.block(group_rank);
  if (p.empty()) return {0, 0};
  return {p.lo[0], p.hi[0]};
}

[[noreturn]] void fail(const char* op, const std::string& what, const std::string& arg, const std::string& value,
                       const std::string& reason) {
  throw rma::InvalidArgument(op, arg, value, what.empty() ? reason : what + ": " + reason);
}

Distribution make_row_distribution(const std::string& what, Index rows, const std::vector<Index>& starts, int nprocs) {
  if (starts.empty()) return Distribution::regular({rows}, nprocs);
  const std::string list = Coord(std::span<const Index>(starts.data(), std::min<std::size_t>(starts.size(), max_ndim))).str();
  if (static_cast<int>(starts.size()) > nprocs)
    fail(kCreate, what, "row_starts", list, std::to_string(starts.size()) + " blocks for a group of " + std::to_string(nprocs) + " ranks");
  if (starts[0] != 0) fail(kCreate, what, "row_starts", list, "must start with 0");
  for (std::size_t k = 1; k < starts.size(); ++k)
    if (starts[k] < starts[k - 1] || starts[k] > rows)
      fail(kCreate, what, "row_starts", list, "entry " + std::to_string(k) + " = " + std::to_string(starts[k]) +
           " must lie in [entry " + std::to_string(k - 1) + ", rows = " + std::to_string(rows) + "]");
  return Distribution::irregular({rows}, {starts}, nprocs);
}

// ---- assembly ----------------------------------------------------------------------------------

// "triplets[i] = (row, col): ... <what> <index> is outside [0, <extent>)". Built by appending:
// GCC 12 reports a false -Wrestrict on the equivalent chain of operator+ when inlined.
[[noreturn]] void bad_triplet(const std::string& what, std::size_t i, Index row, Index col, const char* which,
                              Index index, Index extent) {
  std::string arg = "triplets[", value = "(", reason = which;
  arg.append(std::to_string(i)).append("]");
  value.append(std::to_string(row)).append(", ").append(std::to_string(col)).append(")");
  reason.append(" ").append(std::to_string(index)).append(" is outside [0, ").append(std::to_string(extent)).append(")");
  fail(kCreate, what, arg, value, reason);
}

// Every rank learns whether a triplet was out of bounds anywhere, before any data moves: the
// rank that passed it reports it, the others name that rank and repeat its message (rma::agree).
template <class T>
void check_triplets(const std::string& what, Index rows, Index cols, std::span<const Triplet<T>> t,
                    const rma::Group& group) {
  rma::agree(kCreate, [&] {
    for (std::size_t i = 0; i < t.size(); ++i) {
      const auto& b = t[i];
      const bool row_bad = b.row < 0 || b.row >= rows;
      if (!row_bad && b.col >= 0 && b.col < cols) continue;
      bad_triplet(what, i, b.row, b.col, row_bad ? "row" : "column", row_bad ? b.row : b.col, row_bad ? rows : cols);
    }
  }, group);
}

// Sends every triplet to its row's owner (skipped when every rank holds only its own rows).
template <class T>
std::vector<Triplet<T>> exchange_triplets(const std::string& what, std::span<const Triplet<T>> t,
                                          const Distribution& rows, const rma::Group& group, bool& all_local) {
  const int n = group.size(), me = group.rank();
  std::vector<std::size_t> count(static_cast<std::size_t>(n), 0);
  std::vector<int> dest(t.size());
  for (std::size_t i = 0; i < t.size(); ++i) ++count[static_cast<std::size_t>(dest[i] = owner_1d(rows, t[i].row))];
  int local = count[static_cast<std::size_t>(me)] == t.size() ? 1 : 0, every = 0;
  MPI_Allreduce(&local, &every, 1, MPI_INT, MPI_MIN, group.comm());
  all_local = every != 0;
  if (all_local) return {};
  std::vector<int> sc(static_cast<std::size_t>(n)), rc(static_cast<std::size_t>(n)), sd(static_cast<std::size_t>(n) + 1, 0),
      rd(static_cast<std::size_t>(n) + 1, 0);
  // MPI counts and displacements are int: at most 2^31 - 1 triplets sent and received per rank.
  rma::agree(kCreate, [&] {
    if (t.size() > static_cast<std::size_t>(INT_MAX))
      fail(kCreate, what, "triplets", std::to_string(t.size()) + " entries", "more than 2^31 - 1 triplets from one rank");
  }, group);
  for (int p = 0; p < n; ++p) sc[static_cast<std::size_t>(p)] = static_cast<int>(count[static_cast<std::size_t>(p)]);
  MPI_Alltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, group.comm());
  rma::agree(kCreate, [&] {
    std::int64_t received = 0;
    for (int c : rc) received += c;
    if (received > INT_MAX)
      fail(kCreate, what, "triplets", std::to_string(received) + " entries for this rank's rows",
           "more than 2^31 - 1 triplets for one rank's rows");
  }, group);
  for (int p = 0; p < n; ++p) {
    sd[static_cast<std::size_t>(p) + 1] = sd[static_cast<std::size_t>(p)] + sc[static_cast<std::size_t>(p)];
    rd[static_cast<std::size_t>(p) + 1] = rd[static_cast<std::size_t>(p)] + rc[static_cast<std::size_t>(p)];
  }
  std::vector<Triplet<T>> out(t.size()), in(static_cast<std::size_t>(rd[static_cast<std::size_t>(n)]));
  std::vector<int> cursor(sd.begin(), sd.end() - 1);
  for (std::size_t i = 0; i < t.size(); ++i) out[static_cast<std::size_t>(cursor[static_cast<std::size_t>(dest[i])]++)] = t[i];
  MPI_Datatype type;
  MPI_Type_contiguous(static_cast<int>(sizeof(Triplet<T>)), MPI_BYTE, &type);
  MPI_Type_commit(&type);
  MPI_Alltoallv(out.data(), sc.data(), sd.data(), type, in.data(), rc.data(), rd.data(), type, group.comm());
  MPI_Type_free(&type);
  return in;
}

// The local rows [r0, r1) in CSR with global columns: entries ordered by column, duplicates
// summed in the order they were passed.
template <class T>
GlobalCsr<T> assemble(std::span<const Triplet<T>> t, Index r0, Index r1) {
  const std::size_t nrows = static_cast<std::size_t>(r1 - r0);
  GlobalCsr<T> c;
  c.ptr.assign(nrows + 1, 0);
  for (const auto& e : t) ++c.ptr[static_cast<std::size_t>(e.row - r0) + 1];
  std::partial_sum(c.ptr.begin(), c.ptr.end(), c.ptr.begin());
  c.col.resize(t.size());
  c.val.resize(t.size());
  std::vector<std::int64_t> cursor(c.ptr.begin(), c.ptr.end() - 1);
  for (const auto& e : t) {
    const auto k = static_cast<std::size_t>(cursor[static_cast<std::size_t>(e.row - r0)]++);
    c.col[k] = e.col;
    c.val[k] = e.value;
  }
  // Per row: stable sort by column, then merge equal columns; compact in place.
  std::vector<std::pair<Index, T>> row;
  std::int64_t w = 0;
  for (std::size_t r = 0; r < nrows; ++r) {
    const auto b = static_cast<std::size_t>(c.ptr[r]), e = static_cast<std::size_t>(c.ptr[r + 1]);
    row.clear();
    for (std::size_t k = b; k < e; ++k) row.emplace_back(c.col[k], c.val[k]);
    std::stable_sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    c.ptr[r] = w;
    for (std::size_t k = 0; k < row.size(); ++k) {
      if (k > 0 && row[k].first == row[k - 1].first) {
        c.val[static_cast<std::size_t>(w - 1)] += row[k].second;
      } else {
        c.col[static_cast<std::size_t>(w)] = row[k].first;
        c.val[static_cast<std::size_t>(w)] = row[k].second;
        ++w;
      }
    }
  }
  c.ptr[nrows] = w;
  c.col.resize(static_cast<std::size_t>(w));
  c.val.resize(static_cast<std::size_t>(w));
  c.col.shrink_to_fit();
  c.val.shrink_to_fit();
  return c;
}

// ---- the plan ----------------------------------------------------------------------------------

// The sorted, distinct columns outside [xlo, xhi) that the rows touch.
template <class T>
std::vector<Index> ghost_columns_of(const GlobalCsr<T>& g, Index xlo, Index xhi) {
  std::vector<Index> ghosts;
  for (Index c : g.col)
    if (c < xlo || c >= xhi) ghosts.push_back(c);
  std::sort(ghosts.begin(), ghosts.end());
  ghosts.erase(std::unique(ghosts.begin(), ghosts.end()), ghosts.end());
  return ghosts;
}

// Ghost slots grouped by owner, and each owner's slots cut into runs of consecutive columns.
template <class T>
void plan_sources(Plan<T>& p, const rma::Group& group) {
  for (std::size_t s = 0; s < p.ghosts.size();) {
    const int owner = owner_1d(p.columns, p.ghosts[s]);
    const Index end = p.columns.bounds(0)[static_cast<std::size_t>(owner) + 1];
    std::size_t e = s;
    std::vector<Run> runs;
    while (e < p.ghosts.size() && p.ghosts[e] < end) {
      if (!runs.empty() && runs.back().col + runs.back().length == p.ghosts[e]) ++runs.back().length;
      else runs.push_back({p.ghosts[e], 1, static_cast<Index>(e)});
      ++e;
    }
    p.sources.push_back({group.world_rank(owner), static_cast<Index>(s), static_cast<Index>(e - s)});
    p.source_group_rank.push_back(owner);
    p.runs.push_back(std::move(runs));
    s = e;
  }
}

template <class T>
Plan<T> build_plan(const std::string& what, const Distribution& columns, const GlobalCsr<T>& g, const rma::Group& group) {
  Plan<T> p;
  p.columns = columns;
  std::tie(p.xlo, p.xhi) = block_1d(columns, group.rank());
  p.ghosts = ghost_columns_of(g, p.xlo, p.xhi);
  if (p.xhi - p.xlo > kLocalMax || static_cast<Index>(p.ghosts.size()) > kLocalMax ||
      static_cast<Index>(g.rows()) > kLocalMax)
    fail(kPlan, what, "columns", "block [" + std::to_string(p.xlo) + ", " + std::to_string(p.xhi) + ")",
         "a rank's rows, columns or ghost entries exceed 2^31 - 1");
  plan_sources(p, group);
  p.local.ptr.reserve(g.rows() + 1);
  for (std::size_t r = 0; r < g.rows(); ++r) {
    bool has_ghosts = false;
    for (auto k = static_cast<std::size_t>(g.ptr[r]); k < static_cast<std::size_t>(g.ptr[r + 1]); ++k) {
      const Index c = g.col[k];
      if (c >= p.xlo && c < p.xhi) {
        p.local.col.push_back(static_cast<Local>(c - p.xlo));
        p.local.val.push_back(g.val[k]);
      } else {
        const auto slot = std::lower_bound(p.ghosts.begin(), p.ghosts.end(), c) - p.ghosts.begin();
        p.ghost.col.push_back(static_cast<Local>(slot));
        p.ghost.val.push_back(g.val[k]);
        has_ghosts = true;
      }
    }
    p.local.ptr.push_back(static_cast<std::int64_t>(p.local.col.size()));
    if (has_ghosts) {
      p.ghost.ptr.push_back(static_cast<std::int64_t>(p.ghost.col.size()));
      p.ghost_rows.push_back(static_cast<Local>(r));
    }
  }
  p.local.col.narrow_if_within(p.xhi - p.xlo);
  p.ghost.col.narrow_if_within(static_cast<Index>(p.ghosts.size()));
  return p;
}

// The plan's entries back in global columns (to plan for another distribution).
template <class T>
GlobalCsr<T> global_rows(const Plan<T>& p) {
  GlobalCsr<T> g;
  const std::size_t nrows = p.local.rows();
  g.ptr.assign(nrows + 1, 0);
  std::vector<std::pair<Index, T>> row;
  std::size_t gi = 0;
  for (std::size_t r = 0; r < nrows; ++r) {
    row.clear();
    for (auto k = static_cast<std::size_t>(p.local.ptr[r]); k < static_cast<std::size_t>(p.local.ptr[r + 1]); ++k)
      row.emplace_back(p.xlo + p.local.col[k], p.local.val[k]);
    if (gi < p.ghost_rows.size() && static_cast<std::size_t>(p.ghost_rows[gi]) == r) {
      for (auto k = static_cast<std::size_t>(p.ghost.ptr[gi]); k < static_cast<std::size_t>(p.ghost.ptr[gi + 1]); ++k)
        row.emplace_back(p.ghosts[static_cast<std::size_t>(p.ghost.col[k])], p.ghost.val[k]);
      ++gi;
    }
    std::sort(row.begin(), row.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    for (const auto& [c, v] : row) {
      g.col.push_back(c);
      g.val.push_back(v);
    }
    g.ptr[r + 1] = static_cast<std::int64_t>(g.col.size());
  }
  return g;
}

// ---- kernels -----------------------------------------------------------------------------------

// sum_k val[k] x[col[k]] over [b, e), in four interleaved partial sums: a single running sum
// would make every addition wait for the previous one (the loop would be latency bound).
template <class T, class C>
inline T row_dot(const T* __restrict val, const C* __restrict col, const T* __restrict x, std::int64_t b,
                 std::int64_t e) {
  T s0(0), s1(0), s2(0), s3(0);
  std::int64_t k = b;
  for (; k + 4 <= e; k += 4) {
    s0 = mul_add(val[k], x[col[k]], s0);
    s1 = mul_add(val[k + 1], x[col[k + 1]], s1);
    s2 = mul_add(val[k + 2], x[col[k + 2]], s2);
    s3 = mul_add(val[k + 3], x[col[k + 3]], s3);
  }
  for (; k < e; ++k) s0 = mul_add(val[k], x[col[k]], s0);
  return (s0 + s1) + (s2 + s3);
}

// y[r] = alpha * (row r of c) . x + beta * y[r] for every row of c.
template <class T>
void csr_rows(const PlanCsr<T>& c, const T* __restrict x, T* __restrict y, T alpha, T beta) {
  const std::int64_t* ptr = c.ptr.data();
  const std::size_t n = c.rows();
  const bool overwrite = is_zero(beta);
  c.col.with_indices([&](const auto* col) {
    for (std::size_t r = 0; r < n; ++r) {
      const T sum = row_dot(c.val.data(), col, x, ptr[r], ptr[r + 1]);
      y[r] = overwrite ? mul(alpha, sum) : mul_add(beta, y[r], mul(alpha, sum));
    }
  });
}

// y[rows[i]] += alpha * (row i of c) . x
template <class T>
void csr_rows_add(const PlanCsr<T>& c, const Local* rows, const T* __restrict x, T* __restrict y, T alpha) {
  const std::int64_t* ptr = c.ptr.data();
  c.col.with_indices([&](const auto* col) {
    for (std::size_t i = 0; i < c.rows(); ++i)
      y[rows[i]] = mul_add(alpha, row_dot(c.val.data(), col, x, ptr[i], ptr[i + 1]), y[rows[i]]);
  });
}

// y[col[k]] += alpha * val[k] * x[row]: the transposed product of c's rows (rows[i] names the
// local row of c's row i; null: the identity).
template <class T>
void csr_transposed_add(const PlanCsr<T>& c, const Local* rows, const T* __restrict x, T* __restrict y, T alpha) {
  c.col.with_indices([&](const auto* col) {
    for (std::size_t i = 0; i < c.rows(); ++i) {
      const T xa = mul(alpha, x[rows ? static_cast<std::size_t>(rows[i]) : i]);
      for (auto k = static_cast<std::size_t>(c.ptr[i]); k < static_cast<std::size_t>(c.ptr[i + 1]); ++k)
        y[col[k]] = mul_add(c.val[k], xa, y[col[k]]);
    }
  });
}

}  // namespace

// ---- the matrix ----------------------------------------------------------------------------------

template <SparseElement T>
struct SparseMatrix<T>::Impl {
  std::string name;
  Index rows = 0, cols = 0;
  rma::Group group{nullptr};
  Distribution row_dist;
  Index r0 = 0, r1 = 0;
  Plan<T> plan;
  std::uint64_t plan_version = 1;
  std::vector<T> ghost_values;  // one per ghost slot: fetched x (spmv) or contributions (transposed)
  Transfer fetch, send;
  std::string what() const { return "sparse matrix '" + name + "' (" + std::to_string(rows) + " x " + std::to_string(cols) + ")"; }
};

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

// ---- products --------------------------------------------------------------------------------------
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
    const Block& b = a.blocks[static_cast<std::size_t>(p.source_group_rank[s])];
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
  MPI_Barrier(m.group.comm());
  prepare(m.send, p, m.plan_version, ya, m.ghost_values.data(), false);
  for (auto& h : issue(m.send, p, false)) h.wait();
  y.sync();
}

template class SparseMatrix<double>;
template class SparseMatrix<std::complex<double>>;
template void spmv(SparseMatrix<double>&, const GlobalArray<double>&, GlobalArray<double>&, double, double);
template void spmv(SparseMatrix<std::complex<double>>&, const GlobalArray<std::complex<double>>&,
                   GlobalArray<std::complex<double>>&, std::complex<double>, std::complex<double>);
template void spmv_transposed(SparseMatrix<double>&, const GlobalArray<double>&, GlobalArray<double>&, double, double);
template void spmv_transposed(SparseMatrix<std::complex<double>>&, const GlobalArray<std::complex<double>>&,
                              GlobalArray<std::complex<double>>&, std::complex<double>, std::complex<double>);

}  // namespace armada::arrays
