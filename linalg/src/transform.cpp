// transpose, symmetrize and conjugate (see transform.hpp).
#include <complex>
#include <type_traits>
#include <vector>

#include "armada/linalg/transform.hpp"
#include "internal.hpp"

namespace armada::linalg::detail {

namespace {

// a = (a + tᵀ) / 2 over this rank's block (rows x cols, lda), where t (cols x rows, dense) is
// the mirror block fetched before anybody wrote.
template <class T>
void average_with_mirror(T* a, Index lda, Index rows, Index cols, const T* t) {
  const T half(0.5);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) a[i * lda + j] = (a[i * lda + j] + t[j * rows + i]) * half;
}

// Every block this rank owns (one, or a block-cyclic array's many) averaged with its mirror.
template <class T>
void symmetrize_owned(Array& a) {
  const std::vector<arrays::LocalView<void>> views = a.access_blocks();
  std::vector<std::vector<T>> mirrors(views.size());
  for (std::size_t i = 0; i < views.size(); ++i) {
    const Box mine = Box::of(views[i].lo, views[i].hi);
    if (views[i].empty()) continue;
    mirrors[i].resize(static_cast<std::size_t>(mine.rows() * mine.cols()));
    a.get({mine.c0, mine.r0}, {mine.c1, mine.r1}, mirrors[i].data());
  }
  a.sync();  // every rank holds its mirror blocks before anybody writes
  for (std::size_t i = 0; i < views.size(); ++i) {
    const Box mine = Box::of(views[i].lo, views[i].hi);
    if (!mirrors[i].empty())
      average_with_mirror(static_cast<T*>(views[i].data), views[i].stride[0], mine.rows(), mine.cols(), mirrors[i].data());
  }
  a.release_update();
}

// conj over this rank's blocks.
template <class T>
void conjugate_owned(Array& a) {
  if constexpr (!std::is_floating_point_v<T>) {
    for (const arrays::LocalView<void>& view : a.access_blocks()) {
      const Box mine = Box::of(view.lo, view.hi);
      T* p = static_cast<T*>(view.data);
      for (Index i = 0; i < mine.rows(); ++i)
        for (Index j = 0; j < mine.cols(); ++j) p[i * view.stride[0] + j] = std::conj(p[i * view.stride[0] + j]);
    }
    a.release_update();
  }
}

}  // namespace

void transpose(const Array& a, Array& b) {
  constexpr const char* op = "linalg::transpose";
  begin_collective(op, b, [&] {
    require_matrix(op, "a", a);
    require_matrix(op, "b", b);
    require_like(op, "b", b, "a", a);
    require_distinct(op, "b", b, "a", a);
    if (b.dims()[0] != a.dims()[1] || b.dims()[1] != a.dims()[0])
      reject(op, "b", b.name() + " with dims " + b.dims().str(),
             "must have the reversed dims of a (" + a.dims().str() + ")");
  }, {arrays::same_shape("a", a), arrays::same_shape("b", b)});
  // The arrays layer's transposing copy is owner-computes over B with one patch get per block.
  arrays::detail::copy_patch(a, arrays::full_lo(a), arrays::full_hi(a), b, arrays::full_lo(b),
                             arrays::full_hi(b), true);
}

void symmetrize(Array& a) {
  constexpr const char* op = "linalg::symmetrize";
  begin_collective(op, a, [&] {
    require_square(op, "a", a);
  }, {arrays::same_shape("a", a)});
  dispatch(a, [&]<class T>() { symmetrize_owned<T>(a); });
  a.sync();
}

void conjugate(Array& a) {
  constexpr const char* op = "linalg::conjugate";
  begin_collective(op, a, [&] { require_matrix(op, "a", a); }, {arrays::same_shape("a", a)});
  dispatch(a, [&]<class T>() { conjugate_owned<T>(a); });
  a.sync();
}

}  // namespace armada::linalg::detail
