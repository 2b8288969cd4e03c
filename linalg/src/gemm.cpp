// Distributed gemm: one-sided, owner computes, double-buffered k-panels (see gemm.hpp).
#include <algorithm>
#include <complex>
#include <vector>

#include "armada/linalg/gemm.hpp"
#include "armada/linalg/settings.hpp"
#include "blas.hpp"
#include "internal.hpp"

namespace armada::linalg::detail {

namespace {

// How the call looks to its caller: linalg::gemm passes whole arrays (messages speak of A, B and
// C), linalg::matmul_patch patches of them (messages speak of the patches).
struct Caller {
  const char* op;
  const char* of;  // "" or " patch": "C's patch of shape ..."
};
constexpr Caller kMatmulPatch{"linalg::matmul_patch", " patch"};
constexpr Caller kGemm{"linalg::gemm", ""};

bool transposed(Op op) { return op != Op::none; }

// " (name)" of a named array, for messages.
std::string named(const Array& a) { return a.name().empty() ? std::string() : " (" + a.name() + ")"; }

// The shapes of one call, in stored patch coordinates.
struct Problem {
  Op op_a, op_b;
  Box a, b, c;
  Index m, n, k;
};

Problem check(const Caller& caller, Op op_a, Op op_b, const Array& a, const Coord& alo, const Coord& ahi,
              const Array& b, const Coord& blo, const Coord& bhi, const Array& c, const Coord& clo,
              const Coord& chi) {
  const char* op = caller.op;
  require_op(op, "op_a", op_a);
  require_op(op, "op_b", op_b);
  require_matrix(op, "a", a);
  require_matrix(op, "b", b);
  require_matrix(op, "c", c);
  require_like(op, "a", a, "c", c);
  require_like(op, "b", b, "c", c);
  require_distinct(op, "c", c, "a", a);
  require_distinct(op, "c", c, "b", b);
  require_patch(op, "alo", "ahi", a, alo, ahi);
  require_patch(op, "blo", "bhi", b, blo, bhi);
  require_patch(op, "clo", "chi", c, clo, chi);
  Problem p{op_a, op_b, Box::of(alo, ahi), Box::of(blo, bhi), Box::of(clo, chi), 0, 0, 0};
  // op(A) is m x k, op(B) is k x n, C is m x n.
  const Index am = transposed(op_a) ? p.a.cols() : p.a.rows();
  const Index ak = transposed(op_a) ? p.a.rows() : p.a.cols();
  const Index bk = transposed(op_b) ? p.b.cols() : p.b.rows();
  const Index bn = transposed(op_b) ? p.b.rows() : p.b.cols();
  p.m = p.c.rows();
  p.n = p.c.cols();
  p.k = ak;
  const std::string of(caller.of);
  const auto op_a_shape = "op(A" + of + ") of shape " + shape(am, ak);
  const auto op_b_shape = "op(B" + of + ") of shape " + shape(bk, bn);
  std::string c_shape = "C";
  if (!of.empty()) c_shape.append("'s").append(of);
  c_shape.append(" of shape ").append(shape(p.m, p.n));
  if (am != p.m)
    reject(op, "a", op_a_shape + named(a),
           "its row count " + std::to_string(am) + " must match the " + std::to_string(p.m) + " rows of " + c_shape);
  if (bn != p.n)
    reject(op, "b", op_b_shape + named(b),
           "its column count " + std::to_string(bn) + " must match the " + std::to_string(p.n) + " columns of " +
               c_shape);
  if (bk != ak)
    reject(op, "b", op_b_shape + named(b),
           "the inner dimensions do not match: op(A) has " + std::to_string(ak) + " columns, op(B) has " +
               std::to_string(bk) + " rows (" + op_a_shape + named(a) + ")");
  return p;
}

// C block *= beta (beta == 0 overwrites, so that NaN or garbage in C does not survive).
template <class T>
void scale_block(T* c, Index ldc, Index rows, Index cols, T beta) {
  if (beta == T(1)) return;
  for (Index i = 0; i < rows; ++i) {
    T* row = c + i * ldc;
    if (beta == T(0))
      std::fill(row, row + cols, T(0));
    else
      for (Index j = 0; j < cols; ++j) row[j] *= beta;
  }
}

// One operand panel: in place in the local block, or fetched into `storage` by `pending`.
template <class T>
struct Panel {
  const T* data = nullptr;
  Index ld = 0;
  std::vector<T> storage;
  arrays::NbHandle pending;
};

// Where a panel comes from: the rank's own block of the array (read in place) or a patch get
// (always, for a block-cyclic array: a panel crosses blocks).
template <class T>
class PanelSource {
 public:
  explicit PanelSource(const Array& array)
      : array_(array), in_place_(!array_.distribution().cyclic()), view_(in_place_ ? array_.access() : arrays::LocalView<void>{}) {}
  ~PanelSource() {
    if (in_place_) array_.release();
  }
  PanelSource(const PanelSource&) = delete;
  PanelSource& operator=(const PanelSource&) = delete;

