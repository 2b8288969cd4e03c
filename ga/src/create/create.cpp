// Array creation (the NGA_Create family and the handle path), duplicate, destroy, inquiry.
#include <algorithm>
#include <climits>
#include <cstring>
#include <iterator>
#include <string_view>

#include "base/call.hpp"
#include "base/index.hpp"
#include "base/types.hpp"
#include "create/block_cyclic.hpp"
#include "create/handles.hpp"
#include "ga-wapi.h"
#include "groups/groups.hpp"
#include "memory/accounting.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

template <class I>
Coord tuple(const char* function, const char* argument, int ndim, const I* v) {
  if (ndim < 1 || ndim > GA_MAX_DIM) bad_argument(function, "ndim", std::to_string(ndim), "must be 1 .. 7");
  if (!v) bad_argument(function, argument, "NULL", std::to_string(ndim) + " entries are required");
  return coord(ndim, v);
}

template <class I>
Coord optional_tuple(int ndim, const I* v) {
  return v ? coord(ndim, v) : Coord{};
}

/// GA's irregular map (block[d] blocks per dimension; map: their first indices, dimension after
/// dimension) as arrays' block starts.
template <class I>
std::vector<std::vector<Index>> block_starts(const char* function, int ndim, const I* block, const I* map) {
  if (!block) bad_argument(function, "block", "NULL", "the number of blocks per dimension is required");
  if (!map) bad_argument(function, "map", "NULL", "the first index of every block is required");
  std::vector<std::vector<Index>> starts(static_cast<std::size_t>(ndim));
  const I* next = map;
  for (int d = 0; d < ndim; ++d) {
    if (block[d] < 1)
      bad_argument(function, "block[" + std::to_string(d) + "]", std::to_string(block[d]), "must be >= 1");
    starts[static_cast<std::size_t>(d)].assign(next, next + block[d]);
    next += block[d];
  }
  return starts;
}

/// The plan every NGA_Create form starts from; the caller adds its distribution.
template <class I>
Plan base_plan(const char* function, int type, int ndim, const I* dims, const char* name, const I* width, int pgroup,
               bool pgroup_set) {
  require_initialized(function);
  Plan plan;
  plan.type = type;
  plan.dims = tuple(function, "dims", ndim, dims);
  plan.ghosts = optional_tuple(ndim, width);
  plan.name = name ? name : "";
  plan.pgroup = pgroup;
  plan.pgroup_set = pgroup_set;
  return plan;
}

template <class I>
int create_regular(const char* function, int type, int ndim, const I* dims, const char* name, const I* chunk,
                   const I* width, int pgroup, bool pgroup_set) {
  return guarded(function, [&] {
    Plan plan = base_plan(function, type, ndim, dims, name, width, pgroup, pgroup_set);
    plan.chunk = optional_tuple(ndim, chunk);
    return create(function, plan);
  });
}

template <class I>
int create_irregular(const char* function, int type, int ndim, const I* dims, const char* name, const I* block,
                     const I* map, const I* width, int pgroup, bool pgroup_set) {
  return guarded(function, [&] {
    Plan plan = base_plan(function, type, ndim, dims, name, width, pgroup, pgroup_set);
    plan.block_starts = block_starts(function, ndim, block, map);
    return create(function, plan);
  });
}

template <class I>
void inquire(const char* function, int g_a, int* type, int* ndim, I* dims) {
  guarded(function, [&] {
    const Coord& shape = array_dims(function, g_a);
    if (type) *type = ga_type(function, g_a);
    if (ndim) *ndim = shape.size();
    if (dims)
      for (int d = 0; d < shape.size(); ++d) dims[d] = static_cast<I>(shape[d]);
  });
}

