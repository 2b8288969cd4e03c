// Element-wise operations on whole arrays and patches (abs, add constant, reciprocal, multiply,
// divide, maximum, minimum), select, periodic patch operations, the owners of a patch, and small
// inquiries.
#include <algorithm>
#include <mpi.h>

#include "armada/arrays/arrays.hpp"
#include "block_cyclic.hpp"
#include "internal.hpp"

using namespace armada;
using namespace armada::ga;
using arrays::detail::BinaryOp;
using arrays::detail::UnaryOp;

namespace {

template <class I>
void unary(const char* function, UnaryOp op, int g_a, const I* lo, const I* hi, const void* value) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    if ((op == UnaryOp::AddConstant) && !value)
      bad_argument(function, "alpha", "NULL", "a value of the array's type is required");
    const arrays::Patch p = lo || hi ? patch(function, a, lo, hi) : arrays::Patch{arrays::full_lo(a), arrays::full_hi(a)};
    arrays::detail::unary_patch(op, a, p.lo, p.hi, value);
  });
}

template <class I>
void binary(const char* function, BinaryOp op, int g_a, const I* alo, const I* ahi, int g_b, const I* blo,
            const I* bhi, int g_c, const I* clo, const I* chi, bool patches) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    const Array& b = array(function, g_b);
    Array& c = array(function, g_c);
    const auto whole = [](const Array& x) { return arrays::Patch{arrays::full_lo(x), arrays::full_hi(x)}; };
    const arrays::Patch pa = patches ? patch(function, a, alo, ahi, "alo", "ahi") : whole(a);
    const arrays::Patch pb = patches ? patch(function, b, blo, bhi, "blo", "bhi") : whole(b);
    const arrays::Patch pc = patches ? patch(function, c, clo, chi, "clo", "chi") : whole(c);
    arrays::detail::binary_patch(op, nullptr, a, pa.lo, pa.hi, nullptr, b, pb.lo, pb.hi, c, pc.lo, pc.hi);
  });
}

enum class Kind { Get, Put, Acc };

template <class I>
void periodic(const char* function, Kind kind, int g_a, const I* lo, const I* hi, void* buf, const I* ld,
              const void* alpha) {
  guarded(function, [&] {
    if (!lo || !hi) bad_argument(function, lo ? "hi" : "lo", "NULL", "an index tuple is required");
    if (!buf) bad_argument(function, "buf", "NULL", "a buffer for the patch is required");
    if (kind == Kind::Acc && !alpha) bad_argument(function, "alpha", "NULL", "a scale factor is required");
    if (BlockCyclic* bc = block_cyclic(function, g_a)) {
      const Transfer t = kind == Kind::Get ? Transfer::get : kind == Kind::Put ? Transfer::put : Transfer::acc;
      periodic_transfer(function, *bc, t, coord(bc->ndim(), lo), upper(bc->ndim(), hi), buf, ga_ld(bc->ndim(), ld),
                        alpha);
      return;
    }
    Array& a = array(function, g_a);
    // lo may lie outside the array (it wraps); arrays checks the extents.
    const Coord l = coord(a.ndim(), lo), h = upper(a.ndim(), hi), b = leading(function, a, ld);
    switch (kind) {
      case Kind::Get: a.periodic_get(l, h, buf, b); break;
      case Kind::Put: a.periodic_put(l, h, buf, b); break;
      case Kind::Acc: a.periodic_acc(l, h, buf, alpha, b); break;
    }
  });
}

// op "max" or "min"; index: the element's zero-based subscript (ties: the first in row-major
// order).
template <class I>
void select_elem(const char* function, int g_a, const char* op, void* val, I* index) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    const std::string o = op ? op : "";
    if (o != "max" && o != "min")
      bad_argument(function, "op", op ? "\"" + o + "\"" : "NULL", "must be \"max\" or \"min\"");
    if (!val) bad_argument(function, "val", "NULL", "room for one element is required");
    const Coord at = arrays::detail::select(a, arrays::full_lo(a), arrays::full_hi(a), o == "max", val);
    if (index)
      for (int d = 0; d < a.ndim(); ++d) index[d] = static_cast<I>(at[d]);
  });
}

// The owners of [lo, hi]: their number; map gets each one's part (lo then hi, inclusive, ndim
// entries each) and procs its process id in the array's group. Both need room for every owner;
// either may be NULL (NGA_Locate_nnodes).
/// GA's NGA_Locate_region of a block-cyclic array: one entry per block the patch meets, `procs`
/// holding the block's number (not its owner), in block order.
template <class I>
int locate_blocks(const char* function, const BlockCyclic& bc, const I* lo, const I* hi, I* map, int* procs) {
  const arrays::Patch p = patch_of(function, bc.dims, lo, hi);
  const int n = bc.ndim();
  int k = 0;
  for (Index b = 0; b < bc.total(); ++b) {
    arrays::Patch box = bc.bounds(bc.coords_of(b));
    for (int d = 0; d < n; ++d) box.lo[d] = std::max(box.lo[d], p.lo[d]), box.hi[d] = std::min(box.hi[d], p.hi[d]);
    if (box.empty()) continue;
    if (procs) procs[k] = static_cast<int>(b);
    for (int d = 0; map && d < n; ++d) {
      map[k * 2 * n + d] = static_cast<I>(box.lo[d]);
      map[k * 2 * n + n + d] = static_cast<I>(box.hi[d] - 1);
    }
    ++k;
  }
  return k;
}

