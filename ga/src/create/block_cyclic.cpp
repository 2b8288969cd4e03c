// GA's block-cyclic arrays: the layout (block_cyclic.hpp), creation, the regular copies that
// collective operations run on, and patch transfers cut at block edges.
#include "create/block_cyclic.hpp"

#include "base/types.hpp"
#include "groups/groups.hpp"
#include "memory/accounting.hpp"
#include "movement/local.hpp"

#include <algorithm>

using namespace armada;
using namespace armada::ga;

namespace {

Index ceil_div(Index a, Index b) { return (a + b - 1) / b; }

/// Blocks j of 0 .. n-1 with j % g == p.
Index cyclic_count(Index n, Index g, Index p) { return n > p ? (n - 1 - p) / g + 1 : 0; }

/// Elements of dimension d that grid coordinate p holds in the proc-grid layout.
Index grid_extent(const BlockCyclic& bc, int d, Index p) {
  Index n = 0;
  for (Index j = p; j < bc.nblocks[d]; j += bc.grid[d])
    n += std::min(bc.block[d], bc.dims[d] - j * bc.block[d]);
  return n;
}

}  // namespace

namespace armada::ga {

Coord BlockCyclic::coords_of(Index b) const {
  Coord c = Coord::filled(ndim(), 0);
  for (int d = ndim() - 1; d >= 0; --d) {
    c[d] = b % nblocks[d];
    b /= nblocks[d];
  }
  return c;
}

Index BlockCyclic::number_of(const Coord& c) const {
  Index b = 0;
  for (int d = 0; d < ndim(); ++d) b = b * nblocks[d] + c[d];
  return b;
}

arrays::Patch BlockCyclic::bounds(const Coord& c) const {
  arrays::Patch p{c, c};
  for (int d = 0; d < ndim(); ++d) {
    p.lo[d] = c[d] * block[d];
    p.hi[d] = std::min(dims[d], p.lo[d] + block[d]);
  }
  return p;
}

int BlockCyclic::owner(const Coord& c) const {
  if (!uses_grid()) return static_cast<int>(number_of(c) % nprocs());
  Index r = 0;
  for (int d = 0; d < ndim(); ++d) r = r * grid[d] + c[d] % grid[d];
  return static_cast<int>(r);
}

arrays::Patch BlockCyclic::storage_patch(const Coord& c, const arrays::Patch& box) const {
  const int n = ndim();
  if (!block_rows()) {
    arrays::Patch s = box;
    for (int d = 0; d < n; ++d) {
      const Index p = c[d] % grid[d], local = c[d] / grid[d];
      s.lo[d] = grid_starts[static_cast<std::size_t>(d)][static_cast<std::size_t>(p)] + local * block[d] +
                (box.lo[d] - c[d] * block[d]);
      s.hi[d] = s.lo[d] + (box.hi[d] - box.lo[d]);
    }
    return s;
  }
  const int p = owner(c);
  Index row = local_row(c);
  for (int q = 0; q < p; ++q) row += blocks_of(q);
  arrays::Patch s{Coord::filled(n + 1, 0), Coord::filled(n + 1, 0)};
  s.lo[0] = row;
  s.hi[0] = row + 1;
  for (int d = 0; d < n; ++d) {
    s.lo[d + 1] = box.lo[d] - c[d] * block[d];
    s.hi[d + 1] = box.hi[d] - c[d] * block[d];
  }
  return s;
}

Index BlockCyclic::blocks_of(int p) const {
  if (!uses_grid()) return cyclic_count(total(), nprocs(), p);
  // Grid coordinates of p (row-major), and the tiles each holds in its dimension.
  Index n = 1, rest = p;
  for (int d = ndim() - 1; d >= 0; --d) {
    n *= cyclic_count(nblocks[d], grid[d], rest % grid[d]);
    rest /= grid[d];
  }
  return n;
}

Index BlockCyclic::local_row(const Coord& c) const {
  if (!uses_grid()) return number_of(c) / nprocs();
  // Row-major over the owner's tiles: tile c[d] is its (c[d] / grid[d])-th in dimension d.
  Index row = 0;
  for (int d = 0; d < ndim(); ++d) row = row * cyclic_count(nblocks[d], grid[d], c[d] % grid[d]) + c[d] / grid[d];
  return row;
}

std::vector<Coord> BlockCyclic::local_blocks() const {
  std::vector<Coord> mine;
  if (!store.group().is_member()) return mine;
  const int me = store.group().rank();
  for (Index b = 0; b < total(); ++b)
    if (owner(coords_of(b)) == me) mine.push_back(coords_of(b));
  return mine;
}

BlockCyclic plan_layout(const char* function, const Plan& plan, int nprocs) {
  BlockCyclic bc;
  const int n = plan.dims.size();
  bc.dims = plan.dims;
  bc.block = plan.cyclic_block;
  bc.grid = plan.cyclic_grid;
  bc.tiled = plan.cyclic_tiled;
  bc.procs = nprocs;
  if (bc.block.size() != n || (bc.uses_grid() && bc.grid.size() != n))
    bad_argument(function, "g_a", "(blocks " + bc.block.str() + ", dims " + bc.dims.str() + ")",
                 "the block-cyclic layout was set for another number of dimensions (NGA_Set_data came after it)");
  for (int d = 0; d < plan.ghosts.size(); ++d)
    if (plan.ghosts[d] > 0)
      bad_argument(function, "g_a", "(ghost widths " + plan.ghosts.str() + ")", "a block-cyclic array has no ghost cells");
  if (!plan.block_starts.empty())
    bad_argument(function, "g_a", "(GA_Set_irreg_distr)", "an irregular map and a block-cyclic layout exclude each other");
  if (bc.block_rows() && n + 1 > arrays::max_ndim)
    bad_argument(function, "ndim", std::to_string(n), "the simple and tiled layouts take at most 6 dimensions");
  if (bc.uses_grid() && bc.grid.product() != nprocs)
    bad_argument(function, "proc_grid", bc.grid.str(),
                 "its product must be the number of processes (" + std::to_string(nprocs) + ")");
  bc.nblocks = bc.dims;
  for (int d = 0; d < n; ++d) bc.nblocks[d] = ceil_div(bc.dims[d], bc.block[d]);
  if (!bc.block_rows())
    for (int d = 0; d < n; ++d) {
      std::vector<Index> starts{0};
      for (Index p = 0; p + 1 < bc.grid[d]; ++p) starts.push_back(starts.back() + grid_extent(bc, d, p));
      bc.grid_starts.push_back(std::move(starts));
    }
  return bc;
}

Coord storage_dims(const BlockCyclic& bc) {
  if (!bc.block_rows()) return bc.dims;
  Coord s = Coord::filled(bc.ndim() + 1, bc.total());
  for (int d = 0; d < bc.ndim(); ++d) s[d + 1] = bc.block[d];
  return s;
}

std::vector<std::vector<Index>> storage_starts(const BlockCyclic& bc) {
  if (!bc.block_rows()) return bc.grid_starts;
  std::vector<std::vector<Index>> starts{{0}};
  for (int p = 0; p + 1 < bc.nprocs(); ++p) starts[0].push_back(starts[0].back() + bc.blocks_of(p));
  for (int d = 0; d < bc.ndim(); ++d) starts.push_back({0});
  return starts;
}

}  // namespace armada::ga

