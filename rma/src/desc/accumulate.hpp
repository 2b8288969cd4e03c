// Accumulate kernels: dst[i] += scale * src[i] on local memory, for the six element types.
// Locking (atomicity per element) is the caller's business; these only compute.
#pragma once

#include <cstddef>

#include "armada/rma/types.hpp"

namespace armada::rma::detail {

/// `bytes` must be a multiple of the element size (the public API checks it). The pointers may
/// have any alignment: elements their type does not align go through aligned copies.
void accumulate(AccType type, const void* scale, const std::byte* src, std::byte* dst,
                std::size_t bytes) noexcept;

}  // namespace armada::rma::detail
