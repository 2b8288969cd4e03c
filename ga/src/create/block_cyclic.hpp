// GA's block-cyclic arrays (GA_Set_block_cyclic, GA_Set_block_cyclic_proc_grid,
// GA_Set_tiled_proc_grid) are arrays with arrays' block-cyclic distributions
// (armada/arrays/distribution.hpp): every GA operation that takes one acts on it directly.
//
// What GA defines (checked against Debian's GA 5.8.2): blocks of `block` elements tile the
// array, nblocks[d] = ceil(dims[d] / block[d]) per dimension, edge blocks cut at the array's
// edge; blocks are numbered row-major over the block grid of the C view.
//  - simple layout (arrays' Layout::cyclic): block b belongs to process b % P (P: the array's
//    group size);
//  - proc-grid (ScaLAPACK) layout on a grid g (product P; Layout::proc_grid): block (i_0, ..)
//    belongs to the process at grid coordinates (i_d mod g_d), grid numbered row-major; that
//    process's data is ScaLAPACK's local matrix (its blocks in each dimension one after another);
//  - tiled layout (Layout::tiled): blocks owned as in the proc-grid layout, each process's blocks
//    ("tiles") stored one after another, row-major over its own tiles, each tile dense.
// The simple and tiled layouts give each block a whole block's room (an edge block is padded:
// NGA_Access_block_segment refuses such arrays, whose segment is not GA's).
#pragma once

#include "create/handles.hpp"

namespace armada::ga {

/// GA's block numbers: row-major over the block grid d.grid().
Coord block_coords(const arrays::Distribution& d, Index number);
Index block_number(const arrays::Distribution& d, const Coord& k);

}  // namespace armada::ga