// ---- creation -----------------------------------------------------------------------------------

int armada::ga::create_block_cyclic(const char* function, const Plan& plan) {
  const ElemType type = elem_type(function, plan.type);
  for (int d = 0; d < plan.dims.size(); ++d)
    if (plan.dims[d] < 1)
      bad_argument(function, "dims[" + std::to_string(d) + "]", std::to_string(plan.dims[d]), "must be >= 1");
  const rma::Group g = group(function, plan.pgroup_set ? plan.pgroup : default_pgroup());
  BlockCyclic bc = plan_layout(function, plan, g.size());
  arrays::ArrayOptions options;
  options.name = plan.name;
  options.group = g;
  options.block_starts = storage_starts(bc);
  const Coord sdims = storage_dims(bc);
  std::size_t bytes = 0;
  if (g.is_member()) {
    const arrays::Distribution dist = arrays::Distribution::irregular(sdims, options.block_starts, g.size());
    bytes = block_bytes(dist.block(g.rank()), {}, type);
    if (!charge_memory(g, bytes, MemoryUse::array)) return 0;
  }
  try {
    bc.store = Array::create(type, sdims, options);
    return adopt_block_cyclic(std::move(bc), plan.type, bytes);
  } catch (...) {
    refund_memory(bytes, MemoryUse::array);
    throw;
  }
}

