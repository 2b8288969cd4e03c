// GA's Fortran API of block-cyclic and tiled arrays (global.fh): the layout setters, the block queries and
// local access of blocks, over the C API (ga/src/create/block_cyclic_api.cpp). Fortran's tuples are the
// C view's reversed; block numbers (nga_access_block's idx) and processes count from 0, and
// nga_access_block_grid's subscript holds 0-based block indices in Fortran's order, as GA's.
#include <string>

#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

/// A tuple of n entries >= 1 (Fortran's order, named as the program named it) in C's order.
void positive_reversed(const char* fn, const char* argument, int n, const Int* v, std::int64_t out[GA_MAX_DIM]) {
  if (!v) bad_argument(fn, argument, "NULL", std::to_string(n) + " entries are required");
  for (int d = 0; d < n; ++d) {
    if (v[d] < 1)
      bad_argument(fn, std::string(argument) + "(" + std::to_string(d + 1) + ")", std::to_string(v[d]), "must be >= 1");
    out[n - 1 - d] = v[d];
  }
}

/// The ndim of a handle planned with ga_set_data.
int planned_ndim(const char* fn, int g) {
  const int n = plan_of(fn, g).dims.size();
  if (n == 0) bad_argument(fn, "g_a", std::to_string(g), "has no dims yet (ga_set_data first)");
  return n;
}

void set_block_cyclic(const char* fn, Int g_a, const Int* block, const Int* grid, bool tiled = false) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    const int n = planned_ndim(fn, g);
    std::int64_t cblock[GA_MAX_DIM], cgrid[GA_MAX_DIM];
    positive_reversed(fn, grid ? "block" : "dims", n, block, cblock);
    if (!grid) return GA_Set_block_cyclic64(g, cblock);
    positive_reversed(fn, "proc_grid", n, grid, cgrid);
    tiled ? GA_Set_tiled_proc_grid64(g, cblock, cgrid) : GA_Set_block_cyclic_proc_grid64(g, cblock, cgrid);
  });
}

void block_info(const char* fn, Int g_a, Int* num_blocks, Int* block_dims) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    const int n = array_dims(fn, g).size();
    int nb[GA_MAX_DIM], bd[GA_MAX_DIM];
    NGA_Get_block_info(g, nb, bd);
    for (int d = 0; d < n; ++d) {
      num_blocks[d] = nb[n - 1 - d];
      block_dims[d] = bd[n - 1 - d];
    }
  });
}

/// The C API's access result (pointer, C ld) as Fortran's MA index and ld.
template <class Access>
void access_block(const char* fn, Int g_a, std::int64_t* index, Int* ld, Access&& access) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    void* p = nullptr;
    std::int64_t cld[GA_MAX_DIM] = {};
    access(g, &p, cld);
    access_result(fn, g, array_dims(fn, g).size(), p, cld, index, ld);
  });
}

}  // namespace

