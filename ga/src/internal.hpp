// What the files of ga/ share: the table of array handles and process groups, GA's types, the
// index conversion of GA's C interface, and the GA_Error-style abort every entry point ends in
// when its arguments are bad.
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/linalg/gemm.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/group.hpp"
#include "ga.h"

namespace armada::ga {

using arrays::Array;
using arrays::Coord;
using arrays::ElemType;
using arrays::Index;

/// Prints "GA_Error: <message>" on this rank and ends the whole job (GA programs expect a
/// failed call not to return).
[[noreturn]] void abort_job(const std::string& message, int code);

/// Throws rma::InvalidArgument for GA function `function` (caught by guarded()).
[[noreturn]] void bad_argument(const char* function, const std::string& argument, const std::string& value,
                               const std::string& reason);

/// Ends the job with the message of the exception being handled, naming `function`.
[[noreturn]] void abort_current_exception(const char* function) noexcept;

/// While alive, names the entry point of GA's Fortran API (ga/fortran) that is calling the C
/// API on this thread: an error the C API finds then ends "(in <Fortran name>, GA's Fortran API)".
class FortranCaller {
 public:
  explicit FortranCaller(const char* name);
  ~FortranCaller();
  FortranCaller(const FortranCaller&) = delete;
  FortranCaller& operator=(const FortranCaller&) = delete;

 private:
  const char* outer_;
};

/// One running GA entry point on this thread. The regular copies of block-cyclic arrays that
/// the call made (array(), regular_copy) are copied back and freed when it ends.
class CallScope {
 public:
  explicit CallScope(const char* function) noexcept;
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  /// Copies this call's regular copies back into their block-cyclic arrays (collective).
  void finish() {
    if (!copied_.empty()) copy_back_all();
  }
  /// The innermost running call (nullptr outside any).
  static CallScope* current() noexcept;
  void add_copy(int g_a) { copied_.push_back(g_a); }

