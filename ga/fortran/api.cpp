// GA's Fortran API (global.fh) on GA's C API (ga.h): gfortran's names (lower case, one trailing
// underscore), every argument by reference, one-based column-major index tuples converted by
// binding.cpp through the arrays C API's Fortran view. Compiled once per INTEGER width.
#include <algorithm>
#include <climits>
#include <cstring>
#include <vector>

#include "binding.hpp"
#include "movement/transfer.hpp"
#include "ga-mpi.h"
#include "ga.h"

using namespace armada::ga;
using namespace armada::ga::fortran;

namespace {

enum class Op { Get, Put, Acc, NbGet, NbPut, NbAcc, PeriodicGet, PeriodicPut, PeriodicAcc };

/// One patch transfer, its arguments checked (in Fortran's terms, by the caller) and in the C
/// view: straight to the one place GA moves patches, not through the C entry point, which would
/// check them again in C's terms.
void issue(const char* fn, Op op, int g, CPatch& c, std::int64_t* ld, void* buf, void* alpha, Int* nbhandle) {
  if (!buf) bad_argument(fn, "buf", "NULL", "a buffer for the patch is required");
  if ((op == Op::Acc || op == Op::NbAcc || op == Op::PeriodicAcc) && !alpha)
    bad_argument(fn, "alpha", "NULL", "a scale factor of the array's type is required");
  switch (op) {
    case Op::PeriodicGet: return NGA_Periodic_get64(g, c.lo, c.hi, buf, ld);  // indices wrap: C's view decides
    case Op::PeriodicPut: return NGA_Periodic_put64(g, c.lo, c.hi, buf, ld);
    case Op::PeriodicAcc: return NGA_Periodic_acc64(g, c.lo, c.hi, buf, ld, alpha);
    default: break;
  }
  const armada::arrays::Patch p{coord(c.ndim, c.lo), upper(c.ndim, c.hi)};
  const Transfer kind = (op == Op::Get || op == Op::NbGet) ? Transfer::get
                        : (op == Op::Put || op == Op::NbPut) ? Transfer::put : Transfer::acc;
  const bool nonblocking = op == Op::NbGet || op == Op::NbPut || op == Op::NbAcc;
  ga_nbhdl_t h = 0;
  move_patch(fn, kind, g, p, buf, ga_ld(c.ndim, ld), alpha, nonblocking ? &h : nullptr);
  if (nonblocking) *nbhandle = static_cast<Int>(h);
}

void move_nd(const char* fn, Op op, Int g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, void* alpha,
             Int* nbhandle) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    const bool periodic = op == Op::PeriodicGet || op == Op::PeriodicPut || op == Op::PeriodicAcc;
    CPatch c = periodic ? periodic_patch(fn, g, lo, hi) : patch(fn, g, lo, hi);
    std::int64_t cld[GA_MAX_DIM] = {};
    leading(fn, ld, lo, hi, c.ndim, cld);
    issue(fn, op, g, c, cld, buf, alpha, nbhandle);
  });
}

enum class Strided { Get, Put, Acc };

/// nga_strided_get/put/acc: every skip(d)-th element of the patch [lo, hi], packed in buf
/// (ld(d) >= the number taken in dimension d).
void strided(const char* fn, Strided op, Int g_a, const Int* lo, const Int* hi, const Int* skip, void* buf,
             const Int* ld, void* alpha) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    CPatch c = patch(fn, g, lo, hi);
    if (!skip) bad_argument(fn, "skip", "NULL", "a stride per dimension is required");
    if (!buf) bad_argument(fn, "buf", "NULL", "a buffer for the elements is required");
    if (op == Strided::Acc && !alpha) bad_argument(fn, "alpha", "NULL", "a scale factor of the array's type is required");
    std::int64_t fskip[GA_MAX_DIM], cskip[GA_MAX_DIM], fld[GA_MAX_DIM] = {}, cld[GA_MAX_DIM] = {};
    for (int d = 0; d < c.ndim; ++d) {
      if (skip[d] < 1) bad_argument(fn, "skip(" + std::to_string(d + 1) + ")", std::to_string(skip[d]), "must be >= 1");
      fskip[d] = skip[d];
      const std::int64_t taken = (std::int64_t{hi[d]} - lo[d]) / skip[d] + 1;
      bool strided = false;  // as leading(): ld(d) is read only where a later dimension takes more than one
      for (int e = d + 1; e < c.ndim; ++e) strided = strided || hi[e] - lo[e] >= skip[e];
      if (d + 1 < c.ndim && !strided) {
        fld[d] = taken;
      } else if (d + 1 < c.ndim) {
        if (!ld) bad_argument(fn, "ld", "NULL", "the buffer's leading dimensions are required");
        if (ld[d] < taken)
          bad_argument(fn, "ld(" + std::to_string(d + 1) + ")", std::to_string(ld[d]),
                       "smaller than the " + std::to_string(taken) + " elements taken in dimension " +
                           std::to_string(d + 1));
        fld[d] = ld[d];
      }
    }
    armada_gaf_to_c_extents(c.ndim, fskip, cskip);
    armada_gaf_to_c_extents(c.ndim - 1, fld, cld);
    const Transfer kind = op == Strided::Get ? Transfer::get : op == Strided::Put ? Transfer::put : Transfer::acc;
    move_strided(fn, kind, g, armada::arrays::Patch{coord(c.ndim, c.lo), upper(c.ndim, c.hi)}, coord(c.ndim, cskip), buf,
                 ga_ld(c.ndim, cld), alpha);
  });
}

void move_2d(const char* fn, Op op, Int g_a, Int ilo, Int ihi, Int jlo, Int jhi, void* buf, Int ld, void* alpha,
             Int* nbhandle) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    CPatch c = patch2(fn, g, ilo, ihi, jlo, jhi);
    const Int lo[2] = {ilo, jlo}, hi[2] = {ihi, jhi}, l[1] = {ld};
    std::int64_t cld[GA_MAX_DIM] = {};
    leading(fn, l, lo, hi, 2, cld);
    issue(fn, op, g, c, cld, buf, alpha, nbhandle);
  });
}

void inquire(const char* fn, Int g_a, Int* type, Int* ndim, Int* dims) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    int n = 0;
    std::int64_t fdims[GA_MAX_DIM];
    fortran::dims(fn, g, &n, fdims);
    *type = fortran_type(ga_type(fn, g));
    *ndim = n;
    for (int d = 0; d < n; ++d) dims[d] = static_cast<Int>(fdims[d]);
  });
}

/// GA's transpose flags of a Fortran matrix product ('n', 't', 'c' in either case).
char trans_flag(const char* fn, const char* argument, const char* flag, Length length) {
  const std::string t = text(flag, length);
  if (t.size() == 1 && std::strchr("nNtTcC", t[0])) return t[0];
  bad_argument(fn, argument, "'" + t + "'", "must be 'N', 'T' or 'C'");
}

std::string op_text(const char* fn, const char* op, Length length) {
  const std::string t = text(op, length);
  if (t.empty()) bad_argument(fn, "op", "''", "an operator is required");
  return t;
}

/// What a creation call adds to type, dims and name: a chunk (<= 0: no constraint), a process
/// group, ghost widths, an irregular map (GA's Fortran form: binding.hpp). All in Fortran order.
struct Extras {
  const Int* chunk = nullptr;
  const Int* p_handle = nullptr;
  const Int* width = nullptr;
  const Int* map = nullptr;
  const Int* nblock = nullptr;
};

