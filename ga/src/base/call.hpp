// One GA entry point's frame, shared by every concern of ga/: the GA_Error-style abort every entry
// point ends in when its arguments are bad, the names an error message gives (the C function, and
// the Fortran one calling it), and the scope a call runs in.
#pragma once

#include <string>
#include <type_traits>
#include <vector>

#include "armada/arrays/arrays.hpp"
#include "armada/rma/collectives.hpp"
#include "armada/rma/error.hpp"
#include "ga.h"

namespace armada::ga {

using arrays::Array;
using arrays::Coord;
using arrays::ElemType;
using arrays::Index;

/// Prints "GA_Error: <message>" on this rank and ends the whole job (GA programs expect a
/// failed call not to return).
[[noreturn]] void abort_job(const std::string& message, int code);

/// Throws rma::InvalidArgument for GA function `function` (caught by guarded()).
[[noreturn]] void bad_argument(const char* function, const std::string& argument, const std::string& value,
                               const std::string& reason);

/// Ends the job with the message of the exception being handled, naming `function`.
[[noreturn]] void abort_current_exception(const char* function) noexcept;

/// While alive, names the entry point of GA's Fortran API (ga/fortran) that is calling the C
/// API on this thread: an error the C API finds then ends "(in <Fortran name>, GA's Fortran API)".
class FortranCaller {
 public:
  explicit FortranCaller(const char* name);
  ~FortranCaller();
  FortranCaller(const FortranCaller&) = delete;
  FortranCaller& operator=(const FortranCaller&) = delete;

 private:
  const char* outer_;
};

/// One running GA entry point on this thread. The regular copies of block-cyclic arrays that
/// the call made (array(), regular_copy) are copied back and freed when it ends.
class CallScope {
 public:
  explicit CallScope(const char* function) noexcept;
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;
  /// Copies this call's regular copies back into their block-cyclic arrays (collective).
  void finish() {
    if (!copied_.empty()) copy_back_all();
  }
  /// The innermost running call (nullptr outside any).
  static CallScope* current() noexcept;
  void add_copy(int g_a) { copied_.push_back(g_a); }

 private:
  void copy_back_all();
  rma::EntryPoint entry_;  // named when members are in different collective calls
  CallScope* outer_;
  std::vector<int> copied_;  // handles of the block-cyclic arrays with a regular copy
};

/// Runs `body` (one GA entry point); any error aborts the job with its message.
template <class F>
auto guarded(const char* function, F&& body) noexcept -> decltype(body()) {
  try {
    CallScope scope(function);
    if constexpr (std::is_void_v<decltype(body())>) {
      body();
      scope.finish();
    } else {
      auto result = body();
      scope.finish();
      return result;
    }
  } catch (...) {
    abort_current_exception(function);
  }
}

/// Throws StateError unless GA_Initialize was called.
void require_initialized(const char* function);

}  // namespace armada::ga