// ---- local blocks and regular copies ------------------------------------------------------------

namespace {

/// Block c of this process in its local storage view v: where its valid elements start, and
/// GA's ld of them (the storage's extents of dimensions 1 .. ndim-1).
struct LocalBlock {
  std::byte* data;
  Coord ld;
};

LocalBlock local_block(const BlockCyclic& bc, const arrays::LocalView<void>& v, const Coord& c) {
  const arrays::Patch s = bc.storage_patch(c, bc.bounds(c));
  Index offset = 0;
  for (int d = 0; d < s.lo.size(); ++d) offset += (s.lo[d] - v.lo[d]) * v.stride[d];
  const int shift = bc.block_rows() ? 1 : 0;  // storage dimension of the array's dimension 0
  Coord ld = Coord::filled(std::max(0, bc.ndim() - 1), 0);
  for (int d = 0; d + 1 < bc.ndim(); ++d) ld[d] = v.stride[d + shift] / v.stride[d + shift + 1];
  return {static_cast<std::byte*>(v.data) + offset * static_cast<Index>(bc.store.element_size()), ld};
}

/// Moves every local block of bc to (to_regular) or from regular array r, then syncs the group.
void copy_blocks(BlockCyclic& bc, Array& r, bool to_regular) {
  const bool owns = !bc.store.owned().empty();
  if (owns) {
    const arrays::LocalView<void> v = bc.store.access();
    std::vector<arrays::NbHandle> pending;
    for (const Coord& c : bc.local_blocks()) {
      const LocalBlock b = local_block(bc, v, c);
      const arrays::Patch p = bc.bounds(c);
      pending.push_back(to_regular ? r.put_nb(p.lo, p.hi, b.data, b.ld) : r.get_nb(p.lo, p.hi, b.data, b.ld));
    }
    for (arrays::NbHandle& h : pending) h.wait();
    to_regular ? bc.store.release() : bc.store.release_update();
  }
  bc.store.sync_group();
}

}  // namespace

Array armada::ga::regular_copy_of(BlockCyclic& bc) {
  arrays::ArrayOptions options;
  options.name = bc.store.name();
  options.group = bc.store.group();
  Array r = Array::create(bc.store.type(), bc.dims, options);
  copy_blocks(bc, r, true);
  return r;
}

void armada::ga::copy_back(const Array& r, BlockCyclic& bc) {
  Array regular = r;
  regular.sync_group();  // the operation's stores to r are complete everywhere
  copy_blocks(bc, regular, false);
}

[[noreturn]] void armada::ga::refuse_block_cyclic(const char* function, const char* argument, int g_a) {
  bad_argument(function, argument, std::to_string(g_a),
               "is a block-cyclic array (GA_Set_block_cyclic / GA_Set_block_cyclic_proc_grid); Armada's " +
                   std::string(function) + " takes arrays of block distribution only (docs/ga.md lists the "
                   "operations that take block-cyclic arrays)");
}

// ---- patch transfers ----------------------------------------------------------------------------

