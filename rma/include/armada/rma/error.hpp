// Errors raised by the public C++ API of armada::rma, and the error vocabulary every layer above
// shares (arrays, linalg, ga, the C APIs, the Fortran module and the Python binding).
//
// Every error is detected before any byte moves, and its message names the rank that found it,
// the operation, the argument and the offending value, e.g.
//   [rank 1] rma::put: argument 'target' = 7 is not a rank of the world group (size 4)
// Every error has a kind (ErrorKind); each C API turns kinds into its own return codes through
// one ErrorCodeTable, never by the exception's type or message.
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <array>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace armada::rma {

/// What went wrong, in terms every layer and every C API shares.
enum class ErrorKind : int {
  argument,               ///< an argument is out of range or inconsistent (InvalidArgument)
  handle,                 ///< an unknown or retired handle: array, group, request (InvalidArgument)
  type,                   ///< an element type that does not suit the call (InvalidArgument)
  state,                  ///< the runtime or an object is in the wrong state (StateError)
  unsupported,            ///< no path for the operation in this configuration (Unsupported)
  system,                 ///< the OS or MPI refused, or memory ran out (SystemError)
  internal,               ///< a broken invariant of Armada itself (ARMADA_ASSERT): a bug
  singular,               ///< linalg: an LU pivot is exactly zero
  not_positive_definite,  ///< linalg: a Cholesky minor is not positive definite
  no_convergence,         ///< linalg: the eigensolver did not converge
};
inline constexpr std::size_t error_kind_count = static_cast<std::size_t>(ErrorKind::no_convergence) + 1;

/// "argument", "handle", ..., "no_convergence".
const char* to_string(ErrorKind kind) noexcept;

/// The prefix of every message: "[rank 3] " while the runtime is up, "" before and after.
std::string message_prefix();
/// A complete message: "[rank 3] <operation>: <text>". Every layer builds its messages here.
std::string error_message(std::string_view operation, std::string_view text);

/// Base of every exception thrown by armada and the layers above it.
class Error : public std::runtime_error {
 public:
  /// `message` is complete (error_message builds one); the kind is `internal`.
  Error(std::string operation, const std::string& message);
  Error(ErrorKind kind, std::string operation, const std::string& message);
  /// The API operation that failed, e.g. "rma::put_strided".
  const std::string& operation() const noexcept { return operation_; }
  ErrorKind kind() const noexcept { return kind_; }

 private:
  std::string operation_;
  ErrorKind kind_;
};

/// An argument was out of range or inconsistent; nothing was transferred. Its kind is
/// `argument`, or `handle` / `type` when the argument is an unknown handle or a wrong element type.
class InvalidArgument : public Error {
 public:
  InvalidArgument(std::string operation, std::string argument, std::string value, const std::string& reason,
                  ErrorKind kind = ErrorKind::argument);
  const std::string& argument() const noexcept { return argument_; }
  const std::string& value() const noexcept { return value_; }

 private:
  std::string argument_;
  std::string value_;
};

/// The runtime is in the wrong state for the call (not initialized, initialized twice, ...).
class StateError : public Error {
 public:
  StateError(std::string operation, const std::string& message)
      : Error(ErrorKind::state, std::move(operation), message) {}
};

/// The operation has no path to the target in this configuration (e.g. no inter-node transport).
class Unsupported : public Error {
 public:
  Unsupported(std::string operation, const std::string& message)
      : Error(ErrorKind::unsupported, std::move(operation), message) {}
};

/// An operating-system or MPI call failed; the message carries its error text.
class SystemError : public Error {
 public:
  SystemError(std::string operation, const std::string& message)
      : Error(ErrorKind::system, std::move(operation), message) {}
};

/// Inside a catch block: the kind of the exception being handled. An Error's kind(); `system`
/// for std::bad_alloc; `internal` for anything else.
ErrorKind current_error_kind() noexcept;

/// Inside a catch block: the message of the exception being handled, for a C API's `function`:
/// an Error's own, followed by " (in function)" when it names another operation (an error the
/// layer below found); else error_message(function, ...) of "out of memory", the exception's
/// what(), or "unknown exception". "" when there is no memory for the message.
std::string current_error_message(const char* function) noexcept;

/// One C API's return codes, one row per ErrorKind in the enum's order (checked when the table
/// is compiled): the one place where an API decides its code for an error.
///   constexpr rma::ErrorCodeTable<int> codes{{{{ErrorKind::argument, EARG}, ...}}};
///   return codes[rma::current_error_kind()];
/// An API whose codes extend another's says only what differs: base.with(kind, code).
template <class Code>
class ErrorCodeTable {
 public:
  struct Row {
    ErrorKind kind;
    Code code;
  };
  consteval ErrorCodeTable(const std::array<Row, error_kind_count>& rows) : rows_(rows) {
    for (std::size_t i = 0; i < error_kind_count; ++i)
      if (static_cast<std::size_t>(rows[i].kind) != i)
        throw "ErrorCodeTable: one row per ErrorKind, in the enum's order";  // a compile error
  }
  /// This table with `kind`'s row changed to `code`.
  consteval ErrorCodeTable with(ErrorKind kind, Code code) const {
    std::array<Row, error_kind_count> rows = rows_;
    rows[static_cast<std::size_t>(kind)].code = code;
    return ErrorCodeTable(rows);
  }
  constexpr Code operator[](ErrorKind kind) const noexcept {
    const auto i = static_cast<std::size_t>(kind);
    return rows_[i < error_kind_count ? i : static_cast<std::size_t>(ErrorKind::internal)].code;
  }

 private:
  std::array<Row, error_kind_count> rows_;
};

}  // namespace armada::rma
