// GA's C API of block-cyclic arrays: the layout setters, the block queries and local access of
// blocks (the layout: block_cyclic.hpp).
#include "create/block_cyclic.hpp"

#include "base/types.hpp"
#include "groups/groups.hpp"
#include "memory/accounting.hpp"
#include "movement/local.hpp"

using namespace armada;
using namespace armada::ga;

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

/// The block-cyclic layout of g_a; bad_argument for an array of block distribution.
BlockCyclic& cyclic(const char* function, int g_a) {
  BlockCyclic* bc = block_cyclic(function, g_a);
  if (!bc)
    bad_argument(function, "g_a", std::to_string(g_a),
                 "is not block-cyclic (GA_Set_block_cyclic / GA_Set_block_cyclic_proc_grid make such arrays)");
  return *bc;
}

template <class I>
void block_info(const char* function, int g_a, I* num_blocks, I* block_dims) {
  guarded(function, [&] {
    const BlockCyclic& bc = cyclic(function, g_a);
    for (int d = 0; d < bc.ndim(); ++d) {
      if (num_blocks) num_blocks[d] = static_cast<I>(bc.nblocks[d]);
      if (block_dims) block_dims[d] = static_cast<I>(bc.block[d]);
    }
  });
}

/// Block c must be this process's; the pointer to its first element and GA's ld.
template <class I>
void access_block_at(const char* function, int g_a, BlockCyclic& bc, const Coord& c, void* ptr, I* ld) {
  if (!ptr) bad_argument(function, "ptr", "NULL", "the address of a pointer is required");
  const int owner = bc.owner(c);
  if (!bc.store.group().is_member() || owner != bc.store.group().rank())
    bad_argument(function, "block", c.str() + " (number " + std::to_string(bc.number_of(c)) + ")",
                 "belongs to process " + std::to_string(owner) + ", not to this one");
  const arrays::LocalView<void> v = ga_access(bc.store, g_a, false);
  const arrays::Patch s = bc.storage_patch(c, bc.bounds(c));
  Index offset = 0;
  for (int d = 0; d < s.lo.size(); ++d) offset += (s.lo[d] - v.lo[d]) * v.stride[d];
  *static_cast<void**>(ptr) = static_cast<char*>(v.data) + offset * static_cast<Index>(bc.store.element_size());
  const int shift = bc.block_rows() ? 1 : 0;
  for (int d = 0; ld && d + 1 < bc.ndim(); ++d) ld[d] = static_cast<I>(v.stride[d + shift] / v.stride[d + shift + 1]);
}

template <class I>
void access_block(const char* function, int g_a, I idx, void* ptr, I* ld) {
  guarded(function, [&] {
    BlockCyclic& bc = cyclic(function, g_a);
    if (idx < 0 || idx >= bc.total())
      bad_argument(function, "idx", std::to_string(idx), "must be 0 .. " + std::to_string(bc.total() - 1));
    access_block_at(function, g_a, bc, bc.coords_of(static_cast<Index>(idx)), ptr, ld);
  });
}

template <class I>
void access_block_grid(const char* function, int g_a, const I* index, void* ptr, I* ld) {
  guarded(function, [&] {
    BlockCyclic& bc = cyclic(function, g_a);
    if (!bc.uses_grid())
      bad_argument(function, "g_a", std::to_string(g_a),
                   "uses the simple block-cyclic layout; GA's block grid access needs a process grid "
                   "(GA_Set_block_cyclic_proc_grid)");
    if (!index) bad_argument(function, "index", "NULL", "a block index per dimension is required");
    const Coord c = coord(bc.ndim(), index);
    for (int d = 0; d < bc.ndim(); ++d)
      if (c[d] < 0 || c[d] >= bc.nblocks[d])
        bad_argument(function, "index[" + std::to_string(d) + "]", std::to_string(c[d]),
                     "must be 0 .. " + std::to_string(bc.nblocks[d] - 1));
    access_block_at(function, g_a, bc, c, ptr, ld);
  });
}

/// GA's segment is the process's blocks one after another, each dense at its true extents.
/// The simple layout pads edge blocks, so its segment is GA's only when no block is cut.
template <class I>
void access_segment(const char* function, int g_a, int proc, void* ptr, I* len) {
  guarded(function, [&] {
    BlockCyclic& bc = cyclic(function, g_a);
    const rma::Group& g = bc.store.group();
    if (!g.is_member() || proc != g.rank())
      bad_argument(function, "proc", std::to_string(proc), "must be the calling process (as GA's)");
    if (!ptr || !len) bad_argument(function, ptr ? "len" : "ptr", "NULL", "a place for the result is required");
    for (int d = 0; bc.block_rows() && d < bc.ndim(); ++d)
      if (bc.dims[d] % bc.block[d] != 0)
        bad_argument(function, "g_a", std::to_string(g_a),
                     "has edge blocks cut short (dims " + bc.dims.str() + ", blocks " + bc.block.str() +
                         "), which Armada's " + (bc.tiled ? "tiled" : "simple") +
                         " layout pads: its segment is not GA's; use NGA_Access_block");
    const arrays::LocalView<void> v = ga_access(bc.store, g_a, false);
    *static_cast<void**>(ptr) = v.data;
    *len = static_cast<I>(bc.store.owned().elements());
  });
}

void release(const char* function, int g_a, bool update) {
  guarded(function, [&] { ga_release(cyclic(function, g_a).store, g_a, update); });
}

template <class I>
int locate_num_blocks(const char* function, int g_a, const I* lo, const I* hi) {
  return guarded(function, [&] {
    const BlockCyclic* cyc = block_cyclic(function, g_a);
    if (!cyc) return -1;  // GA: -1 for an array of block distribution
    const BlockCyclic& bc = *cyc;
    const arrays::Patch p = patch_of(function, bc.dims, lo, hi);
    Index n = 1;
    for (int d = 0; d < bc.ndim(); ++d) n *= (p.hi[d] - 1) / bc.block[d] - p.lo[d] / bc.block[d] + 1;
    return static_cast<int>(n);
  });
}

/// NGA_Nblock: blocks per dimension, in C order (for an array of block distribution: its process
/// grid, which NGA_Get_proc_grid gives last dimension first; Debian's GA 5.8.2 does the same).
void nblock(const char* function, int g_a, int* nblock) {
  guarded(function, [&] {
    if (!nblock) bad_argument(function, "nblock", "NULL", "room for ndim entries is required");
    if (const BlockCyclic* bc = block_cyclic(function, g_a)) {
      for (int d = 0; d < bc->ndim(); ++d) nblock[d] = static_cast<int>(bc->nblocks[d]);
      return;
    }
    const Coord grid = array(function, g_a).distribution().grid();
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
    const BlockCyclic* bc = block_cyclic("GA_Total_blocks", g_a);
    return bc ? static_cast<int>(bc->total()) : -1;
  });
}
int GA_Uses_proc_grid(int g_a) {
  return guarded("GA_Uses_proc_grid", [&] {
    const BlockCyclic* bc = block_cyclic("GA_Uses_proc_grid", g_a);
    return bc && bc->uses_grid() ? 1 : 0;
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
