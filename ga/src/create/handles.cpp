// GA's array handles (create/handles.hpp): the table, creation from a plan, allocation and
// deallocation of planned handles, and which operations take block-cyclic arrays.
#include <deque>
#include <optional>
#include <string_view>

#include "armada/rma/runtime.hpp"
#include "base/call.hpp"
#include "base/types.hpp"
#include "create/handles.hpp"
#include "groups/groups.hpp"
#include "linear_algebra/saved_diag.hpp"
#include "memory/accounting.hpp"
#include "services/stats.hpp"

namespace armada::ga {

namespace {

/// One GA handle: a planned array (between GA_Create_handle and GA_Allocate) or a live one.
struct Slot {
  std::optional<Plan> plan;
  Array array;
  int type = 0;
  std::size_t charged = 0;  // bytes charged to GA's memory limit for the array
  bool ghost_corners = true;  // GA_Set_ghost_corner_flag
  bool live() const { return array.valid(); }
};

// GA's own handles are offset too: small integers (0, 1, an uninitialized variable) are never
// valid, so they are reported instead of naming some other array.
constexpr int handle_base = 1000;
// A deque: creating an array (push_back) keeps references to the other slots valid, so a call
// may hold its arguments' Array& while it makes temporaries (GA_Duplicate, patch reshapes).
std::deque<Slot> g_arrays;

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

// ---- arrays -----------------------------------------------------------------------------------

int create(const char* function, const Plan& plan) {
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
  const rma::Group g = group(function, plan.pgroup_set ? plan.pgroup : default_pgroup());
  options.group = g;
  if (!plan.cyclic_block.empty()) options.distribution = cyclic_distribution(function, plan, g.size());
  // What this rank will own, as arrays::create lays it out, for GA's memory limit.
  std::size_t bytes = 0;
  if (g.is_member() && options.distribution) {
    bytes = static_cast<std::size_t>(options.distribution->local_elements(g.rank())) * arrays::size_of(type);
  } else if (g.is_member()) {
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

// The operations that take block-cyclic arrays besides those written for every layout
// (any_array()): arrays and linalg act on the array itself, whatever its distribution. Every other
// operation refuses one (it needs one block per process: local access, ghost cells, ..).
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

bool takes_cyclic(const char* function) {
  for (std::string_view name : takes_block_cyclic)
    if (name == function) return true;
  return false;
}

}  // namespace

Array& any_array(const char* function, int g_a, const char* argument) {
  Slot& s = slot(function, g_a, argument);
  if (s.plan)
    bad_argument(function, argument, std::to_string(g_a),
                 "is not allocated (a planned handle, or one GA_Deallocate freed; GA_Allocate allocates it)");
  return s.array;
}

Array& array(const char* function, int g_a, const char* argument) {
  Array& a = any_array(function, g_a, argument);
  if (a.distribution().cyclic() && !takes_cyclic(function)) refuse_block_cyclic(function, argument, g_a);
  return a;
}

const Coord& array_dims(const char* function, int g_a) { return any_array(function, g_a).dims(); }

const arrays::Distribution* block_cyclic(const char* function, int g_a, const char* argument) {
  const arrays::Distribution& d = any_array(function, g_a, argument).distribution();
  return d.cyclic() ? &d : nullptr;
}

[[noreturn]] void refuse_block_cyclic(const char* function, const char* argument, int g_a) {
  bad_argument(function, argument, std::to_string(g_a),
               "is a block-cyclic array (GA_Set_block_cyclic / GA_Set_block_cyclic_proc_grid); Armada's " +
                   std::string(function) + " takes arrays of block distribution only (docs/ga.md lists the "
                   "operations that take block-cyclic arrays)");
}

bool is_planned(const char* function, int g_a) { return slot(function, g_a).plan.has_value(); }

bool deallocate(const char* function, int g_a) {
  Slot& s = slot(function, g_a);
  if (s.plan) return false;  // nothing allocated: GA's GA_Deallocate returns 0 too
  if (s.array.distribution().cyclic()) refuse_block_cyclic(function, "g_a", g_a);
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
  any_array(function, g_a);  // checks the handle
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
  }
  g_arrays.clear();
  reset_memory_accounting();
  forget_all_groups();
}

int world_rank_of(const char* function, const Array& a, int iproc) {
  const rma::Group& g = a.group();
  if (iproc < 0 || iproc >= g.size())
    bad_argument(function, "iproc", std::to_string(iproc),
                 "not a process of the array's group (size " + std::to_string(g.size()) + ")");
  return g.world_rank(iproc);
}

}  // namespace armada::ga
