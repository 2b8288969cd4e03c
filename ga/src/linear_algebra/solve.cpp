// Matrix products of patches, solvers and the symmetric eigensolver (linalg, ScaLAPACK).
#include <algorithm>

#include "armada/linalg/linalg.hpp"
#include "armada/rma/runtime.hpp"
#include "armada/rma/sync.hpp"
#include "base/call.hpp"
#include "base/index.hpp"
#include "base/types.hpp"
#include "create/handles.hpp"
#include "groups/groups.hpp"

using namespace armada;
using namespace armada::ga;

namespace {

// A patch of an n-d array read as a matrix: its dimensions of extent above 1 (at most two).
// With two, they are its rows and columns; with one, it is a column (rows x 1) or a row
// (1 x cols), whichever the other patches agree with; with none, 1 x 1.
struct Shape {
  int options = 1;
  Index option[2][2] = {{1, 1}, {1, 1}};  // {rows, cols} of each reading
  int dim[2] = {-1, -1};                   // the patch dimensions that are the rows, the columns
  std::string text;
};

Shape shape_of(const char* function, const char* argument, const Array& a, const arrays::Patch& p) {
  Shape s;
  std::vector<int> big;
  const Coord e = p.extents();
  s.text = "[";
  for (int d = 0; d < a.ndim(); ++d) {
    s.text += (d ? ", " : "") + std::to_string(e[d]);
    if (e[d] > 1) big.push_back(d);
  }
  s.text += "]";
  if (big.size() > 2)
    bad_argument(function, argument, s.text,
                 "a patch of a matrix product may have at most two extents above 1 (GA: 2-D patches)");
  if (big.size() == 2) {
    s.option[0][0] = e[big[0]];
    s.option[0][1] = e[big[1]];
    s.dim[0] = big[0];
    s.dim[1] = big[1];
  } else if (big.size() == 1) {
    s.options = 2;
    s.option[0][0] = e[big[0]];  // a column
    s.option[1][1] = e[big[0]];  // a row
    s.dim[0] = s.dim[1] = big[0];
  }
  return s;
}

// The part `part` (of the 2-D copy, reading `which` of shape s) of the n-d patch p.
arrays::Patch sub_patch(const arrays::Patch& p, const Shape& s, int which, const arrays::Patch& part) {
  arrays::Patch q = p;  // the dimensions of extent 1 stay as they are
  const auto take = [&](int d, int k) {
    q.lo[d] = p.lo[d] + part.lo[k];
    q.hi[d] = p.lo[d] + part.hi[k];
  };
  if (s.dim[0] >= 0 && s.dim[0] != s.dim[1]) {
    take(s.dim[0], 0);
    take(s.dim[1], 1);
  } else if (s.dim[0] >= 0) {
    take(s.dim[0], which == 0 ? 0 : 1);
  }
  return q;
}

// A 2-D array (on a's group, a's type) holding patch p of a read as reading `which` of s.
Array matrix_copy(const Array& a, const arrays::Patch& p, const Shape& s, int which) {
  arrays::ArrayOptions o;
  o.name = "matmul_patch copy";
  o.group = a.group();
  Array m = Array::create(a.type(), Coord{s.option[which][0], s.option[which][1]}, o);
  const arrays::Patch mine = m.owned();
  if (!mine.empty()) {
    std::vector<char> buf(static_cast<std::size_t>(mine.extents()[0] * mine.extents()[1]) * a.element_size());
    const arrays::Patch from = sub_patch(p, s, which, mine);
    a.get(from.lo, from.hi, buf.data());
    m.put(mine.lo, mine.hi, buf.data());
  }
  m.sync_group();
  return m;
}

// GA's NGA_Matmul_patch takes the patch indices of op(A) and op(B), not of A and B (GA 5.8's
// matmul.c: "patch indices _after_ op() operator was applied"; its capi.c hands the C view's
// indices to it reversed). The data of a transposed operand is that patch with the index ranges
// of two dimensions exchanged: its two dimensions of extent above 1; for a vector or a single
// element, the pair GA's gai_setup_2d_patch picks in its Fortran order (dimension p > 0 with
// p - 1, dimension 0 with 1), here in the C view: dimension d < ndim-1 with d+1, ndim-1 with
// ndim-2. The indices are checked against op(X)'s dims (X's with those two exchanged).
template <class I>
arrays::Patch op_patch(const char* function, const Array& a, linalg::Op op, const I* lo, const I* hi,
                       const char* lo_name, const char* hi_name) {
  const int n = a.ndim();
  if (op == linalg::Op::none || n < 2 || !lo || !hi) return patch(function, a, lo, hi, lo_name, hi_name);
  int big[2] = {-1, -1}, count = 0;
  for (int d = n - 1; d >= 0 && count < 2; --d)  // GA's first two, in its (Fortran) order
    if (hi[d] > lo[d]) big[count++] = d;
  int p = n - 1, q = n - 2;  // a single element
  if (count == 2) {
    p = big[0];
    q = big[1];
  } else if (count == 1) {
    p = big[0];
    q = p == n - 1 ? n - 2 : p + 1;
  }
  Coord op_dims = a.dims();
  std::swap(op_dims[p], op_dims[q]);
  I dlo[GA_MAX_DIM], dhi[GA_MAX_DIM];
  for (int d = 0; d < n; ++d) {
    if (lo[d] < 0 || hi[d] < lo[d] || hi[d] >= op_dims[d])
      bad_argument(function, std::string(lo[d] < 0 ? lo_name : hi_name) + "[" + std::to_string(d) + "]",
                   std::to_string(lo[d] < 0 ? lo[d] : hi[d]),
                   "outside op(X) (dims " + std::to_string(op_dims[d]) + " in dimension " + std::to_string(d) +
                       "): with a transpose flag, GA's patch indices are op(X)'s");
    dlo[d] = lo[d];
    dhi[d] = hi[d];
  }
  std::swap(dlo[p], dlo[q]);
  std::swap(dhi[p], dhi[q]);
  return patch(function, a, dlo, dhi, lo_name, hi_name);
}

template <class I>
void matmul_patch(const char* function, char transa, char transb, const void* alpha, const void* beta, int g_a,
                  const I* alo, const I* ahi, int g_b, const I* blo, const I* bhi, int g_c, const I* clo,
                  const I* chi) {
  guarded(function, [&] {
    const linalg::Op op_a = op_of(function, "transa", transa), op_b = op_of(function, "transb", transb);
    if (!alpha) bad_argument(function, "alpha", "NULL", "a value of the arrays' type is required");
    if (!beta) bad_argument(function, "beta", "NULL", "a value of the arrays' type is required");
    const Array& a = array(function, g_a);
    const Array& b = array(function, g_b);
    Array& c = array(function, g_c);
    const arrays::Patch pa = op_patch(function, a, op_a, alo, ahi, "alo", "ahi");
    const arrays::Patch pb = op_patch(function, b, op_b, blo, bhi, "blo", "bhi");
    const arrays::Patch pc = patch(function, c, clo, chi, "clo", "chi");
    if (a.ndim() == 2 && b.ndim() == 2 && c.ndim() == 2) {
      linalg::detail::matmul_patch(op_a, op_b, alpha, a, pa.lo, pa.hi, b, pb.lo, pb.hi, beta, c, pc.lo, pc.hi);
      return;
    }
    // GA: arrays of any dimension, each patch 2-D (at most two extents above 1).
    const Shape sa = shape_of(function, "alo, ahi", a, pa), sb = shape_of(function, "blo, bhi", b, pb),
                sc = shape_of(function, "clo, chi", c, pc);
    const auto am = [&](const Shape& x, int i) { return op_a == linalg::Op::none ? x.option[i][0] : x.option[i][1]; };
    const auto ak = [&](const Shape& x, int i) { return op_a == linalg::Op::none ? x.option[i][1] : x.option[i][0]; };
    const auto bk = [&](const Shape& x, int i) { return op_b == linalg::Op::none ? x.option[i][0] : x.option[i][1]; };
    const auto bn = [&](const Shape& x, int i) { return op_b == linalg::Op::none ? x.option[i][1] : x.option[i][0]; };
    int ia = -1, ib = -1, ic = -1;  // the first reading of the three patches whose shapes agree
    for (int i = 0; i < sa.options && ia < 0; ++i)
      for (int j = 0; j < sb.options && ia < 0; ++j)
        for (int l = 0; l < sc.options && ia < 0; ++l)
          if (am(sa, i) == sc.option[l][0] && bn(sb, j) == sc.option[l][1] && ak(sa, i) == bk(sb, j)) {
            ia = i;
            ib = j;
            ic = l;
          }
    if (ia < 0)
      bad_argument(function, "patches", "of extents " + sa.text + ", " + sb.text + ", " + sc.text,
                   "op(A) (m x k) times op(B) (k x n) does not give C's m x n");
    // Copy the three patches into 2-D arrays on C's group, multiply those, copy C's back.
    Array a2 = matrix_copy(a, pa, sa, ia), b2 = matrix_copy(b, pb, sb, ib), c2 = matrix_copy(c, pc, sc, ic);
    linalg::detail::matmul_patch(op_a, op_b, alpha, a2, arrays::full_lo(a2), arrays::full_hi(a2), b2,
                                 arrays::full_lo(b2), arrays::full_hi(b2), beta, c2, arrays::full_lo(c2),
                                 arrays::full_hi(c2));
    const arrays::Patch mine = c2.owned();
    if (!mine.empty()) {
      std::vector<char> buf(static_cast<std::size_t>(mine.extents()[0] * mine.extents()[1]) * c.element_size());
      c2.get(mine.lo, mine.hi, buf.data());
      const arrays::Patch to = sub_patch(pc, sc, ic, mine);
      c.put(to.lo, to.hi, buf.data());
    }
    c.sync_group();
    a2.destroy();
    b2.destroy();
    c2.destroy();
  });
}

}  // namespace

