// Seeds of randomized tests: reproducible by default, replaceable from the environment, and
// shown with every failure so that a failing draw can be repeated.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>

namespace armada::test {

/// ARMADA_TEST_SEED (the same on every rank) when set, else `fallback`. A test derives all its
/// generators from this value and wraps its body in SEED_TRACE(seed).
inline std::uint64_t test_seed(std::uint64_t fallback) {
  if (const char* s = std::getenv("ARMADA_TEST_SEED")) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s, &end, 10);
    if (end != s && *end == '\0') return v;
    ADD_FAILURE() << "ARMADA_TEST_SEED='" << s << "' is not a decimal integer; using " << fallback;
  }
  return fallback;
}

}  // namespace armada::test

/// Adds "seed N (repeat with ARMADA_TEST_SEED=N)" to every failure in the enclosing scope.
#define SEED_TRACE(seed) \
  SCOPED_TRACE("seed " + std::to_string(seed) + " (repeat with ARMADA_TEST_SEED=" + std::to_string(seed) + ")")
