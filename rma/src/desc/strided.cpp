#include "desc/strided.hpp"

#include <cstring>
#include <string>

#include "common/check.hpp"

namespace armada::rma::detail {

std::size_t Shape::bytes() const noexcept {
  std::size_t n = count[0];
  for (int l = 1; l <= levels; ++l) n *= count[l];
  return n;
}

std::size_t Shape::runs() const noexcept {
  std::size_t n = 1;
  for (int l = 1; l <= levels; ++l) n *= count[l];
  return n;
}

std::size_t extent(const Shape& s, bool dst_side) noexcept {
  const std::size_t* stride = dst_side ? s.dst_stride : s.src_stride;
  std::size_t e = s.count[0];
  for (int l = 0; l < s.levels; ++l) e += stride[l] * (s.count[l + 1] - 1);
  return e;
}

namespace {

std::string list(std::span<const std::size_t> v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "}";
}

// a * b, or throws when it does not fit in size_t.
std::size_t mul_checked(const char* op, const char* arg, std::span<const std::size_t> v,
                        std::size_t a, std::size_t b) {
  std::size_t r;
  if (__builtin_mul_overflow(a, b, &r))
    throw_invalid(op, arg, list(v), "the described size overflows a 64-bit byte count");
  return r;
}

}  // namespace

Shape make_shape(const char* op, std::span<const std::size_t> src_stride,
                 std::span<const std::size_t> dst_stride, std::span<const std::size_t> count) {
  if (count.empty())
    throw_invalid(op, "count", "{}", "needs at least count[0], the contiguous byte count");
  const std::size_t levels = count.size() - 1;
  if (levels > static_cast<std::size_t>(kMaxLevels))
    throw_invalid(op, "stride_levels", std::to_string(levels),
                  "at most " + std::to_string(kMaxLevels) + " stride levels are supported");
  if (src_stride.size() != levels)
    throw_invalid(op, "src_stride", list(src_stride),
                  "must hold one stride per level (" + std::to_string(levels) + ")");
  if (dst_stride.size() != levels)
    throw_invalid(op, "dst_stride", list(dst_stride),
                  "must hold one stride per level (" + std::to_string(levels) + ")");
  Shape s;
  s.levels = static_cast<int>(levels);
  for (std::size_t l = 0; l <= levels; ++l) {
    if (count[l] == 0)
      throw_invalid(op, "count", list(count),
                    "count[" + std::to_string(l) + "] is 0; every count must be at least 1");
    s.count[l] = count[l];
  }
  // Each side's stride at level l must step over everything level l-1 spans, as in a
  // sub-array of a row-major or column-major array; otherwise runs overlap or interleave.
  std::size_t src_span = count[0], dst_span = count[0];
  for (std::size_t l = 0; l < levels; ++l) {
    s.src_stride[l] = src_stride[l];
    s.dst_stride[l] = dst_stride[l];
    if (count[l + 1] > 1 && src_stride[l] < src_span)
      throw_invalid(op, "src_stride", list(src_stride),
                    "src_stride[" + std::to_string(l) + "] = " + std::to_string(src_stride[l]) +
                        " is smaller than the " + std::to_string(src_span) +
                        " bytes the levels below it span");
    if (count[l + 1] > 1 && dst_stride[l] < dst_span)
      throw_invalid(op, "dst_stride", list(dst_stride),
                    "dst_stride[" + std::to_string(l) + "] = " + std::to_string(dst_stride[l]) +
                        " is smaller than the " + std::to_string(dst_span) +
                        " bytes the levels below it span");
    const std::size_t src_more = mul_checked(op, "src_stride", src_stride, src_stride[l], count[l + 1] - 1);
    const std::size_t dst_more = mul_checked(op, "dst_stride", dst_stride, dst_stride[l], count[l + 1] - 1);
    if (__builtin_add_overflow(src_span, src_more, &src_span) ||
        __builtin_add_overflow(dst_span, dst_more, &dst_span))
      throw_invalid(op, "count", list(count), "the described extent overflows a 64-bit byte count");
  }
  mul_checked(op, "count", count, s.runs(), count[0]);
  normalize(s);
  return s;
}

void normalize(Shape& s) noexcept {
  // Drop levels that repeat once: their strides do not matter.
  int out = 0;
  for (int l = 0; l < s.levels; ++l) {
    if (s.count[l + 1] == 1) continue;
    s.count[out + 1] = s.count[l + 1];
    s.src_stride[out] = s.src_stride[l];
    s.dst_stride[out] = s.dst_stride[l];
    ++out;
  }
  s.levels = out;
  // Merge level 1 into the contiguous run while both sides are dense.
  while (s.levels > 0 && s.src_stride[0] == s.count[0] && s.dst_stride[0] == s.count[0]) {
    s.count[0] *= s.count[1];
    for (int l = 1; l < s.levels; ++l) {
      s.count[l] = s.count[l + 1];
      s.src_stride[l - 1] = s.src_stride[l];
      s.dst_stride[l - 1] = s.dst_stride[l];
    }
    --s.levels;
  }
  // Merge higher levels that continue the level below them on both sides.
  for (int l = 1; l < s.levels;) {
    if (s.src_stride[l] == s.src_stride[l - 1] * s.count[l] &&
        s.dst_stride[l] == s.dst_stride[l - 1] * s.count[l]) {
      s.count[l] *= s.count[l + 1];
      for (int k = l + 1; k < s.levels; ++k) {
        s.count[k] = s.count[k + 1];
        s.src_stride[k - 1] = s.src_stride[k];
        s.dst_stride[k - 1] = s.dst_stride[k];
      }
      --s.levels;
    } else {
      ++l;
    }
  }
}

namespace {
template <std::size_t N>
void copy_fixed(const Shape& s, const std::byte* src, std::byte* dst) noexcept {
  for_each_run(s, src, dst, [](const std::byte* a, std::byte* b, std::size_t) { std::memcpy(b, a, N); });
}
}  // namespace

void copy_strided(const Shape& s, const std::byte* src, std::byte* dst) noexcept {
  if (s.levels == 0) {
    std::memcpy(dst, src, s.count[0]);
    return;
  }
  switch (s.count[0]) {
    case 4: copy_fixed<4>(s, src, dst); return;
    case 8: copy_fixed<8>(s, src, dst); return;
    case 16: copy_fixed<16>(s, src, dst); return;
    case 32: copy_fixed<32>(s, src, dst); return;
    case 64: copy_fixed<64>(s, src, dst); return;
    default:
      for_each_run(s, src, dst, [](const std::byte* a, std::byte* b, std::size_t n) { std::memcpy(b, a, n); });
  }
}

}  // namespace armada::rma::detail
