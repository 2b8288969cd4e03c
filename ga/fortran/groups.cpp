// GA's Fortran API (global.fh) for process groups and process grids: splitting, duplicating and
// naming groups, broadcasts on a group, an array's group and process grid, and the nga_ spellings
// GA's Fortran API has of the group calls in api.cpp. Each over the C API (ga.h); group handles
// and process ids are the C API's (ids zero-based within their group, as in GA's Fortran API).
#include <string>
#include <vector>

#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

int group_arg(Int p) { return static_cast<int>(p); }

/// nga_proc_topology and ga_get_proc_index: the process grid coordinates (zero-based) of
/// process `proc`'s block in Fortran's order, which is the order NGA_Proc_topology gives them
/// in (GA 5.8's C API copies its Fortran-ordered tuple: docs/ga.md); -1 for a process that
/// owns nothing.
void topology(const char* fn, Int g_a, Int proc, Int* subscript, bool two_d = false) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    if (two_d && GA_Ndim(g) != 2)
      bad_argument(fn, "g_a", std::to_string(g_a), "is not 2-d; ga_proc_topology takes 2-d arrays (nga_ for n-d)");
    if (!subscript) bad_argument(fn, "subscript", "NULL", "room for ndim coordinates is required");
    int coord[GA_MAX_DIM];
    NGA_Proc_topology(g, static_cast<int>(proc), coord);
    for (int d = 0; d < GA_Ndim(g); ++d) subscript[d] = coord[d];
  });
}

/// ga_get_proc_grid: the number of blocks per dimension, Fortran's order (GA_Get_proc_grid's).
void proc_grid(const char* fn, Int g_a, Int* dims) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    if (!dims) bad_argument(fn, "dims", "NULL", "room for ndim counts is required");
    int grid[GA_MAX_DIM];
    GA_Get_proc_grid(g, grid);
    for (int d = 0; d < GA_Ndim(g); ++d) dims[d] = grid[d];
  });
}

void list_nodeid(const char* fn, Int* list, Int nprocs) {
  call(fn, [&] {
    if (nprocs < 0) bad_argument(fn, "nprocs", std::to_string(nprocs), "must be >= 0");
    std::vector<int> ids(static_cast<std::size_t>(nprocs));
    GA_List_nodeid(ids.data(), static_cast<int>(nprocs));
    for (Int i = 0; i < nprocs; ++i) list[i] = ids[i];
  });
}

}  // namespace

