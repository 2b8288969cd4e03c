// GA's array handles: what a handle holds between GA_Create_handle and GA_Allocate (its plan),
// the live arrays, and the handle table every concern looks arrays up in.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "base/call.hpp"

namespace armada::ga {

/// The properties a handle collects between GA_Create_handle and GA_Allocate, and that the
/// NGA_Create family passes at once.
struct Plan {
  int type = 0;  // GA type; 0 until set
  Coord dims;
  Coord chunk;
  Coord ghosts;
  std::vector<std::vector<Index>> block_starts;
  std::string name;
  int pgroup = 0;
  bool pgroup_set = false;
  Coord cyclic_block;  // GA_Set_block_cyclic(_proc_grid): the block extents (empty: not block-cyclic)
  Coord cyclic_grid;   // GA_Set_block_cyclic_proc_grid: the process grid (empty: the simple layout)
  bool cyclic_tiled = false;  // GA_Set_tiled_proc_grid: tile-contiguous storage on cyclic_grid
};

/// The block-cyclic distribution of live handle g_a (GA_Set_block_cyclic*, GA_Set_tiled_proc_grid:
/// arrays' Layout::cyclic, proc_grid, tiled), or nullptr for an array of block distribution
/// (bad_argument for a handle that is not a live array).
const arrays::Distribution* block_cyclic(const char* function, int g_a, const char* argument = "g_a");
/// The distribution `plan`'s block-cyclic settings ask for on `nprocs` processes, checked against
/// the rest of the plan as GA checks it (block_cyclic_api.cpp).
arrays::Distribution cyclic_distribution(const char* function, const Plan& plan, int nprocs);

/// Creates the array of `plan` (collective) and returns its GA handle, or 0 on every member
/// when the array would exceed GA's memory limit on some member (as GA's creation fails).
int create(const char* function, const Plan& plan);
/// A new handle with no array yet (GA_Create_handle).
int new_handle();
/// The plan of a handle not yet allocated (bad_argument for an allocated or unknown one).
Plan& plan_of(const char* function, int g_a);
/// Allocates the array of a planned handle; false (g_a stays planned) on every member when it
/// would exceed GA's memory limit.
bool allocate(const char* function, int g_a);
/// The array of handle g_a (named `argument` in errors), which must be allocated and live. A
/// block-cyclic array is refused (naming `function`, `argument` and the layout) unless `function`
/// is one of the operations that take one (create/handles.cpp's table): those act on it directly.
Array& array(const char* function, int g_a, const char* argument = "g_a");
/// The same for an operation written for every layout (patch and element operations, queries).
Array& any_array(const char* function, int g_a, const char* argument = "g_a");
/// The dims of live array g_a, of either layout.
const Coord& array_dims(const char* function, int g_a);
/// The message of a block-cyclic array given to an operation that does not take one.
[[noreturn]] void refuse_block_cyclic(const char* function, const char* argument, int g_a);
/// Whether handle g_a is planned (not allocated) rather than allocated; bad_argument for a
/// handle that is neither.
bool is_planned(const char* function, int g_a);
/// GA_Deallocate: frees the array of handle g_a (collective over its group), refunds its
/// memory and leaves g_a planned with the array's properties, so that GA_Allocate makes it again
/// (contents not kept). False, and nothing done, when g_a is planned already.
bool deallocate(const char* function, int g_a);
/// The GA type g_a was created with.
int ga_type(const char* function, int g_a);
/// Gives a live array a GA handle; `charged`: the bytes charge_memory took for it (returned
/// when the handle is forgotten).
int adopt(Array a, int type, std::size_t charged);
/// The bytes an array whose block on this rank is `block` takes here, ghost frame included
/// (what GA's memory limit counts).
std::size_t block_bytes(const arrays::Patch& block, const Coord& ghosts, ElemType type);
/// Whether GA_Update_ghosts and NGA_Update_ghosts_nb of handle g_a fill the corner ghost cells
/// (GA_Set_ghost_corner_flag; true until set), for a planned or a live handle.
bool& ghost_corners(const char* function, int g_a);
/// Forgets the handle (after the array was destroyed).
void forget_array(int g_a);
/// Destroys every live array (GA_Terminate).
void destroy_all();
/// The array's group: the GA handle of it, and its rank `iproc` as a world rank.
int world_rank_of(const char* function, const Array& a, int iproc);

}  // namespace armada::ga
