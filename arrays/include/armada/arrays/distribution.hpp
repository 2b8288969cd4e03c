// Block distributions: how an array's index space is cut into blocks, one per process.
//
// A distribution cuts each dimension d into grid(d) consecutive blocks; the blocks of the
// Cartesian product are numbered row-major, and block b belongs to group rank b of the array's
// group. Ranks numbered at or past block_count() own nothing, and so does a rank whose block is
// empty in some dimension (an irregular map may give a dimension empty blocks).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <vector>

#include "armada/arrays/types.hpp"

namespace armada::arrays {

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

  int ndim() const noexcept { return dims_.size(); }
  const Coord& dims() const noexcept { return dims_; }
  /// Blocks per dimension.
  Coord grid() const;
  int block_count() const noexcept { return blocks_; }
  /// Boundaries of dimension d: grid(d) + 1 values, block k is [bounds[k], bounds[k+1]).
  const std::vector<Index>& bounds(int d) const { return bounds_[static_cast<std::size_t>(d)]; }

  /// The block of group rank `group_rank` (an empty patch for ranks that own nothing).
  Patch block(int group_rank) const;
  /// Group rank owning global index `index` (which must be inside the array).
  int owner(const Coord& index) const;

  bool operator==(const Distribution& other) const noexcept {
    return dims_ == other.dims_ && bounds_ == other.bounds_;
  }

 private:
  Coord dims_;
  std::vector<std::vector<Index>> bounds_;
  int blocks_ = 0;
};

}  // namespace armada::arrays