extern "C" {

// ---- new groups: split (GA's consecutive blocks of ranks), split by color, duplicate, self ------
Int ga_pgroup_split_(const Int* grp, const Int* num_group) {
  return call("ga_pgroup_split", [&] {
    return Int{GA_Pgroup_split(group_arg(*grp), static_cast<int>(*num_group))};
  });
}
Int nga_pgroup_split_(const Int* grp, const Int* num_group) { return ga_pgroup_split_(grp, num_group); }
Int ga_pgroup_split_irreg_(const Int* grp, const Int* color) {
  return call("ga_pgroup_split_irreg", [&] {
    return Int{GA_Pgroup_split_irreg(group_arg(*grp), static_cast<int>(*color))};
  });
}
Int nga_pgroup_split_irreg_(const Int* grp, const Int* color) { return ga_pgroup_split_irreg_(grp, color); }
Int ga_pgroup_duplicate_(const Int* grp) {
  return call("ga_pgroup_duplicate", [&] { return Int{GA_Pgroup_duplicate(group_arg(*grp))}; });
}
Int nga_pgroup_duplicate_(const Int* grp) { return ga_pgroup_duplicate_(grp); }
Int ga_pgroup_self_() { return call("ga_pgroup_self", [] { return Int{GA_Pgroup_self()}; }); }
Int nga_pgroup_self_() { return ga_pgroup_self_(); }
Int ga_pgroup_absolute_id_(const Int* grp, const Int* pid) {
  return call("ga_pgroup_absolute_id", [&] {
    return Int{GA_Pgroup_absolute_id(group_arg(*grp), static_cast<int>(*pid))};
  });
}
Int nga_pgroup_absolute_id_(const Int* grp, const Int* pid) { return ga_pgroup_absolute_id_(grp, pid); }

// ga_pgroup_brdcst(grp, type, buf, lenbuf, originator): lenbuf bytes from the group's process
// originator; GA's message type is ignored, as in ga_brdcst.
void ga_pgroup_brdcst_(const Int* grp, const Int*, void* buf, const Int* lenbuf, const Int* originator) {
  const char* const fn = "ga_pgroup_brdcst";
  call(fn, [&] {
    if (*lenbuf < 0) bad_argument(fn, "lenbuf", std::to_string(*lenbuf), "must be >= 0 (bytes)");
    GA_Pgroup_brdcst(group_arg(*grp), buf, c_int(fn, "lenbuf", *lenbuf), c_int(fn, "originator", *originator));
  });
}

// ---- the nga_ spellings of the group calls in api.cpp ------------------------------------------
Int ga_pgroup_create_(const Int* list, const Int* count);
FortranLogical ga_pgroup_destroy_(const Int* p_handle);
Int ga_pgroup_nodeid_(const Int* p_handle);
Int ga_pgroup_nnodes_(const Int* p_handle);
void ga_pgroup_sync_(const Int* p_handle);
Int ga_pgroup_get_world_();
Int ga_pgroup_get_default_();
void ga_pgroup_set_default_(const Int* p_handle);
Int nga_pgroup_create_(const Int* list, const Int* count) { return ga_pgroup_create_(list, count); }
FortranLogical nga_pgroup_destroy_(const Int* p_handle) { return ga_pgroup_destroy_(p_handle); }
Int nga_pgroup_nodeid_(const Int* p_handle) { return ga_pgroup_nodeid_(p_handle); }
Int nga_pgroup_nnodes_(const Int* p_handle) { return ga_pgroup_nnodes_(p_handle); }
void nga_pgroup_sync_(const Int* p_handle) { ga_pgroup_sync_(p_handle); }
Int nga_pgroup_get_world_() { return ga_pgroup_get_world_(); }
Int nga_pgroup_get_default_() { return ga_pgroup_get_default_(); }
void nga_pgroup_set_default_(const Int* p_handle) { ga_pgroup_set_default_(p_handle); }

// ---- an array's group, a group's size ---------------------------------------------------------
Int ga_get_pgroup_(const Int* g_a) {
  return call("ga_get_pgroup", [&] { return Int{GA_Get_pgroup(handle("ga_get_pgroup", *g_a))}; });
}
Int nga_get_pgroup_(const Int* g_a) { return ga_get_pgroup_(g_a); }
Int ga_get_pgroup_size_(const Int* grp) {
  return call("ga_get_pgroup_size", [&] { return Int{GA_Get_pgroup_size(group_arg(*grp))}; });
}
Int nga_get_pgroup_size_(const Int* grp) { return ga_get_pgroup_size_(grp); }
// Before ga_allocate: the group the array will live on.
void ga_set_pgroup_(const Int* g_a, const Int* p_handle) {
  call("ga_set_pgroup", [&] { GA_Set_pgroup(handle("ga_set_pgroup", *g_a), group_arg(*p_handle)); });
}
void nga_set_pgroup_(const Int* g_a, const Int* p_handle) { ga_set_pgroup_(g_a, p_handle); }
void ga_list_nodeid_(Int* list, const Int* nprocs) { list_nodeid("ga_list_nodeid", list, *nprocs); }
void nga_list_nodeid_(Int* list, const Int* nprocs) { list_nodeid("nga_list_nodeid", list, *nprocs); }

// ---- the process grid of an array's blocks ----------------------------------------------------
void ga_get_proc_grid_(const Int* g_a, Int* dims) { proc_grid("ga_get_proc_grid", *g_a, dims); }
void nga_get_proc_grid_(const Int* g_a, Int* dims) { proc_grid("nga_get_proc_grid", *g_a, dims); }
void ga_get_proc_index_(const Int* g_a, const Int* iproc, Int* index) {
  topology("ga_get_proc_index", *g_a, *iproc, index);
}
void nga_get_proc_index_(const Int* g_a, const Int* iproc, Int* index) {
  topology("nga_get_proc_index", *g_a, *iproc, index);
}
void nga_proc_topology_(const Int* g_a, const Int* proc, Int* subscript) {
  topology("nga_proc_topology", *g_a, *proc, subscript);
}
// The 2-d form: the grid row and column of process proc's block.
void ga_proc_topology_(const Int* g_a, const Int* proc, Int* pr, Int* pc) {
  Int s[GA_MAX_DIM] = {};
  topology("ga_proc_topology", *g_a, *proc, s, true);
  *pr = s[0];
  *pc = s[1];
}

}  // extern "C"
