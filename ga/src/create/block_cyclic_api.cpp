// GA's C API of block-cyclic arrays: the layout setters, the block queries and local access of
// blocks (GA's semantics: block_cyclic.hpp; the layouts are arrays' distributions).
#include "create/block_cyclic.hpp"

#include "base/index.hpp"
#include "base/types.hpp"
#include "movement/local.hpp"

using namespace armada;
using namespace armada::ga;

namespace armada::ga {

Coord block_coords(const arrays::Distribution& d, Index number) {
  const Coord nblocks = d.grid();
  Coord k = nblocks;
  for (int i = d.ndim() - 1; i >= 0; --i) {
    k[i] = number % nblocks[i];
    number /= nblocks[i];
  }
  return k;
}

Index block_number(const arrays::Distribution& d, const Coord& k) {
  const Coord nblocks = d.grid();
  Index b = 0;
  for (int i = 0; i < d.ndim(); ++i) b = b * nblocks[i] + k[i];
  return b;
}

arrays::Distribution cyclic_distribution(const char* function, const Plan& plan, int nprocs) {
  const int n = plan.dims.size();
  const Coord& block = plan.cyclic_block;
  const Coord& grid = plan.cyclic_grid;
  if (block.size() != n || (!grid.empty() && grid.size() != n))
    bad_argument(function, "g_a", "(blocks " + block.str() + ", dims " + plan.dims.str() + ")",
                 "the block-cyclic layout was set for another number of dimensions (NGA_Set_data came after it)");
  for (int d = 0; d < plan.ghosts.size(); ++d)
    if (plan.ghosts[d] > 0)
      bad_argument(function, "g_a", "(ghost widths " + plan.ghosts.str() + ")", "a block-cyclic array has no ghost cells");
  if (!plan.block_starts.empty())
    bad_argument(function, "g_a", "(GA_Set_irreg_distr)", "an irregular map and a block-cyclic layout exclude each other");
  if (grid.empty()) return arrays::Distribution::block_cyclic(plan.dims, block, nprocs);
  // arrays takes a grid smaller than the group; GA's grid is the whole group.
  if (grid.product() != nprocs)
    bad_argument(function, "proc_grid", grid.str(),
                 "its product must be the number of processes (" + std::to_string(nprocs) + ")");
  return arrays::Distribution::block_cyclic(plan.dims, block, grid, nprocs, plan.cyclic_tiled);
}

}  // namespace armada::ga

