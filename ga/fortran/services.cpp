// GA's Fortran API (global.fh): the cluster queries, GA's version, arrays created in steps
// (ga_create_handle, ga_set_data, ga_set_array_name, ga_set_chunk, ga_set_irreg_distr, then
// ga_allocate), mutexes and fences, ga_gop on every element type, whole-array dot products of
// the other types, ga_locate/ga_locate_region, ga_print_patch and ga_read_inc: each over the C API
// (ga.h), with Fortran's one-based, column-major index tuples converted by binding.cpp.
#include <complex>
#include <string>
#include <vector>

#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

/// ga_set_data: dims and the MT_F_ type in the Fortran view.
void set_data(const char* fn, Int g_a, Int ndim, const Int* dims, Int type) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    if (ndim < 1 || ndim > GA_MAX_DIM) bad_argument(fn, "ndim", std::to_string(ndim), "must be 1 .. 7");
    const int n = static_cast<int>(ndim);
    std::int64_t fdims[GA_MAX_DIM], cdims[GA_MAX_DIM];
    for (int d = 0; d < n; ++d) {
      if (dims[d] < 1) bad_argument(fn, "dims(" + std::to_string(d + 1) + ")", std::to_string(dims[d]), "must be >= 1");
      fdims[d] = dims[d];
    }
    armada_gaf_to_c_extents(n, fdims, cdims);
    GA_Set_data64(g, n, cdims, c_type(fn, type));
  });
}

/// The dims (Fortran order) of an array planned with ga_set_data and not yet allocated.
int planned_dims(const char* fn, int g, std::int64_t fdims[GA_MAX_DIM]) {
  const Plan& p = plan_of(fn, g);
  const int n = static_cast<int>(p.dims.size());
  if (n == 0) bad_argument(fn, "g_a", std::to_string(g), "has no dims yet (ga_set_data first)");
  for (int d = 0; d < n; ++d) fdims[d] = p.dims[n - 1 - d];
  return n;
}

/// ga_set_irreg_distr: map and nblock as GA's Fortran API gives them (binding.hpp).
void set_irreg_distr(const char* fn, Int g_a, const Int* map, const Int* nblock) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    std::int64_t fdims[GA_MAX_DIM], cblock[GA_MAX_DIM];
    const int n = planned_dims(fn, g, fdims);
    std::vector<std::int64_t> cmap = irregular_map(fn, n, fdims, map, nblock, cblock);
    GA_Set_irreg_distr64(g, cmap.data(), cblock);
  });
}

/// ga_set_chunk: chunk(d) <= 0 leaves dimension d unconstrained.
void set_chunk(const char* fn, Int g_a, const Int* chunk) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    std::int64_t fdims[GA_MAX_DIM], fchunk[GA_MAX_DIM], cchunk[GA_MAX_DIM];
    const int n = planned_dims(fn, g, fdims);
    for (int d = 0; d < n; ++d) fchunk[d] = chunk[d];
    armada_gaf_to_c_extents(n, fchunk, cchunk);
    GA_Set_chunk64(g, cchunk);
  });
}

/// ga_set_ghosts: ghost widths (>= 0) of a planned array, Fortran's order.
void set_ghosts(const char* fn, Int g_a, const Int* width) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    std::int64_t fdims[GA_MAX_DIM], fwidth[GA_MAX_DIM], cwidth[GA_MAX_DIM];
    const int n = planned_dims(fn, g, fdims);
    if (!width) bad_argument(fn, "width", "NULL", "a width per dimension is required");
    for (int d = 0; d < n; ++d) {
      if (width[d] < 0) bad_argument(fn, "width(" + std::to_string(d + 1) + ")", std::to_string(width[d]), "must be >= 0");
      fwidth[d] = width[d];
    }
    armada_gaf_to_c_extents(n, fwidth, cwidth);
    GA_Set_ghosts64(g, cwidth);
  });
}

