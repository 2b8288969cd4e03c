// Operations on a matrix and a vector (collective over the matrix's group): the diagonal (get,
// set, add, shift, zero), row and column scaling, norms, random fill, and printing a patch.
// Each process changes the part of the matrix it owns, in place, and fetches the part of the
// vector it needs one-sidedly; the call starts and ends with a sync of the matrix's group.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <random>
#include <sstream>

#include "armada/arrays/collective.hpp"
#include "armada/rma/runtime.hpp"
#include "base/call.hpp"
#include "base/index.hpp"
#include "collective/owned.hpp"
#include "create/handles.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

void require_matrix(const char* function, int g_a, const Array& a) {
  if (a.ndim() != 2)
    bad_argument(function, "g_a", std::to_string(g_a),
                 "is " + std::to_string(a.ndim()) + "-D; " + function + " needs a 2-D array (a matrix)");
}

/// The vector g_v: 1-D, of a's element type, with `length` elements.
Array& vector(const char* function, int g_v, const Array& a, Index length, const char* what) {
  Array& v = array(function, g_v);
  if (v.ndim() != 1)
    bad_argument(function, "g_v", std::to_string(g_v),
                 "is " + std::to_string(v.ndim()) + "-D; " + function + " needs a 1-D array (a vector)");
  if (v.type() != a.type())
    bad_argument(function, "g_v", std::to_string(g_v),
                 "holds " + std::string(rma::to_string(v.type())) + ", the matrix " +
                     std::string(rma::to_string(a.type())) + " (they must match)");
  if (v.dims()[0] != length)
    bad_argument(function, "g_v", std::to_string(g_v),
                 "has " + std::to_string(v.dims()[0]) + " elements; it needs " + std::to_string(length) + " (" +
                     what + " of the " + std::to_string(a.dims()[0]) + " x " + std::to_string(a.dims()[1]) +
                     " matrix)");
  return v;
}

enum class Diag { Get, Set, Add, Shift, Zero };

/// GA's diagonal operations on matrix g_a: with the vector g_v of min(rows, columns) elements
/// (Get, Set, Add) or the constant `value` (Shift).
void diagonal(const char* function, Diag op, int g_a, int g_v, const void* value) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    require_matrix(function, g_a, a);
    const Index len = std::min(a.dims()[0], a.dims()[1]);
    const bool with_vector = op == Diag::Get || op == Diag::Set || op == Diag::Add;
    Array* v = with_vector ? &vector(function, g_v, a, len, "the diagonal") : nullptr;
    if (op == Diag::Shift && !value) bad_argument(function, "c", "NULL", "a value of the array's type is required");
    update_owned(a, [&](auto zero, const arrays::LocalView<void>& view) {
      using T = decltype(zero);
      const Index first = std::max(view.lo[0], view.lo[1]), last = std::min(view.hi[0], view.hi[1]);
      if (first >= last) return;
      std::vector<T> d(static_cast<std::size_t>(last - first));
      if (op == Diag::Set || op == Diag::Add) v->get({first}, {last}, d.data());
      T* base = static_cast<T*>(view.data);
      for (Index i = first; i < last; ++i) {
        T& x = base[(i - view.lo[0]) * view.stride[0] + (i - view.lo[1]) * view.stride[1]];
        T& y = d[static_cast<std::size_t>(i - first)];
        switch (op) {
          case Diag::Get: y = x; break;
          case Diag::Set: x = y; break;
          case Diag::Add: x += y; break;
          case Diag::Shift: x += *static_cast<const T*>(value); break;
          case Diag::Zero: x = T{}; break;
        }
      }
      if (op == Diag::Get) v->put({first}, {last}, d.data());
    }, "c", op == Diag::Shift ? value : nullptr);
  });
}

/// a(i, j) *= v(i) (rows) or v(j) (columns).
void scale_lines(const char* function, bool rows, int g_a, int g_v) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    require_matrix(function, g_a, a);
    const int along = rows ? 0 : 1;
    const Array& v = vector(function, g_v, a, a.dims()[along], rows ? "one per row" : "one per column");
    update_owned(a, [&](auto zero, const arrays::LocalView<void>& view) {
      using T = decltype(zero);
      std::vector<T> s(static_cast<std::size_t>(view.hi[along] - view.lo[along]));
      v.get({view.lo[along]}, {view.hi[along]}, s.data());
      T* base = static_cast<T*>(view.data);
      for (Index i = 0; i < view.hi[0] - view.lo[0]; ++i)
        for (Index j = 0; j < view.hi[1] - view.lo[1]; ++j)
          base[i * view.stride[0] + j * view.stride[1]] *= s[static_cast<std::size_t>(rows ? i : j)];
    });
  });
}

void norm(const char* function, bool infinity, int g_a, double* nm) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    if (!nm) bad_argument(function, "nm", "NULL", "a place for the norm is required");
    *nm = infinity ? arrays::norm_infinity(a) : arrays::norm1(a);
  });
}

