// The linalg C API's return code of each error kind: the arrays C API's codes, and the three
// numerical kinds' ARMADA_LA_ERR_* codes. The one table its functions consult. C++.
#pragma once

#include "armada/arrays/c_api_errors.hpp"
#include "armada/linalg/c_api.h"

namespace armada::linalg::capi {

inline constexpr rma::ErrorCodeTable<int> error_codes =
    arrays::capi::error_codes.with(rma::ErrorKind::singular, ARMADA_LA_ERR_SINGULAR)
        .with(rma::ErrorKind::not_positive_definite, ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE)
        .with(rma::ErrorKind::no_convergence, ARMADA_LA_ERR_NO_CONVERGENCE);

}  // namespace armada::linalg::capi
