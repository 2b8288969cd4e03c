// Which agreement (core/agree.hpp) each rank is waiting in, readable one-sidedly by the others.
//
// An agreement's reduction completes only when every member has arrived; MPI does not say who is
// missing. So each rank writes, in its own slot of a small segment allocated at init, which
// agreement it is waiting in (local stores: nothing moves on the success path), and a member
// whose wait outlasts ARMADA_STALL_WARN reads every member's slot with rma gets (progress is
// unilateral: the missing rank need not call Armada) and names the members that have not
// arrived, and where each is instead: in another collective call, or in none.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace armada::rma::detail {

/// An agreement as its members know it: the members' set (a hash of their world ranks) and how
/// many agreements this rank has entered on that communicator, this one included (equal on
/// every member of the same agreement).
struct Ticket {
  std::uint64_t members = 0;
  std::uint64_t seq = 0;
};

/// Allocates the slots (collective over the world, at the end of init); forgets them before
/// finalize frees the segment. Before open and after close, arrive/depart only count.
void open_arrivals();
void close_arrivals() noexcept;

/// Marks this rank as waiting in the agreement of collective `op` on `comm` (named with the
/// thread's EntryPoint, if any); returns its ticket.
Ticket arrive(MPI_Comm comm, const char* op);
/// Marks this rank as in no agreement.
void depart() noexcept;

/// Says on stderr, once, which members of `comm` have not arrived at `ticket`'s agreement of
/// `call` after `seconds`, and where each is; nothing if all have arrived meanwhile.
void warn_not_arrived(MPI_Comm comm, const Ticket& ticket, const char* call, int seconds);

}  // namespace armada::rma::detail
