// Sparse matrices, the CSR kernels of the products (memory bound: 16- or 32-bit column indices,
// four interleaved partial sums per row, the value and index streams prefetched ahead).
#include "sparse/sparse_internal.hpp"

namespace armada::arrays::sparse_detail {
namespace {

// Entries ahead of the one being multiplied that row_dot prefetches. The value and index streams
// are read once per product, from memory, while the reads of x at the indices hit the caches at
// random: with the hardware prefetcher alone the loop waits on the streams (NAS CG class B's
// product, 2 ranks on the AMD EPYC VM: 10.0 ms without, 7.6 ms with; issue 54, docs/apps.md).
constexpr std::int64_t kPrefetchAhead = 64;

// sum_k val[k] x[col[k]] over [b, e), in four interleaved partial sums: a single running sum
// would make every addition wait for the previous one (the loop would be latency bound).
template <class T, class C>
inline T row_dot(const T* __restrict val, const C* __restrict col, const T* __restrict x, std::int64_t b,
                 std::int64_t e) {
  T s0(0), s1(0), s2(0), s3(0);
  std::int64_t k = b;
  for (; k + 4 <= e; k += 4) {
    __builtin_prefetch(val + k + kPrefetchAhead, 0, 0);  // read, no temporal locality
    __builtin_prefetch(col + k + kPrefetchAhead, 0, 0);
    s0 = mul_add(val[k], x[col[k]], s0);
    s1 = mul_add(val[k + 1], x[col[k + 1]], s1);
    s2 = mul_add(val[k + 2], x[col[k + 2]], s2);
    s3 = mul_add(val[k + 3], x[col[k + 3]], s3);
  }
  for (; k < e; ++k) s0 = mul_add(val[k], x[col[k]], s0);
  return (s0 + s1) + (s2 + s3);
}

}  // namespace

// y[r] = alpha * (row r of c) . x + beta * y[r] for every row of c.
template <class T>
void csr_rows(const PlanCsr<T>& c, const T* __restrict x, T* __restrict y, T alpha, T beta) {
  const std::int64_t* ptr = c.ptr.data();
  const std::size_t n = c.rows();
  const bool overwrite = is_zero(beta);
  c.col.with_indices([&](const auto* col) {
    for (std::size_t r = 0; r < n; ++r) {
      const T sum = row_dot(c.val.data(), col, x, ptr[r], ptr[r + 1]);
      y[r] = overwrite ? mul(alpha, sum) : mul_add(beta, y[r], mul(alpha, sum));
    }
  });
}

// y[rows[i]] += alpha * (row i of c) . x
template <class T>
void csr_rows_add(const PlanCsr<T>& c, const Local* rows, const T* __restrict x, T* __restrict y, T alpha) {
  const std::int64_t* ptr = c.ptr.data();
  c.col.with_indices([&](const auto* col) {
    for (std::size_t i = 0; i < c.rows(); ++i)
      y[rows[i]] = mul_add(alpha, row_dot(c.val.data(), col, x, ptr[i], ptr[i + 1]), y[rows[i]]);
  });
}

// y[col[k]] += alpha * val[k] * x[row]: the transposed product of c's rows (rows[i] names the
// local row of c's row i; null: the identity).
template <class T>
void csr_transposed_add(const PlanCsr<T>& c, const Local* rows, const T* __restrict x, T* __restrict y, T alpha) {
  c.col.with_indices([&](const auto* col) {
    for (std::size_t i = 0; i < c.rows(); ++i) {
      const T xa = mul(alpha, x[rows ? static_cast<std::size_t>(rows[i]) : i]);
      for (auto k = static_cast<std::size_t>(c.ptr[i]); k < static_cast<std::size_t>(c.ptr[i + 1]); ++k)
        y[col[k]] = mul_add(c.val[k], xa, y[col[k]]);
    }
  });
}

#define ARMADA_SPARSE_KERNELS(T)                                                   \
  template void csr_rows<T>(const PlanCsr<T>&, const T*, T*, T, T);                \
  template void csr_rows_add<T>(const PlanCsr<T>&, const Local*, const T*, T*, T); \
  template void csr_transposed_add<T>(const PlanCsr<T>&, const Local*, const T*, T*, T);
ARMADA_SPARSE_KERNELS(double)
ARMADA_SPARSE_KERNELS(std::complex<double>)
#undef ARMADA_SPARSE_KERNELS

}  // namespace armada::arrays::sparse_detail
