// The index checks of GA's C interface (base/index.hpp).
#include <cstdint>
#include <string>

#include "base/index.hpp"

namespace armada::ga {

// ---- index checks -----------------------------------------------------------------------------

std::string tuple_text(int n, const Index* v) {
  std::string s = "{";
  for (int d = 0; d < n; ++d) s += (d ? ", " : "") + std::to_string(v[d]);
  return s + "}";
}

template <class I>
arrays::Patch patch(const char* function, const Array& a, const I* lo, const I* hi, const char* lo_name,
                    const char* hi_name) {
  return patch_of(function, a.dims(), lo, hi, lo_name, hi_name);
}

template <class I>
arrays::Patch patch_of(const char* function, const Coord& dims, const I* lo, const I* hi, const char* lo_name,
                       const char* hi_name) {
  const int n = dims.size();
  if (!lo) bad_argument(function, lo_name, "NULL", "an index tuple is required");
  if (!hi) bad_argument(function, hi_name, "NULL", "an index tuple is required");
  // The texts are built only on the failing path: this check runs on every patch operation
  // and NGA_Read_inc (formatting "[d]" on every call made read_inc ~20 % slower).
  const auto at = [](int d) { return "[" + std::to_string(d) + "]"; };
  for (int d = 0; d < n; ++d) {
    if (lo[d] < 0 || lo[d] >= dims[d])
      bad_argument(function, lo_name + at(d), std::to_string(lo[d]),
                   "outside the array (dims " + tuple_text(n, dims.data()) + ", indices from 0)");
    if (hi[d] < lo[d] || hi[d] >= dims[d])
      bad_argument(function, hi_name + at(d), std::to_string(hi[d]),
                   "must be in " + std::string(lo_name) + at(d) + " .. dims" + at(d) + "-1 = " + std::to_string(lo[d]) +
                       " .. " + std::to_string(dims[d] - 1) + " (GA's patches are inclusive)");
  }
  return arrays::Patch{coord(n, lo), upper(n, hi)};
}

template <class I>
Coord leading(const char*, const Array& a, const I* ld) {
  if (!ld || a.ndim() == 1) return {};  // arrays checks the extents against the patch
  return coord(a.ndim() - 1, ld);
}

template arrays::Patch patch<int>(const char*, const Array&, const int*, const int*, const char*, const char*);
template arrays::Patch patch<std::int64_t>(const char*, const Array&, const std::int64_t*, const std::int64_t*,
                                           const char*, const char*);
template arrays::Patch patch_of<int>(const char*, const Coord&, const int*, const int*, const char*, const char*);
template arrays::Patch patch_of<std::int64_t>(const char*, const Coord&, const std::int64_t*, const std::int64_t*,
                                              const char*, const char*);
template Coord leading<int>(const char*, const Array&, const int*);
template Coord leading<std::int64_t>(const char*, const Array&, const std::int64_t*);

}  // namespace armada::ga
