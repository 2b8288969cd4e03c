// GA's Fortran ghost-cell updates (global.fh): ga_/nga_update_ghosts, nga_update_ghost_dir,
// nga_update_ghosts_nb, ga_/nga_set_ghost_corner_flag and nga_nbget_ghost_dir, over the C API
// (ga/src/movement/ghosts.cpp). Dimensions and masks are in Fortran's order: dimension 1 is the C view's
// last. Local access to the block with its ghosts is in memory.cpp.
#include <string>

#include "binding.hpp"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

void update_ghosts(const char* fn, Int g_a) {
  call(fn, [&] { GA_Update_ghosts(handle(fn, g_a)); });
}

/// GA's set-up call of an update algorithm: checks the handle, nothing to prepare.
FortranLogical has_ghost_info(const char* fn, Int g_a) {
  return call(fn, [&] { return GA_Has_ghosts(handle(fn, g_a)) ? kTrue : kFalse; });
}

void set_corner_flag(const char* fn, Int g_a, FortranLogical flag) {
  call(fn, [&] { GA_Set_ghost_corner_flag(handle(fn, g_a), flag != kFalse ? 1 : 0); });
}

}  // namespace

extern "C" {

void ga_update_ghosts_(const Int* g_a) { update_ghosts("ga_update_ghosts", *g_a); }
void nga_update_ghosts_(const Int* g_a) { update_ghosts("nga_update_ghosts", *g_a); }

// GA's Fortran API keeps its other implementations of the same update (ga_update1_ghosts ..
// ga_update7_ghosts; 2 .. 7 return .true. on success), the set-up calls of 4 and 5 and a
// barrier its ghosts.F puts around them: here each is the one update (the corner flag as set),
// the set-up has nothing to prepare, the barrier is the default group's sync.
#define ARMADA_GAF_UPDATE(k)                                                                                 \
  FortranLogical ga_update##k##_ghosts_(const Int* g_a) {                                                   \
    update_ghosts("ga_update" #k "_ghosts", *g_a);                                                          \
    return kTrue;                                                                                           \
  }                                                                                                         \
  FortranLogical nga_update##k##_ghosts_(const Int* g_a) {                                                  \
    update_ghosts("nga_update" #k "_ghosts", *g_a);                                                         \
    return kTrue;                                                                                           \
  }
ARMADA_GAF_UPDATE(2)
ARMADA_GAF_UPDATE(3)
ARMADA_GAF_UPDATE(4)
ARMADA_GAF_UPDATE(44)
ARMADA_GAF_UPDATE(5)
ARMADA_GAF_UPDATE(55)
ARMADA_GAF_UPDATE(6)
ARMADA_GAF_UPDATE(7)
#undef ARMADA_GAF_UPDATE
void ga_update1_ghosts_(const Int* g_a) { update_ghosts("ga_update1_ghosts", *g_a); }
void nga_update1_ghosts_(const Int* g_a) { update_ghosts("nga_update1_ghosts", *g_a); }
FortranLogical ga_set_update4_info_(const Int* g_a) { return has_ghost_info("ga_set_update4_info", *g_a); }
FortranLogical nga_set_update4_info_(const Int* g_a) { return has_ghost_info("nga_set_update4_info", *g_a); }
FortranLogical ga_set_update5_info_(const Int* g_a) { return has_ghost_info("ga_set_update5_info", *g_a); }
FortranLogical nga_set_update5_info_(const Int* g_a) { return has_ghost_info("nga_set_update5_info", *g_a); }
void ga_ghost_barrier_() { call("ga_ghost_barrier", [] { GA_Sync(); }); }
void nga_ghost_barrier_() { call("nga_ghost_barrier", [] { GA_Sync(); }); }

FortranLogical nga_update_ghost_dir_(const Int* g_a, const Int* dimension, const Int* idir, const FortranLogical* flag) {
  const char* const fn = "nga_update_ghost_dir";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    const int n = array(fn, g).ndim();
    if (*dimension < 1 || *dimension > n)
      bad_argument(fn, "dimension", std::to_string(*dimension),
                   "must be in 1 .. " + std::to_string(n) + " (Fortran's dimensions)");
    if (*idir != -1 && *idir != 1)
      bad_argument(fn, "idir", std::to_string(*idir), "must be -1 (below the block) or 1 (above it)");
    // Fortran's dimension d is the C view's n - d; the direction along it is the same.
    const int ok = NGA_Update_ghost_dir(g, n - static_cast<int>(*dimension), static_cast<int>(*idir), *flag != kFalse);
    return ok ? kTrue : kFalse;
  });
}

void nga_update_ghosts_nb_(const Int* g_a, Int* nbhandle) {
  const char* const fn = "nga_update_ghosts_nb";
  call(fn, [&] {
    ga_nbhdl_t h = 0;
    NGA_Update_ghosts_nb(handle(fn, *g_a), &h);
    *nbhandle = static_cast<Int>(h);
  });
}

void ga_set_ghost_corner_flag_(const Int* g_a, const FortranLogical* flag) {
  set_corner_flag("ga_set_ghost_corner_flag", *g_a, *flag);
}
void nga_set_ghost_corner_flag_(const Int* g_a, const FortranLogical* flag) {
  set_corner_flag("nga_set_ghost_corner_flag", *g_a, *flag);
}

void nga_nbget_ghost_dir_(const Int* g_a, const Int* mask, Int* nbhandle) {
  const char* const fn = "nga_nbget_ghost_dir";
  call(fn, [&] {
    const int g = handle(fn, *g_a);
    const int n = array(fn, g).ndim();
    if (!mask) bad_argument(fn, "mask", "NULL", "one entry (-1, 0 or 1) per dimension is required");
    std::int64_t fmask[GA_MAX_DIM], cmask[GA_MAX_DIM];
    for (int d = 0; d < n; ++d) {
      if (mask[d] < -1 || mask[d] > 1)
        bad_argument(fn, "mask(" + std::to_string(d + 1) + ")", std::to_string(mask[d]), "must be -1, 0 or 1");
      fmask[d] = mask[d];
    }
    armada_gaf_to_c_extents(n, fmask, cmask);  // Fortran's order to the C view's (no shift)
    ga_nbhdl_t h = 0;
    NGA_NbGet_ghost_dir64(g, cmask, &h);
    *nbhandle = static_cast<Int>(h);
  });
}

}  // extern "C"
