// Internals shared by the files of the ARMCI C API: the exception boundary, the PARMCI/ARMCI
// twin pattern, argument conversion, and the state each area keeps (runtime, groups, requests).
// Everything here is built on the public headers of armada::rma only.
#pragma once

#include <armci.h>
#include <armcix.h>

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "armada/rma/rma.hpp"

namespace armada::armci {

namespace rma = armada::rma;

// ---- the exception boundary (error.cpp) ------------------------------------------------------
// No exception may cross into C. Every entry point runs its body inside one of these guards;
// an error is reported once (to the hook, or printed before the job aborts) and turned into
// the call's error value.

/// Reports the exception being handled as a failure of ARMCI call `function` and returns its
/// ARMADA_ARMCI_E* code. Returns only if an error hook is installed. Call inside a catch block.
int report_current_exception(const char* function) noexcept;

/// int calls that return 0 on success: 0, or the error's code.
template <class F>
int guard(const char* function, F&& body) noexcept {
  try {
    std::forward<F>(body)();
    return 0;
  } catch (...) {
    return report_current_exception(function);
  }
}

/// Calls that return a value: body's value, or `on_error`.
template <class R, class F>
R guard_value(const char* function, R on_error, F&& body) noexcept {
  try {
    return std::forward<F>(body)();
  } catch (...) {
    report_current_exception(function);
    return on_error;
  }
}

/// void calls.
template <class F>
void guard_void(const char* function, F&& body) noexcept {
  try {
    std::forward<F>(body)();
  } catch (...) {
    report_current_exception(function);
  }
}

// ARMCI-MPI's profiling interface: PARMCI_X is the implementation and ARMCI_X a weak alias of
// it, so a tool (or a program) that defines ARMCI_X itself wins and can forward to PARMCI_X.
#define ARMADA_WEAK_ALIAS(alias_name, target) \
  extern "C" decltype(target) alias_name __attribute__((weak, alias(#target)));
#define ARMADA_ARMCI_WEAK_ALIAS(name) ARMADA_WEAK_ALIAS(name, P##name)

/// Throws rma::InvalidArgument naming ARMCI call `function`, the argument and its value.
[[noreturn]] void bad_argument(const char* function, const char* argument, const std::string& value,
                               const std::string& reason);

/// A byte count, length or stride given as a signed C integer; negative values are rejected.
template <class I>
std::size_t to_size(const char* function, const char* argument, I value) {
  if constexpr (std::is_signed_v<I>) {
    if (value < 0) bad_argument(function, argument, std::to_string(value), "must not be negative");
  }
  return static_cast<std::size_t>(value);
}

/// A pointer argument that must not be null.
template <class T>
T* not_null(const char* function, const char* argument, T* pointer) {
  if (!pointer) bad_argument(function, argument, "NULL", "must not be null");
  return pointer;
}

/// The data-movement operations, and whether a call waits for its operation.
enum class Kind { Put, Get, Acc };
enum class Completion { Blocking, Nonblocking };

/// A process id argument that must be a world rank.
void check_proc(const char* function, const char* argument, int proc);

/// The accumulate type of an ARMCI_ACC_* code.
rma::AccType acc_type(const char* function, int datatype);

/// Sets the flag of a Put_flag / PutS_flag once the data put before it is complete at `proc`.
void set_flag(const char* function, int* flag, int value, int proc);

// ---- runtime (init.cpp) ----------------------------------------------------------------------

/// Throws rma::StateError unless ARMCI is initialized.
void require_init(const char* function);
/// ARMCI's own duplicate of the world communicator, for armci_msg point-to-point messages.
MPI_Comm message_comm();

// ---- groups (groups.cpp) ---------------------------------------------------------------------

/// A live ARMCI group: the rma group and the communicators of its scopes.
struct GroupInfo {
  rma::Group group{nullptr};
  MPI_Comm node = MPI_COMM_NULL;     // members on the caller's node (SCOPE_NODE)
  MPI_Comm masters = MPI_COMM_NULL;  // lowest member of each node (SCOPE_MASTERS); NULL elsewhere
};

/// The group an ARMCI_Group names; the caller must be a member.
GroupInfo group_of(const char* function, const ARMCI_Group* group);
/// The world group and the default group (ARMCI_Group_set_default).
GroupInfo world_group();
GroupInfo default_group();
void groups_init();
void groups_finalize();

// ---- nonblocking requests (handles.cpp) ------------------------------------------------------

/// Runs `blocking` for a blocking call; for a nonblocking one runs `start` (which returns an
/// rma::Handle) and records the operation under `hdl`, or as implicit if `hdl` is null.
void track(armci_hdl_t* hdl, rma::Handle operation);
template <class Blocking, class Start>
void issue(Completion completion, armci_hdl_t* hdl, Blocking&& blocking, Start&& start) {
  if (completion == Completion::Nonblocking)
    track(hdl, std::forward<Start>(start)());
  else
    std::forward<Blocking>(blocking)();
}
/// True if `hdl` was marked with ARMCI_SET_AGGREGATE_HANDLE.
bool is_aggregate(const armci_hdl_t* hdl) noexcept;
/// Records a contiguous put or get under an aggregate handle (moved at ARMCI_Wait).
void aggregate(armci_hdl_t* hdl, bool is_put, const void* src, void* dst, std::size_t bytes, int proc);
/// Completes every issued nonblocking operation to `proc` / to anyone (aggregates move at Wait).
void complete_target(int proc);
void complete_all();
void requests_finalize();

// ---- mutexes (mutex.cpp) ---------------------------------------------------------------------
void mutexes_finalize();

}  // namespace armada::armci
