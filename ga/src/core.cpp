// The GA_Error abort, GA's element types, the process-group and array handle tables, array
// creation, and the index checks of GA's C interface.
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <memory>
#include <new>
#include <string_view>

#include <mpi.h>

#include "armada/rma/runtime.hpp"
#include "block_cyclic.hpp"
#include "error_codes.hpp"
#include "internal.hpp"

namespace armada::ga {

namespace {

/// One GA handle: a planned array (between GA_Create_handle and GA_Allocate) or a live one.
struct Slot {
  std::optional<Plan> plan;
  Array array;
  int type = 0;
  std::size_t charged = 0;  // bytes charged to GA's memory limit for the array
  bool ghost_corners = true;  // GA_Set_ghost_corner_flag
  std::shared_ptr<BlockCyclic> cyclic;  // a block-cyclic array (then `array` is unused)
  Array regular;                        // while a call runs on a regular copy of `cyclic`
  bool live() const { return array.valid() || cyclic; }
};

// GA's own handles are offset too: small integers (0, 1, an uninitialized variable) are never
// valid, so they are reported instead of naming some other array.
constexpr int handle_base = 1000;
// A deque: creating an array (push_back) keeps references to the other slots valid, so a call
// may hold its arguments' Array& while it makes temporaries (GA_Duplicate, patch reshapes).
std::deque<Slot> g_arrays;
std::vector<std::optional<rma::Group>> g_groups;  // GA group handle = index
int g_default_pgroup = world_pgroup;

Slot& slot(const char* function, int g_a, const char* argument = "g_a") {
  const long i = static_cast<long>(g_a) - handle_base;
  if (i < 0 || i >= static_cast<long>(g_arrays.size()) || (!g_arrays[i].plan && !g_arrays[i].live()))
    bad_argument(function, argument, std::to_string(g_a), "not a live global array handle");
  return g_arrays[static_cast<std::size_t>(i)];
}

/// The plan that allocates the array of live slot `s` again as it is: its GA type, dims, ghost
/// widths, name, group and block boundaries (GA_Deallocate keeps GA's map the same way).
Plan plan_of_array(const Slot& s) {
  const Array& a = s.array;
  Plan p;
  p.type = s.type;
  p.dims = a.dims();
  p.ghosts = a.ghosts();
  for (int d = 0; d < a.ndim(); ++d) {
    const std::vector<Index>& bounds = a.distribution().bounds(d);
    p.block_starts.emplace_back(bounds.begin(), bounds.end() - 1);  // the last bound is dims[d]
  }
  p.name = a.name();
  p.pgroup = handle_of(a.group());
  p.pgroup_set = true;
  return p;
}

}  // namespace

namespace {
thread_local const char* t_fortran_caller = nullptr;
}  // namespace

FortranCaller::FortranCaller(const char* name) : outer_(t_fortran_caller) { t_fortran_caller = name; }
FortranCaller::~FortranCaller() { t_fortran_caller = outer_; }

[[noreturn]] void abort_job(const std::string& message, int code) {
  std::fprintf(stderr, "GA_Error: %s\n", message.c_str());
  std::fflush(nullptr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, code ? code : 1);
  std::_Exit(code ? code : 1);
}

[[noreturn]] void bad_argument(const char* function, const std::string& argument, const std::string& value,
                               const std::string& reason) {
  throw rma::InvalidArgument(function, argument, value, reason);
}

[[noreturn]] void abort_current_exception(const char* function) noexcept {
  const int code = abort_codes[rma::current_error_kind()];
  std::string message;
  try {
    try {
      throw;
    } catch (const rma::Error& e) {
      message = e.what();
      // An error found by the layer below names its own operation: say which GA call it was.
      if (e.operation() != function) message += std::string(" (in ") + function + ")";
    } catch (const std::bad_alloc&) {
      message = rma::error_message(function, "out of memory");
    } catch (const std::exception& e) {
      message = rma::error_message(function, e.what());
    } catch (...) {
      message = rma::error_message(function, "unknown error");
    }
  } catch (...) {
    message = function;
  }
  if (t_fortran_caller && std::string(t_fortran_caller) != function)
    message += std::string(" (in ") + t_fortran_caller + ", GA's Fortran API)";
  abort_job(message, code);
}

// ---- element types ----------------------------------------------------------------------------

ElemType elem_type(const char* function, int type) {
  switch (type) {
    case C_INT: return ElemType::Int;
    case C_LONG: case C_LONGLONG: case F_INT: return ElemType::Long;  // 8 bytes each (LP64)
    case C_FLOAT: case F_REAL: return ElemType::Float;
    case C_DBL: case F_DBL: return ElemType::Double;
    case C_SCPL: case F_SCPL: return ElemType::ComplexFloat;
    case C_DCPL: case F_DCPL: return ElemType::ComplexDouble;
  }
  bad_argument(function, "type", std::to_string(type),
               "not an array type GA and Armada share (C_INT, C_LONG, C_LONGLONG, C_FLOAT, C_DBL, C_SCPL, "
               "C_DCPL or their F_ names)");
}

std::string type_name(int type) {
  switch (type) {
    case C_INT: return "C_INT";
    case C_LONG: return "C_LONG";
    case C_LONGLONG: return "C_LONGLONG";
    case C_FLOAT: return "C_FLOAT";
    case C_DBL: return "C_DBL";
    case C_SCPL: return "C_SCPL";
    case C_DCPL: return "C_DCPL";
    case F_INT: return "F_INT";
    case F_REAL: return "F_REAL";
    case F_DBL: return "F_DBL";
    case F_SCPL: return "F_SCPL";
    case F_DCPL: return "F_DCPL";
  }
  return std::to_string(type);
}

void require_type(const char* function, const char* argument, int g, const Array& a, ElemType type,
                  const char* ga_name) {
  if (a.type() != type)
    bad_argument(function, argument, std::to_string(g),
                 "holds " + std::string(rma::to_string(a.type())) + ". " + function + " needs " + ga_name);
}

// ---- process groups ---------------------------------------------------------------------------

rma::Group group(const char* function, int handle) {
  if (handle == world_pgroup) return rma::Group::world();
  if (handle < 0 || handle >= static_cast<int>(g_groups.size()) || !g_groups[static_cast<std::size_t>(handle)])
    bad_argument(function, "p_handle", std::to_string(handle), "not a live process group handle");
  return *g_groups[static_cast<std::size_t>(handle)];
}

int add_group(rma::Group g) {
  g_groups.emplace_back(std::move(g));
  return static_cast<int>(g_groups.size()) - 1;
}

void forget_group(const char* function, int handle) {
  group(function, handle);
  if (handle == world_pgroup) bad_argument(function, "p_handle", std::to_string(handle), "the world group stays");
  g_groups[static_cast<std::size_t>(handle)].reset();
  if (g_default_pgroup == handle) g_default_pgroup = world_pgroup;
}

int default_pgroup() { return g_default_pgroup; }
void set_default_pgroup(int handle) { g_default_pgroup = handle; }
rma::Group default_group() { return group("GA default group", g_default_pgroup); }

int handle_of(const rma::Group& g) {
  if (g == rma::Group::world()) return world_pgroup;
  for (std::size_t i = 0; i < g_groups.size(); ++i)
    if (g_groups[i] && *g_groups[i] == g) return static_cast<int>(i);
  return add_group(g);
}

// ---- arrays -----------------------------------------------------------------------------------

int create(const char* function, const Plan& plan) {
  if (!plan.cyclic_block.empty()) return create_block_cyclic(function, plan);
  const ElemType type = elem_type(function, plan.type);
  if (plan.dims.size() < 1 || plan.dims.size() > GA_MAX_DIM)
    bad_argument(function, "ndim", std::to_string(plan.dims.size()), "must be 1 .. 7");
  for (int d = 0; d < plan.dims.size(); ++d)
    if (plan.dims[d] < 1)
      bad_argument(function, "dims[" + std::to_string(d) + "]", std::to_string(plan.dims[d]), "must be >= 1");
  arrays::ArrayOptions options;
  options.name = plan.name;
  options.chunk = plan.chunk;
  options.ghosts = plan.ghosts;
  options.block_starts = plan.block_starts;
  const rma::Group g = group(function, plan.pgroup_set ? plan.pgroup : g_default_pgroup);
  options.group = g;
  // The block this rank will own, as arrays::create cuts it, for GA's memory limit.
  std::size_t bytes = 0;
  if (g.is_member()) {
    const arrays::Distribution dist =
        plan.block_starts.empty() ? arrays::Distribution::regular(plan.dims, g.size(), {}, plan.chunk)
                                  : arrays::Distribution::irregular(plan.dims, plan.block_starts, g.size());
    bytes = block_bytes(dist.block(g.rank()), plan.ghosts, type);
  }
  if (g.is_member() && !charge_memory(g, bytes, MemoryUse::array)) return 0;
  try {
    return adopt(Array::create(type, plan.dims, options), plan.type, bytes);
  } catch (...) {
    refund_memory(bytes, MemoryUse::array);
    throw;
  }
}

std::size_t block_bytes(const arrays::Patch& block, const Coord& ghosts, ElemType type) {
  if (block.empty()) return 0;
  Coord ext = block.extents();
  for (int d = 0; d < ext.size() && d < ghosts.size(); ++d) ext[d] += 2 * ghosts[d];
  return static_cast<std::size_t>(ext.product()) * arrays::size_of(type);
}

int new_handle() {
  Slot s;
  s.plan = Plan{};
  g_arrays.push_back(std::move(s));
  return handle_base + static_cast<int>(g_arrays.size()) - 1;
}

Plan& plan_of(const char* function, int g_a) {
  Slot& s = slot(function, g_a);
  if (!s.plan) bad_argument(function, "g_a", std::to_string(g_a), "is allocated already (GA_Allocate)");
  return *s.plan;
}

bool allocate(const char* function, int g_a) {
  Plan plan = plan_of(function, g_a);
  if (plan.type == 0) bad_argument(function, "g_a", std::to_string(g_a), "has no data yet (NGA_Set_data)");
  if (create(function, plan) == 0) return false;  // over GA's memory limit: g_a stays planned
  // The new array takes over g_a's slot (GA programs keep the handle they planned with).
  Slot& s = g_arrays[static_cast<std::size_t>(g_a - handle_base)];
  const bool corners = s.ghost_corners;
  s = std::move(g_arrays.back());
  s.ghost_corners = corners;
  g_arrays.pop_back();
  return true;
}

namespace {

// The collective operations that take block-cyclic arrays: each runs on regular copies of them
// (made by array() on first use in the call, copied back when the call ends: CallScope). Only
// operations whose result depends on values alone belong here, never on the distribution, and
// only collective ones (the copy is collective).
constexpr std::string_view takes_block_cyclic[] = {
    "GA_Zero", "GA_Fill", "GA_Scale", "NGA_Zero_patch", "NGA_Fill_patch", "NGA_Scale_patch",
    "NGA_Zero_patch64", "NGA_Fill_patch64", "NGA_Scale_patch64", "GA_Copy", "NGA_Copy_patch",
    "NGA_Copy_patch64", "GA_Add", "NGA_Add_patch", "NGA_Add_patch64", "GA_Ddot", "GA_Idot", "GA_Ldot",
    "GA_Lldot", "GA_Fdot", "GA_Cdot", "GA_Zdot", "NGA_Ddot_patch", "NGA_Idot_patch", "NGA_Ldot_patch",
    "NGA_Lldot_patch", "NGA_Fdot_patch", "NGA_Cdot_patch", "NGA_Zdot_patch", "NGA_Ddot_patch64",
    "NGA_Idot_patch64", "NGA_Ldot_patch64", "NGA_Lldot_patch64", "NGA_Fdot_patch64", "NGA_Cdot_patch64",
    "NGA_Zdot_patch64", "GA_Dgemm", "GA_Sgemm", "GA_Zgemm", "GA_Cgemm", "GA_Dgemm64", "GA_Sgemm64",
    "GA_Zgemm64", "GA_Cgemm64", "GA_Matmul_patch", "NGA_Matmul_patch", "NGA_Matmul_patch64",
    "GA_Transpose", "GA_Symmetrize", "GA_Print", "GA_Abs_value", "GA_Abs_value_patch",
    "GA_Abs_value_patch64", "GA_Add_constant", "GA_Add_constant_patch", "GA_Add_constant_patch64",
    "GA_Recip", "GA_Recip_patch", "GA_Recip_patch64", "GA_Elem_multiply", "GA_Elem_divide",
    "GA_Elem_maximum", "GA_Elem_minimum", "GA_Elem_multiply_patch", "GA_Elem_divide_patch",
    "GA_Elem_maximum_patch", "GA_Elem_minimum_patch", "GA_Elem_multiply_patch64",
    "GA_Elem_divide_patch64", "GA_Elem_maximum_patch64", "GA_Elem_minimum_patch64", "GA_Get_diag",
    "GA_Set_diagonal", "GA_Add_diagonal", "GA_Shift_diagonal", "GA_Zero_diagonal", "GA_Scale_rows",
    "GA_Scale_cols", "GA_Norm1", "GA_Norm_infinity", "GA_Lu_solve", "GA_Llt_solve", "GA_Solve",
    "GA_Spd_invert", "GA_Print_patch", "NGA_Print_patch", "NGA_Print_patch64", "GA_Print_file"};

bool runs_on_regular_copy(const char* function) {
  for (std::string_view name : takes_block_cyclic)
    if (name == function) return true;
  return false;
}

thread_local CallScope* t_scope = nullptr;

}  // namespace

CallScope::CallScope(const char* function) noexcept : entry_(function), outer_(t_scope) { t_scope = this; }
CallScope::~CallScope() { t_scope = outer_; }
CallScope* CallScope::current() noexcept { return t_scope; }

void CallScope::copy_back_all() {
  std::vector<int> handles = std::move(copied_);
  copied_.clear();
  for (int g_a : handles) {
    Slot& s = g_arrays[static_cast<std::size_t>(g_a - handle_base)];
    copy_back(s.regular, *s.cyclic);
    s.regular.destroy();
    s.regular = Array{};
  }
}

Array& array(const char* function, int g_a, const char* argument) {
  Slot& s = slot(function, g_a, argument);
  if (s.plan)
    bad_argument(function, argument, std::to_string(g_a),
                 "is not allocated (a planned handle, or one GA_Deallocate freed; GA_Allocate allocates it)");
  if (!s.cyclic) return s.array;
  if (s.regular.valid()) return s.regular;  // this call made it already
  if (!runs_on_regular_copy(function) || !CallScope::current()) refuse_block_cyclic(function, argument, g_a);
  s.regular = regular_copy_of(*s.cyclic);
  CallScope::current()->add_copy(g_a);
  return s.regular;
}

const Coord& array_dims(const char* function, int g_a) {
  const BlockCyclic* bc = block_cyclic(function, g_a);
  return bc ? bc->dims : array(function, g_a).dims();
}

BlockCyclic* block_cyclic(const char* function, int g_a, const char* argument) {
  Slot& s = slot(function, g_a, argument);
  if (s.plan)
    bad_argument(function, argument, std::to_string(g_a),
                 "is not allocated (a planned handle, or one GA_Deallocate freed; GA_Allocate allocates it)");
  return s.cyclic.get();
}

int adopt_block_cyclic(BlockCyclic bc, int type, std::size_t charged) {
  count_call(Stat::create);
  Slot s;
  s.type = type;
  s.charged = charged;
  s.cyclic = std::make_shared<BlockCyclic>(std::move(bc));
  g_arrays.push_back(std::move(s));
  return handle_base + static_cast<int>(g_arrays.size()) - 1;
}

bool is_planned(const char* function, int g_a) { return slot(function, g_a).plan.has_value(); }

bool deallocate(const char* function, int g_a) {
  Slot& s = slot(function, g_a);
  if (s.plan) return false;  // nothing allocated: GA's GA_Deallocate returns 0 too
  if (s.cyclic) refuse_block_cyclic(function, "g_a", g_a);
  Plan plan = plan_of_array(s);
  s.array.destroy();  // collective over the array's group
  refund_memory(s.charged, MemoryUse::array);
  s.charged = 0;
  s.array = Array{};
  s.plan = std::move(plan);
  return true;
}

bool& ghost_corners(const char* function, int g_a) { return slot(function, g_a).ghost_corners; }

int ga_type(const char* function, int g_a) {
  block_cyclic(function, g_a);  // checks the handle (no regular copy)
  return g_arrays[static_cast<std::size_t>(g_a - handle_base)].type;
}

int adopt(Array a, int type, std::size_t charged) {
  count_call(Stat::create);
  Slot s;
  s.array = std::move(a);
  s.type = type;
  s.charged = charged;
  g_arrays.push_back(std::move(s));
  return handle_base + static_cast<int>(g_arrays.size()) - 1;
}

void forget_array(int g_a) {
  Slot& s = g_arrays[static_cast<std::size_t>(g_a - handle_base)];
  refund_memory(s.charged, MemoryUse::array);
  count_call(Stat::destroy);
  s = Slot{};
}

void destroy_all() {
  forget_saved_diag();
  for (Slot& s : g_arrays) {
    if (s.array.valid()) s.array.destroy();
    if (s.cyclic && s.cyclic->store.valid()) s.cyclic->store.destroy();
  }
  g_arrays.clear();
  reset_memory_accounting();
  g_groups.clear();
  g_default_pgroup = world_pgroup;
}

int world_rank_of(const char* function, const Array& a, int iproc) {
  const rma::Group& g = a.group();
  if (iproc < 0 || iproc >= g.size())
    bad_argument(function, "iproc", std::to_string(iproc),
                 "not a process of the array's group (size " + std::to_string(g.size()) + ")");
  return g.world_rank(iproc);
}

// ---- index checks -----------------------------------------------------------------------------

std::string tuple_text(int n, const Index* v) {
  std::string s = "{";
  for (int d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
  return s + "}";
}

template <class I>
arrays::Patch patch(const char* function, const Array& a, const I* lo, const I* hi, const char* lo_name,
                    const char* hi_name) {
  return patch_of(function, a.dims(), lo, hi, lo_name, hi_name);
}

template <class I>
arrays::Patch patch_of(const char* function, const Coord& dims, const I* lo, const I* hi, const char* lo_name,
                       const char* hi_name) {
  const int n = dims.size();
  if (!lo) bad_argument(function, lo_name, "NULL", "an index tuple is required");
  if (!hi) bad_argument(function, hi_name, "NULL", "an index tuple is required");
  // The texts are built only on the failing path: this check runs on every patch operation
  // and NGA_Read_inc (formatting "[d]" on every call made read_inc ~20 % slower).
  const auto at = [](int d) { return "[" + std::to_string(d) + "]"; };
  for (int d = 0; d < n; ++d) {
    if (lo[d] < 0 || lo[d] >= dims[d])
      bad_argument(function, lo_name + at(d), std::to_string(lo[d]),
                   "outside the array (dims " + tuple_text(n, dims.data()) + ", indices from 0)");
    if (hi[d] < lo[d] || hi[d] >= dims[d])
      bad_argument(function, hi_name + at(d), std::to_string(hi[d]),
                   "must be in " + std::string(lo_name) + at(d) + " .. dims" + at(d) + "-1 = " + std::to_string(lo[d]) +
                       " .. " + std::to_string(dims[d] - 1) + " (GA's patches are inclusive)");
  }
  return arrays::Patch{coord(n, lo), upper(n, hi)};
}

template <class I>
Coord leading(const char*, const Array& a, const I* ld) {
  if (!ld || a.ndim() == 1) return {};  // arrays checks the extents against the patch
  return coord(a.ndim() - 1, ld);
}

template arrays::Patch patch<int>(const char*, const Array&, const int*, const int*, const char*, const char*);
template arrays::Patch patch<std::int64_t>(const char*, const Array&, const std::int64_t*, const std::int64_t*,
                                           const char*, const char*);
template arrays::Patch patch_of<int>(const char*, const Coord&, const int*, const int*, const char*, const char*);
template arrays::Patch patch_of<std::int64_t>(const char*, const Coord&, const std::int64_t*, const std::int64_t*,
                                              const char*, const char*);
template Coord leading<int>(const char*, const Array&, const int*);
template Coord leading<std::int64_t>(const char*, const Array&, const std::int64_t*);

}  // namespace armada::ga
