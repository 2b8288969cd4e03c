#include "common/sizes.hpp"

#include "armada/programs/options.hpp"

#include <algorithm>
#include <cctype>
#include <limits>
#include <stdexcept>

namespace armada::bench {

namespace {

[[noreturn]] void bad(const std::string& option, const std::string& text, const std::string& why) {
  throw std::invalid_argument(option + ": '" + text + "' " + why);
}

}  // namespace

std::size_t parse_size(const std::string& option, const std::string& text) {
  std::size_t i = 0;
  unsigned long long v = 0;
  constexpr unsigned long long kMax = std::numeric_limits<std::size_t>::max();
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    const unsigned digit = static_cast<unsigned>(text[i] - '0');
    if (v > (kMax - digit) / 10) bad(option, text, "is too large");
    v = v * 10 + digit;
    ++i;
  }
  if (i == 0) bad(option, text, "is not a size (expected e.g. 8, 4K, 64KiB, 1M)");
  std::string suffix = text.substr(i);
  for (char& ch : suffix) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  unsigned shift = 0;
  if (suffix.empty() || suffix == "B") shift = 0;
  else if (suffix == "K" || suffix == "KB" || suffix == "KIB") shift = 10;
  else if (suffix == "M" || suffix == "MB" || suffix == "MIB") shift = 20;
  else if (suffix == "G" || suffix == "GB" || suffix == "GIB") shift = 30;
  else bad(option, text, "has an unknown unit '" + text.substr(i) + "' (use K, M or G: powers of 1024)");
  if (v > (kMax >> shift)) bad(option, text, "is too large");
  v <<= shift;
  if (v == 0) bad(option, text, "must be at least 1 byte");
  return static_cast<std::size_t>(v);
}

std::vector<std::size_t> pow2_range(std::size_t lo, std::size_t hi) {
  if (lo == 0) throw std::invalid_argument("size range: the lower bound must be at least 1");
  if (lo > hi)
    throw std::invalid_argument("size range: the lower bound " + std::to_string(lo) + " is above the upper bound " +
                                std::to_string(hi));
  std::size_t p = 1;
  while (p < lo) {
    if (p > std::numeric_limits<std::size_t>::max() / 2) return {};
    p *= 2;
  }
  std::vector<std::size_t> out;
  for (; p <= hi; p *= 2) {
    out.push_back(p);
    if (p > std::numeric_limits<std::size_t>::max() / 2) break;
  }
  return out;
}

std::vector<std::size_t> parse_sizes(const std::string& option, const std::string& text) {
  const std::size_t colon = text.find(':');
  if (colon != std::string::npos) {
    const std::size_t lo = parse_size(option, text.substr(0, colon));
    const std::size_t hi = parse_size(option, text.substr(colon + 1));
    if (lo > hi) bad(option, text, "is an empty range (the lower bound is above the upper bound)");
    auto sizes = pow2_range(lo, hi);
    if (sizes.empty()) bad(option, text, "contains no power of two");
    return sizes;
  }
  std::vector<std::size_t> sizes;
  for (const std::string& item : programs::split_list(option, text)) sizes.push_back(parse_size(option, item));
  return sizes;
}

Rotation::Rotation(std::size_t bytes, std::size_t region, bool enabled, std::size_t max_count) {
  step = bytes < 4096 ? (bytes + 255) / 256 * 256 : (bytes + 4095) / 4096 * 4096;
  if (step == 0) step = 256;
  count = enabled ? std::max<std::size_t>(1, std::min(region / step, max_count)) : 1;
}

}  // namespace armada::bench
