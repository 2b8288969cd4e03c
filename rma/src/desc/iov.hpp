// I/O vector descriptors: checking, and the overlap test for destinations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "armada/rma/transfer.hpp"

namespace armada::rma::detail {

/// Checks sets of an I/O vector operation: src and dst of equal length, a nonzero segment size
/// for a nonempty set, no null pointer. Returns the total number of segments.
std::size_t check_iov(const char* op, std::span<const IoSet> sets);

/// Finds two segments, over all sets, whose destination ranges overlap. Runs in O(n) when the
/// destinations are ascending (the common case: scatter to increasing indices), O(n log n)
/// otherwise. Returns false if none overlap; else fills (first, second) with their addresses.
bool find_destination_overlap(std::span<const IoSet> sets, std::uintptr_t& first,
                              std::uintptr_t& second);

}  // namespace armada::rma::detail