template <class I>
int locate_region(const char* function, int g_a, const I* lo, const I* hi, I* map, int* procs) {
  return guarded(function, [&] {
    if (const BlockCyclic* bc = block_cyclic(function, g_a)) return locate_blocks(function, *bc, lo, hi, map, procs);
    const Array& a = array(function, g_a);
    const arrays::Patch p = patch(function, a, lo, hi);
    const std::vector<arrays::Owner> owners = a.locate_region(p.lo, p.hi);
    const int n = a.ndim();
    for (std::size_t k = 0; k < owners.size(); ++k) {
      if (procs) procs[k] = a.group().group_rank(owners[k].rank);
      if (map)
        for (int d = 0; d < n; ++d) {
          map[k * 2 * n + d] = static_cast<I>(owners[k].patch.lo[d]);
          map[k * 2 * n + n + d] = static_cast<I>(owners[k].patch.hi[d] - 1);
        }
    }
    return static_cast<int>(owners.size());
  });
}

/// The coordinates of process `proc` (of the array's group) in the array's process grid: block
/// b of the distribution, numbered row-major over the grid, belongs to process b. -1 in every
/// dimension for a process that owns no block.
void proc_topology(const char* function, int g_a, int proc, int* coord, bool fortran_order = false) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    world_rank_of(function, a, proc);
    if (!coord) bad_argument(function, "coord", "NULL", "room for ndim coordinates is required");
    const Coord grid = a.distribution().grid();
    const bool owns = proc < a.distribution().block_count() && !a.distribution().block(proc).empty();
    int rest = proc;
    for (int d = a.ndim() - 1; d >= 0; --d) {
      coord[d] = owns ? static_cast<int>(rest % grid[d]) : -1;
      rest /= static_cast<int>(grid[d]);
    }
    if (fortran_order) std::reverse(coord, coord + a.ndim());
  });
}

// GA 5.8's C NGA_Proc_topology and GA_Get_proc_grid copy GA's internal (Fortran-ordered) tuple
// unreversed (capi.c: COPY, not COPYF2C, unlike GA_Get_proc_index), so their entries run from the
// C view's last dimension to its first; GA programs rely on it (GA's ga-mpi.c splits a
// communicator by coord[1] to group the processes that hold the same C rows).
void proc_grid(const char* function, int g_a, int* dims) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    if (!dims) bad_argument(function, "dims", "NULL", "room for ndim entries is required");
    const Coord grid = a.distribution().grid();
    for (int d = 0; d < a.ndim(); ++d) dims[d] = static_cast<int>(grid[a.ndim() - 1 - d]);
  });
}

}  // namespace

