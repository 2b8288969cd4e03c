// Element-wise operations on whole arrays and patches (abs, add constant, reciprocal, multiply,
// divide, maximum, minimum) and the selection of an extreme element.
#include <algorithm>
#include <mpi.h>

#include "armada/arrays/arrays.hpp"
#include "base/call.hpp"
#include "base/index.hpp"
#include "create/handles.hpp"

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


// op "max" or "min"; index: the element's zero-based subscript (ties: the first in row-major
// order).
template <class I>
void select_elem(const char* function, int g_a, const char* op, void* val, I* index) {
  guarded(function, [&] {
    const Array& a = any_array(function, g_a);
    const std::string o = op ? op : "";
    if (o != "max" && o != "min")
      bad_argument(function, "op", op ? "\"" + o + "\"" : "NULL", "must be \"max\" or \"min\"");
    if (!val) bad_argument(function, "val", "NULL", "room for one element is required");
    const Coord at = arrays::detail::select(a, arrays::full_lo(a), arrays::full_hi(a), o == "max", val);
    if (index)
      for (int d = 0; d < a.ndim(); ++d) index[d] = static_cast<I>(at[d]);
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

void NGA_Select_elem(int g_a, char* op, void* val, int* index) { select_elem("NGA_Select_elem", g_a, op, val, index); }
void NGA_Select_elem64(int g_a, char* op, void* val, int64_t* index) {
  select_elem("NGA_Select_elem64", g_a, op, val, index);
}

}  // extern "C"