/// A uniform value in [0, scale] (integers: the whole part; complex: each part scaled by its own).
template <class T, class G>
T random_value(const T& scale, G& gen) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  if constexpr (std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>) {
    using R = typename T::value_type;
    const R re = static_cast<R>(u(gen) * scale.real()), im = static_cast<R>(u(gen) * scale.imag());
    return T(re, im);
  } else {
    return static_cast<T>(u(gen) * static_cast<double>(scale));
  }
}

void randomize(const char* function, int g_a, const void* value) {
  guarded(function, [&] {
    Array& a = array(function, g_a);
    if (!value) bad_argument(function, "value", "NULL", "a value of the array's type is required");
    static unsigned long calls = 0;  // a new sequence per call, a different one per process
    std::mt19937_64 gen(0x9e3779b97f4a7c15ULL * (++calls) + static_cast<unsigned long>(rma::rank()));
    update_owned(a, [&](auto zero, const arrays::LocalView<void>& view) {
      using T = decltype(zero);
      const T scale = *static_cast<const T*>(value);
      const Coord ext = arrays::Patch{view.lo, view.hi}.extents();
      Coord at = Coord::filled(view.ndim(), 0);
      for (Index k = 0; k < view.size(); ++k) {
        Index offset = 0, rest = k;
        for (int d = view.ndim() - 1; d >= 0; --d) {
          at[d] = rest % ext[d];
          rest /= ext[d];
          offset += at[d] * view.stride[d];
        }
        static_cast<T*>(view.data)[offset] = random_value(scale, gen);
      }
    }, "value", value);
  });
}

/// Prints [lo, hi] of g_a as GA_Print does (to `file`, or standard output when NULL).
template <class I>
void print_patch(const char* function, int g_a, const I* lo, const I* hi, std::FILE* file) {
  guarded(function, [&] {
    const Array& a = array(function, g_a);
    const arrays::Patch p = patch(function, a, lo, hi);
    std::ostringstream out;
    arrays::print_patch(a, p.lo, p.hi, out);
    if (out.str().empty()) return;
    if (!file) {
      std::cout << out.str() << std::flush;
      return;
    }
    std::fputs(out.str().c_str(), file);
    std::fflush(file);
  });
}

}  // namespace

extern "C" {

void GA_Get_diag(int g_a, int g_v) { diagonal("GA_Get_diag", Diag::Get, g_a, g_v, nullptr); }
void GA_Set_diagonal(int g_a, int g_v) { diagonal("GA_Set_diagonal", Diag::Set, g_a, g_v, nullptr); }
void GA_Add_diagonal(int g_a, int g_v) { diagonal("GA_Add_diagonal", Diag::Add, g_a, g_v, nullptr); }
void GA_Shift_diagonal(int g_a, void* c) { diagonal("GA_Shift_diagonal", Diag::Shift, g_a, 0, c); }
void GA_Zero_diagonal(int g_a) { diagonal("GA_Zero_diagonal", Diag::Zero, g_a, 0, nullptr); }
void GA_Scale_rows(int g_a, int g_v) { scale_lines("GA_Scale_rows", true, g_a, g_v); }
void GA_Scale_cols(int g_a, int g_v) { scale_lines("GA_Scale_cols", false, g_a, g_v); }
void GA_Norm1(int g_a, double* nm) { norm("GA_Norm1", false, g_a, nm); }
void GA_Norm_infinity(int g_a, double* nm) { norm("GA_Norm_infinity", true, g_a, nm); }
void GA_Randomize(int g_a, void* value) { randomize("GA_Randomize", g_a, value); }
void NGA_Randomize(int g_a, void* value) { randomize("NGA_Randomize", g_a, value); }

// `pretty` is accepted; the format is GA_Print's either way (docs/ga.md).
void GA_Print_patch(int g_a, int ilo, int ihi, int jlo, int jhi, int) {
  const int lo[2] = {ilo, jlo}, hi[2] = {ihi, jhi};
  guarded("GA_Print_patch", [&] {
    require_matrix("GA_Print_patch", g_a, array("GA_Print_patch", g_a));
    print_patch("GA_Print_patch", g_a, lo, hi, nullptr);
  });
}
void NGA_Print_patch(int g_a, int lo[], int hi[], int) { print_patch("NGA_Print_patch", g_a, lo, hi, nullptr); }
void NGA_Print_patch64(int g_a, int64_t lo[], int64_t hi[], int) {
  print_patch("NGA_Print_patch64", g_a, lo, hi, nullptr);
}
void GA_Print_file(FILE* file, int g_a) {
  guarded("GA_Print_file", [&] {
    if (!file) bad_argument("GA_Print_file", "file", "NULL", "an open FILE* is required");
    const Array& a = array("GA_Print_file", g_a);
    const Coord hi = a.dims();
    std::vector<Index> last(hi.data(), hi.data() + a.ndim());
    for (Index& x : last) x -= 1;
    const std::vector<Index> first(last.size(), 0);
    print_patch("GA_Print_file", g_a, first.data(), last.data(), file);
  });
}

}  // extern "C"
