// Argument checks and error construction for every folder of rma/src. Every check runs before
// any byte moves and throws InvalidArgument naming the rank, the operation, the argument and the
// value. A leaf: it knows no runtime state (the core tells it the rank, set_message_rank).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "armada/rma/assert.hpp"
#include "armada/rma/error.hpp"

namespace armada::rma::detail {

/// "[rank 3] " once the runtime is up, "" before (rma::message_prefix()).
std::string rank_prefix();
/// "[rank <rank>] ": the one place that writes the prefix.
std::string rank_prefix(int rank);
/// The rank rank_prefix() names: the core sets it at init and -1 at finalize.
void set_message_rank(int rank) noexcept;

[[noreturn]] void throw_invalid(const char* op, const char* argument, const std::string& value,
                                const std::string& reason);
[[noreturn]] void throw_state(const char* op, const std::string& reason);
[[noreturn]] void throw_system(const char* op, const std::string& what, int errnum);
[[noreturn]] void throw_unsupported(const char* op, const std::string& reason);

std::string to_hex(const void* p);

}  // namespace armada::rma::detail
