// How a collective call on arrays starts, for arrays itself and the layers built on it (linalg).
//
// A collective call whose argument checks fail on one member only (a bad patch, a destroyed
// array, a different shape) must fail on every member: a member that threw straight away would
// leave the others waiting in the call's first barrier for ever. So every collective entry point
// runs its checks through begin_collective(): each member checks its own arguments, and all
// members agree (rma::agree) on the outcome and on the arguments they must pass alike, in one
// reduction that also serves as the call's opening barrier.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <optional>
#include <string>
#include <utility>

#include "armada/arrays/global_array.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/sync.hpp"

namespace armada::arrays {

/// The group a collective call on `a` runs over: the array's group, also after the array was
/// destroyed (its members still meet in the call); the world for an array never created.
/// Throws InvalidArgument naming `op` on this rank alone when it is not a member of the group
/// (the members do not wait for it).
rma::Group collective_group(const char* op, const Array& a);

/// `a`'s element type, dimensions and id (the same array on every member, not only the same
/// shape) as an argument every member must pass alike, named `argument`.
rma::MustMatch::value_type same_shape(const char* argument, const Array& a);

/// A scalar argument of a call on `a` (one element of a's type at `value`, may be null) as an
/// argument every member must pass alike, named `argument`: alpha, beta, a fill value.
rma::MustMatch::value_type same_value(const char* argument, const Array& a, const void* value);

/// Completes this member's earlier rma operations (fence_all), runs `checks` (this member's
/// argument checks, which may throw) and agrees with every member of `group`: if any member's
/// checks failed, or the members passed different `same` arguments, every member throws before
/// anything moves. Returns when every member has arrived, with every earlier update visible.
template <class F>
void begin_collective(const char* op, const rma::Group& group, F&& checks, const rma::MustMatch& same = {}) {
  rma::fence_all();
  rma::agree(op, std::forward<F>(checks), group, same);
}

/// The group whose members wait in a collective call on the array with handle `id` (Array::id):
/// its group when it is live and this rank a member; the world when no live array has that
/// handle; none when this rank is not a member (nobody waits for it).
std::optional<rma::Group> group_waiting_for(int id);

/// For wrappers with argument checks of their own (the C APIs: handles, index conversions): runs
/// `body`, which checks and then calls one collective of arrays or linalg over `group`. If body
/// fails before that collective's agreement, this member agrees in its place, so the other
/// members, waiting there, fail with it instead of hanging. No `group`: nobody waits.
template <class F>
void run_as_collective(const char* op, const std::optional<rma::Group>& group, F&& body) {
  const std::uint64_t before = rma::agreements_entered();
  try {
    body();
  } catch (...) {
    if (!group || rma::agreements_entered() != before) throw;
    rma::agree_on(op, std::current_exception(), *group);  // rethrows this member's error
    throw;
  }
}

/// The same for a collective on the array with handle `array_id`.
template <class F>
void run_as_collective(const char* op, int array_id, F&& body) {
  run_as_collective(op, group_waiting_for(array_id), std::forward<F>(body));
}

}  // namespace armada::arrays