/// The C API's creation call for the C-view dims, chunk, widths and map.
int create_c(int t, int n, std::int64_t* cdims, char* name, std::int64_t* cchunk, std::int64_t* cwidth,
             std::int64_t* cmap, std::int64_t* cblock, const Int* p_handle) {
  const int p = p_handle ? static_cast<int>(*p_handle) : 0;
  if (cmap) {
    if (cwidth)
      return p_handle ? NGA_Create_ghosts_irreg_config64(t, n, cdims, cwidth, name, cblock, cmap, p)
                      : NGA_Create_ghosts_irreg64(t, n, cdims, cwidth, name, cblock, cmap);
    return p_handle ? NGA_Create_irreg_config64(t, n, cdims, name, cblock, cmap, p)
                    : NGA_Create_irreg64(t, n, cdims, name, cblock, cmap);
  }
  if (cwidth)
    return p_handle ? NGA_Create_ghosts_config64(t, n, cdims, cwidth, name, cchunk, p)
                    : NGA_Create_ghosts64(t, n, cdims, cwidth, name, cchunk);
  return p_handle ? NGA_Create_config64(t, n, cdims, name, cchunk, p) : NGA_Create64(t, n, cdims, name, cchunk);
}

/// nga_create, ga_create and their ghost, group and irregular forms.
FortranLogical create(const char* fn, Int type, Int ndim, const Int* dims, std::string name, Int* g_a,
                      const Extras& x = {}) {
  return call(fn, [&] {
    const int t = c_type(fn, type);
    if (ndim < 1 || ndim > GA_MAX_DIM) bad_argument(fn, "ndim", std::to_string(ndim), "must be 1 .. 7");
    const int n = static_cast<int>(ndim);
    std::int64_t fdims[GA_MAX_DIM], cdims[GA_MAX_DIM], fchunk[GA_MAX_DIM], cchunk[GA_MAX_DIM];
    std::int64_t fwidth[GA_MAX_DIM] = {}, cwidth[GA_MAX_DIM] = {}, cblock[GA_MAX_DIM] = {};
    for (int d = 0; d < n; ++d) {
      if (dims[d] < 1) bad_argument(fn, "dims(" + std::to_string(d + 1) + ")", std::to_string(dims[d]), "must be >= 1");
      if (x.width && x.width[d] < 0)
        bad_argument(fn, "width(" + std::to_string(d + 1) + ")", std::to_string(x.width[d]), "must be >= 0");
      fdims[d] = dims[d];
      fchunk[d] = x.chunk ? x.chunk[d] : -1;
      fwidth[d] = x.width ? x.width[d] : 0;
    }
    armada_gaf_to_c_extents(n, fdims, cdims);
    armada_gaf_to_c_extents(n, fchunk, cchunk);
    armada_gaf_to_c_extents(n, fwidth, cwidth);
    std::vector<std::int64_t> cmap;
    if (x.map) cmap = irregular_map(fn, n, fdims, x.map, x.nblock, cblock);
    *g_a = create_c(t, n, cdims, name.data(), cchunk, x.width ? cwidth : nullptr, x.map ? cmap.data() : nullptr,
                    cblock, x.p_handle);
    return *g_a != 0 ? kTrue : kFalse;  // 0: over GA's memory limit
  });
}

void distribution(const char* fn, Int g_a, Int iproc, Int* lo, Int* hi) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    CPatch c;
    c.ndim = array_dims(fn, g).size();
    NGA_Distribution64(g, static_cast<int>(iproc), c.lo, c.hi);
    to_fortran(c, lo, hi);  // owns nothing: C's 0 .. -1 becomes 1 .. 0
  });
}

void wait_request(const char* fn, Int nbhandle) {
  call(fn, [&] {
    ga_nbhdl_t h = nbhandle;
    NGA_NbWait(&h);
  });
}
Int test_request(const char* fn, Int nbhandle) {
  return call(fn, [&] {
    ga_nbhdl_t h = nbhandle;
    return Int{NGA_NbTest(&h)};
  });
}

/// The C view of n subscripts, checked: subs(ndim, n) one per column (nga_), or the lists i(n),
/// j(n) of a 2-d array (ga_).
std::vector<std::int64_t> subscripts(const char* fn, int g, Int n, const Int* subs, const Int* i = nullptr,
                                     const Int* j = nullptr) {
  if (n < 0) bad_argument(fn, "n", std::to_string(n), "must be >= 0");
  const int nd = subs ? array(fn, g).ndim() : 2;
  if (!subs && array(fn, g).ndim() != 2)
    bad_argument(fn, "g_a", std::to_string(g), std::string("is not 2-d; ") + fn + " takes 2-d arrays (nga_ for n-d)");
  std::size_t total = 0;  // n x nd wrapped once (to 0 for 2^62 subscripts of a 4-d array)
  if (__builtin_mul_overflow(static_cast<std::size_t>(n), static_cast<std::size_t>(nd), &total) ||
      __builtin_mul_overflow(total, sizeof(std::int64_t), &total))
    bad_argument(fn, "n", std::to_string(n),
                 std::to_string(n) + " subscripts of " + std::to_string(nd) + " indices overflow a 64-bit size");
  std::vector<std::int64_t> c(static_cast<std::size_t>(n) * nd);
  for (Int k = 0; k < n; ++k) {
    const Int pair[2] = {i ? i[k] : 0, j ? j[k] : 0};
    const Int* s = subs ? subs + k * nd : pair;
    PatchNames names{"subs", "subs", subs ? PatchNames::Form::Column : PatchNames::Form::Pair, static_cast<long>(k + 1)};
    const CPatch p = patch(fn, g, s, s, names);
    std::memcpy(&c[static_cast<std::size_t>(k) * nd], p.lo, nd * sizeof(std::int64_t));
  }
  return c;
}

enum class ListOp { Scatter, ScatterAcc, Gather };

void elements(const char* fn, ListOp op, Int g_a, void* v, Int n, const Int* subs, const Int* i, const Int* j,
              void* alpha) {
  call(fn, [&] {
    const int g = handle(fn, g_a);
    std::vector<std::int64_t> c = subscripts(fn, g, n, subs, i, j);
    if (n > 0 && !v) bad_argument(fn, "v", "NULL", "the values are required");
    switch (op) {
      case ListOp::Scatter: NGA_Scatter_flat64(g, v, c.data(), n); break;
      case ListOp::ScatterAcc: NGA_Scatter_acc_flat64(g, v, c.data(), n, alpha); break;
      case ListOp::Gather: NGA_Gather_flat64(g, v, c.data(), n); break;
    }
  });
}

enum class Solver { Solve, Llt, Lu };

/// ga_solve, ga_llt_solve, ga_lu_solve: A X = B for the Fortran matrices (B's columns the
/// right-hand sides), B overwritten by X. The C API solves its views' system, which is the
/// transposed one: B goes in as a transposed copy (and A too where no trans flag does it).
/// Returns the C API's answer (0, or the order of the leading minor that is not positive
/// definite); B is left unchanged when GA_Llt_solve fails.
Int solve(const char* fn, Solver how, Int g_a, Int g_b, char trans = 'n') {
  return call(fn, [&] {
    const int a = handle(fn, g_a), b = handle(fn, g_b, "g_b");
    const int bt = transposed_copy(fn, b, "g_b");
    int status = 0;
    if (how == Solver::Lu) {
      GA_Lu_solve(trans == 'n' || trans == 'N' ? 't' : 'n', a, bt);  // A_f = A_c^T
    } else {
      const int at = transposed_copy(fn, a);
      status = how == Solver::Solve ? GA_Solve(at, bt) : GA_Llt_solve(at, bt);
      GA_Destroy(at);
    }
    if (how != Solver::Llt || status == 0) GA_Transpose(bt, b);
    GA_Destroy(bt);
    return Int{status};
  });
}

