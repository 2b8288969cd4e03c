// Local access and nonblocking requests as GA's C API counts them (patch.cpp).
#pragma once

#include <vector>

#include "base/call.hpp"

namespace armada::ga {

/// Local access as GA's C API counts it (NGA_Access*, NGA_Release*): the access is Armada's
/// (a.access() / a.access_ghosts()), counted per handle; a release with no access of the handle
/// outstanding does nothing, as GA's releases do nothing at all (GA's own gatscat.c releases one
/// access twice), while arrays' own API keeps pairing them.
arrays::LocalView<void> ga_access(Array& a, int g_a, bool ghosts);
/// Every block of a block-cyclic array this process owns (a.access_blocks()), counted as one access.
std::vector<arrays::LocalView<void>> ga_access_blocks(Array& a, int g_a);
void ga_release(Array& a, int g_a, bool update);

/// Keeps an outstanding nonblocking operation under a new GA request handle (NGA_NbWait and
/// NGA_NbTest complete it).
ga_nbhdl_t keep_request(arrays::NbHandle h);

/// GA's ld of a local block: the extents (with ghosts) of dimensions 1 .. ndim-1.
template <class I>
void block_ld(const arrays::LocalView<void>& v, I* ld) {
  if (!ld) return;
  for (int d = 0; d + 1 < v.ndim(); ++d) ld[d] = static_cast<I>(v.stride[d] / v.stride[d + 1]);
}

}  // namespace armada::ga
