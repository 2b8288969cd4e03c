#include "armada/arrays/distribution.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "armada/rma/error.hpp"
#include "internal.hpp"

namespace armada::arrays {

namespace {

// Boundaries, one copy per content while any distribution holds them: the arrays of one shape
// on one group share theirs.
std::shared_ptr<const std::vector<Index>> shared_bounds(std::vector<Index> bounds) {
  struct Pool {
    std::mutex mutex;
    std::unordered_multimap<std::size_t, std::weak_ptr<const std::vector<Index>>> by_hash;
    std::size_t purge_at = 64;
  };
  static Pool& pool = *new Pool;  // never destroyed: a distribution may be made during exit
  std::size_t hash = bounds.size();
  for (Index v : bounds) hash = hash * 1099511628211ull ^ static_cast<std::size_t>(v);
  std::lock_guard lock(pool.mutex);
  auto [first, last] = pool.by_hash.equal_range(hash);
  for (auto it = first; it != last; ++it)
    if (auto held = it->second.lock(); held && *held == bounds) return held;
  if (pool.by_hash.size() >= pool.purge_at) {  // forget the boundaries no distribution holds
    std::erase_if(pool.by_hash, [](const auto& entry) { return entry.second.expired(); });
    pool.purge_at = std::max<std::size_t>(64, 2 * pool.by_hash.size());
  }
  auto made = std::make_shared<const std::vector<Index>>(std::move(bounds));
  pool.by_hash.emplace(hash, made);
  return made;
}


constexpr const char* kCreate = "arrays::create";

void check_dims(const Coord& dims) {
  if (dims.size() < 1 || dims.size() > max_ndim)
    detail::fail(kCreate, nullptr, "dims", dims.str(), "an array has 1 to 7 dimensions, not " + std::to_string(dims.size()));
  for (int d = 0; d < dims.size(); ++d)
    if (dims[d] < 1)
      detail::fail(kCreate, nullptr, "dims", dims.str(), "dims[" + std::to_string(d) + "] must be >= 1");
  detail::checked_elements(kCreate, "dims", dims);  // every later product of extents is smaller
}

// A process grid argument: one entry >= 1 per dimension, product at most nprocs (`too_big` says
// what a larger one would need).
void check_grid(const char* arg, const Coord& grid, int n, int nprocs, const char* too_big) {
  if (grid.size() != n)
    detail::fail(kCreate, nullptr, arg, grid.str(), "needs one entry per dimension (" + std::to_string(n) + ")");
  Index total = 1;
  for (int d = 0; d < n; ++d) {
    if (grid[d] < 1) detail::fail(kCreate, nullptr, arg, grid.str(), "every entry must be >= 1");
    if (grid[d] > nprocs / total)  // checked before multiplying: the product may not overflow
      detail::fail(kCreate, nullptr, arg, grid.str(), std::string(too_big) + " (" + std::to_string(nprocs) + ")");
    total *= grid[d];
  }
}

std::vector<int> prime_factors(int n) {
  std::vector<int> f;
  for (int p = 2; p * p <= n; ++p)
    while (n % p == 0) { f.push_back(p); n /= p; }
  if (n > 1) f.push_back(n);
  std::sort(f.rbegin(), f.rend());
  return f;
}

}  // namespace

Distribution Distribution::regular(const Coord& dims, int nprocs, const Coord& grid_in, const Coord& chunk) {
  check_dims(dims);
  const int n = dims.size();
  if (nprocs < 1) detail::fail(kCreate, nullptr, "nprocs", std::to_string(nprocs), "must be >= 1");
  if (!chunk.empty() && chunk.size() != n)
    detail::fail(kCreate, nullptr, "chunk", chunk.str(), "needs one entry per dimension (" + std::to_string(n) + ")");
  Coord grid = Coord::filled(n, 1);
  if (!grid_in.empty()) {
    check_grid("grid", grid_in, n, nprocs, "needs more blocks than the group has processes");
    grid = grid_in;
  } else {
    // Balanced grid: hand the prime factors of nprocs, largest first, to the dimension whose
    // blocks are longest, so blocks stay close to square (less surface per volume, fewer
    // owners per patch). A chunk hint caps the blocks of a dimension; factors that fit nowhere
    // are dropped, leaving those processes without a block.
    auto cap = [&](int d) -> Index {
      const Index c = chunk.empty() ? 0 : chunk[d];
      return c > 0 ? std::max<Index>(1, dims[d] / c) : dims[d];
    };
    for (int f : prime_factors(nprocs)) {
      int best = -1;
      double best_len = 0;
      for (int d = 0; d < n; ++d) {
        if (grid[d] * f > cap(d)) continue;
        const double len = static_cast<double>(dims[d]) / static_cast<double>(grid[d]);
        if (len > best_len) { best_len = len; best = d; }
      }
      if (best >= 0) grid[best] *= f;
    }
  }
  Distribution dist;
  dist.dims_ = dims;
  dist.blocks_ = static_cast<int>(grid.product());
  for (int d = 0; d < n; ++d) {
    // Nearly equal blocks: the first dims % grid blocks are one longer.
    const Index g = grid[d], q = dims[d] / g, r = dims[d] % g;
    std::vector<Index> b(static_cast<std::size_t>(g + 1));
    for (Index k = 0; k <= g; ++k) b[static_cast<std::size_t>(k)] = k * q + std::min(k, r);
    dist.bounds_.push_back(shared_bounds(std::move(b)));
  }
  return dist;
}

Distribution Distribution::irregular(const Coord& dims, const std::vector<std::vector<Index>>& starts, int nprocs) {
  check_dims(dims);
  const int n = dims.size();
  if (static_cast<int>(starts.size()) != n)
    detail::fail(kCreate, nullptr, "block_starts", std::to_string(starts.size()) + " lists",
                 "needs one list per dimension (" + std::to_string(n) + ")");
  Distribution dist;
  dist.dims_ = dims;
  Index total = 1;
  for (int d = 0; d < n; ++d) {
    const auto& s = starts[static_cast<std::size_t>(d)];
    const std::string arg = "block_starts[" + std::to_string(d) + "]";
    if (s.empty() || s[0] != 0)
      detail::fail(kCreate, nullptr, arg, Coord(s).str(), "must start with 0");
    for (std::size_t k = 0; k < s.size(); ++k) {
      if (s[k] > dims[d])
        detail::fail(kCreate, nullptr, arg, Coord(s).str(), "entry " + std::to_string(k) + " is past dims[" +
                     std::to_string(d) + "] = " + std::to_string(dims[d]));
      if (k > 0 && s[k] < s[k - 1])
        detail::fail(kCreate, nullptr, arg, Coord(s).str(), "entries must not decrease (entry " + std::to_string(k) + ")");
    }
    if (static_cast<Index>(s.size()) > nprocs / total)
      detail::fail(kCreate, nullptr, "block_starts", "a list of " + std::to_string(s.size()) + " entries",
                   "needs more blocks than the group has processes (" + std::to_string(nprocs) + ")");
    total *= static_cast<Index>(s.size());
    if (total > nprocs)
      detail::fail(kCreate, nullptr, "block_starts", "product of list lengths " + std::to_string(total),
                   "exceeds the group's " + std::to_string(nprocs) + " processes");
    std::vector<Index> b = s;
    b.push_back(dims[d]);
    dist.bounds_.push_back(shared_bounds(std::move(b)));
  }
  dist.blocks_ = static_cast<int>(total);
  return dist;
}

Coord Distribution::grid() const {
  Coord g = Coord::filled(ndim(), 0);
  for (int d = 0; d < ndim(); ++d) g[d] = static_cast<Index>(bounds(d).size()) - 1;
  return g;
}

Patch Distribution::block(int group_rank) const {
  Patch p{Coord::filled(ndim(), 0), Coord::filled(ndim(), 0)};
  if (cyclic() || group_rank < 0 || group_rank >= blocks_) return p;
  // Row-major block numbering: the last dimension varies fastest.
  Coord k = Coord::filled(ndim(), 0);
  int r = group_rank;
  for (int d = ndim() - 1; d >= 0; --d) {
    const int g = static_cast<int>(bounds(d).size()) - 1;
    k[d] = r % g;
    r /= g;
  }
  return block_patch(k);
}

Coord Distribution::block_of(const Coord& index) const {
  Coord k = Coord::filled(ndim(), 0);
  for (int d = 0; d < ndim(); ++d) {
    const auto& b = bounds(d);
    // The last block whose start is <= index (empty blocks share a start; the owner is the
    // non-empty one after them).
    const auto it = std::upper_bound(b.begin(), b.end() - 1, index[d]);
    k[d] = static_cast<Index>(it - b.begin()) - 1;
  }
  return k;
}

Patch Distribution::block_patch(const Coord& k) const {
  Patch p{Coord::filled(ndim(), 0), Coord::filled(ndim(), 0)};
  for (int d = 0; d < ndim(); ++d) {
    p.lo[d] = bounds(d)[static_cast<std::size_t>(k[d])];
    p.hi[d] = bounds(d)[static_cast<std::size_t>(k[d] + 1)];
  }
  return p;
}

int Distribution::owner(const Coord& index) const { return block_owner(block_of(index)); }

Coord Distribution::grid_coords(int group_rank) const {
  const int n = ndim();
  if (group_rank < 0 || group_rank >= pgrid_.product()) return {};
  Coord p = Coord::filled(n, 0);
  Index r = group_rank;
  for (int d = n - 1; d >= 0; --d) {
    p[d] = r % pgrid_[d];
    r /= pgrid_[d];
  }
  return p;
}

Index Distribution::owned_along(int d, Index p) const {
  const Index nb = static_cast<Index>(bounds(d).size()) - 1;
  return p < nb ? (nb - p + pgrid_[d] - 1) / pgrid_[d] : 0;
}

namespace {
Index row_major(const Coord& k, const Coord& extents) {
  Index r = 0;
  for (int d = 0; d < k.size(); ++d) r = r * extents[d] + k[d];
  return r;
}
Coord from_row_major(Index r, const Coord& extents) {
  Coord k = Coord::filled(extents.size(), 0);
  for (int d = extents.size() - 1; d >= 0; --d) {
    k[d] = r % extents[d];
    r /= extents[d];
  }
  return k;
}
}  // namespace

int Distribution::block_owner(const Coord& k) const {
  switch (layout_) {
    case Layout::blocks: return static_cast<int>(row_major(k, grid()));
    case Layout::cyclic: return static_cast<int>(row_major(k, grid()) % procs_);
    case Layout::proc_grid:
    case Layout::tiled: {
      Coord p = k;
      for (int d = 0; d < ndim(); ++d) p[d] = k[d] % pgrid_[d];
      return static_cast<int>(row_major(p, pgrid_));
    }
  }
  return 0;
}

std::vector<Coord> Distribution::blocks_of(int group_rank) const {
  std::vector<Coord> out;
  const Coord g = grid();
  if (layout_ == Layout::blocks) {
    if (!block(group_rank).empty()) out.push_back(from_row_major(group_rank, g));
  } else if (layout_ == Layout::cyclic) {
    for (Index b = group_rank; group_rank >= 0 && b < blocks_; b += procs_) out.push_back(from_row_major(b, g));
  } else {
    const Coord p = grid_coords(group_rank);
    if (p.empty()) return out;
    Coord n = p;
    for (int d = 0; d < ndim(); ++d) n[d] = owned_along(d, p[d]);
    for (Index l = 0; l < n.product(); ++l) {
      Coord k = from_row_major(l, n);
      for (int d = 0; d < ndim(); ++d) k[d] = p[d] + k[d] * pgrid_[d];
      out.push_back(k);
    }
  }
  return out;
}

Coord Distribution::local_shape(int group_rank) const {
  if (layout_ == Layout::blocks) return block(group_rank).extents();
  if (layout_ != Layout::proc_grid) return {};
  Coord p = grid_coords(group_rank), s = Coord::filled(ndim(), 0);
  if (p.empty()) return s;
  for (int d = 0; d < ndim(); ++d) {
    const Index nb = static_cast<Index>(bounds(d).size()) - 1, owned = owned_along(d, p[d]);
    s[d] = owned * block_[d];
    // The array's last block along d may be cut short: then it is this rank's last one.
    if (owned > 0 && (nb - 1) % pgrid_[d] == p[d]) s[d] -= nb * block_[d] - dims_[d];
  }
  return s;
}

Index Distribution::local_elements(int group_rank) const {
  if (layout_ == Layout::blocks || layout_ == Layout::proc_grid) return local_shape(group_rank).product();
  return static_cast<Index>(blocks_of(group_rank).size()) * block_.product();
}

Index Distribution::local_offset(const Coord& k) const {
  switch (layout_) {
    case Layout::blocks: return 0;
    case Layout::cyclic: return row_major(k, grid()) / procs_ * block_.product();
    case Layout::tiled: {
      Coord l = k, n = k;
      for (int d = 0; d < ndim(); ++d) {
        l[d] = k[d] / pgrid_[d];
        n[d] = owned_along(d, k[d] % pgrid_[d]);
      }
      return row_major(l, n) * block_.product();
    }
    case Layout::proc_grid: {
      const Coord stride = local_strides(k);
      Index off = 0;
      for (int d = 0; d < ndim(); ++d) off += k[d] / pgrid_[d] * block_[d] * stride[d];
      return off;
    }
  }
  return 0;
}

Coord Distribution::local_strides(const Coord& k) const {
  Coord ext = block_;
  if (layout_ == Layout::blocks) ext = block_patch(k).extents();
  if (layout_ == Layout::proc_grid) ext = local_shape(block_owner(k));
  Coord s = Coord::filled(ndim(), 1);
  for (int d = ndim() - 2; d >= 0; --d) s[d] = s[d + 1] * ext[d + 1];
  return s;
}

std::string Distribution::str() const {
  switch (layout_) {
    case Layout::blocks: {
      std::string s = "blocks";
      for (int d = 0; d < ndim(); ++d) {
        std::vector<Index> starts(bounds(d).begin(), bounds(d).end() - 1);
        s += " " + Coord(starts).str();
      }
      return s;
    }
    case Layout::cyclic: return "block-cyclic " + block_.str() + " over " + std::to_string(procs_) + " processes";
    case Layout::proc_grid: return "block-cyclic " + block_.str() + " on process grid " + pgrid_.str();
    case Layout::tiled: return "tiled " + block_.str() + " on process grid " + pgrid_.str();
  }
  return {};
}

Distribution Distribution::cyclic_base(const Coord& dims, const Coord& block, int nprocs) {
  check_dims(dims);
  const int n = dims.size();
  if (nprocs < 1) detail::fail(kCreate, nullptr, "nprocs", std::to_string(nprocs), "must be >= 1");
  if (block.size() != n)
    detail::fail(kCreate, nullptr, "block", block.str(), "needs one entry per dimension (" + std::to_string(n) + ")");
  Distribution dist;
  dist.dims_ = dims;
  dist.block_ = block;
  dist.procs_ = nprocs;
  Index total = 1;
  for (int d = 0; d < n; ++d) {
    if (block[d] < 1) detail::fail(kCreate, nullptr, "block", block.str(), "every entry must be >= 1");
    dist.block_[d] = std::min(block[d], dims[d]);  // the same layout, without padding past the array
    const Index nb = (dims[d] + block[d] - 1) / block[d];
    if (nb > std::numeric_limits<int>::max() / total)
      detail::fail(kCreate, nullptr, "block", block.str(), "cuts dims " + dims.str() + " into more than 2^31 - 1 blocks");
    total *= nb;
    std::vector<Index> b(static_cast<std::size_t>(nb + 1));
    for (Index k = 0; k <= nb; ++k) b[static_cast<std::size_t>(k)] = std::min(k * block[d], dims[d]);
    dist.bounds_.push_back(shared_bounds(std::move(b)));
  }
  dist.blocks_ = static_cast<int>(total);
  return dist;
}

Distribution Distribution::block_cyclic(const Coord& dims, const Coord& block, int nprocs) {
  Distribution dist = cyclic_base(dims, block, nprocs);
  dist.layout_ = Layout::cyclic;
  return dist;
}

Distribution Distribution::block_cyclic(const Coord& dims, const Coord& block, const Coord& proc_grid, int nprocs,
                                        bool tiled) {
  Distribution dist = cyclic_base(dims, block, nprocs);
  check_grid("proc_grid", proc_grid, dims.size(), nprocs, "needs more processes than the group has");
  dist.layout_ = tiled ? Layout::tiled : Layout::proc_grid;
  dist.pgrid_ = proc_grid;
  return dist;
}

}  // namespace armada::arrays
