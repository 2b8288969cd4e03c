// Sparse matrices, the plan for one column distribution: which x entries are local, which are
// ghosts, from which owner and in which runs of consecutive columns they are fetched.
#include "sparse/sparse_internal.hpp"

namespace armada::arrays::sparse_detail {
namespace {

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

}  // namespace

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

#define ARMADA_SPARSE_PLAN(T)                                                                  \
  template Plan<T> build_plan<T>(const std::string&, const Distribution&, const GlobalCsr<T>&, \
                                 const rma::Group&);                                           \
  template GlobalCsr<T> global_rows<T>(const Plan<T>&);
ARMADA_SPARSE_PLAN(double)
ARMADA_SPARSE_PLAN(std::complex<double>)
#undef ARMADA_SPARSE_PLAN

}  // namespace armada::arrays::sparse_detail
