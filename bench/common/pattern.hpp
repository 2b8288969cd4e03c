// Data patterns for the benchmarks' verification: a buffer is filled with 64-bit words that
// depend on the word's index and a seed, so a transfer that moved the wrong bytes, moved them to
// the wrong place, or did not move them at all is detected when the other side checks.
#pragma once

#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

namespace armada::bench {

/// Word `index` of the pattern with `seed` (a mixing function: neighbouring words differ in
/// about half their bits, and no seed gives an all-zero buffer).
inline std::uint64_t pattern_word(std::uint64_t index, std::uint64_t seed) noexcept {
  std::uint64_t x = (index + 1) * 0xD1B54A32D192ED03ull ^ (seed + 0x8CB92BA72F3D8DD7ull) * 0xAEF17502108EF2D9ull;
  x ^= x >> 32;
  x *= 0x9FB21C651E98DF25ull;
  x ^= x >> 29;
  return x | 1;  // never zero
}

/// The 64-bit word at p (any alignment), and a store of one.
inline std::uint64_t load_word(const std::byte* p) noexcept {
  std::uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline void store_word(std::byte* p, std::uint64_t v) noexcept { std::memcpy(p, &v, 8); }

/// Fills `bytes` (a multiple of 8) at p: word i is pattern_word(first + i, seed).
inline void fill_pattern(std::byte* p, std::size_t bytes, std::uint64_t seed, std::size_t first = 0) noexcept {
  for (std::size_t i = 0; i < bytes / 8; ++i) {
    const std::uint64_t w = pattern_word(first + i, seed);
    std::memcpy(p + 8 * i, &w, 8);
  }
}

/// Empty if p holds what fill_pattern(p, bytes, seed, first) wrote; otherwise where it differs.
inline std::string check_pattern(const std::byte* p, std::size_t bytes, std::uint64_t seed, std::size_t first = 0) {
  for (std::size_t i = 0; i < bytes / 8; ++i) {
    std::uint64_t got;
    std::memcpy(&got, p + 8 * i, 8);
    const std::uint64_t want = pattern_word(first + i, seed);
    if (got != want) {
      char text[160];
      std::snprintf(text, sizeof text, "word %zu (byte %zu) is 0x%016" PRIx64 ", expected 0x%016" PRIx64, i, 8 * i,
                    got, want);
      return text;
    }
  }
  return {};
}

/// Empty if the `bytes` at p are all zero; otherwise the first non-zero byte.
inline std::string check_zero(const std::byte* p, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i)
    if (p[i] != std::byte{0}) return "byte " + std::to_string(i) + " is not 0";
  return {};
}

}  // namespace armada::bench
