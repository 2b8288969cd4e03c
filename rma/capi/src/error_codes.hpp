// The ARMCI C API's return code of each error kind: the one table report_current_exception
// consults (the tests check it row by row).
#pragma once

// The library is compiled with hidden visibility: armci.h's declarations are the ABI (as in
// internal.hpp), whichever header includes it first.
#pragma GCC visibility push(default)
#include <armci.h>
#pragma GCC visibility pop

#include "armada/rma/error.hpp"

namespace armada::armci {

using rma::ErrorKind;

inline constexpr rma::ErrorCodeTable<int> error_codes{{{
    {ErrorKind::argument, ARMADA_ARMCI_EARG},
    {ErrorKind::handle, ARMADA_ARMCI_EARG},  // ARMCI's handles are arguments like any other
    {ErrorKind::type, ARMADA_ARMCI_EARG},
    {ErrorKind::state, ARMADA_ARMCI_ESTATE},
    {ErrorKind::unsupported, ARMADA_ARMCI_EUNSUPPORTED},
    {ErrorKind::system, ARMADA_ARMCI_ESYSTEM},
    {ErrorKind::internal, ARMADA_ARMCI_EINTERNAL},
    {ErrorKind::singular, ARMADA_ARMCI_EINTERNAL},  // no linear algebra under ARMCI
    {ErrorKind::not_positive_definite, ARMADA_ARMCI_EINTERNAL},
    {ErrorKind::no_convergence, ARMADA_ARMCI_EINTERNAL},
}}};

}  // namespace armada::armci