/// ga_gop, ga_pgroup_gop and the typed ga_?gop, ga_pgroup_?gop: x(n) of the Fortran type that
/// `type` (MT_F_) names, over group *grp (nullptr: the default group, as GA_Dgop's).
void gop(const char* fn, const Int* grp, Int type, void* x, Int n, const char* op, Length op_length) {
  call(fn, [&] {
    if (n < 0) bad_argument(fn, "n", std::to_string(n), "must be >= 0");
    std::string o = text(op, op_length);
    if (o.empty()) bad_argument(fn, "op", "''", "an operator is required");
    const int count = c_int(fn, "n", n);
    const int g = grp ? static_cast<int>(*grp) : GA_Pgroup_get_default();
    switch (type) {
      case MT_F_INT:
        if constexpr (sizeof(Int) == sizeof(long)) GA_Pgroup_lgop(g, static_cast<long*>(x), count, o.data());
        else GA_Pgroup_igop(g, static_cast<int*>(x), count, o.data());
        break;
      case MT_F_REAL: GA_Pgroup_fgop(g, static_cast<float*>(x), count, o.data()); break;
      case MT_F_DBL: GA_Pgroup_dgop(g, static_cast<double*>(x), count, o.data()); break;
      case MT_F_SCPL: GA_Pgroup_cgop(g, static_cast<SingleComplex*>(x), count, o.data()); break;
      case MT_F_DCPL: GA_Pgroup_zgop(g, static_cast<DoubleComplex*>(x), count, o.data()); break;
      default:
        bad_argument(fn, "type", std::to_string(type),
                     "must be MT_F_INT, MT_F_REAL, MT_F_DBL, MT_F_SCPL or MT_F_DCPL (mafdecls.fh)");
    }
  });
}

/// The blocks (owner and Fortran patch) that hold the C-view patch c of g.
struct Block {
  Int lo[GA_MAX_DIM];
  Int hi[GA_MAX_DIM];
  Int owner;
};
std::vector<Block> locate(int g, CPatch& c) {
  const int count = NGA_Locate_nnodes64(g, c.lo, c.hi);
  std::vector<Block> blocks;
  if (count <= 0) return blocks;
  std::vector<std::int64_t> map(static_cast<std::size_t>(count) * 2 * c.ndim);
  std::vector<int> procs(count);
  const int found = NGA_Locate_region64(g, c.lo, c.hi, map.data(), procs.data());
  for (int k = 0; k < found; ++k) {
    CPatch b;
    b.ndim = c.ndim;
    for (int d = 0; d < c.ndim; ++d) {
      b.lo[d] = map[static_cast<std::size_t>(k) * 2 * c.ndim + d];
      b.hi[d] = map[static_cast<std::size_t>(k) * 2 * c.ndim + c.ndim + d];
    }
    Block f{};
    to_fortran(b, f.lo, f.hi);
    f.owner = procs[k];
    blocks.push_back(f);
  }
  return blocks;
}

}  // namespace