/// ga_diag_std and ga_diag_std_seq.
void diag_std(const char* fn, const Int* g_a, const Int* g_v, double* evals) {
  call(fn, [&] {
    const int a = handle(fn, *g_a), v = handle(fn, *g_v, "g_v");
    if (!evals) bad_argument(fn, "evals", "NULL", "room for n eigenvalues is required");
    GA_Diag_std(a, v, evals);
    eigenvectors_as_columns(fn, v);
  });
}

/// ga_diag and ga_diag_seq (no `control`), ga_diag_reuse (control: 0 keep S's factor, > 0 reuse
/// it, < 0 free it only).
void diag(const char* fn, const Int* control, const Int* g_a, const Int* g_s, const Int* g_v, double* evals) {
  call(fn, [&] {
    const int a = handle(fn, *g_a), s = handle(fn, *g_s, "g_s"), v = handle(fn, *g_v, "g_v");
    const int c = !control ? 0 : *control < 0 ? -1 : *control > 0 ? 1 : 0;
    if (c >= 0 && !evals) bad_argument(fn, "evals", "NULL", "room for n eigenvalues is required");
    if (control) GA_Diag_reuse(c, a, s, v, evals);
    else GA_Diag(a, s, v, evals);
    if (c >= 0) eigenvectors_as_columns(fn, v);
  });
}
/// ga_allocate (free: ga_deallocate) and the nga_ spellings: the C API's GA_Allocate and
/// GA_Deallocate, .true. when memory was allocated (freed).
FortranLogical allocate(const char* fn, Int g_a, bool free) {
  return call(fn, [&] {
    const int g = handle(fn, g_a);
    return (free ? GA_Deallocate(g) : GA_Allocate(g)) ? kTrue : kFalse;
  });
}

/// ga_compare_distr: .true. when the distributions are the same (GA's Fortran answer; the C
/// API's GA_Compare_distr returns 0 then).
FortranLogical compare_distr(const char* fn, Int g_a, Int g_b) {
  return call(fn, [&] { return GA_Compare_distr(handle(fn, g_a), handle(fn, g_b, "g_b")) == 0 ? kTrue : kFalse; });
}
// ---- matrix products --------------------------------------------------------------------------
// A Fortran matrix X is the C view's X^T, so C = op(A) op(B) is, in the C view, C^T = op(B^T) op(A^T):
// the operands and their flags change places, m and n too (op(X)^T is op(X^T) for 'n', 't' and 'c').
// Its operands are checked here first, in the program's terms: the C API would name the Fortran
// B its 'g_a' and give its bounds zero-based and reversed.

/// One operand of a Fortran ?gemm: the argument, the matrix's name, its transpose flag and the
/// names and values of the extents op(X) must have.
struct GemmOperand {
  const char* argument;
  Int handle;
  const char* name;
  char flag;  // 'n': op(X) = X
  const char* rows_name;
  std::int64_t rows;
  const char* cols_name;
  std::int64_t cols;
};

/// Ends the job unless operand x is a 2-d array of type mt (named mt_name) at least as large as
/// op(x) must be; `mnk` is "m, n, k = ..." for the message.
void check_gemm_operand(const char* fn, const GemmOperand& x, Int mt, const char* mt_name, const std::string& mnk) {
  const int g = handle(fn, x.handle, x.argument);
  const std::string value = std::to_string(x.handle);
  if (fortran_type(ga_type(fn, g)) != mt)
    bad_argument(fn, x.argument, value, "holds " + type_name(ga_type(fn, g)) + "; " + fn + " needs " + mt_name);
  int ndim = 0;
  std::int64_t extent[GA_MAX_DIM];
  dims(fn, g, &ndim, extent);
  if (ndim != 2)
    bad_argument(fn, x.argument, value, "is " + std::to_string(ndim) + "-d; " + fn + " multiplies 2-d arrays");
  const bool transposed = x.flag != 'n' && x.flag != 'N';
  const std::int64_t rows = transposed ? x.cols : x.rows, cols = transposed ? x.rows : x.cols;
  if (extent[0] >= rows && extent[1] >= cols) return;
  const std::string name = x.name, need = std::string(x.rows_name) + " x " + x.cols_name;
  const std::string sizes = std::to_string(rows) + " x " + std::to_string(cols);
  std::string why = mnk + " do not fit " + name + " (" + std::to_string(extent[0]) + ", " + std::to_string(extent[1]) + "): ";
  if (name == "C")
    why += "C must be at least " + need + " = " + sizes;
  else if (!transposed)
    why += "op(" + name + ") = " + name + " must be at least " + need + " = " + sizes;
  else
    why += "op(" + name + ") = " + name + "**T is " + need + ", so " + name + " must be at least " + x.cols_name + " x " +
           x.rows_name + " = " + sizes;
  bad_argument(fn, x.argument, value, why);
}

template <class T, void (*Gemm)(char, char, std::int64_t, std::int64_t, std::int64_t, T, int, int, T, int), Int MT>
void gemm(const char* fn, const char* mt_name, const char* ta, const char* tb, const Int* m, const Int* n, const Int* k,
          const T* alpha, const Int* g_a, const Int* g_b, const T* beta, const Int* g_c, Length ta_length,
          Length tb_length) {
  call(fn, [&] {
    const char a_flag = trans_flag(fn, "transa", ta, ta_length), b_flag = trans_flag(fn, "transb", tb, tb_length);
    for (const auto& [name, v] : {std::pair{"m", *m}, std::pair{"n", *n}, std::pair{"k", *k}})
      if (v < 1) bad_argument(fn, name, std::to_string(v), "must be >= 1");
    if (!alpha || !beta) bad_argument(fn, alpha ? "beta" : "alpha", "NULL", "a value of the arrays' type is required");
    const std::string mnk =
        "m, n, k = " + std::to_string(*m) + ", " + std::to_string(*n) + ", " + std::to_string(*k);
    const GemmOperand operands[] = {{"g_a", *g_a, "A", a_flag, "m", *m, "k", *k},
                                    {"g_b", *g_b, "B", b_flag, "k", *k, "n", *n},
                                    {"g_c", *g_c, "C", 'n', "m", *m, "n", *n}};
    for (const GemmOperand& x : operands) check_gemm_operand(fn, x, MT, mt_name, mnk);
    Gemm(b_flag, a_flag, *n, *m, *k, *alpha, handle(fn, *g_b, "g_b"), handle(fn, *g_a), *beta, handle(fn, *g_c, "g_c"));
  });
}

/// A matmul patch as GA's Fortran API gives it: indices of op(A) and op(B) (GA's matmul.c:
/// "patch indices after op()"), so a transposed operand's indices may pass its own dims. Only
/// lo >= 1 and hi >= lo are checked here; the C API, which takes the same convention, checks the
/// rest against op(X).
CPatch op_patch(const char* fn, int g, const Int* lo, const Int* hi, const PatchNames& names, const char* which) {
  int n = 0;
  std::int64_t extent[GA_MAX_DIM], flo[GA_MAX_DIM], fhi[GA_MAX_DIM];
  fortran::dims(fn, g, &n, extent);
  for (int d = 0; d < n; ++d) {
    if (lo[d] < 1) bad_argument(fn, which + names.of(false, d), std::to_string(lo[d]), "must be >= 1");
    if (hi[d] < lo[d])
      bad_argument(fn, which + names.of(true, d), std::to_string(hi[d]),
                   "must be >= " + std::string(which) + names.of(false, d) + " = " + std::to_string(lo[d]));
    flo[d] = lo[d];
    fhi[d] = hi[d];
  }
  return to_c(n, flo, fhi);
}

