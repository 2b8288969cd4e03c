// ARMADA_ASSERT(expr): an internal invariant of Armada (never a check of user input: those throw
// InvalidArgument naming the argument). When `expr` is false it throws rma::Error of kind
// `internal` whose message names the expression, the file, the line and the function:
//   [rank 1] arrays::get: internal error: assertion 'n >= 0' failed at arrays/src/patch.cpp:88
//   (please report this message)
// Every C API reports that as its internal code. Defining ARMADA_NO_ASSERT compiles the checks
// out (the expression is then not evaluated). Not for threads that must never throw (the
// helper and service threads).
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include "armada/rma/error.hpp"

namespace armada::rma::detail {

/// Throws the Error ARMADA_ASSERT describes.
[[noreturn]] void assertion_failed(const char* expression, const char* file, int line, const char* function);

}  // namespace armada::rma::detail

#ifdef ARMADA_NO_ASSERT
#define ARMADA_ASSERT(expr) static_cast<void>(0)
#else
#define ARMADA_ASSERT(expr)                                                                   \
  (static_cast<bool>(expr) ? static_cast<void>(0)                                             \
                           : ::armada::rma::detail::assertion_failed(#expr, __FILE__, __LINE__, \
                                                                     static_cast<const char*>(__func__)))
#endif
