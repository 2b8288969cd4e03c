/* The C API of armada::linalg, over the handles of the arrays C API (armada/arrays/c_api.h), for
 * C programs and the Fortran module.
 *
 * Conventions as in the arrays C API: zero-based half-open [lo, hi) patches of 2 int64_t
 * entries, row-major arrays, scalars (alpha, beta) pointing to one element of the arrays' type.
 * op: ARMADA_LA_NOTRANS, ARMADA_LA_TRANS, ARMADA_LA_CONJTRANS. Every function is collective
 * over the arrays' group and returns ARMADA_GA_OK or an error code; on ARMADA_GA_ERR_ARG,
 * _HANDLE or _TYPE nothing has moved and every array is unchanged. The numerical errors below
 * leave every array of the call unchanged too. armada_la_error_message() gives the calling
 * thread's last message (rank, operation, argument, value, or the failing pivot / minor). */
#ifndef ARMADA_LINALG_C_API_H
#define ARMADA_LINALG_C_API_H

#include <stdint.h>

#include "armada/arrays/c_api.h"

#ifdef __cplusplus
extern "C" {
#endif

enum { ARMADA_LA_NOTRANS = 0, ARMADA_LA_TRANS = 1, ARMADA_LA_CONJTRANS = 2 };

/* Return codes beyond the arrays API's ARMADA_GA_* ones. */
enum {
  ARMADA_LA_ERR_SINGULAR = 20,          /* LU: a pivot is exactly zero (armada_la_error_index: which) */
  ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE = 21, /* Cholesky: the leading minor of order index is not */
  ARMADA_LA_ERR_NO_CONVERGENCE = 22     /* eigensolver did not converge */
};

/* The calling thread's last error message ("" if none), and the one-based pivot / minor / count
 * of its last numerical error (0 if none). */
const char* armada_la_error_message(void);
int64_t armada_la_error_index(void);

/* C = alpha op(A) op(B) + beta C on whole arrays, or on patches (GA_Matmul_patch: patches as
 * stored, op applied to them). */
int armada_la_gemm(int op_a, int op_b, const void* alpha, int a, int b, const void* beta, int c);
int armada_la_matmul_patch(int op_a, int op_b, const void* alpha, int a, const int64_t alo[], const int64_t ahi[],
                           int b, const int64_t blo[], const int64_t bhi[], const void* beta, int c,
                           const int64_t clo[], const int64_t chi[]);
/* b = transpose(a); a = (a + transpose(a)) / 2; a = conj(a) (nothing for real types). */
int armada_la_transpose(int a, int b);
int armada_la_symmetrize(int a);
int armada_la_conjugate(int a);
/* op(A) X = B (B overwritten by X); A X = B for symmetric positive definite A; eigenvalues
 * (n values of the real type: float for float and complex float arrays, else double) and
 * eigenvectors (columns of v); inv = A^-1 (inv may be a); inv = A^-1 for symmetric positive
 * definite A, read from its lower triangle (Cholesky; inv may be a). A is never modified (unless
 * inv or v is a). */
int armada_la_lu_solve(int op, int a, int b);
int armada_la_cholesky_solve(int a, int b);
int armada_la_eigen_symmetric(int a, int v, void* eigenvalues);
int armada_la_inverse(int a, int inv);
int armada_la_cholesky_inverse(int a, int inv);
/* BLAS threads per rank (ARMADA_LINALG_BLAS_THREADS, default 1). */
int armada_la_set_blas_threads(int n);

#ifdef __cplusplus
}
#endif

#endif