/// ga_matmul_patch and nga_matmul_patch: C = alpha op(A) op(B) + beta C on patches, in the C view
/// C^T = op(B^T) op(A^T) (operands and flags exchanged; each patch's indices reversed).
void matmul_patch(const char* fn, const char* transa, const char* transb, Length ta_length, Length tb_length,
                  void* alpha, void* beta, Int g_a, const Int* alo, const Int* ahi, Int g_b, const Int* blo,
                  const Int* bhi, Int g_c, const Int* clo, const Int* chi, const PatchNames& names) {
  call(fn, [&] {
    const char a_flag = trans_flag(fn, "transa", transa, ta_length);
    const char b_flag = trans_flag(fn, "transb", transb, tb_length);
    const int a = handle(fn, g_a), b = handle(fn, g_b, "g_b"), c = handle(fn, g_c, "g_c");
    if (names.form == PatchNames::Form::TwoD)  // ga_matmul_patch: ilo, ihi, jlo, jhi of matrices
      for (const auto& [name, g] : {std::pair{"g_a", a}, std::pair{"g_b", b}, std::pair{"g_c", c}})
        if (GA_Ndim(g) != 2)
          bad_argument(fn, name, std::to_string(g), std::string("is not 2-d; ") + fn + " takes 2-d arrays (nga_ for n-d)");
    CPatch ca = op_patch(fn, a, alo, ahi, names, "a"), cb = op_patch(fn, b, blo, bhi, names, "b");
    CPatch cc = patch(fn, c, clo, chi, names, "c");
    NGA_Matmul_patch64(b_flag, a_flag, alpha, beta, b, cb.lo, cb.hi, a, ca.lo, ca.hi, c, cc.lo, cc.hi);
  });
}

}  // namespace

