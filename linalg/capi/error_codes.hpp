// The linalg C API's code of each error kind: the arrays C API's ARMADA_GA_ERR_* codes and the
// three numerical ARMADA_LA_ERR_* ones. The one table its guard consults (the tests check it
// row by row).
#pragma once

#include "armada/linalg/c_api.h"
#include "armada/rma/error.hpp"

namespace armada::linalg::capi {

inline constexpr rma::ErrorCodeTable<int> error_codes{{{
    {rma::ErrorKind::argument, ARMADA_GA_ERR_ARG},
    {rma::ErrorKind::handle, ARMADA_GA_ERR_HANDLE},
    {rma::ErrorKind::type, ARMADA_GA_ERR_TYPE},
    {rma::ErrorKind::state, ARMADA_GA_ERR_STATE},
    {rma::ErrorKind::unsupported, ARMADA_GA_ERR_UNSUPPORTED},
    {rma::ErrorKind::system, ARMADA_GA_ERR_SYSTEM},
    {rma::ErrorKind::internal, ARMADA_GA_ERR_INTERNAL},
    {rma::ErrorKind::singular, ARMADA_LA_ERR_SINGULAR},
    {rma::ErrorKind::not_positive_definite, ARMADA_LA_ERR_NOT_POSITIVE_DEFINITE},
    {rma::ErrorKind::no_convergence, ARMADA_LA_ERR_NO_CONVERGENCE},
}}};

}  // namespace armada::linalg::capi
