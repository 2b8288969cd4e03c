// Sparse matrices, the CSR kernels of the products (memory bound: 16- or 32-bit column indices,
// four interleaved partial sums per row; for double on CPUs with AVX-512, 8 entries per
// instruction with x gathered).
#include "sparse/sparse_internal.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ARMADA_SPARSE_GATHER 1
#endif

namespace armada::arrays::sparse_detail {
namespace {

// sum_k val[k] x[col[k]] over [b, e), in four interleaved partial sums: a single running sum
// would make every addition wait for the previous one (the loop would be latency bound).
template <class T, class C>
inline T row_dot(const T* __restrict val, const C* __restrict col, const T* __restrict x, std::int64_t b,
                 std::int64_t e) {
  T s0(0), s1(0), s2(0), s3(0);
  std::int64_t k = b;
  for (; k + 4 <= e; k += 4) {
    s0 = mul_add(val[k], x[col[k]], s0);
    s1 = mul_add(val[k + 1], x[col[k + 1]], s1);
    s2 = mul_add(val[k + 2], x[col[k + 2]], s2);
    s3 = mul_add(val[k + 3], x[col[k + 3]], s3);
  }
  for (; k < e; ++k) s0 = mul_add(val[k], x[col[k]], s0);
  return (s0 + s1) + (s2 + s3);
}

#if ARMADA_SPARSE_GATHER
// GCC 12's AVX-512 intrinsics start from self-initialized `__Y` registers, which
// -Wmaybe-uninitialized reports wherever they are inlined.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
// The double rows with AVX-512: a row's entries 8 at a time (column indices widened to 32 bits,
// the 8 x values gathered, one fused multiply-add), two vector sums, the last < 8 entries scalar.
// A scalar entry costs three loads (index, x, value); 8 entries here cost a gather, one index and
// one value load, so rows held in cache (NPB CG class A, 10 MB of matrix per rank at 2 ranks)
// run on fewer load slots. The sums are associated differently from row_dot's and use FMA, so
// results differ from the scalar kernel's in the last bits (the products' tests compare with a
// tolerance; NPB's verification holds to 1e-10).
[[gnu::target("avx512f")]] inline __m256i columns8(const std::uint16_t* col) {
  return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(col)));
}
[[gnu::target("avx512f")]] inline __m256i columns8(const Local* col) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(col));
}

template <class C>
[[gnu::target("avx512f")]] inline double row_dot_gather(const double* __restrict val, const C* __restrict col,
                                                        const double* __restrict x, std::int64_t b, std::int64_t e) {
  __m512d s0 = _mm512_setzero_pd(), s1 = _mm512_setzero_pd();
  std::int64_t k = b;
  for (; k + 16 <= e; k += 16) {
    s0 = _mm512_fmadd_pd(_mm512_loadu_pd(val + k), _mm512_i32gather_pd(columns8(col + k), x, 8), s0);
    s1 = _mm512_fmadd_pd(_mm512_loadu_pd(val + k + 8), _mm512_i32gather_pd(columns8(col + k + 8), x, 8), s1);
  }
  if (k + 8 <= e) {
    s0 = _mm512_fmadd_pd(_mm512_loadu_pd(val + k), _mm512_i32gather_pd(columns8(col + k), x, 8), s0);
    k += 8;
  }
  double s = _mm512_reduce_add_pd(_mm512_add_pd(s0, s1));
  for (; k < e; ++k) s += val[k] * x[col[k]];
  return s;
}

// y[r] = alpha * row_r . x + beta * y[r] (rows == null) or y[rows[r]] += alpha * row_r . x.
template <class C>
[[gnu::target("avx512f")]] void csr_rows_gather(const PlanCsr<double>& c, const C* __restrict col, const Local* rows,
                                                const double* __restrict x, double* __restrict y, double alpha,
                                                double beta) {
  const std::int64_t* ptr = c.ptr.data();
  const double* val = c.val.data();
  const std::size_t n = c.rows();
  for (std::size_t r = 0; r < n; ++r) {
    const double sum = alpha * row_dot_gather(val, col, x, ptr[r], ptr[r + 1]);
    if (rows) y[rows[r]] += sum;
    else y[r] = beta == 0 ? sum : beta * y[r] + sum;
  }
}

// Whether this CPU runs the AVX-512 kernels (asked once).
bool gather_kernels() {
  static const bool yes = __builtin_cpu_supports("avx512f");
  return yes;
}

// The double kernels of csr_rows and csr_rows_add when the CPU has AVX-512; false otherwise.
template <class T>
bool csr_rows_fast(const PlanCsr<T>& c, const Local* rows, const T* x, T* y, T alpha, T beta) {
  if constexpr (std::is_same_v<T, double>) {
    if (!gather_kernels()) return false;
    c.col.with_indices([&](const auto* col) { csr_rows_gather(c, col, rows, x, y, alpha, beta); });
    return true;
  }
  return false;
}
#pragma GCC diagnostic pop
#else
template <class T>
bool csr_rows_fast(const PlanCsr<T>&, const Local*, const T*, T*, T, T) { return false; }
#endif

}  // namespace

// y[r] = alpha * (row r of c) . x + beta * y[r] for every row of c.
template <class T>
void csr_rows(const PlanCsr<T>& c, const T* __restrict x, T* __restrict y, T alpha, T beta) {
  if (csr_rows_fast(c, nullptr, x, y, alpha, beta)) return;
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
  if (csr_rows_fast(c, rows, x, y, alpha, T(1))) return;
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