extern "C" {

// ---- cluster (Armada's nodes as MPI reports them: docs/ga.md) and version ----------------------
Int ga_cluster_nnodes_() { return call("ga_cluster_nnodes", [] { return Int{GA_Cluster_nnodes()}; }); }
Int ga_cluster_nodeid_() { return call("ga_cluster_nodeid", [] { return Int{GA_Cluster_nodeid()}; }); }
Int ga_cluster_nprocs_(const Int* node) {
  return call("ga_cluster_nprocs", [&] { return Int{GA_Cluster_nprocs(static_cast<int>(*node))}; });
}
Int ga_cluster_procid_(const Int* node, const Int* loc_proc) {
  return call("ga_cluster_procid", [&] {
    return Int{GA_Cluster_procid(static_cast<int>(*node), static_cast<int>(*loc_proc))};
  });
}
Int ga_cluster_proc_nodeid_(const Int* proc) {
  return call("ga_cluster_proc_nodeid", [&] { return Int{GA_Cluster_proc_nodeid(static_cast<int>(*proc))}; });
}
Int nga_cluster_nnodes_() { return ga_cluster_nnodes_(); }
Int nga_cluster_nodeid_() { return ga_cluster_nodeid_(); }
Int nga_cluster_nprocs_(const Int* node) { return ga_cluster_nprocs_(node); }
Int nga_cluster_procid_(const Int* node, const Int* loc_proc) { return ga_cluster_procid_(node, loc_proc); }
Int nga_cluster_proc_nodeid_(const Int* proc) { return ga_cluster_proc_nodeid_(proc); }

// The GA version whose API Armada provides (gacommon.h).
void ga_version_(Int* major, Int* minor, Int* patch) {
  *major = GA_VERSION_MAJOR;
  *minor = GA_VERSION_MINOR;
  *patch = GA_VERSION_PATCH;
}
void nga_version_(Int* major, Int* minor, Int* patch) { ga_version_(major, minor, patch); }

// ---- arrays created in steps ------------------------------------------------------------------
Int ga_create_handle_() { return call("ga_create_handle", [] { return Int{GA_Create_handle()}; }); }
Int nga_create_handle_() { return call("nga_create_handle", [] { return Int{GA_Create_handle()}; }); }
void ga_set_data_(const Int* g_a, const Int* ndim, const Int* dims, const Int* type) {
  set_data("ga_set_data", *g_a, *ndim, dims, *type);
}
void nga_set_data_(const Int* g_a, const Int* ndim, const Int* dims, const Int* type) {
  set_data("nga_set_data", *g_a, *ndim, dims, *type);
}
void ga_set_array_name_(const Int* g_a, const char* name, Length name_length) {
  const char* const fn = "ga_set_array_name";
  call(fn, [&] {
    std::string label = text(name, name_length);
    GA_Set_array_name(handle(fn, *g_a), label.data());
  });
}
void nga_set_array_name_(const Int* g_a, const char* name, Length name_length) {
  ga_set_array_name_(g_a, name, name_length);
}
void ga_set_ghosts_(const Int* g_a, const Int* width) { set_ghosts("ga_set_ghosts", *g_a, width); }
void nga_set_ghosts_(const Int* g_a, const Int* width) { set_ghosts("nga_set_ghosts", *g_a, width); }
void ga_set_chunk_(const Int* g_a, const Int* chunk) { set_chunk("ga_set_chunk", *g_a, chunk); }
void nga_set_chunk_(const Int* g_a, const Int* chunk) { set_chunk("nga_set_chunk", *g_a, chunk); }
void ga_set_irreg_distr_(const Int* g_a, const Int* map, const Int* nblock) {
  set_irreg_distr("ga_set_irreg_distr", *g_a, map, nblock);
}
void nga_set_irreg_distr_(const Int* g_a, const Int* map, const Int* nblock) {
  set_irreg_distr("nga_set_irreg_distr", *g_a, map, nblock);
}

// ---- mutexes and fences -----------------------------------------------------------------------
FortranLogical ga_create_mutexes_(const Int* number) {
  const char* const fn = "ga_create_mutexes";
  return call(fn, [&] {
    if (*number < 0) bad_argument(fn, "number", std::to_string(*number), "must be >= 0");
    return GA_Create_mutexes(c_int(fn, "number", *number)) ? kTrue : kFalse;
  });
}
FortranLogical ga_destroy_mutexes_() {
  return call("ga_destroy_mutexes", [] { return GA_Destroy_mutexes() ? kTrue : kFalse; });
}
void ga_lock_(const Int* mutex) { call("ga_lock", [&] { GA_Lock(c_int("ga_lock", "mutex", *mutex)); }); }
void ga_unlock_(const Int* mutex) { call("ga_unlock", [&] { GA_Unlock(c_int("ga_unlock", "mutex", *mutex)); }); }
FortranLogical nga_create_mutexes_(const Int* number) { return ga_create_mutexes_(number); }
FortranLogical nga_destroy_mutexes_() { return ga_destroy_mutexes_(); }
void nga_lock_(const Int* mutex) { ga_lock_(mutex); }
void nga_unlock_(const Int* mutex) { ga_unlock_(mutex); }
void ga_init_fence_() { call("ga_init_fence", [] { GA_Init_fence(); }); }
void ga_fence_() { call("ga_fence", [] { GA_Fence(); }); }
void nga_init_fence_() { ga_init_fence_(); }
void nga_fence_() { ga_fence_(); }

// ---- collectives of any type (GA's message type, the first argument of ga_sgop.., is ignored) --
void ga_gop_(const Int* type, void* x, const Int* n, const char* op, Length op_length) {
  gop("ga_gop", nullptr, *type, x, *n, op, op_length);
}
void nga_gop_(const Int* type, void* x, const Int* n, const char* op, Length op_length) {
  gop("nga_gop", nullptr, *type, x, *n, op, op_length);
}
void ga_sgop_(const Int*, float* x, const Int* n, const char* op, Length op_length) {
  gop("ga_sgop", nullptr, MT_F_REAL, x, *n, op, op_length);
}
void ga_cgop_(const Int*, void* x, const Int* n, const char* op, Length op_length) {
  gop("ga_cgop", nullptr, MT_F_SCPL, x, *n, op, op_length);
}
void ga_zgop_(const Int*, void* x, const Int* n, const char* op, Length op_length) {
  gop("ga_zgop", nullptr, MT_F_DCPL, x, *n, op, op_length);
}
void ga_lgop_(const Int*, Int* x, const Int* n, const char* op, Length op_length) {
  gop("ga_lgop", nullptr, MT_F_INT, x, *n, op, op_length);
}
void nga_sgop_(const Int* type, float* x, const Int* n, const char* op, Length op_length) {
  ga_sgop_(type, x, n, op, op_length);
}
void nga_cgop_(const Int* type, void* x, const Int* n, const char* op, Length op_length) {
  ga_cgop_(type, x, n, op, op_length);
}
void nga_zgop_(const Int* type, void* x, const Int* n, const char* op, Length op_length) {
  ga_zgop_(type, x, n, op, op_length);
}

// The same on a process group: ga_pgroup_gop(grp, type, x, n, op) and the typed forms, whose
// type argument is GA's message type (ignored).
#define ARMADA_GAF_PGROUP_GOP(name, T, mt)                                                            \
  void ga_pgroup_##name##_(const Int* grp, const Int*, T* x, const Int* n, const char* op, Length op_length) {  \
    gop("ga_pgroup_" #name, grp, mt, x, *n, op, op_length);                                          \
  }                                                                                                \
  void nga_pgroup_##name##_(const Int* grp, const Int*, T* x, const Int* n, const char* op, Length op_length) { \
    gop("nga_pgroup_" #name, grp, mt, x, *n, op, op_length);                                         \
  }
ARMADA_GAF_PGROUP_GOP(igop, Int, MT_F_INT)
ARMADA_GAF_PGROUP_GOP(sgop, float, MT_F_REAL)
ARMADA_GAF_PGROUP_GOP(dgop, double, MT_F_DBL)
ARMADA_GAF_PGROUP_GOP(cgop, void, MT_F_SCPL)
ARMADA_GAF_PGROUP_GOP(zgop, void, MT_F_DCPL)
#undef ARMADA_GAF_PGROUP_GOP
void ga_pgroup_gop_(const Int* grp, const Int* type, void* x, const Int* n, const char* op, Length op_length) {
  gop("ga_pgroup_gop", grp, *type, x, *n, op, op_length);
}
void nga_pgroup_gop_(const Int* grp, const Int* type, void* x, const Int* n, const char* op, Length op_length) {
  gop("nga_pgroup_gop", grp, *type, x, *n, op, op_length);
}

// ---- whole-array dot products of the other types (ga_ddot: api.cpp) ----------------------------
float ga_sdot_(const Int* g_a, const Int* g_b) {
  const char* const fn = "ga_sdot";
  return call(fn, [&] { return GA_Fdot(handle(fn, *g_a), handle(fn, *g_b, "g_b")); });
}
Scpl ga_cdot_(const Int* g_a, const Int* g_b) {
  const char* const fn = "ga_cdot";
  return call(fn, [&] { return as_fortran(GA_Cdot(handle(fn, *g_a), handle(fn, *g_b, "g_b"))); });
}
Dcpl ga_zdot_(const Int* g_a, const Int* g_b) {
  const char* const fn = "ga_zdot";
  return call(fn, [&] { return as_fortran(GA_Zdot(handle(fn, *g_a), handle(fn, *g_b, "g_b"))); });
}
Int ga_idot_(const Int* g_a, const Int* g_b) {
  const char* const fn = "ga_idot";
  return call(fn, [&] {
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");
    if constexpr (sizeof(Int) == sizeof(long)) return static_cast<Int>(GA_Ldot(a, b));
    else return static_cast<Int>(GA_Idot(a, b));
  });
}
float nga_sdot_(const Int* g_a, const Int* g_b) { return ga_sdot_(g_a, g_b); }
Scpl nga_cdot_(const Int* g_a, const Int* g_b) { return ga_cdot_(g_a, g_b); }
Dcpl nga_zdot_(const Int* g_a, const Int* g_b) { return ga_zdot_(g_a, g_b); }
Int nga_idot_(const Int* g_a, const Int* g_b) { return ga_idot_(g_a, g_b); }
double nga_ddot_(const Int* g_a, const Int* g_b) {
  const char* const fn = "nga_ddot";
  return call(fn, [&] { return GA_Ddot(handle(fn, *g_a), handle(fn, *g_b, "g_b")); });
}

// ---- owners of elements and patches -----------------------------------------------------------
// ga_locate_region: map(5, np) holds ilo, ihi, jlo, jhi and the owner of each block of the patch.
FortranLogical ga_locate_region_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi,
                                 Int* map, Int* np) {
  const char* const fn = "ga_locate_region";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch2(fn, g, *ilo, *ihi, *jlo, *jhi);
    const std::vector<Block> blocks = locate(g, c);
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      Int* m = map + 5 * k;
      m[0] = blocks[k].lo[0];
      m[1] = blocks[k].hi[0];
      m[2] = blocks[k].lo[1];
      m[3] = blocks[k].hi[1];
      m[4] = blocks[k].owner;
    }
    *np = static_cast<Int>(blocks.size());
    return blocks.empty() ? kFalse : kTrue;
  });
}
// nga_locate_region: map(2*ndim, np) holds lo(1:ndim), hi(1:ndim) of each block, proclist(np)
// its owner.
FortranLogical nga_locate_region_(const Int* g_a, const Int* lo, const Int* hi, Int* map, Int* proclist, Int* np) {
  const char* const fn = "nga_locate_region";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch(fn, g, lo, hi);
    const std::vector<Block> blocks = locate(g, c);
    const int n = c.ndim;
    for (std::size_t k = 0; k < blocks.size(); ++k) {
      for (int d = 0; d < n; ++d) {
        map[2 * n * k + d] = blocks[k].lo[d];
        map[2 * n * k + n + d] = blocks[k].hi[d];
      }
      proclist[k] = blocks[k].owner;
    }
    *np = static_cast<Int>(blocks.size());
    return blocks.empty() ? kFalse : kTrue;
  });
}
FortranLogical ga_locate_(const Int* g_a, const Int* i, const Int* j, Int* owner) {
  const char* const fn = "ga_locate";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch2(fn, g, *i, *i, *j, *j);
    *owner = NGA_Locate64(g, c.lo);
    return *owner >= 0 ? kTrue : kFalse;
  });
}
FortranLogical nga_locate_(const Int* g_a, const Int* subscript, Int* owner) {
  const char* const fn = "nga_locate";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch(fn, g, subscript, subscript, PatchNames{"subscript", "subscript"});
    *owner = NGA_Locate64(g, c.lo);
    return *owner >= 0 ? kTrue : kFalse;
  });
}

// ---- printing a patch, 2-d read-and-increment -------------------------------------------------
void ga_print_patch_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi,
                     const Int* pretty) {
  const char* const fn = "ga_print_patch";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch2(fn, g, *ilo, *ihi, *jlo, *jhi);
    NGA_Print_patch64(g, c.lo, c.hi, static_cast<int>(*pretty));
  });
}
void nga_print_patch_(const Int* g_a, const Int* lo, const Int* hi, const Int* pretty) {
  const char* const fn = "nga_print_patch";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch(fn, g, lo, hi);
    NGA_Print_patch64(g, c.lo, c.hi, static_cast<int>(*pretty));
  });
}
Int ga_read_inc_(const Int* g_a, const Int* i, const Int* j, const Int* inc) {
  const char* const fn = "ga_read_inc";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch2(fn, g, *i, *i, *j, *j);
    return static_cast<Int>(NGA_Read_inc64(g, c.lo, static_cast<long>(*inc)));
  });
}

}  // extern "C"
