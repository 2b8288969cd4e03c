// The exit code with which a GA call's error ends the job (MPI_Abort), per error kind: the linalg
// C API's code of the kind (the arrays C API's, and ARMADA_LA_ERR_* for the numerical kinds), so
// that a bad argument ends the job with 1 as before. abort_current_exception consults it.
#pragma once

#include "armada/linalg/c_api_errors.hpp"

namespace armada::ga {

inline constexpr rma::ErrorCodeTable<int> abort_codes = linalg::capi::error_codes;

}  // namespace armada::ga
