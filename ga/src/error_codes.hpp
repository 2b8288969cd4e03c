// The exit code with which a GA call's error ends the job (MPI_Abort), per error kind: the codes
// of Armada's arrays and linalg C APIs, so that an argument error ends the job with 1 as GA's
// own errors do. The one table abort_current_exception consults (the tests check it row by row).
#pragma once

#include "armada/arrays/c_api.h"
#include "armada/linalg/c_api.h"
#include "armada/rma/error.hpp"

namespace armada::ga {

inline constexpr rma::ErrorCodeTable<int> abort_codes{{{
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

}  // namespace armada::ga
