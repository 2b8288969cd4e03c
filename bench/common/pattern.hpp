// Data patterns for the benchmarks' verification: a buffer is filled with 64-bit words that
// depend on the word's index and a seed, so a transfer that moved the wrong bytes, moved them to
// the wrong place, or did not move them at all is detected when the other side checks.
#pragma once

#include <algorithm>
#include <cinttypes>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

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

/// `count` distinct 8-byte-aligned offsets in [0, region) in a fixed random order, the same on
/// every rank and every run (the scattered slots of the aggregation tests); fewer if the region
/// has fewer slots.
inline std::vector<std::size_t> scatter_offsets(std::size_t count, std::size_t region) {
  std::vector<std::size_t> slots(region / 8);
  for (std::size_t i = 0; i < slots.size(); ++i) slots[i] = 8 * i;
  std::mt19937_64 rng(20261122);
  for (std::size_t i = slots.size(); i > 1; --i) {  // Fisher-Yates with the engine alone (portable)
    const std::size_t j = static_cast<std::size_t>(rng() % i);
    std::swap(slots[i - 1], slots[j]);
  }
  slots.resize(std::min(count, slots.size()));
  return slots;
}

/// Empty if the `bytes` at p are all zero; otherwise the first non-zero byte.
inline std::string check_zero(const std::byte* p, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; ++i)
    if (p[i] != std::byte{0}) return "byte " + std::to_string(i) + " is not 0";
  return {};
}

}  // namespace armada::bench
