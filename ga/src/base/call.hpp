// One GA entry point's frame, shared by every concern of ga/: the GA_Error-style abort every entry
// point ends in when its arguments are bad, and the names an error message gives (the C function,
// and the Fortran one calling it).
#pragma once

#include <string>

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

/// Runs `body` (one GA entry point, named to the collective calls it makes); any error aborts
/// the job with its message.
template <class F>
auto guarded(const char* function, F&& body) noexcept -> decltype(body()) {
  try {
    const rma::EntryPoint entry(function);
    return body();
  } catch (...) {
    abort_current_exception(function);
  }
}

/// Throws StateError unless GA_Initialize was called.
void require_initialized(const char* function);

}  // namespace armada::ga
