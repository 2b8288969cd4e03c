// BLACS grids and the redistribution between GlobalArrays and block-cyclic storage.
#include "block_cyclic.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>
#include <complex>

#include "armada/rma/collectives.hpp"
#include "armada/rma/error.hpp"
#include "scalapack.hpp"

namespace armada::linalg::detail {

namespace {

// The most square factorization nprow x npcol of p with nprow <= npcol.
void square_grid(int p, int& nprow, int& npcol) {
  nprow = 1;
  for (int r = 1; r * r <= p; ++r)
    if (p % r == 0) nprow = r;
  npcol = p / nprow;
}

// dst (cols x rows, row-major) = src (rows x cols, row-major)ᵀ, in cache-sized tiles.
template <class T>
void transpose_into(const T* src, Index rows, Index cols, T* dst) {
  constexpr Index tile = 32;
  for (Index i0 = 0; i0 < rows; i0 += tile)
    for (Index j0 = 0; j0 < cols; j0 += tile)
      for (Index i = i0; i < std::min(rows, i0 + tile); ++i)
        for (Index j = j0; j < std::min(cols, j0 + tile); ++j) dst[j * rows + i] = src[i * cols + j];
}

// Calls f(global box, local first row, local first column) for every run of blocks m holds
// that is one box of the global matrix: a single block, or, along a dimension the grid does not
// cut (one process row or column), every block of that dimension at once.
template <class T, class F>
void each_local_block(const CyclicMatrix<T>& m, F&& f) {
  const Index row_step = m.nprow == 1 ? std::max<Index>(m.rows, 1) : m.nb;
  const Index col_step = m.npcol == 1 ? std::max<Index>(m.cols, 1) : m.nb;
  for (Index lr0 = 0; lr0 < m.locr; lr0 += row_step) {
    const Index gr0 = (lr0 / m.nb * m.nprow + m.myrow) * m.nb, gr1 = std::min(m.rows, gr0 + row_step);
    for (Index lc0 = 0; lc0 < m.locc; lc0 += col_step) {
      const Index gc0 = (lc0 / m.nb * m.npcol + m.mycol) * m.nb, gc1 = std::min(m.cols, gc0 + col_step);
      f(Box{gr0, gr1, gc0, gc1}, lr0, lc0);
    }
  }
}

// The array box whose row-major copy is the block `b` of the array's transpose, column-major
// (a local block at (lr0, lc0) of a transpose starts at local + lc0 * lld + lr0).
Box array_box_of_transpose(const Box& b) { return Box{b.c0, b.c1, b.r0, b.r1}; }

}  // namespace

namespace {
// The 2-D proc_grid layout of `a` when it covers the whole group (else an empty Coord).
Coord whole_group_grid(const Array* a, const rma::Group& group) {
  if (!a || a->ndim() != 2 || a->distribution().layout() != arrays::Layout::proc_grid) return {};
  const Coord g = a->distribution().proc_grid();
  return g.product() == group.size() ? g : Coord{};
}
thread_local int g_redistributions = 0;
}  // namespace

int redistributions() { return g_redistributions; }
void reset_redistributions() { g_redistributions = 0; }

BlacsGrid::BlacsGrid(const rma::Group& group, const Array* layout) {
  int me = 0, procs = 0;
  Cblacs_pinfo(&me, &procs);  // initializes BLACS on first use
  square_grid(group.size(), nprow, npcol);
  const Coord g = whole_group_grid(layout, group);
  if (!g.empty()) {
    // Group rank p0 * g[1] + p1 holds the array's grid place (p0, p1), which is grid place
    // (p1, p0) of its transpose: BLACS's column-major numbering gives it that place.
    nprow = static_cast<int>(g[1]);
    npcol = static_cast<int>(g[0]);
  }
  system_handle_ = Csys2blacs_handle(group.comm());
  context = system_handle_;
  Cblacs_gridinit(&context, g.empty() ? "Row" : "Col", nprow, npcol);
  Cblacs_gridinfo(context, &nprow, &npcol, &myrow, &mycol);
  if (myrow < 0 || mycol < 0)
    throw rma::SystemError("linalg (BLACS)", "this rank is not in the BLACS grid over the array's group");
}

BlacsGrid::~BlacsGrid() {
  if (context >= 0) Cblacs_gridexit(context);
  if (system_handle_ >= 0) Cfree_blacs_system_handle(system_handle_);
}

template <class T>
CyclicMatrix<T>::CyclicMatrix(const BlacsGrid& grid, Index rows_, Index cols_, int nb_, Holds holds_)
    : holds(holds_), rows(rows_), cols(cols_), nb(nb_), myrow(grid.myrow), mycol(grid.mycol), nprow(grid.nprow), npcol(grid.npcol) {
  const int m = static_cast<int>(rows), n = static_cast<int>(cols), zero = 0;
  locr = numroc_(&m, &nb, &myrow, &zero, &nprow);
  locc = numroc_(&n, &nb, &mycol, &zero, &npcol);
  local.assign(static_cast<std::size_t>(locr) * static_cast<std::size_t>(locc), T{});
  const int ld = lld();
  int info = 0;
  descinit_(desc, &m, &n, &nb, &nb, &zero, &zero, &grid.context, &ld, &info);
  if (info != 0)
    throw rma::SystemError("linalg (ScaLAPACK descinit)", "descriptor argument " + std::to_string(-info) + " rejected");
}

template <class T>
bool in_place(const Array& a, const CyclicMatrix<T>& m) {
  if (m.holds != Holds::transpose || whole_group_grid(&a, a.group()).empty()) return false;
  const arrays::Distribution& d = a.distribution();
  const Coord g = d.proc_grid(), b = d.block_extents();
  const int r = a.group().rank();
  const Index nb = m.nb;
  return a.dims() == Coord{m.cols, m.rows} && g == Coord{m.npcol, m.nprow} &&
         b == Coord{std::min(nb, m.cols), std::min(nb, m.rows)} && r / g[1] == m.mycol && r % g[1] == m.myrow &&
         d.local_shape(r) == Coord{m.locc, m.locr};
}

namespace {
// Copies between m's storage and a's local buffer (in_place(a, m)): to_matrix or back.
template <class T>
void copy_local(const Array& a, CyclicMatrix<T>& m, bool to_matrix) {
  Array view = a;  // local access needs a non-const handle; it is the same array
  const auto blocks = view.access_blocks();
  T* buffer = blocks.empty() ? nullptr : static_cast<T*>(blocks.front().data);
  if (buffer && to_matrix) std::copy(buffer, buffer + m.local.size(), m.local.begin());
  if (buffer && !to_matrix) std::copy(m.local.begin(), m.local.end(), buffer);
  if (to_matrix) view.release();
  else view.release_update();
}
}  // namespace

template <class T>
void Redistribution<T>::fetch(const Array& a, CyclicMatrix<T>& m) {
  if (in_place(a, m)) return copy_local(a, m, true);
  ++g_redistributions;
  if (m.holds == Holds::transpose) {
    const Coord ld{static_cast<Index>(m.lld())};
    each_local_block(m, [&](const Box& box, Index lr0, Index lc0) {
      const Box in_array = array_box_of_transpose(box);
      handles_.push_back(a.get_nb(in_array.lo(), in_array.hi(), m.local.data() + lc0 * m.lld() + lr0, ld));
    });
    return;
  }
  Pending& p = pending_.emplace_back(Pending{&m, std::vector<T>(m.local.size())});
  const Coord ld{static_cast<Index>(m.locc)};
  T* staging = p.staging.data();
  each_local_block(m, [&](const Box& box, Index lr0, Index lc0) {
    handles_.push_back(a.get_nb(box.lo(), box.hi(), staging + lr0 * m.locc + lc0, ld));
  });
}

template <class T>
void Redistribution<T>::complete_fetches() {
  for (auto& h : handles_) h.wait();
  handles_.clear();
  for (Pending& p : pending_) transpose_into(p.staging.data(), p.matrix->locr, p.matrix->locc, p.matrix->local.data());
  pending_.clear();
}

template <class T>
void Redistribution<T>::store(const CyclicMatrix<T>& m, Array& a) {
  if (in_place(a, m)) return copy_local(a, const_cast<CyclicMatrix<T>&>(m), false);
  ++g_redistributions;
  std::vector<arrays::NbHandle> handles;
  if (m.holds == Holds::transpose) {
    const Coord ld{static_cast<Index>(m.lld())};
    each_local_block(m, [&](const Box& box, Index lr0, Index lc0) {
      const Box in_array = array_box_of_transpose(box);
      handles.push_back(a.put_nb(in_array.lo(), in_array.hi(), m.local.data() + lc0 * m.lld() + lr0, ld));
    });
    for (auto& h : handles) h.wait();
    return;
  }
  std::vector<T> staging(m.local.size());
  transpose_into(m.local.data(), m.locc, m.locr, staging.data());  // column-major -> row-major
  const Coord ld{static_cast<Index>(m.locc)};
  each_local_block(m, [&](const Box& box, Index lr0, Index lc0) {
    handles.push_back(a.put_nb(box.lo(), box.hi(), staging.data() + lr0 * m.locc + lc0, ld));
  });
  for (auto& h : handles) h.wait();
}

namespace {

// Global index of local row (or column) `l` of a dimension dealt in nb-blocks over `procs`
// processes, this process at position `me` (source process 0).
Index global_of(Index l, int nb, int me, int procs) { return (l / nb * procs + me) * nb + l % nb; }

template <class T>
bool finite(const T& x) {
  if constexpr (std::is_floating_point_v<T>) return std::isfinite(x);
  else return std::isfinite(x.real()) && std::isfinite(x.imag());
}

}  // namespace

template <class T>
void require_finite(const char* op, const char* arg, const Array& array, const CyclicMatrix<T>& m, MPI_Comm comm,
                    Reads reads) {
  // The smallest row-major offset (in the array) of a non-finite local element.
  const Index array_cols = m.holds == Holds::transpose ? m.rows : m.cols;
  std::int64_t first = INT64_MAX;
  for (Index j = 0; j < m.locc; ++j)
    for (Index i = 0; i < m.locr; ++i) {
      if (finite(m.local[static_cast<std::size_t>(j * m.lld() + i)])) continue;
      const Index r = global_of(i, m.nb, m.myrow, m.nprow), c = global_of(j, m.nb, m.mycol, m.npcol);
      const Index ar = m.holds == Holds::transpose ? c : r, ac = m.holds == Holds::transpose ? r : c;
      if (reads == Reads::lower_triangle && ac > ar) continue;
      first = std::min<std::int64_t>(first, ar * array_cols + ac);
    }
  rma::collective_serving(op, [&](MPI_Request* r) {
    return MPI_Iallreduce(MPI_IN_PLACE, &first, 1, MPI_INT64_T, MPI_MIN, comm, r);
  });
  if (first == INT64_MAX) return;
  reject(op, arg, array.name() + " with dims " + array.dims().str(),
         "element (" + std::to_string(first / array_cols + 1) + ", " + std::to_string(first % array_cols + 1) +
             ") (one-based) is not finite (NaN or infinity); nothing was written");
}

template <class T>
int first_zero_diagonal(const CyclicMatrix<T>& m, MPI_Comm comm) {
  int first = INT_MAX;
  for (Index j = 0; j < m.locc; ++j) {
    const Index k = global_of(j, m.nb, m.mycol, m.npcol);
    if ((k / m.nb) % m.nprow != m.myrow || k >= m.rows) continue;  // U(k, k) is another row's
    const Index i = k / (static_cast<Index>(m.nb) * m.nprow) * m.nb + k % m.nb;
    if (m.local[static_cast<std::size_t>(j * m.lld() + i)] == T(0)) first = std::min(first, static_cast<int>(k) + 1);
  }
  rma::collective_serving("linalg: the first zero pivot", [&](MPI_Request* r) {
    return MPI_Iallreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm, r);
  });
  return first == INT_MAX ? 0 : first;
}

