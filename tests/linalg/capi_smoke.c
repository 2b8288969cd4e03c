/* The linalg C API header is plain C: this translation unit compiles it as C11 and names every
 * function (linked into linalg_test_capi, never called). */
#include "armada/linalg/c_api.h"

void* armada_linalg_capi_symbols[] = {
    (void*)armada_la_error_message, (void*)armada_la_error_index,  (void*)armada_la_gemm,
    (void*)armada_la_matmul_patch,  (void*)armada_la_transpose,    (void*)armada_la_symmetrize,
    (void*)armada_la_lu_solve,      (void*)armada_la_cholesky_solve, (void*)armada_la_eigen_symmetric,
    (void*)armada_la_inverse,       (void*)armada_la_set_blas_threads};
