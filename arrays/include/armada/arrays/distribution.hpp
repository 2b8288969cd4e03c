// Distributions: how an array's index space is cut into blocks, and which process owns each.
//
// A distribution cuts each dimension d into grid()[d] consecutive blocks (bounds(d)); the blocks
// of the Cartesian product are named by their block coordinates k (k[d] in [0, grid()[d])) and
// numbered row-major. Who owns block k, and where it lies in its owner's memory, is the layout:
//
//  - Layout::blocks (regular, irregular): one block per process, block number b belongs to group
//    rank b. Ranks numbered at or past block_count() own nothing, and so does a rank whose block
//    is empty in some dimension (an irregular map may give a dimension empty blocks). A rank's
//    memory is its block, row-major (inside its ghost frame, see global_array.hpp).
//  - The block-cyclic layouts (Global Arrays' GA_Set_block_cyclic*, ScaLAPACK's): blocks of
//    block_extents() elements tile the array (edge blocks cut at the array's edge), so a rank
//    may own many blocks. Its memory, the "local buffer" (local_elements() elements), holds them:
//    - Layout::cyclic: block number b belongs to group rank b % P (P processes); the rank's
//      blocks b = r, r+P, r+2P, .. lie one after another, each dense row-major with a whole
//      block's room (an edge block is padded; the padding is never read);
//    - Layout::proc_grid: on a process grid g (proc_grid(), product <= P, row-major over the
//      grid's coordinates), block k belongs to grid coordinates (k[d] mod g[d]); the local
//      buffer is ScaLAPACK's local matrix, row-major: in each dimension the rank's blocks one
//      after another (local_shape()), block k at local offset (k[d] / g[d]) * block[d];
//    - Layout::tiled: owned as proc_grid, but the rank's blocks ("tiles") lie one after another,
//      row-major over its own tiles, each dense with a whole block's room (as Layout::cyclic).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <memory>
#include <string>
#include <vector>

#include "armada/arrays/types.hpp"

namespace armada::arrays {

/// Who owns a block and where it lies in its owner's memory (see the top of this file).
enum class Layout { blocks, cyclic, proc_grid, tiled };

class Distribution {
 public:
  Distribution() = default;

  /// Regular blocks: dimension d is cut into grid[d] nearly equal blocks (the first dims[d] %
  /// grid[d] blocks are one longer). An empty `grid` picks a balanced grid for `nprocs`
  /// processes: prime factors of nprocs, largest first, go to the dimension with the longest
  /// blocks, never making a block shorter than chunk[d] (chunk[d] <= 0: no limit; chunk[d] =
  /// dims[d]: that dimension is not cut). Throws InvalidArgument ("arrays::create") on bad
  /// dims, grid or chunk.
  static Distribution regular(const Coord& dims, int nprocs, const Coord& grid = {},
                              const Coord& chunk = {});

  /// Irregular blocks: block_starts[d] lists the first index of each block of dimension d; it
  /// starts with 0 and does not decrease (equal starts make empty blocks). The number of blocks
  /// (product of the list lengths) must not exceed `nprocs`.
  static Distribution irregular(const Coord& dims, const std::vector<std::vector<Index>>& block_starts,
                                int nprocs);

  /// Block-cyclic: blocks of `block` elements (each >= 1) dealt to `nprocs` processes, block
  /// number b to process b % nprocs (Layout::cyclic). Throws InvalidArgument
  /// ("arrays::create") on bad dims or block, or more than 2^31 - 1 blocks.
  static Distribution block_cyclic(const Coord& dims, const Coord& block, int nprocs);
  /// Block-cyclic on a process grid `proc_grid` (one entry per dimension, product <= nprocs):
  /// Layout::proc_grid (ScaLAPACK's local matrices) or, with `tiled`, Layout::tiled.
  static Distribution block_cyclic(const Coord& dims, const Coord& block, const Coord& proc_grid, int nprocs,
                                   bool tiled = false);