extern "C" {

// ---- start, stop, processes -------------------------------------------------------------------
void ga_initialize_() {
  call("ga_initialize", [] {
    check_integer_width("ga_initialize");
    GA_Initialize();
  });
}
void ga_initialize_ltd_(const Int* limit) {
  call("ga_initialize_ltd", [&] {
    check_integer_width("ga_initialize_ltd");  // before *limit is read with the wrong width
    GA_Initialize_ltd(static_cast<size_t>(*limit));  // negative: no limit
  });
}
void ga_terminate_() { call("ga_terminate", [] { GA_Terminate(); }); }
Int ga_nodeid_() { return call("ga_nodeid", [] { return Int{GA_Nodeid()}; }); }
Int ga_nnodes_() { return call("ga_nnodes", [] { return Int{GA_Nnodes()}; }); }
void ga_sync_() { call("ga_sync", [] { GA_Sync(); }); }
// GA's message-passing barrier of the default group (GA_Sync's barrier; Armada's also completes
// this process's operations, which GA's leaves to GA_Sync).
void ga_msg_sync_() { call("ga_msg_sync", [] { GA_Sync(); }); }
// ga-mpi.fh's calls are subroutines, as GA's: the communicator (a Fortran MPI handle) comes back
// in the first argument.
void ga_mpi_comm_(Int* comm) { call("ga_mpi_comm", [&] { *comm = Int{MPI_Comm_c2f(GA_MPI_Comm())}; }); }
void ga_mpi_comm_pgroup_(Int* comm, const Int* grp) {
  call("ga_mpi_comm_pgroup", [&] { *comm = Int{MPI_Comm_c2f(GA_MPI_Comm_pgroup(static_cast<int>(*grp)))}; });
}
void ga_mpi_comm_pgroup_default_(Int* comm) {
  call("ga_mpi_comm_pgroup_default", [&] { *comm = Int{MPI_Comm_c2f(GA_MPI_Comm_pgroup_default())}; });
}

void ga_error_(const char* message, const Int* code, Length length) {
  std::string m = text(message, length);
  GA_Error(m.data(), static_cast<int>(*code));
}

// ---- process groups (GA_Pgroup_create's rule: every process of the default group calls) --------
Int ga_pgroup_create_(const Int* list, const Int* count) {
  const char* const fn = "ga_pgroup_create";
  return call(fn, [&] {
    // 0 is allowed, as in GA (a group no process belongs to: GA's ghosts.F makes one at 1 process)
    if (*count < 0) bad_argument(fn, "count", std::to_string(*count), "must be >= 0");
    const int n = c_int(fn, "count", *count);
    std::vector<int> ranks(list, list + n);
    return Int{GA_Pgroup_create(ranks.data(), n)};
  });
}
FortranLogical ga_pgroup_destroy_(const Int* p_handle) {
  return call("ga_pgroup_destroy", [&] { return GA_Pgroup_destroy(static_cast<int>(*p_handle)) ? kTrue : kFalse; });
}
Int ga_pgroup_nodeid_(const Int* p_handle) {
  return call("ga_pgroup_nodeid", [&] { return Int{GA_Pgroup_nodeid(static_cast<int>(*p_handle))}; });
}
Int ga_pgroup_nnodes_(const Int* p_handle) {
  return call("ga_pgroup_nnodes", [&] { return Int{GA_Pgroup_nnodes(static_cast<int>(*p_handle))}; });
}
void ga_pgroup_sync_(const Int* p_handle) {
  call("ga_pgroup_sync", [&] { GA_Pgroup_sync(static_cast<int>(*p_handle)); });
}
Int ga_pgroup_get_world_() { return call("ga_pgroup_get_world", [] { return Int{GA_Pgroup_get_world()}; }); }
Int ga_pgroup_get_default_() { return call("ga_pgroup_get_default", [] { return Int{GA_Pgroup_get_default()}; }); }
void ga_pgroup_set_default_(const Int* p_handle) {
  call("ga_pgroup_set_default", [&] { GA_Pgroup_set_default(static_cast<int>(*p_handle)); });
}
FortranLogical ga_valid_handle_(const Int* g_a) {
  return call("ga_valid_handle", [&] {
    return *g_a >= INT_MIN && *g_a <= INT_MAX && GA_Valid_handle(static_cast<int>(*g_a)) ? kTrue : kFalse;
  });
}

// ---- GA's memory limit, handles, debugging (C API: ga.h, "Memory") ------------------------------
void ga_set_memory_limit_(const Int* limit) { GA_Set_memory_limit(static_cast<size_t>(*limit)); }
Int ga_memory_avail_() { return static_cast<Int>(GA_Memory_avail()); }  // -1 without a limit
FortranLogical ga_memory_limited_() { return GA_Memory_limited() ? kTrue : kFalse; }
FortranLogical ga_uses_ma_() { return GA_Uses_ma() ? kTrue : kFalse; }
Int ga_inquire_memory_() { return static_cast<Int>(GA_Inquire_memory()); }
FortranLogical ga_verify_handle_(const Int* g_a) { return ga_valid_handle_(g_a); }
void ga_check_handle_(const Int* g_a, const char* string, Length string_length) {
  const char* const fn = "ga_check_handle";
  call(fn, [&] {
    std::string where = text(string, string_length);
    GA_Check_handle(handle(fn, *g_a), where.data());
  });
}
void ga_set_debug_(const FortranLogical* flag) { GA_Set_debug(*flag != kFalse ? 1 : 0); }
FortranLogical ga_get_debug_() { return GA_Get_debug() ? kTrue : kFalse; }
void ga_mask_sync_(const Int* first, const Int* last) {
  GA_Mask_sync(static_cast<int>(*first), static_cast<int>(*last));
}
void ga_print_stats_() { call("ga_print_stats", [] { GA_Print_stats(); }); }
// The nga_ spellings GA's Fortran API has of the same.
void nga_set_memory_limit_(const Int* limit) { ga_set_memory_limit_(limit); }
Int nga_memory_avail_() { return ga_memory_avail_(); }
FortranLogical nga_memory_limited_() { return ga_memory_limited_(); }
FortranLogical nga_uses_ma_() { return ga_uses_ma_(); }
Int nga_inquire_memory_() { return ga_inquire_memory_(); }
FortranLogical nga_verify_handle_(const Int* g_a) { return ga_valid_handle_(g_a); }
void nga_set_debug_(const FortranLogical* flag) { ga_set_debug_(flag); }
FortranLogical nga_get_debug_() { return ga_get_debug_(); }
void nga_mask_sync_(const Int* first, const Int* last) { ga_mask_sync_(first, last); }

// ---- creation and inquiry ---------------------------------------------------------------------
FortranLogical nga_create_(const Int* type, const Int* ndim, const Int* dims, const char* name, const Int* chunk, Int* g_a,
                    Length name_length) {
  return create("nga_create", *type, *ndim, dims, text(name, name_length), g_a, {.chunk = chunk});
}

FortranLogical nga_create_config_(const Int* type, const Int* ndim, const Int* dims, const char* name, const Int* chunk,
                                  const Int* p_handle, Int* g_a, Length name_length) {
  return create("nga_create_config", *type, *ndim, dims, text(name, name_length), g_a,
                {.chunk = chunk, .p_handle = p_handle});
}

FortranLogical nga_create_ghosts_(const Int* type, const Int* ndim, const Int* dims, const Int* width, const char* name,
                                  const Int* chunk, Int* g_a, Length name_length) {
  return create("nga_create_ghosts", *type, *ndim, dims, text(name, name_length), g_a, {.chunk = chunk, .width = width});
}

FortranLogical nga_create_ghosts_config_(const Int* type, const Int* ndim, const Int* dims, const Int* width,
                                         const char* name, const Int* chunk, const Int* p_handle, Int* g_a,
                                         Length name_length) {
  return create("nga_create_ghosts_config", *type, *ndim, dims, text(name, name_length), g_a,
                {.chunk = chunk, .p_handle = p_handle, .width = width});
}

// Irregular distributions: map holds the first index of each block of dimension 1, then of
// dimension 2, ...; nblock(d) blocks in dimension d (GA's Fortran API).
FortranLogical nga_create_irreg_(const Int* type, const Int* ndim, const Int* dims, const char* name, const Int* map,
                                 const Int* nblock, Int* g_a, Length name_length) {
  return create("nga_create_irreg", *type, *ndim, dims, text(name, name_length), g_a, {.map = map, .nblock = nblock});
}

FortranLogical nga_create_irreg_config_(const Int* type, const Int* ndim, const Int* dims, const char* name,
                                        const Int* map, const Int* nblock, const Int* p_handle, Int* g_a,
                                        Length name_length) {
  return create("nga_create_irreg_config", *type, *ndim, dims, text(name, name_length), g_a,
                {.p_handle = p_handle, .map = map, .nblock = nblock});
}

FortranLogical nga_create_ghosts_irreg_(const Int* type, const Int* ndim, const Int* dims, const Int* width,
                                        const char* name, const Int* map, const Int* nblock, Int* g_a,
                                        Length name_length) {
  return create("nga_create_ghosts_irreg", *type, *ndim, dims, text(name, name_length), g_a,
                {.width = width, .map = map, .nblock = nblock});
}

FortranLogical nga_create_ghosts_irreg_config_(const Int* type, const Int* ndim, const Int* dims, const Int* width,
                                               const char* name, const Int* map, const Int* nblock,
                                               const Int* p_handle, Int* g_a, Length name_length) {
  return create("nga_create_ghosts_irreg_config", *type, *ndim, dims, text(name, name_length), g_a,
                {.p_handle = p_handle, .width = width, .map = map, .nblock = nblock});
}

FortranLogical ga_create_(const Int* type, const Int* dim1, const Int* dim2, const char* name, const Int* chunk1,
                   const Int* chunk2, Int* g_a, Length name_length) {
  const Int dims[2] = {*dim1, *dim2}, chunk[2] = {*chunk1, *chunk2};
  return create("ga_create", *type, 2, dims, text(name, name_length), g_a, {.chunk = chunk});
}

// ga_create_irreg: map1(nblock1) the first rows of the blocks, map2(nblock2) their first columns.
FortranLogical ga_create_irreg_(const Int* type, const Int* dim1, const Int* dim2, const char* name, const Int* map1,
                                const Int* nblock1, const Int* map2, const Int* nblock2, Int* g_a, Length name_length) {
  const Int dims[2] = {*dim1, *dim2}, nblock[2] = {*nblock1, *nblock2};
  std::vector<Int> map(map1, map1 + std::max<Int>(*nblock1, 0));
  map.insert(map.end(), map2, map2 + std::max<Int>(*nblock2, 0));
  return create("ga_create_irreg", *type, 2, dims, text(name, name_length), g_a, {.map = map.data(), .nblock = nblock});
}

FortranLogical ga_duplicate_(const Int* g_a, Int* g_b, const char* name, Length name_length) {
  const char* const fn = "ga_duplicate";
  return call(fn, [&] {
    std::string label = text(name, name_length);
    *g_b = GA_Duplicate(handle(fn, *g_a), label.data());
    return *g_b != 0 ? kTrue : kFalse;  // 0: over GA's memory limit
  });
}

FortranLogical ga_destroy_(const Int* g_a) {
  const char* const fn = "ga_destroy";
  return call(fn, [&] {
    GA_Destroy(handle(fn, *g_a));
    return kTrue;
  });
}

FortranLogical ga_allocate_(const Int* g_a) { return allocate("ga_allocate", *g_a, false); }
FortranLogical nga_allocate_(const Int* g_a) { return allocate("nga_allocate", *g_a, false); }
FortranLogical ga_deallocate_(const Int* g_a) { return allocate("ga_deallocate", *g_a, true); }
FortranLogical nga_deallocate_(const Int* g_a) { return allocate("nga_deallocate", *g_a, true); }
void ga_set_irreg_flag_(const Int* g_a, const FortranLogical* flag) {
  call("ga_set_irreg_flag", [&] { GA_Set_irreg_flag(handle("ga_set_irreg_flag", *g_a), *flag != kFalse ? 1 : 0); });
}
void nga_set_irreg_flag_(const Int* g_a, const FortranLogical* flag) {
  call("nga_set_irreg_flag", [&] { NGA_Set_irreg_flag(handle("nga_set_irreg_flag", *g_a), *flag != kFalse ? 1 : 0); });
}
FortranLogical ga_compare_distr_(const Int* g_a, const Int* g_b) { return compare_distr("ga_compare_distr", *g_a, *g_b); }
FortranLogical nga_compare_distr_(const Int* g_a, const Int* g_b) {
  return compare_distr("nga_compare_distr", *g_a, *g_b);
}
// INTEGER, as GA's global.fh declares it: 0 (Armada creates no mirrored arrays).
Int ga_is_mirrored_(const Int* g_a) {
  return call("ga_is_mirrored", [&] { return Int{GA_Is_mirrored(handle("ga_is_mirrored", *g_a))}; });
}
Int nga_is_mirrored_(const Int* g_a) {
  return call("nga_is_mirrored", [&] { return Int{NGA_Is_mirrored(handle("nga_is_mirrored", *g_a))}; });
}
// The mirror group is the world group; merging an array (never mirrored) syncs its group.
Int ga_pgroup_get_mirror_() { return call("ga_pgroup_get_mirror", [] { return Int{GA_Pgroup_get_mirror()}; }); }
Int nga_pgroup_get_mirror_() { return call("nga_pgroup_get_mirror", [] { return Int{NGA_Pgroup_get_mirror()}; }); }
void ga_merge_mirrored_(const Int* g_a) {
  call("ga_merge_mirrored", [&] { GA_Merge_mirrored(handle("ga_merge_mirrored", *g_a)); });
}
void nga_merge_mirrored_(const Int* g_a) {
  call("nga_merge_mirrored", [&] { NGA_Merge_mirrored(handle("nga_merge_mirrored", *g_a)); });
}

void nga_inquire_(const Int* g_a, Int* type, Int* ndim, Int* dims) { inquire("nga_inquire", *g_a, type, ndim, dims); }

void ga_inquire_(const Int* g_a, Int* type, Int* dim1, Int* dim2) {
  Int ndim = 0, dims[GA_MAX_DIM];
  inquire("ga_inquire", *g_a, type, &ndim, dims);
  *dim1 = dims[0];
  *dim2 = ndim > 1 ? dims[1] : 1;
}

void nga_distribution_(const Int* g_a, const Int* iproc, Int* lo, Int* hi) {
  distribution("nga_distribution", *g_a, *iproc, lo, hi);
}

void ga_distribution_(const Int* g_a, const Int* iproc, Int* ilo, Int* ihi, Int* jlo, Int* jhi) {
  Int lo[GA_MAX_DIM], hi[GA_MAX_DIM];
  distribution("ga_distribution", *g_a, *iproc, lo, hi);
  *ilo = lo[0];
  *ihi = hi[0];
  *jlo = lo[1];
  *jhi = hi[1];
}

// ---- patches ----------------------------------------------------------------------------------
void nga_get_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld) {
  move_nd("nga_get", Op::Get, *g_a, lo, hi, buf, ld, nullptr, nullptr);
}
void nga_put_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld) {
  move_nd("nga_put", Op::Put, *g_a, lo, hi, buf, ld, nullptr, nullptr);
}
void nga_acc_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, void* alpha) {
  move_nd("nga_acc", Op::Acc, *g_a, lo, hi, buf, ld, alpha, nullptr);
}
void nga_nbget_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, Int* nbhandle) {
  move_nd("nga_nbget", Op::NbGet, *g_a, lo, hi, buf, ld, nullptr, nbhandle);
}
void ga_get_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld) {
  move_2d("ga_get", Op::Get, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, nullptr, nullptr);
}
void ga_put_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld) {
  move_2d("ga_put", Op::Put, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, nullptr, nullptr);
}
void ga_acc_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld,
             void* alpha) {
  move_2d("ga_acc", Op::Acc, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, alpha, nullptr);
}
void ga_nbget_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld,
               Int* nbhandle) {
  move_2d("ga_nbget", Op::NbGet, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, nullptr, nbhandle);
}

