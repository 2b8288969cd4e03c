// What GA's C API tells of an array's distribution: the owners of a patch (NGA_Locate_region,
// NGA_Locate_nnodes), the process grid and a process's place in it, ghost widths and ndim.
#include <cstdint>

#include "armada/arrays/arrays.hpp"
#include "base/call.hpp"
#include "base/index.hpp"
#include "create/block_cyclic.hpp"
#include "create/handles.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

// The owners of [lo, hi]: their number; map gets each one's part (lo then hi, inclusive, ndim
// entries each) and procs its process id in the array's group. Both need room for every owner;
// either may be NULL (NGA_Locate_nnodes).
/// GA's NGA_Locate_region of a block-cyclic array: one entry per block the patch meets, `procs`
/// holding the block's number (not its owner), in block order.
template <class I>
int locate_blocks(const char* function, const arrays::Distribution& bc, const I* lo, const I* hi, I* map, int* procs) {
  const arrays::Patch p = patch_of(function, bc.dims(), lo, hi);
  const int n = bc.ndim();
  int k = 0;
  for (Index b = 0; b < bc.block_count(); ++b) {
    arrays::Patch box = bc.block_patch(block_coords(bc, b));
    for (int d = 0; d < n; ++d) box.lo[d] = std::max(box.lo[d], p.lo[d]), box.hi[d] = std::min(box.hi[d], p.hi[d]);
    if (box.empty()) continue;
    if (procs) procs[k] = static_cast<int>(b);
    for (int d = 0; map && d < n; ++d) {
      map[k * 2 * n + d] = static_cast<I>(box.lo[d]);
      map[k * 2 * n + n + d] = static_cast<I>(box.hi[d] - 1);
    }
    ++k;
  }
  return k;
}

template <class I>
int locate_region(const char* function, int g_a, const I* lo, const I* hi, I* map, int* procs) {
  return guarded(function, [&] {
    if (const arrays::Distribution* bc = block_cyclic(function, g_a)) return locate_blocks(function, *bc, lo, hi, map, procs);
    const Array& a = array(function, g_a);
    const arrays::Patch p = patch(function, a, lo, hi);
    const std::vector<arrays::Owner> owners = a.locate_region(p.lo, p.hi);
    const int n = a.ndim();
    for (std::size_t k = 0; k < owners.size(); ++k) {
      if (procs) procs[k] = a.group().group_rank(owners[k].rank);
      if (map)
        for (int d = 0; d < n; ++d) {
          map[k * 2 * n + d] = static_cast<I>(owners[k].patch.lo[d]);
          map[k * 2 * n + n + d] = static_cast<I>(owners[k].patch.hi[d] - 1);
        }
    }
    return static_cast<int>(owners.size());
  });
}

/// The coordinates of process `proc` (of the array's group) in the array's process grid: block
/// b of the distribution, numbered row-major over the grid, belongs to process b. -1 in every
/// dimension for a process that owns no block.
void proc_topology(const char* function, int g_a, int proc, int* coord, bool fortran_order = false) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    world_rank_of(function, a, proc);
    if (!coord) bad_argument(function, "coord", "NULL", "room for ndim coordinates is required");
    const Coord grid = a.distribution().grid();
    const bool owns = proc < a.distribution().block_count() && !a.distribution().block(proc).empty();
    int rest = proc;
    for (int d = a.ndim() - 1; d >= 0; --d) {
      coord[d] = owns ? static_cast<int>(rest % grid[d]) : -1;
      rest /= static_cast<int>(grid[d]);
    }
    if (fortran_order) std::reverse(coord, coord + a.ndim());
  });
}

// GA 5.8's C NGA_Proc_topology and GA_Get_proc_grid copy GA's internal (Fortran-ordered) tuple
// unreversed (capi.c: COPY, not COPYF2C, unlike GA_Get_proc_index), so their entries run from the
// C view's last dimension to its first; GA programs rely on it (GA's ga-mpi.c splits a
// communicator by coord[1] to group the processes that hold the same C rows).
void proc_grid(const char* function, int g_a, int* dims) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    if (!dims) bad_argument(function, "dims", "NULL", "room for ndim entries is required");
    const Coord grid = a.distribution().grid();
    for (int d = 0; d < a.ndim(); ++d) dims[d] = static_cast<int>(grid[a.ndim() - 1 - d]);
  });
}

}  // namespace

extern "C" {

int NGA_Locate_region(int g_a, int lo[], int hi[], int map[], int procs[]) {
  return locate_region("NGA_Locate_region", g_a, lo, hi, map, procs);
}
int NGA_Locate_region64(int g_a, int64_t lo[], int64_t hi[], int64_t map[], int procs[]) {
  return locate_region("NGA_Locate_region64", g_a, lo, hi, map, procs);
}
int NGA_Locate_nnodes(int g_a, int lo[], int hi[]) {
  return locate_region<int>("NGA_Locate_nnodes", g_a, lo, hi, nullptr, nullptr);
}
int NGA_Locate_nnodes64(int g_a, int64_t lo[], int64_t hi[]) {
  return locate_region<int64_t>("NGA_Locate_nnodes64", g_a, lo, hi, nullptr, nullptr);
}
void NGA_Proc_topology(int g_a, int proc, int coord[]) {
  proc_topology("NGA_Proc_topology", g_a, proc, coord, true);
}
void GA_Get_proc_index(int g_a, int iproc, int subscript[]) {
  proc_topology("GA_Get_proc_index", g_a, iproc, subscript);
}
void NGA_Get_proc_index(int g_a, int iproc, int subscript[]) {
  proc_topology("NGA_Get_proc_index", g_a, iproc, subscript);
}
void GA_Get_proc_grid(int g_a, int dims[]) { proc_grid("GA_Get_proc_grid", g_a, dims); }
void NGA_Get_proc_grid(int g_a, int dims[]) { proc_grid("NGA_Get_proc_grid", g_a, dims); }

int GA_Has_ghosts(int g_a) {
  return guarded("GA_Has_ghosts", [&] {
    if (block_cyclic("GA_Has_ghosts", g_a)) return 0;  // block-cyclic arrays have no ghost cells
    const Coord w = array("GA_Has_ghosts", g_a).ghosts();
    for (int d = 0; d < w.size(); ++d)
      if (w[d] > 0) return 1;
    return 0;
  });
}
int GA_Get_dimension(int g_a) {
  return guarded("GA_Get_dimension", [&] { return array_dims("GA_Get_dimension", g_a).size(); });
}

}  // extern "C"