template <class I>
void distribution(const char* function, int g_a, int iproc, I* lo, I* hi) {
  guarded(function, [&] {
    if (!lo || !hi) bad_argument(function, lo ? "hi" : "lo", "NULL", "room for ndim indices is required");
    if (const arrays::Distribution* bc = block_cyclic(function, g_a)) {
      // GA: of a block-cyclic array, the bounds of block `iproc`.
      if (iproc < 0 || iproc >= bc->block_count())
        bad_argument(function, "iproc", std::to_string(iproc),
                     "of a block-cyclic array it is a block number: 0 .. " + std::to_string(bc->block_count() - 1));
      const arrays::Patch p = bc->block_patch(block_coords(*bc, iproc));
      for (int d = 0; d < bc->ndim(); ++d) lo[d] = static_cast<I>(p.lo[d]), hi[d] = static_cast<I>(p.hi[d] - 1);
      return;
    }
    const Array& a = array(function, g_a);
    const arrays::Patch p = a.owned(world_rank_of(function, a, iproc));
    for (int d = 0; d < a.ndim(); ++d) {
      const bool none = p.empty();
      lo[d] = static_cast<I>(none ? 0 : p.lo[d]);
      hi[d] = static_cast<I>(none ? -1 : p.hi[d] - 1);
    }
  });
}

/// The ndim a property setter needs: set by NGA_Set_data first, as in GA.
Plan& planned_with_data(const char* function, int g_a) {
  Plan& p = plan_of(function, g_a);
  if (p.type == 0) bad_argument(function, "g_a", std::to_string(g_a), "call NGA_Set_data first");
  return p;
}

template <class I>
void set_data(const char* function, int g_a, int ndim, const I* dims, int type) {
  guarded(function, [&] {
    Plan& p = plan_of(function, g_a);
    elem_type(function, type);
    p.dims = tuple(function, "dims", ndim, dims);
    p.type = type;
  });
}
template <class I>
void set_chunk(const char* function, int g_a, const I* chunk) {
  guarded(function, [&] {
    Plan& p = planned_with_data(function, g_a);
    p.chunk = optional_tuple(p.dims.size(), chunk);
  });
}
template <class I>
void set_ghosts(const char* function, int g_a, const I* width) {
  guarded(function, [&] {
    Plan& p = planned_with_data(function, g_a);
    p.ghosts = tuple(function, "width", p.dims.size(), width);
  });
}
template <class I>
void set_irreg(const char* function, int g_a, const I* map, const I* block) {
  guarded(function, [&] {
    Plan& p = planned_with_data(function, g_a);
    p.block_starts = block_starts(function, p.dims.size(), block, map);
  });
}

/// NGA_Locate: the owner's rank in the array's group; of a block-cyclic array, as GA's, the
/// number of the block holding the element.
template <class I>
int locate(const char* function, int g_a, const I* subscript) {
  return guarded(function, [&] {
    if (const arrays::Distribution* bc = block_cyclic(function, g_a)) {
      const arrays::Patch p = patch_of(function, bc->dims(), subscript, subscript, "subscript", "subscript");
      return static_cast<int>(block_number(*bc, bc->block_of(p.lo)));
    }
    const Array& a = array(function, g_a);
    const arrays::Patch p = patch(function, a, subscript, subscript, "subscript", "subscript");
    return a.group().group_rank(a.locate(p.lo));
  });
}

}  // namespace