void nga_nbput_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, Int* nbhandle) {
  move_nd("nga_nbput", Op::NbPut, *g_a, lo, hi, buf, ld, nullptr, nbhandle);
}
void nga_nbacc_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, void* alpha, Int* nbhandle) {
  move_nd("nga_nbacc", Op::NbAcc, *g_a, lo, hi, buf, ld, alpha, nbhandle);
}
void ga_nbput_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld,
               Int* nbhandle) {
  move_2d("ga_nbput", Op::NbPut, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, nullptr, nbhandle);
}
void ga_nbacc_(const Int* g_a, const Int* ilo, const Int* ihi, const Int* jlo, const Int* jhi, void* buf, const Int* ld,
               void* alpha, Int* nbhandle) {
  move_2d("ga_nbacc", Op::NbAcc, *g_a, *ilo, *ihi, *jlo, *jhi, buf, *ld, alpha, nbhandle);
}
void nga_periodic_get_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld) {
  move_nd("nga_periodic_get", Op::PeriodicGet, *g_a, lo, hi, buf, ld, nullptr, nullptr);
}
void nga_periodic_put_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld) {
  move_nd("nga_periodic_put", Op::PeriodicPut, *g_a, lo, hi, buf, ld, nullptr, nullptr);
}
void nga_periodic_acc_(const Int* g_a, const Int* lo, const Int* hi, void* buf, const Int* ld, void* alpha) {
  move_nd("nga_periodic_acc", Op::PeriodicAcc, *g_a, lo, hi, buf, ld, alpha, nullptr);
}
void nga_strided_get_(const Int* g_a, const Int* lo, const Int* hi, const Int* skip, void* buf, const Int* ld) {
  strided("nga_strided_get", Strided::Get, *g_a, lo, hi, skip, buf, ld, nullptr);
}
void nga_strided_put_(const Int* g_a, const Int* lo, const Int* hi, const Int* skip, void* buf, const Int* ld) {
  strided("nga_strided_put", Strided::Put, *g_a, lo, hi, skip, buf, ld, nullptr);
}
void nga_strided_acc_(const Int* g_a, const Int* lo, const Int* hi, const Int* skip, void* buf, const Int* ld,
                      void* alpha) {
  strided("nga_strided_acc", Strided::Acc, *g_a, lo, hi, skip, buf, ld, alpha);
}

void nga_nbwait_(Int* nbhandle) { wait_request("nga_nbwait", *nbhandle); }
void ga_nbwait_(Int* nbhandle) { wait_request("ga_nbwait", *nbhandle); }
// 0 while the request is outstanding, 1 once it is complete (then it is finished, as after
// ga_nbwait), as the C API's NGA_NbTest (docs/ga.md).
Int ga_nbtest_(Int* nbhandle) { return test_request("ga_nbtest", *nbhandle); }
Int nga_nbtest_(Int* nbhandle) { return test_request("nga_nbtest", *nbhandle); }

Int nga_read_inc_(const Int* g_a, const Int* subscript, const Int* inc) {
  const char* const fn = "nga_read_inc";
  return call(fn, [&] {
    const int g = handle(fn, *g_a);
    CPatch c = patch(fn, g, subscript, subscript, PatchNames{"subscript", "subscript"});
    return static_cast<Int>(NGA_Read_inc64(g, c.lo, static_cast<long>(*inc)));
  });
}

void nga_scatter_(const Int* g_a, void* v, const Int* subs, const Int* n) {
  elements("nga_scatter", ListOp::Scatter, *g_a, v, *n, subs, nullptr, nullptr, nullptr);
}
void nga_scatter_acc_(const Int* g_a, void* v, const Int* subs, const Int* n, void* alpha) {
  elements("nga_scatter_acc", ListOp::ScatterAcc, *g_a, v, *n, subs, nullptr, nullptr, alpha);
}
void nga_gather_(const Int* g_a, void* v, const Int* subs, const Int* n) {
  elements("nga_gather", ListOp::Gather, *g_a, v, *n, subs, nullptr, nullptr, nullptr);
}
void ga_scatter_(const Int* g_a, void* v, const Int* i, const Int* j, const Int* n) {
  elements("ga_scatter", ListOp::Scatter, *g_a, v, *n, nullptr, i, j, nullptr);
}
void ga_scatter_acc_(const Int* g_a, void* v, const Int* i, const Int* j, const Int* n, void* alpha) {
  elements("ga_scatter_acc", ListOp::ScatterAcc, *g_a, v, *n, nullptr, i, j, alpha);
}
void ga_gather_(const Int* g_a, void* v, const Int* i, const Int* j, const Int* n) {
  elements("ga_gather", ListOp::Gather, *g_a, v, *n, nullptr, i, j, nullptr);
}