namespace {

/// Calls f(block coordinates, the part of p in that block) for every block p meets.
template <class F>
void for_each_piece(const BlockCyclic& bc, const arrays::Patch& p, F&& f) {
  const int n = bc.ndim();
  Coord first = p.lo, last = p.lo, c = p.lo;
  for (int d = 0; d < n; ++d) {
    first[d] = p.lo[d] / bc.block[d];
    last[d] = (p.hi[d] - 1) / bc.block[d];
  }
  c = first;
  for (;;) {
    arrays::Patch box = bc.bounds(c);
    for (int d = 0; d < n; ++d) {
      box.lo[d] = std::max(box.lo[d], p.lo[d]);
      box.hi[d] = std::min(box.hi[d], p.hi[d]);
    }
    f(c, box);
    int d = n - 1;
    while (d >= 0 && c[d] == last[d]) c[d] = first[d], --d;
    if (d < 0) return;
    ++c[d];
  }
}

/// GA's ld of a buffer over `extents` (ndim-1 entries; empty: dense), checked as GA's C API
/// documents it: ld[d] must hold the patch's extent in dimension d+1 once the patch is thicker
/// than one element in some dimension 0 .. d.
Coord buffer_ld(const char* function, const Coord& extents, const Coord& ld) {
  const int n = extents.size();
  Coord full = Coord::filled(std::max(0, n - 1), 0);
  bool thick = false;
  for (int d = 0; d + 1 < n; ++d) {
    thick = thick || extents[d] > 1;
    full[d] = ld.empty() ? extents[d + 1] : ld[d];
    if (thick && full[d] < extents[d + 1])
      bad_argument(function, "ld[" + std::to_string(d) + "]", std::to_string(full[d]),
                   "must be >= the patch's extent in dimension " + std::to_string(d + 1) + " (" +
                       std::to_string(extents[d + 1]) + ")");
  }
  return full;
}

/// Element offset of `at` in a buffer starting at `origin` with GA's ld `full`.
Index buffer_offset(const Coord& origin, const Coord& at, const Coord& full, const Coord& skip = {}) {
  Index offset = 0;
  for (int d = 0; d < origin.size(); ++d) {
    const Index i = (at[d] - origin[d]) / (skip.empty() ? 1 : skip[d]);
    offset = d == 0 ? i : offset * full[d - 1] + i;
  }
  return offset;
}

/// The storage's ld for a piece of `extents` in a buffer of GA's ld `full`.
Coord storage_ld(const BlockCyclic& bc, const Coord& extents, const Coord& full) {
  if (!bc.block_rows()) return full;
  Coord ld = Coord::filled(bc.ndim(), extents[0]);
  for (int d = 0; d + 1 < bc.ndim(); ++d) ld[d + 1] = full[d];
  return ld;
}

}  // namespace

std::vector<arrays::NbHandle> armada::ga::start_transfer(const char* function, BlockCyclic& bc, Transfer kind,
                                                         const arrays::Patch& p, void* buf, const Coord& ld,
                                                         const void* alpha) {
  const Coord full = buffer_ld(function, p.extents(), ld);
  const Index esize = static_cast<Index>(bc.store.element_size());
  std::vector<arrays::NbHandle> pending;
  for_each_piece(bc, p, [&](const Coord& c, const arrays::Patch& box) {
    const arrays::Patch s = bc.storage_patch(c, box);
    std::byte* at = static_cast<std::byte*>(buf) + buffer_offset(p.lo, box.lo, full) * esize;
    const Coord sld = storage_ld(bc, box.extents(), full);
    switch (kind) {
      case Transfer::get: pending.push_back(bc.store.get_nb(s.lo, s.hi, at, sld)); break;
      case Transfer::put: pending.push_back(bc.store.put_nb(s.lo, s.hi, at, sld)); break;
      case Transfer::acc: pending.push_back(bc.store.acc_nb(s.lo, s.hi, at, alpha, sld)); break;
    }
  });
  return pending;
}

