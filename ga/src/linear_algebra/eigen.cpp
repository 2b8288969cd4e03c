// GA_Diag and its forms: the generalized symmetric eigenproblem H v = λ S v (S positive
// definite) on linalg's standard eigensolver and gemm; GA_Diag_reuse keeps S⁻¹ᐟ² between calls.
#include <cmath>
#include <optional>

#include "armada/linalg/linalg.hpp"
#include "base/call.hpp"
#include "base/types.hpp"
#include "collective/owned.hpp"
#include "create/handles.hpp"
#include "linear_algebra/saved_diag.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

using linalg::Op;

// S⁻¹ᐟ² of GA_Diag_reuse's last S (control 0 makes it, > 0 uses it, < 0 frees it).
std::optional<Array> g_saved_root;

/// Destroys the temporary arrays of one call on every exit (collective, as their creation).
struct Temporaries {
  std::vector<Array> arrays;
  /// `a`, kept for destruction (a copy refers to the same array).
  Array add(Array a) {
    arrays.push_back(a);
    return a;
  }
  ~Temporaries() {
    for (Array& a : arrays) a.destroy();
  }
};

/// X = S⁻¹ᐟ² = W Wᴴ with W = U diag(s)⁻¹ᐟ⁴, S = U diag(s) Uᴴ.
template <class T>
Array inverse_root(const char* function, int g_s, const Array& s) {
  using R = linalg::Real<T>;
  const Op ct = std::is_floating_point_v<T> ? Op::transpose : Op::conj_transpose;
  std::vector<R> values(static_cast<std::size_t>(s.dims()[0]));
  Temporaries tmp;
  Array w = tmp.add(s.duplicate("GA_Diag work"));
  linalg::detail::eigen_symmetric(s, w, values.data());
  if (!(values.front() > R(0)))
    bad_argument(function, "g_s", std::to_string(g_s),
                 "is not positive definite (its smallest eigenvalue is " + std::to_string(values.front()) + ")");
  update_owned(w, [&](auto, const arrays::LocalView<void>& view) {
    T* base = static_cast<T*>(view.data);
    for (Index i = 0; i < view.hi[0] - view.lo[0]; ++i)
      for (Index j = 0; j < view.hi[1] - view.lo[1]; ++j)
        base[i * view.stride[0] + j * view.stride[1]] *= T(std::pow(values[static_cast<std::size_t>(view.lo[1] + j)], R(-0.25)));
  });
  Array x = s.duplicate("GA_Diag S^-1/2");
  const T one(1), zero(0);
  linalg::detail::gemm(Op::none, ct, &one, w, w, &zero, x);
  return x;
}

/// H v = λ S v: C = X H X has the generalized eigenvalues, and V = X Y (C Y = Y Λ) satisfies
/// H V = S V Λ with Vᴴ S V = I (the normalization of LAPACK's sygv).
template <class T>
void generalized(const Array& h, const Array& x, Array& v, void* eval) {
  Temporaries tmp;
  Array t = tmp.add(h.duplicate("GA_Diag work"));
  Array c = tmp.add(h.duplicate("GA_Diag work"));
  const T one(1), zero(0);
  linalg::detail::gemm(Op::none, Op::none, &one, x, h, &zero, t);
  linalg::detail::gemm(Op::none, Op::none, &one, t, x, &zero, c);
  linalg::detail::eigen_symmetric(c, t, eval);
  linalg::detail::gemm(Op::none, Op::none, &one, x, t, &zero, v);
}

/// The arguments of every GA_Diag form: square g_a; g_s and g_v of its type and dims.
void check(const char* function, int g_a, int g_s, int g_v, const void* eval) {
  const Array& h = array(function, g_a);
  if (h.ndim() != 2 || h.dims()[0] != h.dims()[1])
    bad_argument(function, "g_a", std::to_string(g_a), "must be a square matrix (dims " + h.dims().str() + ")");
  for (const auto& [g, name] : {std::pair{g_s, "g_s"}, std::pair{g_v, "g_v"}}) {
    const Array& m = array(function, g);
    if (m.dims() != h.dims() || m.type() != h.type())
      bad_argument(function, name, std::to_string(g),
                   "must have g_a's dims " + h.dims().str() + " and type " + std::string(rma::to_string(h.type())) +
                       " (it has " + m.dims().str() + ", " + std::string(rma::to_string(m.type())) + ")");
  }
  if (!eval) bad_argument(function, "eval", "NULL", "room for n eigenvalues is required");
}

/// GA_Diag and GA_Diag_seq (no control: nothing kept) and GA_Diag_reuse (control 0 solves and
/// keeps S⁻¹ᐟ², > 0 uses the kept one, < 0 frees it only).
void diag(const char* function, std::optional<int> control, int g_a, int g_s, int g_v, void* eval) {
  guarded(function, [&] {
    if (control && *control < 0) return forget_saved_diag();  // GA: only that; g_v and eval unchanged
    check(function, g_a, g_s, g_v, eval);
    const Array& h = array(function, g_a);
    with_element_type(h.type(), [&](auto zero) {
      using T = decltype(zero);
      if constexpr (std::is_integral_v<T>) {
        bad_argument(function, "g_a", std::to_string(g_a), "holds integers: GA_Diag needs a floating-point type");
      } else if (control && *control > 0 && g_saved_root) {
        generalized<T>(h, *g_saved_root, array(function, g_v), eval);
      } else {
        Array x = inverse_root<T>(function, g_s, array(function, g_s));
        generalized<T>(h, x, array(function, g_v), eval);
        if (control) {
          if (g_saved_root) g_saved_root->destroy();
          g_saved_root = x;
        } else {
          x.destroy();
        }
      }
    });
  });
}

}  // namespace

void armada::ga::forget_saved_diag() {
  if (g_saved_root) g_saved_root->destroy();
  g_saved_root.reset();
}

extern "C" {

void GA_Diag(int g_a, int g_s, int g_v, void* eval) { diag("GA_Diag", std::nullopt, g_a, g_s, g_v, eval); }
// GA computes this one on a single process; the parallel solver gives the same results.
void GA_Diag_seq(int g_a, int g_s, int g_v, void* eval) {
  diag("GA_Diag_seq", std::nullopt, g_a, g_s, g_v, eval);
}
void GA_Diag_reuse(int control, int g_a, int g_s, int g_v, void* eval) {
  diag("GA_Diag_reuse", control, g_a, g_s, g_v, eval);
}

}  // extern "C"
