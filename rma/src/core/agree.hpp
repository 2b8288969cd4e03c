// Collective entry points succeed or fail together (the public face: rma::agree in
// armada/rma/collectives.hpp).
//
// A collective call (allocate, array or mutex creation, group creation, ...) has parts that can
// fail on one rank only: a local argument check, /dev/shm full on one node, a window MPI refuses.
// If that rank threw straight away, the others would wait in the call's next collective for
// ever. Instead every member runs its failing part inside rma::agree(): all members then learn, in
// one reduction, whether anyone failed, and if so every member throws. The rank that failed
// throws its own error; the others throw an error of the same kind that names that rank and
// repeats its message. The runtime stays usable: nothing of the call is left behind.
#pragma once

#include <mpi.h>

#include <exception>
#include <span>
#include <vector>

#include "armada/rma/collectives.hpp"

namespace armada::rma::detail {

/// Collective over `comm`: throws on every rank if `error` is set on any, or if the members passed
/// different `same` arguments (see above); returns on every rank otherwise. `op` is the operation
/// that the other ranks' errors name.
void agree_on(const char* op, MPI_Comm comm, std::exception_ptr error, const MustMatch& same = {});

/// Every member's `mine` (lengths may differ), in comm rank order: each member's part of the
/// result is all[displs[r] .. displs[r] + counts[r]). Collective over `comm` (two collectives,
/// waiting as wait_polling does; `op` names the call in an MPI error); for error paths and group
/// creation, not for hot paths. T is char or int.
template <class T>
struct Gathered {
  std::vector<T> all;
  std::vector<int> counts, displs;
};
Gathered<char> allgather_varying(const char* op, MPI_Comm comm, std::span<const char> mine);
Gathered<int> allgather_varying(const char* op, MPI_Comm comm, std::span<const int> mine);

}  // namespace armada::rma::detail
