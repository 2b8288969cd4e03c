// The arrays C API's return code of each error kind (armada/rma/error.hpp): the one table its
// functions consult, and the base of the codes of the APIs built on it (linalg's, GA's). C++.
#pragma once

#include "armada/arrays/c_api.h"
#include "armada/rma/error.hpp"

namespace armada::arrays::capi {

inline constexpr rma::ErrorCodeTable<int> error_codes{{{
    {rma::ErrorKind::argument, ARMADA_GA_ERR_ARG},
    {rma::ErrorKind::handle, ARMADA_GA_ERR_HANDLE},
    {rma::ErrorKind::type, ARMADA_GA_ERR_TYPE},
    {rma::ErrorKind::state, ARMADA_GA_ERR_STATE},
    {rma::ErrorKind::unsupported, ARMADA_GA_ERR_UNSUPPORTED},
    {rma::ErrorKind::system, ARMADA_GA_ERR_SYSTEM},
    {rma::ErrorKind::internal, ARMADA_GA_ERR_INTERNAL},
    {rma::ErrorKind::singular, ARMADA_GA_ERR_INTERNAL},  // arrays do no linear algebra
    {rma::ErrorKind::not_positive_definite, ARMADA_GA_ERR_INTERNAL},
    {rma::ErrorKind::no_convergence, ARMADA_GA_ERR_INTERNAL},
}}};

}  // namespace armada::arrays::capi