// ---- whole arrays and patches -----------------------------------------------------------------
void ga_zero_(const Int* g_a) { call("ga_zero", [&] { GA_Zero(handle("ga_zero", *g_a)); }); }
void ga_fill_(const Int* g_a, void* value) { call("ga_fill", [&] { GA_Fill(handle("ga_fill", *g_a), value); }); }
void ga_scale_(const Int* g_a, void* value) { call("ga_scale", [&] { GA_Scale(handle("ga_scale", *g_a), value); }); }
void ga_copy_(const Int* g_a, const Int* g_b) {
  call("ga_copy", [&] { GA_Copy(handle("ga_copy", *g_a), handle("ga_copy", *g_b, "g_b")); });
}
void ga_add_(void* alpha, const Int* g_a, void* beta, const Int* g_b, const Int* g_c) {
  const char* const fn = "ga_add";
  call(fn, [&] { GA_Add(alpha, handle(fn, *g_a), beta, handle(fn, *g_b, "g_b"), handle(fn, *g_c, "g_c")); });
}
double ga_ddot_(const Int* g_a, const Int* g_b) {
  const char* const fn = "ga_ddot";
  return call(fn, [&] { return GA_Ddot(handle(fn, *g_a), handle(fn, *g_b, "g_b")); });
}
void ga_symmetrize_(const Int* g_a) { call("ga_symmetrize", [&] { GA_Symmetrize(handle("ga_symmetrize", *g_a)); }); }
void ga_transpose_(const Int* g_a, const Int* g_b) {
  const char* const fn = "ga_transpose";
  call(fn, [&] { GA_Transpose(handle(fn, *g_a), handle(fn, *g_b, "g_b")); });
}
void ga_print_(const Int* g_a) { call("ga_print", [&] { GA_Print(handle("ga_print", *g_a)); }); }

void nga_copy_patch_(const char* trans, const Int* g_a, const Int* alo, const Int* ahi, const Int* g_b, const Int* blo,
                     const Int* bhi, Length trans_length) {
  const char* const fn = "nga_copy_patch";
  call(fn, [&] {
    const char t = text(trans, trans_length).empty() ? 'n' : text(trans, trans_length)[0];
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");
    CPatch ca = patch(fn, a, alo, ahi, PatchNames{"alo", "ahi"});
    CPatch cb = patch(fn, b, blo, bhi, PatchNames{"blo", "bhi"});
    NGA_Copy_patch64(t, a, ca.lo, ca.hi, b, cb.lo, cb.hi);
  });
}

void ga_copy_patch_(const char* trans, const Int* g_a, const Int* ailo, const Int* aihi, const Int* ajlo,
                    const Int* ajhi, const Int* g_b, const Int* bilo, const Int* bihi, const Int* bjlo, const Int* bjhi,
                    Length trans_length) {
  const char* const fn = "ga_copy_patch";
  call(fn, [&] {
    const char t = text(trans, trans_length).empty() ? 'n' : text(trans, trans_length)[0];
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b");
    CPatch ca = patch2(fn, a, *ailo, *aihi, *ajlo, *ajhi, "a");
    CPatch cb = patch2(fn, b, *bilo, *bihi, *bjlo, *bjhi, "b");
    NGA_Copy_patch64(t, a, ca.lo, ca.hi, b, cb.lo, cb.hi);
  });
}

void nga_add_patch_(void* alpha, const Int* g_a, const Int* alo, const Int* ahi, void* beta, const Int* g_b,
                    const Int* blo, const Int* bhi, const Int* g_c, const Int* clo, const Int* chi) {
  const char* const fn = "nga_add_patch";
  call(fn, [&] {
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b"), c = handle(fn, *g_c, "g_c");
    CPatch ca = patch(fn, a, alo, ahi, PatchNames{"alo", "ahi"});
    CPatch cb = patch(fn, b, blo, bhi, PatchNames{"blo", "bhi"});
    CPatch cc = patch(fn, c, clo, chi, PatchNames{"clo", "chi"});
    NGA_Add_patch64(alpha, a, ca.lo, ca.hi, beta, b, cb.lo, cb.hi, c, cc.lo, cc.hi);
  });
}

void ga_add_patch_(void* alpha, const Int* g_a, const Int* ailo, const Int* aihi, const Int* ajlo, const Int* ajhi,
                   void* beta, const Int* g_b, const Int* bilo, const Int* bihi, const Int* bjlo, const Int* bjhi,
                   const Int* g_c, const Int* cilo, const Int* cihi, const Int* cjlo, const Int* cjhi) {
  const char* const fn = "ga_add_patch";
  call(fn, [&] {
    const int a = handle(fn, *g_a), b = handle(fn, *g_b, "g_b"), c = handle(fn, *g_c, "g_c");
    CPatch ca = patch2(fn, a, *ailo, *aihi, *ajlo, *ajhi, "a");
    CPatch cb = patch2(fn, b, *bilo, *bihi, *bjlo, *bjhi, "b");
    CPatch cc = patch2(fn, c, *cilo, *cihi, *cjlo, *cjhi, "c");
    NGA_Add_patch64(alpha, a, ca.lo, ca.hi, beta, b, cb.lo, cb.hi, c, cc.lo, cc.hi);
  });
}

// ---- matrix products and solvers ---------------------------------------------------------------
void ga_dgemm_(const char* ta, const char* tb, const Int* m, const Int* n, const Int* k, const double* alpha,
               const Int* g_a, const Int* g_b, const double* beta, const Int* g_c, Length ta_length, Length tb_length) {
  gemm<double, GA_Dgemm64, MT_F_DBL>("ga_dgemm", "MT_F_DBL", ta, tb, m, n, k, alpha, g_a, g_b, beta, g_c, ta_length, tb_length);
}
void ga_sgemm_(const char* ta, const char* tb, const Int* m, const Int* n, const Int* k, const float* alpha,
               const Int* g_a, const Int* g_b, const float* beta, const Int* g_c, Length ta_length, Length tb_length) {
  gemm<float, GA_Sgemm64, MT_F_REAL>("ga_sgemm", "MT_F_REAL", ta, tb, m, n, k, alpha, g_a, g_b, beta, g_c, ta_length, tb_length);
}
void ga_cgemm_(const char* ta, const char* tb, const Int* m, const Int* n, const Int* k, const SingleComplex* alpha,
               const Int* g_a, const Int* g_b, const SingleComplex* beta, const Int* g_c, Length ta_length,
               Length tb_length) {
  gemm<SingleComplex, GA_Cgemm64, MT_F_SCPL>("ga_cgemm", "MT_F_SCPL", ta, tb, m, n, k, alpha, g_a, g_b, beta, g_c, ta_length, tb_length);
}
void ga_zgemm_(const char* ta, const char* tb, const Int* m, const Int* n, const Int* k, const DoubleComplex* alpha,
               const Int* g_a, const Int* g_b, const DoubleComplex* beta, const Int* g_c, Length ta_length,
               Length tb_length) {
  gemm<DoubleComplex, GA_Zgemm64, MT_F_DCPL>("ga_zgemm", "MT_F_DCPL", ta, tb, m, n, k, alpha, g_a, g_b, beta, g_c, ta_length, tb_length);
}

