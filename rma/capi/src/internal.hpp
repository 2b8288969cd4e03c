// Internals shared by the files of the ARMCI C API: the exception boundary, the PARMCI/ARMCI
// twin macro, argument conversion, and what each area offers the others (runtime, groups,
// requests, mutexes). Built on the public headers of armada::rma only.
#pragma once

// The library is compiled with hidden visibility; everything the C headers declare is the ABI.
#pragma GCC visibility push(default)
#include <armci.h>
#include <armcix.h>
#pragma GCC visibility pop

#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>

#include "armada/rma/rma.hpp"

namespace armada::armci {

namespace rma = armada::rma;

// ---- the exception boundary (error.cpp) ------------------------------------------------------
// No exception may cross into C. Every entry point runs its body in one of the guards below;
// an error is reported once (to the hook, or printed before the job aborts) and becomes the
// call's error value.

/// Reports the exception being handled as a failure of ARMCI call `function` and returns its
/// ARMADA_ARMCI_E* code. Returns only if an error hook is installed. Call inside a catch block.
int report_current_exception(const char* function) noexcept;

/// Calls returning int, 0 on success: 0, or the error's code.
template <class F>
int guard(const char* function, F&& body) noexcept {
  try {
    std::forward<F>(body)();
    return 0;
  } catch (...) {
    return report_current_exception(function);
  }
}

/// Calls returning a value: the body's value, or `on_error`.
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
// it, so a tool (or the program) that defines ARMCI_X itself wins and can forward to PARMCI_X.
//   ARMCI_TWIN(int, ARMCI_Put, (void* src, ...)) { body }  defines PARMCI_Put and ARMCI_Put.
#define ARMADA_WEAK_ALIAS(name, target) \
  extern "C" decltype(target) name __attribute__((weak, alias(#target)));
#define ARMCI_TWIN(ret, name, params) \
  ARMADA_WEAK_ALIAS(name, P##name)    \
  extern "C" ret P##name params

// ---- argument checks (error.cpp) -------------------------------------------------------------

/// Throws rma::InvalidArgument naming ARMCI call `function`, the argument and its value.
[[noreturn]] void bad_argument(const char* function, const std::string& argument, const std::string& value,
                               const std::string& reason);
/// Throws rma::StateError for ARMCI call `function`.
[[noreturn]] void bad_state(const char* function, const std::string& reason);

/// A byte count, length or stride given as a C integer; negative values are rejected.
template <class I>
std::size_t to_size(const char* function, const std::string& argument, I value) {
  if constexpr (std::is_signed_v<I>) {
    if (value < 0) bad_argument(function, argument, std::to_string(value), "must not be negative");
  }
  return static_cast<std::size_t>(value);
}

/// A pointer argument that must not be null.
template <class T>
T* not_null(const char* function, const std::string& argument, T* pointer) {
  if (!pointer) bad_argument(function, argument, "NULL", "must not be null");
  return pointer;
}

/// "name[i]", for messages about one element of an array argument.
inline std::string element(const char* name, std::size_t i) { return std::string(name) + "[" + std::to_string(i) + "]"; }

/// A process argument that must be a world rank (checks that ARMCI is initialized first).
void check_proc(const char* function, const char* argument, int proc);

/// The accumulate type of an ARMCI_ACC_* code.
rma::AccType acc_type(const char* function, int datatype);

/// Throws rma::SystemError if an MPI call did not return MPI_SUCCESS (our communicators
/// return errors instead of aborting, so that the message names the ARMCI call).
void check_mpi(const char* function, const char* mpi_call, int rc);

// ---- data movement (onesided.cpp) ------------------------------------------------------------

enum class Kind { Put, Get, Acc };

/// Sets the flag (not null) once every put before it to `proc` is complete there (armci_notify;
/// Put_flag and PutS_flag use rma::put_notify).
void set_flag(int* flag, int value, int proc);

// ---- runtime (init.cpp) ----------------------------------------------------------------------

/// Throws rma::StateError unless ARMCI is initialized.
void require_init(const char* function);

// ---- groups (groups.cpp) ---------------------------------------------------------------------

/// What an ARMCI_Group names: the rma group and ARMCI's own communicator for it (the one the
/// ARMCI_Group value carries, for the message layer and the program's own MPI calls).
struct GroupInfo {
  rma::Group group{nullptr};
  MPI_Comm comm = MPI_COMM_NULL;
};

/// The group an ARMCI_Group names; the caller must be a member.
GroupInfo group_of(const char* function, const char* argument, const ARMCI_Group* group);
/// The world group (collectives of the ARMCI world) and the default group (group creation).
GroupInfo world_group(const char* function);
GroupInfo default_group(const char* function);
/// A copy of the world ARMCI_Group (for mutex handles on the world).
ARMCI_Group world_group_value();
void groups_init();
void groups_finalize();

// ---- nonblocking requests (handles.cpp) ------------------------------------------------------

/// Records a started operation under `hdl` (its request), or as implicit if `hdl` is null.
void track(armci_hdl_t* hdl, rma::Handle operation);
/// Runs `blocking` for a blocking call; for a nonblocking one runs `start` (which returns the
/// rma::Handle of a started operation) and tracks it under `hdl`.
template <class Blocking, class Start>
void issue(bool nonblocking, armci_hdl_t* hdl, Blocking&& blocking, Start&& start) {
  if (nonblocking)
    track(hdl, std::forward<Start>(start)());
  else
    std::forward<Blocking>(blocking)();
}
/// True if `hdl` is marked with ARMCI_SET_AGGREGATE_HANDLE.
bool is_aggregate(const armci_hdl_t* hdl) noexcept;
/// Records a contiguous put or get under an aggregate handle (moved at ARMCI_Wait or a fence).
void aggregate(const char* function, armci_hdl_t* hdl, bool is_put, const void* src, void* dst,
               std::size_t bytes, int proc);
/// Completes every nonblocking operation issued to `proc` / to anyone.
void complete_target(int proc);
void complete_all();
void requests_finalize();

// ---- mutexes (mutex.cpp) ---------------------------------------------------------------------
void mutexes_finalize();

// ---- notifications (notify.cpp) ---------------------------------------------------------------
/// Allocates the notification slots (collective, inside ARMCI_Init).
void notify_init();
/// Frees them (collective, inside the last ARMCI_Finalize).
void notify_finalize();

}  // namespace armada::armci