namespace {

template <class I>
Coord positive_tuple(const char* function, const char* argument, int n, const I* v) {
  if (!v) bad_argument(function, argument, "NULL", std::to_string(n) + " entries are required");
  const Coord c = coord(n, v);
  for (int d = 0; d < n; ++d)
    if (c[d] < 1)
      bad_argument(function, std::string(argument) + "[" + std::to_string(d) + "]", std::to_string(c[d]),
                   "must be >= 1");
  return c;
}

/// GA_Set_block_cyclic (grid NULL), GA_Set_block_cyclic_proc_grid and GA_Set_tiled_proc_grid
/// (tiled), on a planned handle.
template <class I>
void set_layout(const char* function, int g_a, const I* block, const I* grid, bool with_grid, bool tiled = false) {
  guarded(function, [&] {
    Plan& p = plan_of(function, g_a);
    if (p.type == 0) bad_argument(function, "g_a", std::to_string(g_a), "call NGA_Set_data first");
    const int n = p.dims.size();
    p.cyclic_block = positive_tuple(function, with_grid ? "block" : "dims", n, block);
    p.cyclic_grid = with_grid ? positive_tuple(function, "proc_grid", n, grid) : Coord{};
    p.cyclic_tiled = tiled;
  });
}

/// Array g_a, which must be block-cyclic.
Array& cyclic(const char* function, int g_a) {
  if (!block_cyclic(function, g_a))
    bad_argument(function, "g_a", std::to_string(g_a),
                 "is not block-cyclic (GA_Set_block_cyclic / GA_Set_block_cyclic_proc_grid make such arrays)");
  return any_array(function, g_a);
}

template <class I>
void block_info(const char* function, int g_a, I* num_blocks, I* block_dims) {
  guarded(function, [&] {
    const arrays::Distribution& d = cyclic(function, g_a).distribution();
    const Coord nblocks = d.grid();
    for (int i = 0; i < d.ndim(); ++i) {
      if (num_blocks) num_blocks[i] = static_cast<I>(nblocks[i]);
      if (block_dims) block_dims[i] = static_cast<I>(d.block_extents()[i]);
    }
  });
}

/// Block k must be this process's; the pointer to its first element and GA's ld.
template <class I>
void access_block_at(const char* function, int g_a, Array& a, const Coord& k, void* ptr, I* ld) {
  if (!ptr) bad_argument(function, "ptr", "NULL", "the address of a pointer is required");
  const arrays::Distribution& d = a.distribution();
  const int owner = d.block_owner(k);
  if (!a.group().is_member() || owner != a.group().rank())
    bad_argument(function, "block", k.str() + " (number " + std::to_string(block_number(d, k)) + ")",
                 "belongs to process " + std::to_string(owner) + ", not to this one");
  const Coord first = d.block_patch(k).lo;
  for (const arrays::LocalView<void>& v : ga_access_blocks(a, g_a))
    if (v.lo == first) {
      *static_cast<void**>(ptr) = v.data;
      block_ld(v, ld);
    }
}

template <class I>
void access_block(const char* function, int g_a, I idx, void* ptr, I* ld) {
  guarded(function, [&] {
    Array& a = cyclic(function, g_a);
    const Index total = a.distribution().block_count();
    if (idx < 0 || idx >= total)
      bad_argument(function, "idx", std::to_string(idx), "must be 0 .. " + std::to_string(total - 1));
    access_block_at(function, g_a, a, block_coords(a.distribution(), static_cast<Index>(idx)), ptr, ld);
  });
}

template <class I>
void access_block_grid(const char* function, int g_a, const I* index, void* ptr, I* ld) {
  guarded(function, [&] {
    Array& a = cyclic(function, g_a);
    const arrays::Distribution& d = a.distribution();
    if (d.proc_grid().empty())
      bad_argument(function, "g_a", std::to_string(g_a),
                   "uses the simple block-cyclic layout; GA's block grid access needs a process grid "
                   "(GA_Set_block_cyclic_proc_grid)");
    if (!index) bad_argument(function, "index", "NULL", "a block index per dimension is required");
    const Coord k = coord(d.ndim(), index), nblocks = d.grid();
    for (int i = 0; i < d.ndim(); ++i)
      if (k[i] < 0 || k[i] >= nblocks[i])
        bad_argument(function, "index[" + std::to_string(i) + "]", std::to_string(k[i]),
                     "must be 0 .. " + std::to_string(nblocks[i] - 1));
    access_block_at(function, g_a, a, k, ptr, ld);
  });
}

/// GA's segment is the process's blocks one after another, each dense at its true extents.
/// The simple and tiled layouts pad edge blocks, so their segment is GA's only when no block is cut.
template <class I>
void access_segment(const char* function, int g_a, int proc, void* ptr, I* len) {
  guarded(function, [&] {
    Array& a = cyclic(function, g_a);
    const arrays::Distribution& d = a.distribution();
    const rma::Group& g = a.group();
    if (!g.is_member() || proc != g.rank())
      bad_argument(function, "proc", std::to_string(proc), "must be the calling process (as GA's)");
    if (!ptr || !len) bad_argument(function, ptr ? "len" : "ptr", "NULL", "a place for the result is required");
    const bool padded = d.layout() != arrays::Layout::proc_grid;
    for (int i = 0; padded && i < d.ndim(); ++i)
      if (d.dims()[i] % d.block_extents()[i] != 0)
        bad_argument(function, "g_a", std::to_string(g_a),
                     "has edge blocks cut short (dims " + d.dims().str() + ", blocks " + d.block_extents().str() +
                         "), which Armada's " + (d.layout() == arrays::Layout::tiled ? "tiled" : "simple") +
                         " layout pads: its segment is not GA's; use NGA_Access_block");
    const std::vector<arrays::LocalView<void>> views = ga_access_blocks(a, g_a);
    *static_cast<void**>(ptr) = views.empty() ? nullptr : views.front().data;  // the local buffer's start
    *len = static_cast<I>(d.local_elements(g.rank()));
  });
}

void release(const char* function, int g_a, bool update) {
  guarded(function, [&] { ga_release(cyclic(function, g_a), g_a, update); });
}

template <class I>
int locate_num_blocks(const char* function, int g_a, const I* lo, const I* hi) {
  return guarded(function, [&] {
    const arrays::Distribution* d = block_cyclic(function, g_a);
    if (!d) return -1;  // GA: -1 for an array of block distribution
    const arrays::Patch p = patch_of(function, d->dims(), lo, hi);
    Index n = 1;
    for (int i = 0; i < d->ndim(); ++i) {
      const Index b = d->block_extents()[i];
      n *= (p.hi[i] - 1) / b - p.lo[i] / b + 1;
    }
    return static_cast<int>(n);
  });
}

/// NGA_Nblock: blocks per dimension, in C order (for an array of block distribution: its process
/// grid, which NGA_Get_proc_grid gives last dimension first; Debian's GA 5.8.2 does the same).
void nblock(const char* function, int g_a, int* nblock) {
  guarded(function, [&] {
    if (!nblock) bad_argument(function, "nblock", "NULL", "room for ndim entries is required");
    const Coord grid = any_array(function, g_a).distribution().grid();
    for (int d = 0; d < grid.size(); ++d) nblock[d] = static_cast<int>(grid[d]);
  });
}

}  // namespace

