// Argument checking for the public API. Every check runs before any byte moves and throws
// InvalidArgument naming the rank, the operation, the argument and the value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "armada/rma/error.hpp"

namespace armada::rma::detail {

/// "[rank 3] " once the runtime is up, "" before.
std::string rank_prefix();

[[noreturn]] void throw_invalid(const char* op, const char* argument, const std::string& value,
                                const std::string& reason);
[[noreturn]] void throw_state(const char* op, const std::string& reason);
[[noreturn]] void throw_system(const char* op, const std::string& what, int errnum);
[[noreturn]] void throw_unsupported(const char* op, const std::string& reason);

std::string to_hex(const void* p);

/// Throws StateError unless the runtime is initialized.
void require_init(const char* op);

}  // namespace armada::rma::detail
