#include "transport/transport.hpp"

namespace armada::rma::detail {

// Out of line: the 200-byte Shape it builds would otherwise enlarge the frame of every
// override that falls back to it.
std::uint64_t Transport::transfer_contiguous(OpKind kind, AccType type, const void* scale, std::byte* local,
                                             std::byte* remote, std::size_t bytes, const Slice& slice, int target,
                                             bool blocking) {
  const StridedOp op{kind, type, scale, local, remote, &slice, target, Shape::single_run(bytes)};
  return strided(op, blocking);
}

}  // namespace armada::rma::detail
