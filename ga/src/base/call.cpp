// GA_Error's abort and the message every failed GA call ends with (base/call.hpp).
#include <cstdio>
#include <cstdlib>
#include <new>
#include <string>

#include <mpi.h>

#include "base/call.hpp"
#include "base/error_codes.hpp"

namespace armada::ga {

namespace {
thread_local const char* t_fortran_caller = nullptr;
}  // namespace

FortranCaller::FortranCaller(const char* name) : outer_(t_fortran_caller) { t_fortran_caller = name; }
FortranCaller::~FortranCaller() { t_fortran_caller = outer_; }

[[noreturn]] void abort_job(const std::string& message, int code) {
  std::fprintf(stderr, "GA_Error: %s\n", message.c_str());
  std::fflush(nullptr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, code ? code : 1);
  std::_Exit(code ? code : 1);
}

[[noreturn]] void bad_argument(const char* function, const std::string& argument, const std::string& value,
                               const std::string& reason) {
  throw rma::InvalidArgument(function, argument, value, reason);
}

[[noreturn]] void abort_current_exception(const char* function) noexcept {
  const int code = abort_codes[rma::current_error_kind()];
  // An error found by the layer below names its own operation: the message says which GA call.
  std::string message = rma::current_error_message(function);
  if (message.empty()) message = function;  // no memory for the message
  if (t_fortran_caller && std::string(t_fortran_caller) != function)
    message += std::string(" (in ") + t_fortran_caller + ", GA's Fortran API)";
  abort_job(message, code);
}

}  // namespace armada::ga