extern "C" {

void NGA_Matmul_patch(char transa, char transb, void* alpha, void* beta, int g_a, int alo[], int ahi[], int g_b,
                      int blo[], int bhi[], int g_c, int clo[], int chi[]) {
  matmul_patch<int>("NGA_Matmul_patch", transa, transb, alpha, beta, g_a, alo, ahi, g_b, blo, bhi, g_c, clo, chi);
}
void NGA_Matmul_patch64(char transa, char transb, void* alpha, void* beta, int g_a, int64_t alo[], int64_t ahi[],
                        int g_b, int64_t blo[], int64_t bhi[], int g_c, int64_t clo[], int64_t chi[]) {
  matmul_patch<int64_t>("NGA_Matmul_patch64", transa, transb, alpha, beta, g_a, alo, ahi, g_b, blo, bhi, g_c, clo,
                        chi);
}
// GA 5.8's GA_Matmul_patch hands its indices to GA's Fortran routine as they are (GA's capi.c;
// Debian's GA 5.8.2 run side by side agrees): i ranges over the C view's columns, j over its rows,
// and the product is the Fortran view's, C^T = op(A^T) op(B^T), that is C = op(B) op(A) on the C
// view with each patch's two ranges in the other order (docs/ga.md).
void GA_Matmul_patch(char transa, char transb, void* alpha, void* beta, int g_a, int ailo, int aihi, int ajlo,
                     int ajhi, int g_b, int bilo, int bihi, int bjlo, int bjhi, int g_c, int cilo, int cihi, int cjlo,
                     int cjhi) {
  int alo[2] = {ajlo, ailo}, ahi[2] = {ajhi, aihi}, blo[2] = {bjlo, bilo}, bhi[2] = {bjhi, bihi};
  int clo[2] = {cjlo, cilo}, chi[2] = {cjhi, cihi};
  matmul_patch<int>("GA_Matmul_patch", transb, transa, alpha, beta, g_b, blo, bhi, g_a, alo, ahi, g_c, clo, chi);
}
void GA_Matmul_patch64(char transa, char transb, void* alpha, void* beta, int g_a, int64_t ailo, int64_t aihi,
                       int64_t ajlo, int64_t ajhi, int g_b, int64_t bilo, int64_t bihi, int64_t bjlo, int64_t bjhi,
                       int g_c, int64_t cilo, int64_t cihi, int64_t cjlo, int64_t cjhi) {
  int64_t alo[2] = {ajlo, ailo}, ahi[2] = {ajhi, aihi}, blo[2] = {bjlo, bilo}, bhi[2] = {bjhi, bihi};
  int64_t clo[2] = {cjlo, cilo}, chi[2] = {cjhi, cihi};
  matmul_patch<int64_t>("GA_Matmul_patch64", transb, transa, alpha, beta, g_b, blo, bhi, g_a, alo, ahi, g_c, clo,
                        chi);
}

void GA_Lu_solve(char tran, int g_a, int g_b) {
  guarded("GA_Lu_solve", [&] {
    const linalg::Op op = op_of("GA_Lu_solve", "tran", tran);
    linalg::detail::lu_solve(op, array("GA_Lu_solve", g_a), array("GA_Lu_solve", g_b));
  });
}
// 0 on success; the order of the leading minor that is not positive definite otherwise (B
// unchanged), as GA.
int GA_Llt_solve(int g_a, int g_b) {
  return guarded("GA_Llt_solve", [&] {
    try {
      linalg::detail::cholesky_solve(array("GA_Llt_solve", g_a), array("GA_Llt_solve", g_b));
      return 0;
    } catch (const linalg::NotPositiveDefinite& e) {
      return static_cast<int>(e.index());
    }
  });
}
// Cholesky when A is positive definite (returns 0), else LU (returns the order of the failing
// minor), as GA.
int GA_Solve(int g_a, int g_b) {
  return guarded("GA_Solve", [&] {
    const Array& a = array("GA_Solve", g_a);
    Array& b = array("GA_Solve", g_b);
    try {
      linalg::detail::cholesky_solve(a, b);
      return 0;
    } catch (const linalg::NotPositiveDefinite& e) {
      linalg::detail::lu_solve(linalg::Op::none, a, b);
      return static_cast<int>(e.index());
    }
  });
}
void GA_Diag_std(int g_a, int g_v, void* eval) {
  guarded("GA_Diag_std", [&] {
    if (!eval) bad_argument("GA_Diag_std", "eval", "NULL", "room for n eigenvalues is required");
    linalg::detail::eigen_symmetric(array("GA_Diag_std", g_a), array("GA_Diag_std", g_v), eval);
  });
}
// GA computes this one on a single process; the parallel solver gives the same eigenvalues and
// eigenvectors (each up to its sign, as any solver's).
void GA_Diag_std_seq(int g_a, int g_v, void* eval) {
  guarded("GA_Diag_std_seq", [&] {
    if (!eval) bad_argument("GA_Diag_std_seq", "eval", "NULL", "room for n eigenvalues is required");
    linalg::detail::eigen_symmetric(array("GA_Diag_std_seq", g_a), array("GA_Diag_std_seq", g_v), eval);
  });
}
// A = A⁻¹ from A's lower triangle; 0 on success, else the order of the leading minor that is not
// positive definite (A unchanged), as GA.
int GA_Spd_invert(int g_a) {
  return guarded("GA_Spd_invert", [&] {
    Array& a = array("GA_Spd_invert", g_a);
    try {
      linalg::detail::cholesky_inverse(a, a);
      return 0;
    } catch (const linalg::NotPositiveDefinite& e) {
      return static_cast<int>(e.index());
    }
  });
}

}  // extern "C"
