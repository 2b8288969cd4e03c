// Ghost cells: GA's updates (whole, per direction, nonblocking, one region), always periodic as
// GA's are, the corner flag, and local access to the block with its ghosts and to one element
// of it. The operations themselves are arrays' (update_ghosts, update_ghost_dir,
// update_ghosts_nb, get_ghost_dir_nb, access_ghosts).
#include <string>

#include "base/call.hpp"
#include "base/index.hpp"
#include "create/handles.hpp"
#include "movement/local.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

/// GA updates wrap around the edges; the whole-frame ones honour the handle's corner flag.
arrays::GhostUpdate ga_update(const char* function, int g_a) { return {true, ghost_corners(function, g_a)}; }

template <class I>
void access_ghosts(const char* function, int g_a, I* dims, void* ptr, I* ld) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    if (!ptr) bad_argument(function, "ptr", "NULL", "the address of a pointer is required");
    if (a.owned().empty()) bad_argument(function, "g_a", std::to_string(g_a), "this process owns no block");
    const arrays::LocalView<void> v = ga_access(a, g_a, true);
    *static_cast<void**>(ptr) = v.data;
    if (dims)
      for (int d = 0; d < a.ndim(); ++d) dims[d] = static_cast<I>(v.hi[d] - v.lo[d]);
    block_ld(v, ld);
  });
}

/// Checks GA's ghost-element subscript: one entry per dimension, each counting from the first
/// ghost cell of this process's block, so 0 <= subscript[d] < block extent + 2 * ghost width.
/// Returns the element's offset in elements from the first ghost cell, with the block's strides.
template <class I>
Index ghost_offset(const char* function, int g_a, const Array& a, const I* subscript) {
  if (!subscript) bad_argument(function, "subscript", "NULL", "one index per dimension is required");
  const arrays::Patch own = a.owned();
  if (own.empty()) bad_argument(function, "g_a", std::to_string(g_a), "this process owns no block");
  const Coord w = a.ghosts();
  const int n = a.ndim();
  Index offset = 0, stride = 1;
  for (int d = n - 1; d >= 0; --d) {
    const Index extent = own.hi[d] - own.lo[d] + 2 * w[d];
    if (subscript[d] < 0 || subscript[d] >= extent)
      bad_argument(function, "subscript[" + std::to_string(d) + "]", std::to_string(subscript[d]),
                   "must be in 0 .. " + std::to_string(extent - 1) + " (this process's block with its ghost cells, " +
                       "counted from its first ghost cell)");
    offset += static_cast<Index>(subscript[d]) * stride;
    stride *= extent;
  }
  return offset;
}

template <class I>
void access_ghost_element(const char* function, int g_a, void* ptr, const I* subscript, I* ld) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    if (!ptr) bad_argument(function, "ptr", "NULL", "the address of a pointer is required");
    const Index offset = ghost_offset(function, g_a, a, subscript);
    const arrays::LocalView<void> v = ga_access(a, g_a, true);
    *static_cast<void**>(ptr) = static_cast<char*>(v.data) + offset * static_cast<Index>(a.element_size());
    block_ld(v, ld);
  });
}

template <class I>
void release_ghost_element(const char* function, int g_a, const I* subscript, bool update) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    ghost_offset(function, g_a, a, subscript);
    ga_release(a, g_a, update);
  });
}

template <class I>
void nbget_ghost_dir(const char* function, int g_a, const I* mask, ga_nbhdl_t* handle) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    if (!mask) bad_argument(function, "mask", "NULL", "one entry (-1, 0 or 1) per dimension is required");
    if (!handle) bad_argument(function, "handle", "NULL", "a place for the request handle is required");
    *handle = keep_request(a.get_ghost_dir_nb(coord(a.ndim(), mask), true));
  });
}

}  // namespace

extern "C" {

// ---- updates (collective, periodic) -------------------------------------------------------------
void GA_Update_ghosts(int g_a) {
  constexpr const char* fn = "GA_Update_ghosts";
  guarded(fn, [&] { array(fn, g_a).update_ghosts(ga_update(fn, g_a)); });
}

int NGA_Update_ghost_dir(int g_a, int dimension, int idir, int cflag) {
  constexpr const char* fn = "NGA_Update_ghost_dir";
  return guarded(fn, [&] {
    array(fn, g_a).update_ghost_dir(dimension, idir, {true, cflag != 0});
    return 1;
  });
}

void NGA_Update_ghosts_nb(int g_a, ga_nbhdl_t* nbhandle) {
  constexpr const char* fn = "NGA_Update_ghosts_nb";
  guarded(fn, [&] {
    Array& a = array(fn, g_a);
    if (!nbhandle) bad_argument(fn, "nbhandle", "NULL", "a place for the request handle is required");
    *nbhandle = keep_request(a.update_ghosts_nb(ga_update(fn, g_a)));
  });
}

void GA_Set_ghost_corner_flag(int g_a, int flag) {
  constexpr const char* fn = "GA_Set_ghost_corner_flag";
  guarded(fn, [&] { ghost_corners(fn, g_a) = flag != 0; });
}

// ---- one region (not collective) ----------------------------------------------------------------
void NGA_NbGet_ghost_dir(int g_a, int mask[], ga_nbhdl_t* handle) {
  nbget_ghost_dir("NGA_NbGet_ghost_dir", g_a, mask, handle);
}
void NGA_NbGet_ghost_dir64(int g_a, int64_t mask[], ga_nbhdl_t* handle) {
  nbget_ghost_dir("NGA_NbGet_ghost_dir64", g_a, mask, handle);
}

// ---- local access ---------------------------------------------------------------------------------
void NGA_Access_ghosts(int g_a, int dims[], void* ptr, int ld[]) {
  access_ghosts("NGA_Access_ghosts", g_a, dims, ptr, ld);
}
void NGA_Access_ghosts64(int g_a, int64_t dims[], void* ptr, int64_t ld[]) {
  access_ghosts("NGA_Access_ghosts64", g_a, dims, ptr, ld);
}
void NGA_Release_ghosts(int g_a) {
  guarded("NGA_Release_ghosts", [&] { ga_release(array("NGA_Release_ghosts", g_a), g_a, false); });
}
void NGA_Release_update_ghosts(int g_a) {
  guarded("NGA_Release_update_ghosts", [&] { ga_release(array("NGA_Release_update_ghosts", g_a), g_a, true); });
}
void NGA_Access_ghost_element(int g_a, void* ptr, int subscript[], int ld[]) {
  access_ghost_element("NGA_Access_ghost_element", g_a, ptr, subscript, ld);
}
void NGA_Access_ghost_element64(int g_a, void* ptr, int64_t subscript[], int64_t ld[]) {
  access_ghost_element("NGA_Access_ghost_element64", g_a, ptr, subscript, ld);
}
void NGA_Release_ghost_element(int g_a, int subscript[]) {
  release_ghost_element("NGA_Release_ghost_element", g_a, subscript, false);
}
void NGA_Release_ghost_element64(int g_a, int64_t subscript[]) {
  release_ghost_element("NGA_Release_ghost_element64", g_a, subscript, false);
}
void NGA_Release_update_ghost_element(int g_a, int subscript[]) {
  release_ghost_element("NGA_Release_update_ghost_element", g_a, subscript, true);
}
void NGA_Release_update_ghost_element64(int g_a, int64_t subscript[]) {
  release_ghost_element("NGA_Release_update_ghost_element64", g_a, subscript, true);
}

}  // extern "C"