void armada::ga::strided_transfer(const char* function, BlockCyclic& bc, Transfer kind, const arrays::Patch& p,
                                  const Coord& skip, void* buf, const Coord& ld, const void* alpha) {
  Coord taken = p.extents();
  for (int d = 0; d < taken.size(); ++d) taken[d] = ceil_div(taken[d], skip[d]);
  const Coord full = buffer_ld(function, taken, ld);
  const Index esize = static_cast<Index>(bc.store.element_size());
  Coord sskip = skip;
  if (bc.block_rows()) {
    sskip = Coord::filled(bc.ndim() + 1, 1);
    for (int d = 0; d < bc.ndim(); ++d) sskip[d + 1] = skip[d];
  }
  for_each_piece(bc, p, [&](const Coord& c, arrays::Patch box) {
    // The first taken element at or after the piece's start, in each dimension.
    for (int d = 0; d < box.lo.size(); ++d) {
      box.lo[d] = p.lo[d] + ceil_div(box.lo[d] - p.lo[d], skip[d]) * skip[d];
      if (box.lo[d] >= box.hi[d]) return;
    }
    Coord counts = box.extents();
    for (int d = 0; d < counts.size(); ++d) counts[d] = ceil_div(counts[d], skip[d]);
    const arrays::Patch s = bc.storage_patch(c, box);
    std::byte* at = static_cast<std::byte*>(buf) + buffer_offset(p.lo, box.lo, full, skip) * esize;
    const Coord sld = storage_ld(bc, counts, full);
    switch (kind) {
      case Transfer::get: bc.store.get_strided(s.lo, s.hi, sskip, at, sld); break;
      case Transfer::put: bc.store.put_strided(s.lo, s.hi, sskip, at, sld); break;
      case Transfer::acc: bc.store.acc_strided(s.lo, s.hi, sskip, at, alpha, sld); break;
    }
  });
}

void armada::ga::periodic_transfer(const char* function, BlockCyclic& bc, Transfer kind, const Coord& lo,
                                   const Coord& hi, void* buf, const Coord& ld, const void* alpha) {
  const int n = bc.ndim();
  arrays::Patch whole{lo, hi};
  for (int d = 0; d < n; ++d)
    if (hi[d] <= lo[d] || hi[d] - lo[d] > bc.dims[d])
      bad_argument(function, "hi[" + std::to_string(d) + "]", std::to_string(hi[d] - 1),
                   "a periodic patch must be 1 .. dims[" + std::to_string(d) + "] elements long");
  const Coord full = buffer_ld(function, whole.extents(), ld);
  const Index esize = static_cast<Index>(bc.store.element_size());
  // Cut [lo, hi) where the wrapped index passes the array's edge: at most 2 runs per dimension,
  // each patch of runs one ordinary transfer with the same buffer ld.
  std::vector<std::vector<std::pair<Index, Index>>> runs(static_cast<std::size_t>(n));  // (start, length)
  for (int d = 0; d < n; ++d)
    for (Index at = lo[d]; at < hi[d];) {
      const Index wrapped = ((at % bc.dims[d]) + bc.dims[d]) % bc.dims[d];
      const Index len = std::min(hi[d] - at, bc.dims[d] - wrapped);
      runs[static_cast<std::size_t>(d)].push_back({at, len});
      at += len;
    }
  std::vector<arrays::NbHandle> pending;
  Coord k = Coord::filled(n, 0);
  for (;;) {
    arrays::Patch part{lo, lo}, in_array{lo, lo};
    for (int d = 0; d < n; ++d) {
      const auto [start, len] = runs[static_cast<std::size_t>(d)][static_cast<std::size_t>(k[d])];
      part.lo[d] = start;
      in_array.lo[d] = ((start % bc.dims[d]) + bc.dims[d]) % bc.dims[d];
      in_array.hi[d] = in_array.lo[d] + len;
    }
    std::byte* at = static_cast<std::byte*>(buf) + buffer_offset(lo, part.lo, full) * esize;
    for (arrays::NbHandle& h : start_transfer(function, bc, kind, in_array, at, full, alpha)) pending.push_back(std::move(h));
    int d = n - 1;
    while (d >= 0 && k[d] + 1 == static_cast<Index>(runs[static_cast<std::size_t>(d)].size())) k[d] = 0, --d;
    if (d < 0) break;
    ++k[d];
  }
  for (arrays::NbHandle& h : pending) h.wait();
}