  void fetch(const Box& box, Panel<T>& panel) {
    const Box owned = Box::of(view_.lo, view_.hi);
    if (!view_.empty() && owned.contains(box)) {
      panel.ld = view_.stride[0];
      panel.data = static_cast<const T*>(view_.data) + (box.r0 - owned.r0) * panel.ld + (box.c0 - owned.c0);
      panel.pending = arrays::NbHandle{};
      return;
    }
    panel.storage.resize(static_cast<std::size_t>(box.rows() * box.cols()));
    panel.ld = box.cols();
    panel.data = panel.storage.data();
    panel.pending = array_.get_nb(box.lo(), box.hi(), panel.storage.data());
  }

 private:
  Array array_;
  bool in_place_;
  arrays::LocalView<void> view_;
};

// This rank's part of C: rows [i0, i0 + m) and columns [j0, j0 + n) of the C patch.
struct Part {
  Index i0, j0, m, n;
};

// Stored boxes of the k-panel [k0, k1) of op(A) (rows of the part) and op(B) (its columns).
Box a_panel(const Problem& p, const Part& part, Index k0, Index k1) {
  if (!transposed(p.op_a)) return {p.a.r0 + part.i0, p.a.r0 + part.i0 + part.m, p.a.c0 + k0, p.a.c0 + k1};
  return {p.a.r0 + k0, p.a.r0 + k1, p.a.c0 + part.i0, p.a.c0 + part.i0 + part.m};
}
Box b_panel(const Problem& p, const Part& part, Index k0, Index k1) {
  if (!transposed(p.op_b)) return {p.b.r0 + k0, p.b.r0 + k1, p.b.c0 + part.j0, p.b.c0 + part.j0 + part.n};
  return {p.b.r0 + part.j0, p.b.r0 + part.j0 + part.n, p.b.c0 + k0, p.b.c0 + k1};
}

// The k-panels [cuts[t], cuts[t + 1]): cut where a block of op(A) or op(B) ends in the k
// dimension, so that a panel inside the rank's own block can be read in place, and cut again
// so that no panel is wider than gemm_panel().
std::vector<Index> panel_cuts(const Problem& p, const Array& a, const Array& b) {
  std::vector<Index> cuts{0, p.k};
  auto add_bounds = [&](const Array& x, int dim, Index first) {
    for (Index bound : x.distribution().bounds(dim))
      if (bound - first > 0 && bound - first < p.k) cuts.push_back(bound - first);
  };
  add_bounds(a, transposed(p.op_a) ? 0 : 1, transposed(p.op_a) ? p.a.r0 : p.a.c0);
  add_bounds(b, transposed(p.op_b) ? 1 : 0, transposed(p.op_b) ? p.b.c0 : p.b.r0);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  const Index width = gemm_panel();
  std::vector<Index> out{0};
  for (std::size_t i = 1; i < cuts.size(); ++i) {
    const Index len = cuts[i] - cuts[i - 1], pieces = (len + width - 1) / width;
    for (Index q = 1; q <= pieces; ++q) out.push_back(cuts[i - 1] + len * q / pieces);
  }
  return out;
}

// The k loop over this rank's part: panel t + 1 is in flight while panel t is multiplied; the
// walk starts at panel (group rank mod panels) so that ranks spread their first requests.
template <class T>
void multiply_part(const Problem& p, const Part& part, T alpha, const Array& a, const Array& b, T* c, Index ldc,
                   int group_rank) {
  const std::vector<Index> cuts = panel_cuts(p, a, b);
  const Index panels = static_cast<Index>(cuts.size()) - 1;
  const Index start = group_rank % panels;
  auto k_range = [&](Index t) {
    const auto q = static_cast<std::size_t>((start + t) % panels);
    return std::pair{cuts[q], cuts[q + 1]};
  };
  PanelSource<T> from_a(a), from_b(b);
  Panel<T> pa[2], pb[2];
  auto issue = [&](Index t) {
    const auto [k0, k1] = k_range(t);
    from_a.fetch(a_panel(p, part, k0, k1), pa[t % 2]);
    from_b.fetch(b_panel(p, part, k0, k1), pb[t % 2]);
  };
  issue(0);
  for (Index t = 0; t < panels; ++t) {
    if (t + 1 < panels) issue(t + 1);
    Panel<T>& ta = pa[t % 2];
    Panel<T>& tb = pb[t % 2];
    ta.pending.wait();
    tb.pending.wait();
    const auto [k0, k1] = k_range(t);
    blas_gemm(cblas_op(static_cast<int>(p.op_a)), cblas_op(static_cast<int>(p.op_b)), static_cast<blasint>(part.m),
              static_cast<blasint>(part.n), static_cast<blasint>(k1 - k0), alpha, ta.data,
              static_cast<blasint>(ta.ld), tb.data, static_cast<blasint>(tb.ld), T(1), c, static_cast<blasint>(ldc));
  }
}

template <class T>
void owner_computes(const Problem& p, const void* alpha_p, const Array& a, const Array& b, const void* beta_p,
                    Array& c) {
  const T alpha = *static_cast<const T*>(alpha_p), beta = *static_cast<const T*>(beta_p);
  // Every block of C this rank owns (one, or a block-cyclic array's many), in place.
  for (const arrays::LocalView<void>& view : c.access_blocks()) {
    const Box mine = Box::of(view.lo, view.hi).intersect(p.c);
    if (view.empty() || mine.empty()) continue;
    const Index ldc = view.stride[0];
    T* cdata = static_cast<T*>(view.data) + (mine.r0 - view.lo[0]) * ldc + (mine.c0 - view.lo[1]);
    const Part part{mine.r0 - p.c.r0, mine.c0 - p.c.c0, mine.rows(), mine.cols()};
    // beta is applied once, before the k walk (beta = 0 overwrites: NaN * 0 would stay NaN);
    // every panel then accumulates with beta = 1, whatever order the panels come in.
    scale_block(cdata, ldc, part.m, part.n, beta);
    if (p.k > 0 && alpha != T(0))  // otherwise A and B are not read, as in BLAS
      multiply_part<T>(p, part, alpha, a, b, cdata, ldc, c.group().rank());
  }
  c.release_update();
}

// The collective call behind gemm and matmul_patch, with the caller's name in every message.
void multiply(const Caller& caller, Op op_a, Op op_b, const void* alpha, const Array& a, const Coord& alo,
              const Coord& ahi, const Array& b, const Coord& blo, const Coord& bhi, const void* beta, Array& c,
              const Coord& clo, const Coord& chi) {
  const char* op = caller.op;
  Problem p{};
  // Every earlier update of A, B and C is visible once every member agreed.
  begin_collective(op, c, [&] {
    p = check(caller, op_a, op_b, a, alo, ahi, b, blo, bhi, c, clo, chi);
    if (!alpha) reject(op, "alpha", "null", "must point to one element of the arrays' type");
    if (!beta) reject(op, "beta", "null", "must point to one element of the arrays' type");
  }, {{"op_a", std::to_string(static_cast<int>(op_a))}, {"op_b", std::to_string(static_cast<int>(op_b))},
      arrays::same_value("alpha", c, alpha), arrays::same_value("beta", c, beta), arrays::same_shape("a", a), same_patch("a patch", alo, ahi), arrays::same_shape("b", b),
      same_patch("b patch", blo, bhi), arrays::same_shape("c", c), same_patch("c patch", clo, chi)});
  apply_blas_threads();
  dispatch(c, [&]<class T>() { owner_computes<T>(p, alpha, a, b, beta, c); });
  c.sync();  // C is complete, and nobody reads A or B any more
}

}  // namespace

void matmul_patch(Op op_a, Op op_b, const void* alpha, const Array& a, const Coord& alo, const Coord& ahi,
                  const Array& b, const Coord& blo, const Coord& bhi, const void* beta, Array& c,
                  const Coord& clo, const Coord& chi) {
  multiply(kMatmulPatch, op_a, op_b, alpha, a, alo, ahi, b, blo, bhi, beta, c, clo, chi);
}

void gemm(Op op_a, Op op_b, const void* alpha, const Array& a, const Array& b, const void* beta, Array& c) {
  // Whole arrays; an array that was never created or is not 2-D is reported by check().
  const auto lo = [](const Array& x) { return x.impl() && x.ndim() == 2 ? arrays::full_lo(x) : Coord{}; };
  const auto hi = [](const Array& x) { return x.impl() && x.ndim() == 2 ? arrays::full_hi(x) : Coord{}; };
  multiply(kGemm, op_a, op_b, alpha, a, lo(a), hi(a), b, lo(b), hi(b), beta, c, lo(c), hi(c));
}

}  // namespace armada::linalg::detail
