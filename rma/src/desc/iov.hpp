// I/O vector descriptors: checking, and the overlap test for destinations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "armada/rma/transfer.hpp"

namespace armada::rma::detail {

/// What one pass over an I/O vector operation learns.
struct IovScan {
  std::size_t segments = 0;
  std::size_t total_bytes = 0;
  std::size_t smallest = SIZE_MAX;         // smallest segment size
  std::uintptr_t remote_lo = UINTPTR_MAX;  // span of the remote side
  std::uintptr_t remote_hi = 0;
  std::uintptr_t dst_lo = UINTPTR_MAX;     // span of the destinations
  std::uintptr_t dst_hi = 0;
  bool dst_ascending = true;               // destinations ascending and disjoint, in order
};

/// Checks the sets of an I/O vector operation (src and dst of equal length, a nonzero segment
/// size for a nonempty set, no null pointer; InvalidArgument naming `op` otherwise) and, in the
/// same pass, measures them. `remote_is_dst`: a put or accumulate (else a get).
IovScan scan_iov(const char* op, std::span<const IoSet> sets, bool remote_is_dst);

/// Finds two segments, over all sets, whose destination ranges overlap; `scan` is scan_iov's
/// result for `sets`. O(1) when the destinations were ascending, O(n + span) with a bitmap
/// otherwise, O(n log n) to confirm a suspicion. Returns false if none overlap; else fills
/// (first, second) with their addresses.
bool find_destination_overlap(std::span<const IoSet> sets, const IovScan& scan,
                              std::uintptr_t& first, std::uintptr_t& second);

/// Whether any two segments overlap on one side (dst_side: destinations, else sources):
/// O(n) when that side is ascending, O(n log n) otherwise. The mpi-rma transport's conflict
/// check on the remote side (MPI forbids overlapping target entries in one operation).
bool side_overlaps(std::span<const IoSet> sets, bool dst_side);

}  // namespace armada::rma::detail