extern "C" {

void ga_set_block_cyclic_(const Int* g_a, const Int* dims) { set_block_cyclic("ga_set_block_cyclic", *g_a, dims, nullptr); }
void nga_set_block_cyclic_(const Int* g_a, const Int* dims) {
  set_block_cyclic("nga_set_block_cyclic", *g_a, dims, nullptr);
}
void ga_set_block_cyclic_proc_grid_(const Int* g_a, const Int* block, const Int* proc_grid) {
  set_block_cyclic("ga_set_block_cyclic_proc_grid", *g_a, block, proc_grid);
}
void nga_set_block_cyclic_proc_grid_(const Int* g_a, const Int* block, const Int* proc_grid) {
  set_block_cyclic("nga_set_block_cyclic_proc_grid", *g_a, block, proc_grid);
}
void ga_set_tiled_proc_grid_(const Int* g_a, const Int* block, const Int* proc_grid) {
  set_block_cyclic("ga_set_tiled_proc_grid", *g_a, block, proc_grid, true);
}
void nga_set_tiled_proc_grid_(const Int* g_a, const Int* block, const Int* proc_grid) {
  set_block_cyclic("nga_set_tiled_proc_grid", *g_a, block, proc_grid, true);
}
Int ga_total_blocks_(const Int* g_a) {
  return call("ga_total_blocks", [&] { return Int{GA_Total_blocks(handle("ga_total_blocks", *g_a))}; });
}
Int nga_total_blocks_(const Int* g_a) {
  return call("nga_total_blocks", [&] { return Int{GA_Total_blocks(handle("nga_total_blocks", *g_a))}; });
}
FortranLogical ga_uses_proc_grid_(const Int* g_a) {
  return call("ga_uses_proc_grid", [&] { return GA_Uses_proc_grid(handle("ga_uses_proc_grid", *g_a)) ? kTrue : kFalse; });
}
FortranLogical nga_uses_proc_grid_(const Int* g_a) {
  return call("nga_uses_proc_grid",
              [&] { return GA_Uses_proc_grid(handle("nga_uses_proc_grid", *g_a)) ? kTrue : kFalse; });
}
void ga_get_block_info_(const Int* g_a, Int* num_blocks, Int* block_dims) {
  block_info("ga_get_block_info", *g_a, num_blocks, block_dims);
}
void nga_get_block_info_(const Int* g_a, Int* num_blocks, Int* block_dims) {
  block_info("nga_get_block_info", *g_a, num_blocks, block_dims);
}
Int nga_locate_num_blocks_(const Int* g_a, const Int* lo, const Int* hi) {
  const char* const fn = "nga_locate_num_blocks";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    const CPatch c = patch(fn, g, lo, hi);
    int clo[GA_MAX_DIM], chi[GA_MAX_DIM];
    for (int d = 0; d < c.ndim; ++d) clo[d] = static_cast<int>(c.lo[d]), chi[d] = static_cast<int>(c.hi[d]);
    return Int{NGA_Locate_num_blocks(g, clo, chi)};
  });
}
void nga_access_block_(const Int* g_a, const Int* idx, std::int64_t* index, Int* ld) {
  access_block("nga_access_block", *g_a, index, ld,
               [&](int g, void** p, std::int64_t* cld) { NGA_Access_block64(g, *idx, p, cld); });
}
void nga_access_block_grid_(const Int* g_a, const Int* subscript, std::int64_t* index, Int* ld) {
  access_block("nga_access_block_grid", *g_a, index, ld, [&](int g, void** p, std::int64_t* cld) {
    const int n = array_dims("nga_access_block_grid", g).size();
    std::int64_t c[GA_MAX_DIM];
    for (int d = 0; d < n; ++d) c[n - 1 - d] = subscript[d];
    NGA_Access_block_grid64(g, c, p, cld);
  });
}
void nga_access_block_segment_(const Int* g_a, const Int* proc, std::int64_t* index, Int* len) {
  const char* const fn = "nga_access_block_segment";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    void* p = nullptr;
    std::int64_t n = 0;
    NGA_Access_block_segment64(g, static_cast<int>(*proc), &p, &n);
    Int unused[GA_MAX_DIM];
    access_result(fn, g, 1, p, nullptr, index, unused);
    *len = static_cast<Int>(n);
  });
}
void nga_release_block_(const Int* g_a, const Int* idx) {
  call("nga_release_block", [&] { NGA_Release_block(handle("nga_release_block", *g_a), static_cast<int>(*idx)); });
}
void nga_release_update_block_(const Int* g_a, const Int* idx) {
  call("nga_release_update_block",
       [&] { NGA_Release_update_block(handle("nga_release_update_block", *g_a), static_cast<int>(*idx)); });
}
void nga_release_block_grid_(const Int* g_a, const Int*) {
  call("nga_release_block_grid", [&] { NGA_Release_block_grid(handle("nga_release_block_grid", *g_a), nullptr); });
}
void nga_release_update_block_grid_(const Int* g_a, const Int*) {
  call("nga_release_update_block_grid",
       [&] { NGA_Release_update_block_grid(handle("nga_release_update_block_grid", *g_a), nullptr); });
}
void nga_release_block_segment_(const Int* g_a, const Int* proc) {
  call("nga_release_block_segment",
       [&] { NGA_Release_block_segment(handle("nga_release_block_segment", *g_a), static_cast<int>(*proc)); });
}
void nga_release_update_block_segment_(const Int* g_a, const Int* proc) {
  call("nga_release_update_block_segment", [&] {
    NGA_Release_update_block_segment(handle("nga_release_update_block_segment", *g_a), static_cast<int>(*proc));
  });
}

}  // extern "C"
