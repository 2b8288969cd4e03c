// The error vocabulary of rma/src: the public exceptions' constructors and the throw_* helpers
// every folder uses (common/check.hpp), with the "[rank N] " prefix of their messages.
#include <atomic>
#include <cstdio>
#include <cstring>
#include <string>

#include "armada/rma/error.hpp"
#include "armada/rma/types.hpp"
#include "common/check.hpp"
#include "common/mpi_errors.hpp"

namespace armada::rma {

Error::Error(std::string operation, const std::string& message)
    : std::runtime_error(message), operation_(std::move(operation)) {}

InvalidArgument::InvalidArgument(std::string operation, std::string argument, std::string value,
                                 const std::string& reason)
    : Error(operation, detail::rank_prefix() + operation + ": argument '" + argument + "' = " +
                           value + ": " + reason),
      argument_(std::move(argument)),
      value_(std::move(value)) {}

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

std::string rank_prefix() {
  const int rank = g_message_rank.load(std::memory_order_relaxed);
  return rank >= 0 ? "[rank " + std::to_string(rank) + "] " : std::string();
}

void throw_invalid(const char* op, const char* argument, const std::string& value,
                   const std::string& reason) {
  throw InvalidArgument(op, argument, value, reason);
}

void throw_state(const char* op, const std::string& reason) {
  throw StateError(op, rank_prefix() + op + ": " + reason);
}

void throw_system(const char* op, const std::string& what, int errnum) {
  throw SystemError(op, rank_prefix() + op + ": " + what + ": " + std::strerror(errnum));
}

void check_mpi(const char* op, const std::string& what, int code) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  throw SystemError(op, rank_prefix() + op + ": " + what + ": " +
                            (length ? std::string(text, static_cast<std::size_t>(length)) : "MPI error " + std::to_string(code)));
}

void throw_unsupported(const char* op, const std::string& reason) {
  throw Unsupported(op, rank_prefix() + op + ": " + reason);
}

std::string to_hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

}  // namespace detail
}  // namespace armada::rma
