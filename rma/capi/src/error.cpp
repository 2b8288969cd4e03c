// Errors: the exception boundary's reporting, the error hook, ARMCI_Error and the abort path;
// the argument checks every area shares.
#include <time.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <new>
#include <string>

#include "error_codes.hpp"
#include "internal.hpp"

namespace armada::armci {

namespace {

struct Hook {
  armada_armci_error_hook_t function = nullptr;
  void* context = nullptr;
};
std::mutex g_hook_mutex;
Hook g_hook;

Hook current_hook() {
  std::lock_guard lock(g_hook_mutex);
  return g_hook;
}

/// Prints `message` and ends the whole job: ARMCI programs expect a failed call not to return.
[[noreturn]] void abort_job(const std::string& message, int code) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(nullptr);
  // MPI_Abort tears the job down at once, and MPICH's launcher then sometimes drops what it had
  // not yet forwarded from this rank's stderr (1 run in 7 lost the message): give it a moment.
  const timespec pause{0, 200'000'000};
  nanosleep(&pause, nullptr);
  // An abort is never a success: a code whose exit status would read 0 (0, 256, ...) ends the
  // job with status 1 instead. Global Arrays' ARMCI test programs fail with ARMCI_Error(msg, 0),
  // which under ARMCI-MPI's MPI_Abort(comm, 0) ends the job with status 0.
  const int status = (code & 0xff) != 0 ? code : 1;
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized) MPI_Abort(MPI_COMM_WORLD, status);
  std::_Exit(status);
}

/// A deliberate abort by the program (ARMCI_Error, armci_msg_abort): the hook may observe it,
/// but the job ends either way.
[[noreturn]] void abort_on_request(const char* function, const char* text, int code) noexcept {
  std::string message;
  try {
    const std::string code_text = "(code " + std::to_string(code) + ")";
    message = text ? rma::error_message(function, std::string(text) + " " + code_text)
                   : rma::message_prefix() + function + " " + code_text;
  } catch (...) {  // no memory for the message: abort without it
  }
  if (const Hook hook = current_hook(); hook.function) hook.function(function, code, message.c_str(), hook.context);
  abort_job(message, code);
}

}  // namespace

int report_current_exception(const char* function) noexcept {
  const int code = error_codes[rma::current_error_kind()];
  const std::string message = rma::current_error_message(function);  // "": no memory for it
  const Hook hook = current_hook();
  if (!hook.function) abort_job("ARMCI error: " + message, -code);
  hook.function(function, code, message.c_str(), hook.context);
  return code;
}

void bad_argument(const char* function, const std::string& argument, const std::string& value,
                  const std::string& reason) {
  throw rma::InvalidArgument(function, argument, value, reason);
}

void bad_state(const char* function, const std::string& reason) {
  throw rma::StateError(function, rma::error_message(function, reason));
}

void check_proc(const char* function, const char* argument, int proc) {
  require_init(function);
  if (proc < 0 || proc >= rma::size())
    bad_argument(function, argument, std::to_string(proc),
                 "not a process of the ARMCI world (size " + std::to_string(rma::size()) + ")");
}

rma::AccType acc_type(const char* function, int datatype) {
  switch (datatype) {
    case ARMCI_ACC_INT: return rma::AccType::Int;
    case ARMCI_ACC_LNG: return rma::AccType::Long;
    case ARMCI_ACC_FLT: return rma::AccType::Float;
    case ARMCI_ACC_DBL: return rma::AccType::Double;
    case ARMCI_ACC_CPL: return rma::AccType::ComplexFloat;
    case ARMCI_ACC_DCP: return rma::AccType::ComplexDouble;
  }
  bad_argument(function, "datatype", std::to_string(datatype),
               "not an ARMCI_ACC_* type (ARMCI_ACC_INT, _LNG, _FLT, _DBL, _CPL, _DCP)");
}

void check_mpi(const char* function, const char* mpi_call, int rc) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(rc, text, &length) != MPI_SUCCESS) length = 0;
  throw rma::SystemError(function, rma::error_message(function, std::string(mpi_call) + " failed: " +
                                                                     std::string(text, static_cast<std::size_t>(length))));
}

}  // namespace armada::armci

using namespace armada::armci;

armada_armci_error_hook_t armada_armci_set_error_hook(armada_armci_error_hook_t hook, void* context) {
  std::lock_guard lock(g_hook_mutex);
  const armada_armci_error_hook_t previous = g_hook.function;
  g_hook = {hook, context};
  return previous;
}

void ARMCI_Error(const char* msg, int code) {
  abort_on_request("ARMCI_Error", msg ? msg : "(null)", code);
}

void armci_msg_abort(int code) { abort_on_request("armci_msg_abort", nullptr, code); }