template <class T>
void keep_half_triangle(CyclicMatrix<T>& m, bool upper, bool halve_diagonal) {
  for (Index j = 0; j < m.locc; ++j)
    for (Index i = 0; i < m.locr; ++i) {
      const Index r = global_of(i, m.nb, m.myrow, m.nprow), c = global_of(j, m.nb, m.mycol, m.npcol);
      T& x = m.local[static_cast<std::size_t>(j * m.lld() + i)];
      if (r == c) {
        if (halve_diagonal) x /= T(2);
      } else if (upper ? r > c : r < c) {
        x = T(0);
      }
    }
}

#define ARMADA_LINALG_CHECKS(T)                                                                              \
  template bool in_place<T>(const Array&, const CyclicMatrix<T>&);                                           \
  template void require_finite<T>(const char*, const char*, const Array&, const CyclicMatrix<T>&, MPI_Comm, Reads); \
  template int first_zero_diagonal<T>(const CyclicMatrix<T>&, MPI_Comm);                                     \
  template void keep_half_triangle<T>(CyclicMatrix<T>&, bool, bool);
ARMADA_LINALG_CHECKS(float)
ARMADA_LINALG_CHECKS(double)
ARMADA_LINALG_CHECKS(std::complex<float>)
ARMADA_LINALG_CHECKS(std::complex<double>)
#undef ARMADA_LINALG_CHECKS

template struct CyclicMatrix<float>;
template struct CyclicMatrix<double>;
template struct CyclicMatrix<std::complex<float>>;
template struct CyclicMatrix<std::complex<double>>;
template class Redistribution<float>;
template class Redistribution<double>;
template class Redistribution<std::complex<float>>;
template class Redistribution<std::complex<double>>;

}  // namespace armada::linalg::detail
