// Errors raised by the public C++ API of armada::rma.
//
// Every error is detected before any byte moves, and its message names the rank that found it,
// the operation, the argument and the offending value, e.g.
//   [rank 1] rma::put: argument 'target' = 7 is not a rank of the world group (size 4)
#pragma once

#include "armada/rma/cxx20.hpp"  // first: one clear error without C++20

#include <stdexcept>
#include <string>

namespace armada::rma {

/// Base of every exception thrown by armada::rma.
class Error : public std::runtime_error {
 public:
  Error(std::string operation, const std::string& message);
  /// The API operation that failed, e.g. "rma::put_strided".
  const std::string& operation() const noexcept { return operation_; }

 private:
  std::string operation_;
};

/// An argument was out of range or inconsistent; nothing was transferred.
class InvalidArgument : public Error {
 public:
  InvalidArgument(std::string operation, std::string argument, std::string value,
                  const std::string& reason);
  const std::string& argument() const noexcept { return argument_; }
  const std::string& value() const noexcept { return value_; }

 private:
  std::string argument_;
  std::string value_;
};

/// The runtime is in the wrong state for the call (not initialized, initialized twice, ...).
class StateError : public Error {
 public:
  using Error::Error;
};

/// The operation has no path to the target in this configuration (e.g. no inter-node transport).
class Unsupported : public Error {
 public:
  using Error::Error;
};

/// An operating-system or MPI call failed; the message carries its error text.
class SystemError : public Error {
 public:
  using Error::Error;
};

}  // namespace armada::rma
