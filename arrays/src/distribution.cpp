#include "armada/arrays/distribution.hpp"

#include <algorithm>

#include "armada/rma/error.hpp"
#include "internal.hpp"

namespace armada::arrays {

namespace {

constexpr const char* kCreate = "arrays::create";

void check_dims(const Coord& dims) {
  if (dims.size() < 1 || dims.size() > max_ndim)
    detail::fail(kCreate, nullptr, "dims", dims.str(), "an array has 1 to 7 dimensions, not " + std::to_string(dims.size()));
  for (int d = 0; d < dims.size(); ++d)
    if (dims[d] < 1)
      detail::fail(kCreate, nullptr, "dims", dims.str(), "dims[" + std::to_string(d) + "] must be >= 1");
  detail::checked_elements(kCreate, "dims", dims);  // every later product of extents is smaller
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
    if (grid_in.size() != n)
      detail::fail(kCreate, nullptr, "grid", grid_in.str(), "needs one entry per dimension (" + std::to_string(n) + ")");
    Index total = 1;
    for (int d = 0; d < n; ++d) {
      if (grid_in[d] < 1) detail::fail(kCreate, nullptr, "grid", grid_in.str(), "every entry must be >= 1");
      if (grid_in[d] > nprocs / total)  // checked before multiplying: the product may not overflow
        detail::fail(kCreate, nullptr, "grid", grid_in.str(),
                     "needs more blocks than the group has processes (" + std::to_string(nprocs) + ")");
      total *= grid_in[d];
      if (total > nprocs)
        detail::fail(kCreate, nullptr, "grid", grid_in.str(),
                     "needs more blocks than the group has processes (" + std::to_string(nprocs) + ")");
    }
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
    dist.bounds_.push_back(std::move(b));
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
    dist.bounds_.push_back(std::move(b));
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
  if (group_rank < 0 || group_rank >= blocks_) return p;
  // Row-major block numbering: the last dimension varies fastest.
  int r = group_rank;
  for (int d = ndim() - 1; d >= 0; --d) {
    const int g = static_cast<int>(bounds(d).size()) - 1;
    const int k = r % g;
    r /= g;
    p.lo[d] = bounds(d)[static_cast<std::size_t>(k)];
    p.hi[d] = bounds(d)[static_cast<std::size_t>(k + 1)];
  }
  return p;
}

int Distribution::owner(const Coord& index) const {
  int r = 0;
  for (int d = 0; d < ndim(); ++d) {
    const auto& b = bounds(d);
    // The last block whose start is <= index (empty blocks share a start; the owner is the
    // non-empty one after them).
    const auto it = std::upper_bound(b.begin(), b.end() - 1, index[d]);
    const int k = static_cast<int>(it - b.begin()) - 1;
    r = r * (static_cast<int>(b.size()) - 1) + k;
  }
  return r;
}

}  // namespace armada::arrays