extern "C" {

// NGA_Create and its _config, _irreg, _ghosts forms for index type I, each name ending in `s`
// (nothing for int, 64 for int64_t).
#define ARMADA_GA_CREATE(I, s)                                                                                       \
  int NGA_Create##s(int type, int ndim, I dims[], char* name, I chunk[]) {                                           \
    return create_regular<I>("NGA_Create" #s, type, ndim, dims, name, chunk, nullptr, 0, false);                     \
  }                                                                                                                  \
  int NGA_Create_config##s(int type, int ndim, I dims[], char* name, I chunk[], int p_handle) {                      \
    return create_regular<I>("NGA_Create_config" #s, type, ndim, dims, name, chunk, nullptr, p_handle, true);        \
  }                                                                                                                  \
  int NGA_Create_irreg##s(int type, int ndim, I dims[], char* name, I block[], I map[]) {                            \
    return create_irregular<I>("NGA_Create_irreg" #s, type, ndim, dims, name, block, map, nullptr, 0, false);        \
  }                                                                                                                  \
  int NGA_Create_irreg_config##s(int type, int ndim, I dims[], char* name, I block[], I map[], int p_handle) {       \
    return create_irregular<I>("NGA_Create_irreg_config" #s, type, ndim, dims, name, block, map, nullptr, p_handle,  \
                               true);                                                                                \
  }                                                                                                                  \
  int NGA_Create_ghosts##s(int type, int ndim, I dims[], I width[], char* name, I chunk[]) {                         \
    return create_regular<I>("NGA_Create_ghosts" #s, type, ndim, dims, name, chunk, width, 0, false);                \
  }                                                                                                                  \
  int NGA_Create_ghosts_config##s(int type, int ndim, I dims[], I width[], char* name, I chunk[], int p_handle) {    \
    return create_regular<I>("NGA_Create_ghosts_config" #s, type, ndim, dims, name, chunk, width, p_handle, true);   \
  }                                                                                                                  \
  int NGA_Create_ghosts_irreg##s(int type, int ndim, I dims[], I width[], char* name, I nblock[], I map[]) {         \
    return create_irregular<I>("NGA_Create_ghosts_irreg" #s, type, ndim, dims, name, nblock, map, width, 0, false);  \
  }                                                                                                                  \
  int NGA_Create_ghosts_irreg_config##s(int type, int ndim, I dims[], I width[], char* name, I nblock[], I map[],    \
                                       int p_handle) {                                                               \
    return create_irregular<I>("NGA_Create_ghosts_irreg_config" #s, type, ndim, dims, name, nblock, map, width,      \
                               p_handle, true);                                                                      \
  }
ARMADA_GA_CREATE(int, )
ARMADA_GA_CREATE(int64_t, 64)
#undef ARMADA_GA_CREATE

// ---- the handle path ----------------------------------------------------------------------------

int GA_Create_handle(void) {
  return guarded("GA_Create_handle", [] {
    require_initialized("GA_Create_handle");
    return new_handle();
  });
}
void NGA_Set_data(int g_a, int ndim, int dims[], int type) { set_data("NGA_Set_data", g_a, ndim, dims, type); }
void GA_Set_data(int g_a, int ndim, int dims[], int type) { set_data("GA_Set_data", g_a, ndim, dims, type); }
void NGA_Set_data64(int g_a, int ndim, int64_t dims[], int type) { set_data("NGA_Set_data64", g_a, ndim, dims, type); }
void GA_Set_data64(int g_a, int ndim, int64_t dims[], int type) { set_data("GA_Set_data64", g_a, ndim, dims, type); }

