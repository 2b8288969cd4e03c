// Typed front ends of the BLAS routines linalg uses (row-major cblas; blasint is OpenBLAS's int).
#pragma once

#include <cblas.h>

#include <complex>

namespace armada::linalg::detail {

inline CBLAS_TRANSPOSE cblas_op(int op) {
  return op == 0 ? CblasNoTrans : op == 1 ? CblasTrans : CblasConjTrans;
}

/// C (m x n, ldc) = alpha * op(A) * op(B) + beta * C, row-major.
inline void blas_gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n, blasint k,
                      float alpha, const float* a, blasint lda, const float* b, blasint ldb, float beta,
                      float* c, blasint ldc) {
  cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
inline void blas_gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n, blasint k,
                      double alpha, const double* a, blasint lda, const double* b, blasint ldb,
                      double beta, double* c, blasint ldc) {
  cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}
inline void blas_gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n, blasint k,
                      std::complex<float> alpha, const std::complex<float>* a, blasint lda,
                      const std::complex<float>* b, blasint ldb, std::complex<float> beta,
                      std::complex<float>* c, blasint ldc) {
  cblas_cgemm(CblasRowMajor, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}
inline void blas_gemm(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, blasint m, blasint n, blasint k,
                      std::complex<double> alpha, const std::complex<double>* a, blasint lda,
                      const std::complex<double>* b, blasint ldb, std::complex<double> beta,
                      std::complex<double>* c, blasint ldc) {
  cblas_zgemm(CblasRowMajor, ta, tb, m, n, k, &alpha, a, lda, b, ldb, &beta, c, ldc);
}

}  // namespace armada::linalg::detail