extern "C" {

void GA_Set_block_cyclic(int g_a, int dims[]) {
  set_layout<int>("GA_Set_block_cyclic", g_a, dims, nullptr, false);
}
void NGA_Set_block_cyclic(int g_a, int dims[]) {
  set_layout<int>("NGA_Set_block_cyclic", g_a, dims, nullptr, false);
}
void GA_Set_block_cyclic64(int g_a, int64_t dims[]) {
  set_layout<int64_t>("GA_Set_block_cyclic64", g_a, dims, nullptr, false);
}
void NGA_Set_block_cyclic64(int g_a, int64_t dims[]) {
  set_layout<int64_t>("NGA_Set_block_cyclic64", g_a, dims, nullptr, false);
}
void GA_Set_block_cyclic_proc_grid(int g_a, int block[], int proc_grid[]) {
  set_layout<int>("GA_Set_block_cyclic_proc_grid", g_a, block, proc_grid, true);
}
void NGA_Set_block_cyclic_proc_grid(int g_a, int block[], int proc_grid[]) {
  set_layout<int>("NGA_Set_block_cyclic_proc_grid", g_a, block, proc_grid, true);
}
void GA_Set_block_cyclic_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]) {
  set_layout<int64_t>("GA_Set_block_cyclic_proc_grid64", g_a, block, proc_grid, true);
}
void NGA_Set_block_cyclic_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]) {
  set_layout<int64_t>("NGA_Set_block_cyclic_proc_grid64", g_a, block, proc_grid, true);
}

void GA_Set_tiled_proc_grid(int g_a, int block[], int proc_grid[]) {
  set_layout<int>("GA_Set_tiled_proc_grid", g_a, block, proc_grid, true, true);
}
void NGA_Set_tiled_proc_grid(int g_a, int block[], int proc_grid[]) {
  set_layout<int>("NGA_Set_tiled_proc_grid", g_a, block, proc_grid, true, true);
}
void GA_Set_tiled_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]) {
  set_layout<int64_t>("GA_Set_tiled_proc_grid64", g_a, block, proc_grid, true, true);
}
void NGA_Set_tiled_proc_grid64(int g_a, int64_t block[], int64_t proc_grid[]) {
  set_layout<int64_t>("NGA_Set_tiled_proc_grid64", g_a, block, proc_grid, true, true);
}

// GA: -1 and 0 for an array of block distribution.
int GA_Total_blocks(int g_a) {
  return guarded("GA_Total_blocks", [&] {
    const arrays::Distribution* d = block_cyclic("GA_Total_blocks", g_a);
    return d ? d->block_count() : -1;
  });
}
int GA_Uses_proc_grid(int g_a) {
  return guarded("GA_Uses_proc_grid", [&] {
    const arrays::Distribution* d = block_cyclic("GA_Uses_proc_grid", g_a);
    return d && !d->proc_grid().empty() ? 1 : 0;
  });
}

void NGA_Get_block_info(int g_a, int num_blocks[], int block_dims[]) {
  block_info<int>("NGA_Get_block_info", g_a, num_blocks, block_dims);
}
void GA_Get_block_info(int g_a, int num_blocks[], int block_dims[]) {
  block_info<int>("GA_Get_block_info", g_a, num_blocks, block_dims);
}
void NGA_Nblock(int g_a, int* nb) { nblock("NGA_Nblock", g_a, nb); }
void GA_Nblock(int g_a, int* nb) { nblock("GA_Nblock", g_a, nb); }
int NGA_Locate_num_blocks(int g_a, int lo[], int hi[]) {
  return locate_num_blocks<int>("NGA_Locate_num_blocks", g_a, lo, hi);
}

void NGA_Access_block(int g_a, int idx, void* ptr, int ld[]) {
  access_block<int>("NGA_Access_block", g_a, idx, ptr, ld);
}
void NGA_Access_block64(int g_a, int64_t idx, void* ptr, int64_t ld[]) {
  access_block<int64_t>("NGA_Access_block64", g_a, idx, ptr, ld);
}
void NGA_Access_block_grid(int g_a, int index[], void* ptr, int ld[]) {
  access_block_grid<int>("NGA_Access_block_grid", g_a, index, ptr, ld);
}
void NGA_Access_block_grid64(int g_a, int64_t index[], void* ptr, int64_t ld[]) {
  access_block_grid<int64_t>("NGA_Access_block_grid64", g_a, index, ptr, ld);
}
void NGA_Access_block_segment(int g_a, int proc, void* ptr, int* len) {
  access_segment<int>("NGA_Access_block_segment", g_a, proc, ptr, len);
}
void NGA_Access_block_segment64(int g_a, int proc, void* ptr, int64_t* len) {
  access_segment<int64_t>("NGA_Access_block_segment64", g_a, proc, ptr, len);
}
// The releases end one access of g_a, as NGA_Release does (the block argument is not checked
// against the access, as in GA).
void NGA_Release_block(int g_a, int) { release("NGA_Release_block", g_a, false); }
void NGA_Release_block_grid(int g_a, int[]) { release("NGA_Release_block_grid", g_a, false); }
void NGA_Release_block_segment(int g_a, int) { release("NGA_Release_block_segment", g_a, false); }
void NGA_Release_update_block(int g_a, int) { release("NGA_Release_update_block", g_a, true); }
void NGA_Release_update_block_grid(int g_a, int[]) { release("NGA_Release_update_block_grid", g_a, true); }
void NGA_Release_update_block_segment(int g_a, int) { release("NGA_Release_update_block_segment", g_a, true); }

}  // extern "C"