 private:
  void copy_back_all();
  rma::EntryPoint entry_;  // named when members are in different collective calls
  CallScope* outer_;
  std::vector<int> copied_;  // handles of the block-cyclic arrays with a regular copy
};

/// Runs `body` (one GA entry point); any error aborts the job with its message.
template <class F>
auto guarded(const char* function, F&& body) noexcept -> decltype(body()) {
  try {
    CallScope scope(function);
    if constexpr (std::is_void_v<decltype(body())>) {
      body();
      scope.finish();
    } else {
      auto result = body();
      scope.finish();
      return result;
    }
  } catch (...) {
    abort_current_exception(function);
  }
}

/// Syncs a's group, calls f(T{}, view of this process's block) when it owns one, releases with
/// update, and syncs again. A scalar the update applies (`value`, one element of a's type, named
/// `argument`) is compared in the opening sync with the array: every member must pass the same.
template <class F>
void update_owned(Array& a, F&& f, const char* argument = nullptr, const void* value = nullptr) {
  if (value) {
    constexpr const char* op = "arrays::sync_group";
    arrays::begin_collective(op, arrays::collective_group(op, a), [] {},
                             {arrays::same_shape("array", a), arrays::same_value(argument, a, value)});
  } else {
    a.sync_group();
  }
  if (!a.owned().empty()) {
    const arrays::LocalView<void> view = a.access();
    arrays::with_element_type(a.type(), [&](auto zero) { f(zero, view); });
    a.release_update();
  }
  a.sync_group();
}

/// Local access as GA's C API counts it (NGA_Access*, NGA_Release*): the access is Armada's
/// (a.access() / a.access_ghosts()), counted per handle; a release with no access of the handle
/// outstanding does nothing, as GA's releases do nothing at all (GA's own gatscat.c releases one
/// access twice), while arrays' own API keeps pairing them.
arrays::LocalView<void> ga_access(Array& a, int g_a, bool ghosts);
void ga_release(Array& a, int g_a, bool update);

/// Throws StateError unless GA_Initialize was called.
void require_initialized(const char* function);

// ---- element types ----------------------------------------------------------------------------
/// The arrays element type of GA type `type` (C_INT, C_DBL, F_DBL, ...); bad_argument otherwise.
ElemType elem_type(const char* function, int type);
std::string type_name(int type);
/// Throws bad_argument (naming `argument` = handle `g`) unless `a` holds `type` (GA: `ga_name`).
void require_type(const char* function, const char* argument, int g, const Array& a, ElemType type,
                  const char* ga_name);
/// Calls f(T{}) with T the C++ element type of `type`.
using arrays::with_element_type;

/// GA's transpose flags of matrix products ('N', 'T', 'C', either case) as linalg's op.
linalg::Op op_of(const char* function, const char* argument, char flag);

// ---- process groups ---------------------------------------------------------------------------
inline constexpr int world_pgroup = -1;
/// The group of GA group handle `handle` (world_pgroup: the world).
rma::Group group(const char* function, int handle);
int add_group(rma::Group g);
void forget_group(const char* function, int handle);
/// The default group's handle and group.
int default_pgroup();
void set_default_pgroup(int handle);
rma::Group default_group();
/// The handle of `g` (an existing one, or a new one).
int handle_of(const rma::Group& g);

// ---- arrays -----------------------------------------------------------------------------------
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

struct BlockCyclic;
/// The block-cyclic layout of live handle g_a, or nullptr for an array of block distribution
/// (bad_argument for a handle that is not a live array).
BlockCyclic* block_cyclic(const char* function, int g_a, const char* argument = "g_a");
/// Gives a new block-cyclic array a GA handle (as adopt()).
int adopt_block_cyclic(BlockCyclic bc, int type, std::size_t charged);
/// Creates the block-cyclic array of `plan` (block_cyclic.cpp; as create()).
int create_block_cyclic(const char* function, const Plan& plan);

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
/// The array of handle g_a (named `argument` in errors), which must be allocated and live. For a
/// block-cyclic array: a regular copy of it, made once per call and copied back when the call
/// ends, if `function` is one of the collective operations that take block-cyclic arrays
/// (core.cpp's table); otherwise the call fails naming `function`, `argument` and the layout.
Array& array(const char* function, int g_a, const char* argument = "g_a");
/// The dims of live array g_a, of either layout (no regular copy of a block-cyclic one).
const Coord& array_dims(const char* function, int g_a);
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
/// Frees what GA_Diag_reuse keeps between calls (GA_Terminate; collective).
void forget_saved_diag();
/// Destroys every live array (GA_Terminate).
void destroy_all();
/// The array's group: the GA handle of it, and its rank `iproc` as a world rank.
int world_rank_of(const char* function, const Array& a, int iproc);

// ---- GA's memory accounting (memory.cpp) --------------------------------------------------------
enum class MemoryUse { array, getmem };
/// Charges `bytes` of this process to GA's memory limit. Collective over `g`: true on every
/// member when every member's charge fits its limit (then each is charged), false on every
/// member otherwise (nothing charged). Always true without a limit.
bool charge_memory(const rma::Group& g, std::size_t bytes, MemoryUse use);
void refund_memory(std::size_t bytes, MemoryUse use);
/// The most GA memory this process held at once (GA_Print_stats).
std::size_t peak_memory();
/// GA_Terminate: frees what GA_Getmem gave out, forgets the limit.
void reset_memory_accounting();

// ---- GA_Print_stats' counters (diagnostics.cpp) ------------------------------------------------
enum class Stat { create, destroy, get, put, acc, scatter, gather, read_inc, count_ };
/// Counts one call of `what` by this process, moving `bytes` of array data.
void count_call(Stat what, std::size_t bytes = 0) noexcept;

// ---- index conversion: GA's C interface (zero-based, inclusive hi) to arrays ([lo, hi)) ---------
/// A tuple of `n` GA indices as a Coord (n checked by the caller).
template <class I>
Coord coord(int n, const I* v) {
  Coord c = Coord::filled(n, 0);
  for (int d = 0; d < n; ++d) c[d] = static_cast<Index>(v[d]);
  return c;
}
/// GA's inclusive upper corner as an exclusive one.
template <class I>
Coord upper(int n, const I* hi) {
  Coord c = coord(n, hi);
  for (int d = 0; d < n; ++d) c[d] += 1;
  return c;
}
/// Checks that lo/hi (and ld when `buf_ld`) are given and that [lo, hi] lies in `a`, naming
/// GA's values; returns the arrays patch.
template <class I>
arrays::Patch patch(const char* function, const Array& a, const I* lo, const I* hi, const char* lo_name = "lo",
                    const char* hi_name = "hi");
/// The same for an array of dims `dims`.
template <class I>
arrays::Patch patch_of(const char* function, const Coord& dims, const I* lo, const I* hi, const char* lo_name = "lo",
                       const char* hi_name = "hi");
/// GA's ld (ndim-1 buffer extents, may be NULL for 1-D) as arrays' ld.
template <class I>
Coord leading(const char* function, const Array& a, const I* ld);

std::string tuple_text(int n, const Index* v);

// ---- nonblocking requests and local blocks ------------------------------------------------------
/// Keeps an outstanding nonblocking operation under a new GA request handle (NGA_NbWait and
/// NGA_NbTest complete it).
ga_nbhdl_t keep_request(arrays::NbHandle h);
/// The same for an operation made of several arrays operations (a block-cyclic patch).
ga_nbhdl_t keep_requests(std::vector<arrays::NbHandle> hs);

/// GA's ld of a local block: the extents (with ghosts) of dimensions 1 .. ndim-1.
template <class I>
void block_ld(const arrays::LocalView<void>& v, I* ld) {
  if (!ld) return;
  for (int d = 0; d + 1 < v.ndim(); ++d) ld[d] = static_cast<I>(v.stride[d] / v.stride[d + 1]);
}

}  // namespace armada::ga
