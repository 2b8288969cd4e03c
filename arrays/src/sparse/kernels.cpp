// Sparse matrices, the CSR kernels of the products (memory bound: 16- or 32-bit column indices,
// four interleaved partial sums per row, the value and index streams prefetched ahead; for
// double entries on CPUs with AVX2 and FMA, a 4-wide build of the row loop).
#include <immintrin.h>

#include "sparse/sparse_internal.hpp"

#include <stdexcept>

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

// row_dot for double entries, 16 entries a step in four 4-wide sums with fused multiply-adds.
// x is read one element at a time, as in row_dot: AVX2's gather instruction was slower than
// scalar loads on the AMD EPYC VM (NAS CG class A's product, 2 ranks: 440-455 against 410-420
// µs); what the vector build saves is the arithmetic and the value stream's loads (class A,
// whose matrix sits in the caches: 400-455 µs against 435-498 in armada-spmv-bench, 4-8 % of
// armada-cg's time; class B, memory bound: the same).
template <class C>
__attribute__((target("avx2,fma"))) double row_dot_avx2(const double* __restrict val, const C* __restrict col,
                                                         const double* __restrict x, std::int64_t b, std::int64_t e) {
  const auto gather4 = [&](std::int64_t k) __attribute__((target("avx2,fma"))) {
    return _mm256_set_pd(x[col[k + 3]], x[col[k + 2]], x[col[k + 1]], x[col[k]]);
  };
  __m256d s0 = _mm256_setzero_pd(), s1 = _mm256_setzero_pd(), s2 = _mm256_setzero_pd(), s3 = _mm256_setzero_pd();
  std::int64_t k = b;
  for (; k + 16 <= e; k += 16) {
    __builtin_prefetch(val + k + kPrefetchAhead, 0, 0);
    __builtin_prefetch(val + k + kPrefetchAhead + 8, 0, 0);  // 16 doubles span two cache lines
    __builtin_prefetch(col + k + kPrefetchAhead, 0, 0);
    s0 = _mm256_fmadd_pd(_mm256_loadu_pd(val + k), gather4(k), s0);
    s1 = _mm256_fmadd_pd(_mm256_loadu_pd(val + k + 4), gather4(k + 4), s1);
    s2 = _mm256_fmadd_pd(_mm256_loadu_pd(val + k + 8), gather4(k + 8), s2);
    s3 = _mm256_fmadd_pd(_mm256_loadu_pd(val + k + 12), gather4(k + 12), s3);
  }
  for (; k + 4 <= e; k += 4) s0 = _mm256_fmadd_pd(_mm256_loadu_pd(val + k), gather4(k), s0);
  const __m256d s = _mm256_add_pd(_mm256_add_pd(s0, s1), _mm256_add_pd(s2, s3));
  const __m128d h = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
  double sum = _mm_cvtsd_f64(_mm_add_sd(h, _mm_unpackhi_pd(h, h)));
  for (; k < e; ++k) sum += val[k] * x[col[k]];
  return sum;
}

bool cpu_has_avx2() {
  __builtin_cpu_init();  // g_row_kernel's initializer may run before libgcc's own
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

RowKernel g_row_kernel = cpu_has_avx2() ? RowKernel::avx2 : RowKernel::baseline;

// f(dot) with dot(val, col, x, b, e) the row kernel in use for T (the vector build is double's).
template <class T, class F>
void with_row_dot(F&& f) {
  if constexpr (std::is_same_v<T, double>) {
    if (g_row_kernel == RowKernel::avx2) {
      f([](const double* val, const auto* col, const double* x, std::int64_t b, std::int64_t e) {
        return row_dot_avx2(val, col, x, b, e);
      });
      return;
    }
  }
  f([](const T* val, const auto* col, const T* x, std::int64_t b, std::int64_t e) { return row_dot(val, col, x, b, e); });
}

}  // namespace

std::vector<RowKernel> supported_row_kernels() {
  if (cpu_has_avx2()) return {RowKernel::baseline, RowKernel::avx2};
  return {RowKernel::baseline};
}

RowKernel row_kernel() { return g_row_kernel; }

void use_row_kernel(RowKernel kernel) {
  if (kernel == RowKernel::avx2 && !cpu_has_avx2())
    throw std::invalid_argument("arrays: the avx2 row kernel needs a CPU with AVX2 and FMA");
  g_row_kernel = kernel;
}

const char* row_kernel_name(RowKernel kernel) { return kernel == RowKernel::avx2 ? "avx2" : "baseline"; }

// y[r] = alpha * (row r of c) . x + beta * y[r] for every row of c.
template <class T>
void csr_rows(const PlanCsr<T>& c, const T* __restrict x, T* __restrict y, T alpha, T beta) {
  const std::int64_t* ptr = c.ptr.data();
  const std::size_t n = c.rows();
  const bool overwrite = is_zero(beta);
  with_row_dot<T>([&](auto dot) {
    c.col.with_indices([&](const auto* col) {
      for (std::size_t r = 0; r < n; ++r) {
        const T sum = dot(c.val.data(), col, x, ptr[r], ptr[r + 1]);
        y[r] = overwrite ? mul(alpha, sum) : mul_add(beta, y[r], mul(alpha, sum));
      }
    });
  });
}

// y[rows[i]] += alpha * (row i of c) . x
template <class T>
void csr_rows_add(const PlanCsr<T>& c, const Local* rows, const T* __restrict x, T* __restrict y, T alpha) {
  const std::int64_t* ptr = c.ptr.data();
  with_row_dot<T>([&](auto dot) {
    c.col.with_indices([&](const auto* col) {
      for (std::size_t i = 0; i < c.rows(); ++i)
        y[rows[i]] = mul_add(alpha, dot(c.val.data(), col, x, ptr[i], ptr[i + 1]), y[rows[i]]);
    });
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