  int ndim() const noexcept { return dims_.size(); }
  const Coord& dims() const noexcept { return dims_; }
  /// Blocks per dimension.
  Coord grid() const;
  int block_count() const noexcept { return blocks_; }
  /// Boundaries of dimension d: grid(d) + 1 values, block k is [bounds[k], bounds[k+1]).
  const std::vector<Index>& bounds(int d) const { return *bounds_[static_cast<std::size_t>(d)]; }

  /// The block of group rank `group_rank` (an empty patch for ranks that own nothing). Only
  /// Layout::blocks gives a rank one block: for the block-cyclic layouts this is an empty
  /// patch (use blocks_of()).
  Patch block(int group_rank) const;
  /// Group rank owning global index `index` (which must be inside the array).
  int owner(const Coord& index) const;

  Layout layout() const noexcept { return layout_; }
  /// True for the block-cyclic layouts (a rank may own several blocks).
  bool cyclic() const noexcept { return layout_ != Layout::blocks; }
  /// Block-cyclic: the block extents (empty for Layout::blocks).
  const Coord& block_extents() const noexcept { return block_; }
  /// Block-cyclic: the number of processes it was made for (0 for Layout::blocks).
  int nprocs() const noexcept { return procs_; }
  /// Layout::proc_grid and Layout::tiled: the process grid (empty otherwise).
  const Coord& proc_grid() const noexcept { return pgrid_; }
  /// The block coordinates of the block holding `index` (inside the array).
  Coord block_of(const Coord& index) const;
  /// The elements [lo, hi) of the block with coordinates k.
  Patch block_patch(const Coord& k) const;
  /// The group rank owning the block with coordinates k.
  int block_owner(const Coord& k) const;
  /// The block coordinates of the non-empty blocks of `group_rank`, in local-buffer order.
  std::vector<Coord> blocks_of(int group_rank) const;
  /// Elements of `group_rank`'s local buffer (without ghost cells).
  Index local_elements(int group_rank) const;
  /// Layout::proc_grid: the extents of `group_rank`'s local matrix (its blocks in each dimension
  /// one after another); Layout::blocks: its block's extents. Empty for cyclic and tiled.
  Coord local_shape(int group_rank) const;
  /// Where block k lies in its owner's local buffer: the element offset of its first element and
  /// the element strides of its rows (without ghost cells; Layout::blocks: offset 0).
  Index local_offset(const Coord& k) const;
  Coord local_strides(const Coord& k) const;
  /// One line naming the layout and its parameters ("regular", "block-cyclic [2, 3] on [2, 1]").
  std::string str() const;

  bool operator==(const Distribution& other) const noexcept {
    if (!(dims_ == other.dims_ && bounds_.size() == other.bounds_.size() && layout_ == other.layout_ &&
          pgrid_ == other.pgrid_ && procs_ == other.procs_))
      return false;
    for (std::size_t d = 0; d < bounds_.size(); ++d)
      if (*bounds_[d] != *other.bounds_[d]) return false;
    return true;
  }

 private:
  static Distribution cyclic_base(const Coord& dims, const Coord& block, int nprocs);
  // The grid coordinates of group rank r (proc_grid, tiled), or an empty Coord when r is off the grid.
  Coord grid_coords(int group_rank) const;
  // proc_grid, tiled: how many blocks grid coordinate p owns along dimension d.
  Index owned_along(int d, Index p) const;

  Coord dims_;
  // Per dimension, shared by every distribution with the same boundaries there (a 1-D array of
  // P blocks has P + 1: 8 B per member per array, issue 53; arrays of one shape keep one copy).
  std::vector<std::shared_ptr<const std::vector<Index>>> bounds_;
  int blocks_ = 0;
  Layout layout_ = Layout::blocks;
  Coord block_;   // block-cyclic: block extents
  Coord pgrid_;   // proc_grid, tiled: the process grid
  int procs_ = 0; // block-cyclic: the processes the blocks are dealt to
};

}  // namespace armada::arrays
