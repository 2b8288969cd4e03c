// The error vocabulary of Armada: the public exceptions' constructors, the kinds, the one place
// that builds messages ("[rank N] op: text") for every layer, ARMADA_ASSERT's report, and the
// throw_* helpers every folder of rma/src uses (common/check.hpp).
#include <atomic>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "armada/rma/assert.hpp"
#include "armada/rma/error.hpp"
#include "armada/rma/types.hpp"
#include "common/check.hpp"
#include "common/mpi_errors.hpp"
#include "common/stall.hpp"

namespace armada::rma {

Error::Error(std::string operation, const std::string& message)
    : Error(ErrorKind::internal, std::move(operation), message) {}

Error::Error(ErrorKind kind, std::string operation, const std::string& message)
    : std::runtime_error(message), operation_(std::move(operation)), kind_(kind) {}

InvalidArgument::InvalidArgument(std::string operation, std::string argument, std::string value,
                                 const std::string& reason, ErrorKind kind)
    : Error(kind, operation, error_message(operation, "argument '" + argument + "' = " + value + ": " + reason)),
      argument_(std::move(argument)),
      value_(std::move(value)) {}

const char* to_string(ErrorKind kind) noexcept {
  switch (kind) {
    case ErrorKind::argument: return "argument";
    case ErrorKind::handle: return "handle";
    case ErrorKind::type: return "type";
    case ErrorKind::state: return "state";
    case ErrorKind::unsupported: return "unsupported";
    case ErrorKind::system: return "system";
    case ErrorKind::internal: return "internal";
    case ErrorKind::singular: return "singular";
    case ErrorKind::not_positive_definite: return "not_positive_definite";
    case ErrorKind::no_convergence: return "no_convergence";
  }
  return "unknown";
}

ErrorKind current_error_kind() noexcept {
  try {
    throw;
  } catch (const Error& e) {
    return e.kind();
  } catch (const std::bad_alloc&) {
    return ErrorKind::system;
  } catch (...) {
    return ErrorKind::internal;
  }
}

std::string current_error_message(const char* function) noexcept {
  try {
    try {
      throw;
    } catch (const Error& e) {
      std::string message = e.what();
      if (e.operation() != function) message += std::string(" (in ") + function + ")";
      return message;
    } catch (const std::bad_alloc&) {
      return error_message(function, "out of memory");
    } catch (const std::exception& e) {
      return error_message(function, e.what());
    } catch (...) {
      return error_message(function, "unknown exception");
    }
  } catch (...) {  // building the message itself failed (no memory)
    return {};
  }
}

std::string message_prefix() { return detail::rank_prefix(); }

std::string error_message(std::string_view operation, std::string_view text) {
  std::string message = detail::rank_prefix();
  message.append(operation).append(": ").append(text);
  return message;
}

const char* to_string(AccType type) noexcept {
  switch (type) {
    case AccType::Int: return "int";
    case AccType::Long: return "long";
    case AccType::Float: return "float";
    case AccType::Double: return "double";
    case AccType::ComplexFloat: return "complex<float>";
    case AccType::ComplexDouble: return "complex<double>";
  }
  return "unknown";
}

namespace detail {

namespace {
// The world rank messages name, -1 outside init..finalize (the core sets it: set_message_rank).
std::atomic<int> g_message_rank{-1};
}  // namespace

void set_message_rank(int rank) noexcept { g_message_rank.store(rank, std::memory_order_relaxed); }

std::string rank_prefix(int rank) { return "[rank " + std::to_string(rank) + "] "; }

std::string rank_prefix() {
  const int rank = g_message_rank.load(std::memory_order_relaxed);
  return rank >= 0 ? rank_prefix(rank) : std::string();
}

void throw_invalid(const char* op, const char* argument, const std::string& value,
                   const std::string& reason) {
  throw InvalidArgument(op, argument, value, reason);
}

void throw_state(const char* op, const std::string& reason) { throw StateError(op, error_message(op, reason)); }

void throw_system(const char* op, const std::string& what, int errnum) {
  throw SystemError(op, error_message(op, what + ": " + std::strerror(errnum)));
}

void check_mpi(const char* op, const std::string& what, int code) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw SystemError(op, error_message(op, what + ": " +
                                               (length ? std::string(text, static_cast<std::size_t>(length))
                                                       : "MPI error " + std::to_string(code))));
}

void throw_unsupported(const char* op, const std::string& reason) { throw Unsupported(op, error_message(op, reason)); }

void assertion_failed(const char* expression, const char* file, int line, const char* function) {
  throw Error(ErrorKind::internal, function,
              error_message(function, std::string("internal error: assertion '") + expression + "' failed at " + file +
                                          ":" + std::to_string(line) + " (please report this message)"));
}

std::string rank_on_host(int rank, const Topology& topology) {
  return "rank " + std::to_string(rank) + " (host " + topology.host_name(rank) + ")";
}

void warn_stall(const std::string& what, const std::string& peers, int seconds) {
  const std::string text = error_message(what, "no answer for " + std::to_string(seconds) + " s from " + peers +
                                                   ": the process or its host may be lost, or its link cut; still "
                                                   "waiting (ARMADA_STALL_WARN sets when this is said)\n");
  std::fputs(text.c_str(), stderr);
  std::fflush(stderr);
}

std::string to_hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace detail
}  // namespace armada::rma
