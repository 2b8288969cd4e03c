// Thin collectives over MPI, with the operations ARMCI programs use (armci_msg_*gop).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "armada/rma/error.hpp"
#include "armada/rma/group.hpp"

namespace armada::rma {

enum class ReduceOp : int {
  Sum, Prod, Min, Max,
  AbsMax,   ///< max |x|  (ARMCI "absmax")
  AbsMin,   ///< min |x|  (ARMCI "absmin")
  BitOr, BitAnd, BitXor,   ///< integer types only
  LogicalOr, LogicalAnd,   ///< integer types only
};

/// The reduction an operator name of ARMCI, GA and TCGMSG gives: "+", "*", "max", "min",
/// "absmax", "absmin", and for integer types "or", "and", "xor", "|", "&", "^", "||", "&&",
/// "bor", "band", "lor", "land". As ARMCI, only the leading characters count: GA's and TCGMSG's
/// Fortran callers pass Fortran strings (no NUL, other text after them), so a name is matched by
/// prefix and nothing after a match is read ("||" is tried before "|"). 0 when `op` names none.
const ReduceOp* reduce_op_named(const char* op) noexcept;
/// The names reduce_op_named knows, for messages.
inline constexpr const char* kReduceOpNames = "+ * max min absmax absmin, and for integers or and xor | & ^ || && bor band lor land";
/// Whether `op` needs an integer type (bitwise and logical reductions).
constexpr bool integer_only(ReduceOp op) noexcept { return op >= ReduceOp::BitOr; }

/// In-place reduction of `data` over `group`; every member gets the result. T is int, long,
/// long long, float or double. Collective over `group`.
template <class T>
void allreduce(std::span<T> data, ReduceOp op, const Group& group = Group::world());

/// Broadcasts `bytes` bytes from group rank `root` (any size: large buffers go in pieces).
void broadcast(void* buffer, std::size_t bytes, int root, const Group& group = Group::world());

/// Completes `request` (a nonblocking MPI collective this rank started, or any MPI request) the
/// way Armada's own collectives wait: executing meanwhile what this process owes other ranks (the
/// server transport's node server requests, when its thread gets no core), spinning briefly,
/// then yielding, then sleeping in short slices. For code above rma that calls MPI collectives
/// itself: a blocking one would leave this rank's node unserved while the other members may need
/// it to arrive. An MPI error of the request throws SystemError naming `operation`. Without the
/// runtime it is MPI_Wait.
void wait_serving(MPI_Request& request, const char* operation);

/// Starts a nonblocking MPI collective, `start(&request)` returning its MPI code (a lambda that
/// calls MPI_Iallreduce, MPI_Ibarrier, ...), and completes it with wait_serving: how code above
/// rma runs an MPI collective of its own without leaving its node unserved. A start that fails
/// throws SystemError naming `operation`.
template <class Start>
void collective_serving(const char* operation, Start&& start) {
  MPI_Request request = MPI_REQUEST_NULL;
  if (const int code = start(&request); code != MPI_SUCCESS)
    throw SystemError(operation, error_message(operation, "an MPI collective failed to start (MPI error " +
                                                              std::to_string(code) + ")"));
  wait_serving(request, operation);
}

/// Every member's `bytes` bytes (`mine`) into `all` (group size x bytes, in group rank order),
/// waiting as wait_serving does. A building block like collective_serving, for a collective call
/// that has made its own agreement: it checks nothing across members. Over the world and groups
/// of more than 16 members it sends ceil(log2 P) messages a rank (Bruck's algorithm on a private
/// duplicate of the group's communicator, made at the first call), where MPI_Iallgather in Open
/// MPI 4.1 sends one to every member (and leaves the MPI library's per-peer state for every rank
/// behind: docs/scaling.md); over a smaller group, MPI_Iallgather. Throws
/// InvalidArgument naming `operation` if this rank is not a member or a pointer is null, and
/// SystemError for an MPI error (members in different calls).
void allgather_serving(const void* mine, std::size_t bytes, void* all, const Group& group, const char* operation);

/// The arguments of a collective call that every member must pass alike, in argument order, each
/// as (name, value as text): e.g. {{"dims", "[10, 20]"}, {"type", "double"}}.
using MustMatch = std::vector<std::pair<std::string, std::string>>;

/// Agreement for collective calls built on rma (array creation, ...): `error` is what this
/// member's local part of the call threw (null if it succeeded). Collective over `group`: if any
/// member failed, every member throws — the failing member its own error, the others an error
/// of the same kind naming the failed rank and repeating its message — so no member is left
/// waiting in a collective that a failed member will never reach. If no member failed but the
/// members passed different `same` arguments, every member throws InvalidArgument naming the
/// first argument that differs and two members' values. `operation` itself is compared the same
/// way: members in different collective calls (one syncs, another zeroes an array) all throw
/// InvalidArgument naming each call and its ranks, instead of mismatched MPI collectives ending
/// the job or hanging. So the agreement must be the first collective of every call. One
/// reduction when all is well.
void agree_on(const char* operation, std::exception_ptr error, const Group& group = Group::world(),
              const MustMatch& same = {});

/// While alive, names the public entry point this thread is in (GA_Zero, armada_ga_sync, ...):
/// when members of a group are in different collective calls, the error names each member's
/// entry point beside its collective. The outermost one on the thread counts; costs a
/// thread-local store.
class EntryPoint {
 public:
  explicit EntryPoint(const char* name) noexcept;
  ~EntryPoint();
  EntryPoint(const EntryPoint&) = delete;
  EntryPoint& operator=(const EntryPoint&) = delete;
  /// The outermost live entry point's name, or nullptr.
  static const char* current() noexcept;

 private:
  const char* outer_;
};

/// How many agreements (agree_on calls) this thread has entered. A wrapper that checks arguments
/// of its own before calling a collective compares it across a failure: unchanged means the
/// failure came before the collective's agreement, where the other members now wait, so the
/// wrapper must agree in its place (arrays::run_as_collective).
std::uint64_t agreements_entered() noexcept;

/// Runs `local` (this member's part of collective call `operation` that may throw), then agree_on().
template <class F>
void agree(const char* operation, F&& local, const Group& group = Group::world(), const MustMatch& same = {}) {
  std::exception_ptr error;
  try {
    local();
  } catch (...) {
    error = std::current_exception();
  }
  agree_on(operation, error, group, same);
}

}  // namespace armada::rma
