// GA's block-cyclic distributions (GA_Set_block_cyclic, GA_Set_block_cyclic_proc_grid,
// GA_Set_tiled_proc_grid) kept in an arrays array, and the operations that take them.
//
// What GA defines (checked against Debian's GA 5.8.2): blocks of `block` elements tile the
// array, nblocks[d] = ceil(dims[d] / block[d]) per dimension, edge blocks cut at the array's
// edge; blocks are numbered row-major over the block grid of the C view.
//  - simple layout: block b belongs to process b % P (P: the array's group size);
//  - proc-grid (ScaLAPACK) layout on a grid g (product P): block (i_0, ..) belongs to the
//    process at grid coordinates (i_d mod g_d), grid numbered row-major; that process's data is
//    ScaLAPACK's local matrix (its blocks in each dimension one after another);
//  - tiled layout: blocks owned as in the proc-grid layout, each process's blocks ("tiles")
//    stored one after another, row-major over its own tiles, each tile dense.
//
// How Armada stores them (the storage array `store`, an ordinary arrays array):
//  - simple and tiled: ndim+1 dimensions {total blocks, block[0], .., block[ndim-1]}, irregular
//    along dimension 0 so that each process's blocks are its rows, in the order above (simple:
//    p, p+P, p+2P, ..); an edge block is padded up to `block` (the padding stays zero and no
//    operation reads it as data);
//  - proc grid: the array's own dims, irregular, block p_d of dimension d holding the blocks
//    i_d = p_d, p_d + g_d, ..: every process's local block is ScaLAPACK's local matrix, as GA's.
// A patch operation cuts the patch at block edges and issues one nonblocking arrays operation
// per piece; collective operations run on a regular copy (regular_copy in create/handles.cpp).
#pragma once

#include <vector>

#include "base/call.hpp"
#include "base/index.hpp"
#include "create/handles.hpp"
#include "movement/transfer.hpp"

namespace armada::ga {

struct BlockCyclic {
  Coord dims;     // the array's
  Coord block;    // block extents
  Coord nblocks;  // blocks per dimension
  Coord grid;     // process grid; empty: the simple layout
  bool tiled = false;  // with a grid: GA_Set_tiled_proc_grid's tile-contiguous storage
  std::vector<std::vector<Index>> grid_starts;  // proc grid: storage start of grid coordinate p in dimension d
  int procs = 1;  // the array's group size
  Array store;

  bool uses_grid() const { return !grid.empty(); }
  /// Whether the store holds one padded block per row (simple and tiled layouts).
  bool block_rows() const { return grid.empty() || tiled; }
  int ndim() const { return dims.size(); }
  int nprocs() const { return procs; }
  Index total() const { return nblocks.product(); }
  Coord coords_of(Index b) const;
  Index number_of(const Coord& c) const;
  /// The elements of block c, [lo, hi), cut at the array's edge.
  arrays::Patch bounds(const Coord& c) const;
  /// The group rank owning block c.
  int owner(const Coord& c) const;
  /// Where box (inside block c) lies in the storage array.
  arrays::Patch storage_patch(const Coord& c, const arrays::Patch& box) const;
  /// The blocks this process owns.
  std::vector<Coord> local_blocks() const;
  /// Block rows: the blocks of group rank p, and the row of block c among its owner's.
  Index blocks_of(int p) const;
  Index local_row(const Coord& c) const;
};

/// The layout of a plan with block-cyclic settings, checked (store not yet created).
BlockCyclic plan_layout(const char* function, const Plan& plan, int nprocs);
/// The storage array's dims and irregular block starts for layout `bc`.
Coord storage_dims(const BlockCyclic& bc);
std::vector<std::vector<Index>> storage_starts(const BlockCyclic& bc);

/// A new regular array (same type, dims, name, group) holding bc's values. Collective.
Array regular_copy_of(BlockCyclic& bc);
/// Copies regular array r (same dims) back into bc's blocks. Collective.
void copy_back(const Array& r, BlockCyclic& bc);

/// Starts the transfer of patch p of bc and buf (dense over p with GA's ld `ld`, ndim-1 entries or
/// empty) by block pieces; the handles complete it.
std::vector<arrays::NbHandle> start_transfer(const char* function, BlockCyclic& bc, Transfer kind,
                                             const arrays::Patch& p, void* buf, const Coord& ld, const void* alpha);
/// The strided form (every skip[d]-th element of p, packed in buf); blocking.
void strided_transfer(const char* function, BlockCyclic& bc, Transfer kind, const arrays::Patch& p,
                      const Coord& skip, void* buf, const Coord& ld, const void* alpha);
/// The periodic form (lo may lie outside the array, indices wrap); blocking.
void periodic_transfer(const char* function, BlockCyclic& bc, Transfer kind, const Coord& lo, const Coord& hi,
                       void* buf, const Coord& ld, const void* alpha);

/// The message of a block-cyclic array given to an operation that does not take one.
[[noreturn]] void refuse_block_cyclic(const char* function, const char* argument, int g_a);

}  // namespace armada::ga