void GA_Set_chunk(int g_a, int chunk[]) { set_chunk("GA_Set_chunk", g_a, chunk); }
void GA_Set_chunk64(int g_a, int64_t chunk[]) { set_chunk("GA_Set_chunk64", g_a, chunk); }
void GA_Set_ghosts(int g_a, int width[]) { set_ghosts("GA_Set_ghosts", g_a, width); }
void GA_Set_ghosts64(int g_a, int64_t width[]) { set_ghosts("GA_Set_ghosts64", g_a, width); }
void NGA_Set_ghosts64(int g_a, int64_t width[]) { set_ghosts("NGA_Set_ghosts64", g_a, width); }
void GA_Set_irreg_distr(int g_a, int map[], int block[]) { set_irreg("GA_Set_irreg_distr", g_a, map, block); }
void GA_Set_irreg_distr64(int g_a, int64_t map[], int64_t block[]) {
  set_irreg("GA_Set_irreg_distr64", g_a, map, block);
}
void NGA_Set_irreg_distr64(int g_a, int64_t map[], int64_t block[]) {
  set_irreg("NGA_Set_irreg_distr64", g_a, map, block);
}
void GA_Set_array_name(int g_a, char* name) {
  guarded("GA_Set_array_name", [&] { plan_of("GA_Set_array_name", g_a).name = name ? name : ""; });
}
// GA's "read_only" and "read_cache" properties (collective), both promises that the program
// only reads the array until GA_Unset_property: GA copies a read_only array into every node, and
// keeps the blocks a process reads of a read_cache array, so that reads stay on the node. Armada
// keeps the one distributed copy, which every rank of a node already reads through shared
// memory, so neither property changes a data path here; the call checks its arguments and
// synchronizes as GA's does. Any other property is refused by name.
namespace {
constexpr std::string_view kProperties[] = {"read_only", "read_cache"};

void set_property(const char* function, int g_a, const char* property) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    const std::string p = property ? property : "(null)";
    if (std::find(std::begin(kProperties), std::end(kProperties), p) == std::end(kProperties))
      bad_argument(function, "property", "'" + p + "'",
                   "Armada supports the properties \"read_only\" and \"read_cache\" only");
    a.sync_group();
  });
}
void unset_property(const char* function, int g_a) {
  guarded(function, [&] { array(function, g_a).sync_group(); });
}
/// ga-wapi.h's Integer handle as the C API's int (GA's handles are ints).
int wapi_handle(const char* function, Integer g_a) {
  if (g_a < INT_MIN || g_a > INT_MAX)
    guarded(function, [&] { bad_argument(function, "g_a", std::to_string(g_a), "not a live global array handle"); });
  return static_cast<int>(g_a);
}
}  // namespace
void GA_Set_property(int g_a, char* property) { set_property("GA_Set_property", g_a, property); }
void NGA_Set_property(int g_a, char* property) { set_property("NGA_Set_property", g_a, property); }
void GA_Unset_property(int g_a) { unset_property("GA_Unset_property", g_a); }
void NGA_Unset_property(int g_a) { unset_property("NGA_Unset_property", g_a); }
void wnga_set_property(Integer g_a, char* property) {
  set_property("wnga_set_property", wapi_handle("wnga_set_property", g_a), property);
}
void wnga_unset_property(Integer g_a) { unset_property("wnga_unset_property", wapi_handle("wnga_unset_property", g_a)); }

void GA_Set_pgroup(int g_a, int p_handle) {
  guarded("GA_Set_pgroup", [&] {
    Plan& p = plan_of("GA_Set_pgroup", g_a);
    group("GA_Set_pgroup", p_handle);
    p.pgroup = p_handle;
    p.pgroup_set = true;
  });
}
int GA_Allocate(int g_a) {
  return guarded("GA_Allocate", [&] { return allocate("GA_Allocate", g_a) ? 1 : 0; });
}

int GA_Duplicate(int g_a, char* array_name) {
  return guarded("GA_Duplicate", [&] {
    const Array& a = any_array("GA_Duplicate", g_a);
    const arrays::Distribution& d = a.distribution();
    const std::size_t bytes = !d.cyclic()             ? block_bytes(a.owned(), a.ghosts(), a.type())
                              : a.group().is_member() ? d.local_elements(a.group().rank()) * a.element_size()
                                                      : 0;
    if (!charge_memory(a.group(), bytes, MemoryUse::array)) return 0;  // GA: the duplicate fails
    try {
      return adopt(a.duplicate(array_name ? array_name : ""), ga_type("GA_Duplicate", g_a), bytes);
    } catch (...) {
      refund_memory(bytes, MemoryUse::array);
      throw;
    }
  });
}
void GA_Destroy(int g_a) {
  guarded("GA_Destroy", [&] {
    // A planned handle (never allocated, or freed by GA_Deallocate) has no array to free: only the
    // handle goes (GA's returns false and keeps it).
    if (!is_planned("GA_Destroy", g_a)) any_array("GA_Destroy", g_a).destroy();
    forget_array(g_a);
  });
}
// GA_Deallocate frees the array's memory and keeps the handle with its properties, so that
// GA_Allocate allocates it again (contents not kept); GA_Destroy still frees the handle. As
// GA's (global/src/base.c, pnga_deallocate): 1 when memory was freed, 0 for a handle with none.
int GA_Deallocate(int g_a) {
  return guarded("GA_Deallocate", [&] { return deallocate("GA_Deallocate", g_a) ? 1 : 0; });
}
int NGA_Deallocate(int g_a) {
  return guarded("NGA_Deallocate", [&] { return deallocate("NGA_Deallocate", g_a) ? 1 : 0; });
}
// GA's irregular-distribution flag (set by GA_Set_irreg_distr, overridden here) is what GA's own
// GA_Dgemm reads to choose its algorithm (global/src/matmul.c); the distribution comes from the
// map either way. Armada's matrix products have one algorithm, so the flag changes nothing. The
// handle, planned or allocated, is checked.
void GA_Set_irreg_flag(int g_a, int) {
  guarded("GA_Set_irreg_flag", [&] { is_planned("GA_Set_irreg_flag", g_a); });
}
void NGA_Set_irreg_flag(int g_a, int) {
  guarded("NGA_Set_irreg_flag", [&] { is_planned("NGA_Set_irreg_flag", g_a); });
}