extern "C" {

constexpr const int* no_patch = nullptr;

void GA_Abs_value(int g_a) { unary("GA_Abs_value", UnaryOp::Abs, g_a, no_patch, no_patch, nullptr); }
void GA_Abs_value_patch(int g_a, int* lo, int* hi) { unary("GA_Abs_value_patch", UnaryOp::Abs, g_a, lo, hi, nullptr); }
void GA_Add_constant(int g_a, void* alpha) {
  unary("GA_Add_constant", UnaryOp::AddConstant, g_a, no_patch, no_patch, alpha);
}
void GA_Add_constant_patch(int g, int* lo, int* hi, void* alpha) {
  unary("GA_Add_constant_patch", UnaryOp::AddConstant, g, lo, hi, alpha);
}
void GA_Recip(int g_a) { unary("GA_Recip", UnaryOp::Reciprocal, g_a, no_patch, no_patch, nullptr); }
void GA_Recip_patch(int g_a, int* lo, int* hi) { unary("GA_Recip_patch", UnaryOp::Reciprocal, g_a, lo, hi, nullptr); }
void GA_Abs_value_patch64(int g_a, int64_t* lo, int64_t* hi) {
  unary("GA_Abs_value_patch64", UnaryOp::Abs, g_a, lo, hi, nullptr);
}
void GA_Add_constant_patch64(int g, int64_t* lo, int64_t* hi, void* alpha) {
  unary("GA_Add_constant_patch64", UnaryOp::AddConstant, g, lo, hi, alpha);
}
void GA_Recip_patch64(int g_a, int64_t* lo, int64_t* hi) {
  unary("GA_Recip_patch64", UnaryOp::Reciprocal, g_a, lo, hi, nullptr);
}

#define ARMADA_GA_ELEM(ga_name, op)                                                                    \
  void GA_Elem_##ga_name(int g_a, int g_b, int g_c) {                                                 \
    binary("GA_Elem_" #ga_name, BinaryOp::op, g_a, no_patch, no_patch, g_b, no_patch, no_patch, g_c, no_patch, \
           no_patch, false);                                                                           \
  }                                                                                                    \
  void GA_Elem_##ga_name##_patch(int g_a, int* alo, int* ahi, int g_b, int* blo, int* bhi, int g_c, int* clo, \
                                 int* chi) {                                                           \
    binary("GA_Elem_" #ga_name "_patch", BinaryOp::op, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi, true); \
  }                                                                                                    \
  void GA_Elem_##ga_name##_patch64(int g_a, int64_t* alo, int64_t* ahi, int g_b, int64_t* blo, int64_t* bhi, \
                                   int g_c, int64_t* clo, int64_t* chi) {                              \
    binary("GA_Elem_" #ga_name "_patch64", BinaryOp::op, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi, true); \
  }
ARMADA_GA_ELEM(multiply, Multiply)
ARMADA_GA_ELEM(divide, Divide)
ARMADA_GA_ELEM(maximum, Max)
ARMADA_GA_ELEM(minimum, Min)
#undef ARMADA_GA_ELEM

void NGA_Periodic_get(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  periodic("NGA_Periodic_get", Kind::Get, g_a, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_put(int g_a, int lo[], int hi[], void* buf, int ld[]) {
  periodic("NGA_Periodic_put", Kind::Put, g_a, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_acc(int g_a, int lo[], int hi[], void* buf, int ld[], void* alpha) {
  periodic("NGA_Periodic_acc", Kind::Acc, g_a, lo, hi, buf, ld, alpha);
}
void NGA_Periodic_get64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  periodic("NGA_Periodic_get64", Kind::Get, g_a, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_put64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[]) {
  periodic("NGA_Periodic_put64", Kind::Put, g_a, lo, hi, buf, ld, nullptr);
}
void NGA_Periodic_acc64(int g_a, int64_t lo[], int64_t hi[], void* buf, int64_t ld[], void* alpha) {
  periodic("NGA_Periodic_acc64", Kind::Acc, g_a, lo, hi, buf, ld, alpha);
}

void NGA_Select_elem(int g_a, char* op, void* val, int* index) { select_elem("NGA_Select_elem", g_a, op, val, index); }
void NGA_Select_elem64(int g_a, char* op, void* val, int64_t* index) {
  select_elem("NGA_Select_elem64", g_a, op, val, index);
}
int NGA_Locate_region(int g_a, int lo[], int hi[], int map[], int procs[]) {
  return locate_region("NGA_Locate_region", g_a, lo, hi, map, procs);
}
int NGA_Locate_region64(int g_a, int64_t lo[], int64_t hi[], int64_t map[], int procs[]) {
  return locate_region("NGA_Locate_region64", g_a, lo, hi, map, procs);
}
int NGA_Locate_nnodes(int g_a, int lo[], int hi[]) {
  return locate_region<int>("NGA_Locate_nnodes", g_a, lo, hi, nullptr, nullptr);
}
int NGA_Locate_nnodes64(int g_a, int64_t lo[], int64_t hi[]) {
  return locate_region<int64_t>("NGA_Locate_nnodes64", g_a, lo, hi, nullptr, nullptr);
}
void NGA_Proc_topology(int g_a, int proc, int coord[]) {
  proc_topology("NGA_Proc_topology", g_a, proc, coord, true);
}
void GA_Get_proc_index(int g_a, int iproc, int subscript[]) {
  proc_topology("GA_Get_proc_index", g_a, iproc, subscript);
}
void NGA_Get_proc_index(int g_a, int iproc, int subscript[]) {
  proc_topology("NGA_Get_proc_index", g_a, iproc, subscript);
}
void GA_Get_proc_grid(int g_a, int dims[]) { proc_grid("GA_Get_proc_grid", g_a, dims); }
void NGA_Get_proc_grid(int g_a, int dims[]) { proc_grid("NGA_Get_proc_grid", g_a, dims); }

int GA_Has_ghosts(int g_a) {
  return guarded("GA_Has_ghosts", [&] {
    if (block_cyclic("GA_Has_ghosts", g_a)) return 0;  // block-cyclic arrays have no ghost cells
    const Coord w = array("GA_Has_ghosts", g_a).ghosts();
    for (int d = 0; d < w.size(); ++d)
      if (w[d] > 0) return 1;
    return 0;
  });
}
int NGA_Has_ghosts(int g_a) { return GA_Has_ghosts(g_a); }
int GA_Get_dimension(int g_a) {
  return guarded("GA_Get_dimension", [&] { return array_dims("GA_Get_dimension", g_a).size(); });
}
int NGA_Get_dimension(int g_a) { return GA_Get_dimension(g_a); }
double GA_Wtime(void) { return MPI_Wtime(); }
double NGA_Wtime(void) { return GA_Wtime(); }

}  // extern "C"