void ga_matmul_patch_(const char* transa, const char* transb, void* alpha, void* beta, const Int* g_a, const Int* ailo,
                      const Int* aihi, const Int* ajlo, const Int* ajhi, const Int* g_b, const Int* bilo,
                      const Int* bihi, const Int* bjlo, const Int* bjhi, const Int* g_c, const Int* cilo,
                      const Int* cihi, const Int* cjlo, const Int* cjhi, Length ta_length, Length tb_length) {
  const char* const fn = "ga_matmul_patch";
  const Int alo[2] = {*ailo, *ajlo}, ahi[2] = {*aihi, *ajhi}, blo[2] = {*bilo, *bjlo}, bhi[2] = {*bihi, *bjhi};
  const Int clo[2] = {*cilo, *cjlo}, chi[2] = {*cihi, *cjhi};
  matmul_patch(fn, transa, transb, ta_length, tb_length, alpha, beta, *g_a, alo, ahi, *g_b, blo, bhi, *g_c, clo, chi,
               two_d_names);
}
void nga_matmul_patch_(const char* transa, const char* transb, void* alpha, void* beta, const Int* g_a, const Int* alo,
                       const Int* ahi, const Int* g_b, const Int* blo, const Int* bhi, const Int* g_c, const Int* clo,
                       const Int* chi, Length ta_length, Length tb_length) {
  matmul_patch("nga_matmul_patch", transa, transb, ta_length, tb_length, alpha, beta, *g_a, alo, ahi, *g_b, blo, bhi,
               *g_c, clo, chi, PatchNames{"lo", "hi"});
}

Int ga_solve_(const Int* g_a, const Int* g_b) { return solve("ga_solve", Solver::Solve, *g_a, *g_b); }
Int nga_solve_(const Int* g_a, const Int* g_b) { return solve("nga_solve", Solver::Solve, *g_a, *g_b); }
Int ga_llt_solve_(const Int* g_a, const Int* g_b) { return solve("ga_llt_solve", Solver::Llt, *g_a, *g_b); }
Int nga_llt_solve_(const Int* g_a, const Int* g_b) { return solve("nga_llt_solve", Solver::Llt, *g_a, *g_b); }
void ga_lu_solve_(const char* trans, const Int* g_a, const Int* g_b, Length trans_length) {
  const char* const fn = "ga_lu_solve";
  const char t = call(fn, [&] { return trans_flag(fn, "trans", trans, trans_length); });
  solve(fn, Solver::Lu, *g_a, *g_b, t);
}

// Eigenvalues (ascending) and eigenvectors of the symmetric A: the C API gives the eigenvectors as
// the columns of V's C view, which are the rows of the Fortran matrix; GA's Fortran API gives
// columns, so V is transposed through a temporary copy.
void ga_diag_std_(const Int* g_a, const Int* g_v, double* evals) { diag_std("ga_diag_std", g_a, g_v, evals); }
void ga_diag_std_seq_(const Int* g_a, const Int* g_v, double* evals) {
  diag_std("ga_diag_std_seq", g_a, g_v, evals);
}
void ga_diag_(const Int* g_a, const Int* g_s, const Int* g_v, double* evals) {
  diag("ga_diag", nullptr, g_a, g_s, g_v, evals);
}
void ga_diag_seq_(const Int* g_a, const Int* g_s, const Int* g_v, double* evals) {
  diag("ga_diag_seq", nullptr, g_a, g_s, g_v, evals);
}
void ga_diag_reuse_(const Int* control, const Int* g_a, const Int* g_s, const Int* g_v, double* evals) {
  diag("ga_diag_reuse", control, g_a, g_s, g_v, evals);
}
// The C view of a Fortran matrix is its transpose: the inverse of a symmetric matrix is the same
// in both (the C API reads its lower triangle, Fortran's upper one: docs/ga.md).
Int ga_spd_invert_(const Int* g_a) {
  const char* const fn = "ga_spd_invert";
  return call(fn, [&] { return static_cast<Int>(GA_Spd_invert(handle(fn, *g_a))); });
}

// ---- collectives on Fortran arrays (the default group) ----------------------------------------
void ga_dgop_(const Int*, double* x, const Int* n, const char* op, Length op_length) {
  const char* const fn = "ga_dgop";
  call(fn, [&] {
    if (*n < 0) bad_argument(fn, "n", std::to_string(*n), "must be >= 0");
    std::string o = op_text(fn, op, op_length);
    GA_Dgop(x, c_int(fn, "n", *n), o.data());
  });
}

void ga_igop_(const Int*, Int* x, const Int* n, const char* op, Length op_length) {
  const char* const fn = "ga_igop";
  call(fn, [&] {
    if (*n < 0) bad_argument(fn, "n", std::to_string(*n), "must be >= 0");
    std::string o = op_text(fn, op, op_length);
    if constexpr (sizeof(Int) == sizeof(long))
      GA_Lgop(reinterpret_cast<long*>(x), c_int(fn, "n", *n), o.data());
    else
      GA_Igop(reinterpret_cast<int*>(x), c_int(fn, "n", *n), o.data());
  });
}

void ga_brdcst_(const Int*, void* buf, const Int* lenbuf, const Int* root) {
  const char* const fn = "ga_brdcst";
  call(fn, [&] {
    if (*lenbuf < 0) bad_argument(fn, "lenbuf", std::to_string(*lenbuf), "must be >= 0 (bytes)");
    GA_Brdcst(buf, c_int(fn, "lenbuf", *lenbuf), c_int(fn, "root", *root));
  });
}

// ---- the nga_ spellings GA's Fortran API has of the calls above ---------------------------------
void nga_initialize_() { ga_initialize_(); }
void nga_initialize_ltd_(const Int* limit) { ga_initialize_ltd_(limit); }
void nga_terminate_() { ga_terminate_(); }
Int nga_nodeid_() { return ga_nodeid_(); }
Int nga_nnodes_() { return ga_nnodes_(); }
void nga_sync_() { ga_sync_(); }
void nga_error_(const char* message, const Int* code, Length length) { ga_error_(message, code, length); }
FortranLogical nga_valid_handle_(const Int* g_a) { return ga_valid_handle_(g_a); }
void nga_check_handle_(const Int* g_a, const char* string, Length length) { ga_check_handle_(g_a, string, length); }
void nga_print_stats_() { ga_print_stats_(); }
FortranLogical nga_destroy_(const Int* g_a) { return ga_destroy_(g_a); }
FortranLogical nga_duplicate_(const Int* g_a, Int* g_b, const char* name, Length name_length) {
  return ga_duplicate_(g_a, g_b, name, name_length);
}
void nga_zero_(const Int* g_a) { ga_zero_(g_a); }
void nga_fill_(const Int* g_a, void* value) { ga_fill_(g_a, value); }
void nga_scale_(const Int* g_a, void* value) { ga_scale_(g_a, value); }
void nga_copy_(const Int* g_a, const Int* g_b) { ga_copy_(g_a, g_b); }
void nga_add_(void* alpha, const Int* g_a, void* beta, const Int* g_b, const Int* g_c) {
  ga_add_(alpha, g_a, beta, g_b, g_c);
}
void nga_symmetrize_(const Int* g_a) { ga_symmetrize_(g_a); }
void nga_transpose_(const Int* g_a, const Int* g_b) { ga_transpose_(g_a, g_b); }
void nga_print_(const Int* g_a) { ga_print_(g_a); }
Int nga_spd_invert_(const Int* g_a) { return ga_spd_invert_(g_a); }
void nga_dgop_(const Int* type, double* x, const Int* n, const char* op, Length op_length) {
  ga_dgop_(type, x, n, op, op_length);
}
void nga_igop_(const Int* type, Int* x, const Int* n, const char* op, Length op_length) {
  ga_igop_(type, x, n, op, op_length);
}
void nga_brdcst_(const Int* type, void* buf, const Int* lenbuf, const Int* root) { ga_brdcst_(type, buf, lenbuf, root); }

}  // extern "C"