// ---- inquiry ------------------------------------------------------------------------------------

void NGA_Inquire(int g_a, int* type, int* ndim, int dims[]) { inquire("NGA_Inquire", g_a, type, ndim, dims); }
void NGA_Inquire64(int g_a, int* type, int* ndim, int64_t dims[]) {
  inquire("NGA_Inquire64", g_a, type, ndim, dims);
}
char* GA_Inquire_name(int g_a) {
  return guarded("GA_Inquire_name", [&] {
    return const_cast<char*>(any_array("GA_Inquire_name", g_a).name().c_str());
  });
}
int GA_Ndim(int g_a) {
  return guarded("GA_Ndim", [&] { return array_dims("GA_Ndim", g_a).size(); });
}
int GA_Valid_handle(int g_a) {
  try {
    any_array("GA_Valid_handle", g_a);  // a live array of either layout
    return 1;
  } catch (...) {
    return 0;
  }
}
void NGA_Distribution(int g_a, int iproc, int lo[], int hi[]) {
  distribution("NGA_Distribution", g_a, iproc, lo, hi);
}
void NGA_Distribution64(int g_a, int iproc, int64_t lo[], int64_t hi[]) {
  distribution("NGA_Distribution64", g_a, iproc, lo, hi);
}
// GA's GA_Compare_distr: 0 when the two arrays have the same distribution (dims and block
// boundaries, as GA's compares dims and map; types, ghost widths and groups are not compared),
// 1 otherwise. Local: the distribution is known on every process.
int GA_Compare_distr(int g_a, int g_b) {
  return guarded("GA_Compare_distr", [&] {
    const Array& a = array("GA_Compare_distr", g_a, "g_a");
    return a.distribution() == array("GA_Compare_distr", g_b, "g_b").distribution() ? 0 : 1;
  });
}
// Armada creates no mirrored arrays: 0 for every handle, planned or allocated (as GA's for a
// handle not on its mirror group).
int GA_Is_mirrored(int g_a) {
  return guarded("GA_Is_mirrored", [&] {
    is_planned("GA_Is_mirrored", g_a);  // checks the handle
    return 0;
  });
}
int NGA_Is_mirrored(int g_a) {
  return guarded("NGA_Is_mirrored", [&] {
    is_planned("NGA_Is_mirrored", g_a);  // checks the handle
    return 0;
  });
}
int GA_Pgroup_get_mirror(void) {
  return guarded("GA_Pgroup_get_mirror", [] {
    require_initialized("GA_Pgroup_get_mirror");
    return world_pgroup;
  });
}
void GA_Merge_mirrored(int g_a) {
  guarded("GA_Merge_mirrored", [&] { array("GA_Merge_mirrored", g_a).sync_group(); });
}
int NGA_Locate(int g_a, int subscript[]) { return locate<int>("NGA_Locate", g_a, subscript); }
int NGA_Locate64(int g_a, int64_t subscript[]) { return locate<int64_t>("NGA_Locate64", g_a, subscript); }
int GA_Get_pgroup_size(int grp_id) {
  return guarded("GA_Get_pgroup_size", [&] { return group("GA_Get_pgroup_size", grp_id).size(); });
}
int NGA_Get_pgroup(int g_a) {
  return guarded("NGA_Get_pgroup", [&] {
    return handle_of(any_array("NGA_Get_pgroup", g_a).group());
  });
}


}  // extern "C"
