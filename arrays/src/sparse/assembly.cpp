// Sparse matrices, assembly: triplets checked on every rank, sent to their rows' owners, and
// summed into this rank's rows in CSR with global columns.
#include <mpi.h>

#include <numeric>

#include "armada/rma/collectives.hpp"
#include "sparse/sparse_internal.hpp"

namespace armada::arrays::sparse_detail {

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
  rma::collective_serving(kCreate, [&](MPI_Request* r) {
    return MPI_Iallreduce(&local, &every, 1, MPI_INT, MPI_MIN, group.comm(), r);
  });
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
  rma::collective_serving(kCreate, [&](MPI_Request* r) {
    return MPI_Ialltoall(sc.data(), 1, MPI_INT, rc.data(), 1, MPI_INT, group.comm(), r);
  });
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
  try {
    rma::collective_serving(kCreate, [&](MPI_Request* r) {
      return MPI_Ialltoallv(out.data(), sc.data(), sd.data(), type, in.data(), rc.data(), rd.data(), type,
                            group.comm(), r);
    });
  } catch (...) {
    MPI_Type_free(&type);
    throw;
  }
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

#define ARMADA_SPARSE_ASSEMBLY(T)                                                                        \
  template void check_triplets<T>(const std::string&, Index, Index, std::span<const Triplet<T>>,         \
                                  const rma::Group&);                                                    \
  template std::vector<Triplet<T>> exchange_triplets<T>(const std::string&, std::span<const Triplet<T>>, \
                                                        const Distribution&, const rma::Group&, bool&);  \
  template GlobalCsr<T> assemble<T>(std::span<const Triplet<T>>, Index, Index);
ARMADA_SPARSE_ASSEMBLY(double)
ARMADA_SPARSE_ASSEMBLY(std::complex<double>)
#undef ARMADA_SPARSE_ASSEMBLY

}  // namespace armada::arrays::sparse_detail
